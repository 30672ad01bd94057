"""The install's extras that parts of ``sim`` need beyond a battle's (``pyproject.toml``), and
the refusal, before any work, when one is missing.

A battle and a study need only the package; pictures need ``plots`` (matplotlib) and
DataFrames ``frames`` (pandas). ``pip install 'sim[plots,frames]'`` installs both.
"""
from __future__ import annotations

import importlib.util

from sim.errors import InputError

#: The library each of these extras brings.
LIBRARY = {"plots": "matplotlib", "frames": "pandas"}


def installed(extra: str) -> bool:
    """Whether the library of ``extra`` can be imported."""
    return importlib.util.find_spec(LIBRARY[extra]) is not None


def require(extra: str, what: str, *, place: str | None = None) -> None:
    """Refuse ``what`` (an ``InputError`` naming the pip command) when ``extra`` is not installed."""
    if not installed(extra):
        raise InputError(f"{what} needs {LIBRARY[extra]}: pip install 'sim[{extra}]'", place=place)
