"""The install's extras that parts of ``sim`` need beyond a battle's (``pyproject.toml``), and
the refusal, before any work, when one is missing.

A battle and a study need only the package; pictures need ``plots`` (matplotlib) and
DataFrames ``frames`` (pandas). ``pip install 'sim[plots,frames]'`` installs both. The play
board as a page of its own (``sim play``) needs ``notebooks`` (Voilà, the widget and a kernel).
"""
from __future__ import annotations

import importlib.util

from sim.errors import InputError

#: The libraries each of these extras brings (of those missing, the first is named).
LIBRARY: dict[str, tuple[str, ...]] = {
    "plots": ("matplotlib",), "frames": ("pandas",),
    "notebooks": ("voila", "anywidget", "ipywidgets", "ipykernel"),
}


def missing(extra: str) -> str | None:
    """The first library of ``extra`` that cannot be imported, or None."""
    return next((name for name in LIBRARY[extra] if importlib.util.find_spec(name) is None), None)


def installed(extra: str) -> bool:
    """Whether every library of ``extra`` can be imported."""
    return missing(extra) is None


def require(extra: str, what: str, *, place: str | None = None) -> None:
    """Refuse ``what`` (an ``InputError`` naming the pip command) when ``extra`` is not installed."""
    name = missing(extra)
    if name is not None:
        raise InputError(f"{what} needs {name}: pip install 'sim[{extra}]'", place=place)
