"""The front end of a notebook widget: its scripts in ``sim/data``, joined into one module.

Every widget's script comes after ``keys.js``, which keeps the keys that move a widget's
control in it (``keepMovingKeys(root)``).
"""
from __future__ import annotations

from importlib import resources

__all__ = ["data_text", "widget_script"]


def data_text(name: str) -> str:
    """The text of ``sim/data/<name>``."""
    return resources.files("sim").joinpath(f"data/{name}").read_text(encoding="utf-8")


def widget_script(*names: str) -> str:
    """``keys.js`` and the scripts ``names``, in that order, as one module."""
    return "\n".join(data_text(name) for name in ("keys.js", *names))
