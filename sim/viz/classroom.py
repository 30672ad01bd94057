"""Class mode: what sim.viz makes, readable from the back of a room on a projector.

``sim.viz.class_mode(True)`` turns it on for everything sim.viz makes after it (in a
notebook: run it in the first cell); ``class_mode(False)`` turns it off, and
``with sim.viz.class_mode():`` keeps it on for a block only. A replay or a live board can
also be asked for it alone (``replay_fragment(..., classroom=True)``,
``Board(classroom=True)``), and both have a "class mode" button that turns it on and off on
the page. In class mode:

- a replay puts its inspector beside the map, and a board its readout and rolls beside the
  table, whenever the width allows (at 1280 × 720 it does), with their text at least
  ``LEAST_PX`` CSS pixels: their sizes are ``max(16px, 1.15 × JupyterLab's content font
  size)``, so JupyterLab's Presentation Mode (which raises that font size) makes them larger,
  never smaller, and the text drawn on a map keeps that size on the screen however far the map
  is scaled to fit (the page sets it from the map's scale);
- a figure (``plot_map``, ``plot_timeline``, ...) is drawn at most ``SHOWN`` pixels wide (the
  width of a notebook's output at 1280 px, so it is not shrunk to fit) at the resolution
  that puts its smallest text at ``LEAST_PX`` pixels or more: the whole picture is enlarged
  (text, markers, lines), not its text alone, so nothing crowds.
"""
from __future__ import annotations

from typing import Any

from sim import arguments

LEAST_PX = 16.0   # CSS pixels: the smallest text in class mode
SHOWN = 1000      # pixels: a figure's width in a JupyterLab notebook's output at 1280 px
_state = {"on": False}


class ClassMode:
    """What ``class_mode`` returns: shown as the mode it set; as a context manager, it puts
    the mode back as it was on leaving the block."""

    def __init__(self, before: bool):
        self.before = before

    def __enter__(self) -> ClassMode:
        return self

    def __exit__(self, *exc: object) -> None:
        _state["on"] = self.before

    def __bool__(self) -> bool:
        return _state["on"]

    def __repr__(self) -> str:
        return f"sim.viz class mode: {'on' if _state['on'] else 'off'}"


def class_mode(on: bool = True) -> ClassMode:
    """Turn class mode on (or off, ``on=False``) for the replays, boards and figures that
    sim.viz makes from now on (see ``sim.viz.classroom``)."""
    arguments.flag(on, "on")
    before = _state["on"]
    _state["on"] = on
    return ClassMode(before)


def classroom(asked: bool | None) -> bool:
    """An argument ``classroom``: True or False as given, None: as ``class_mode`` set it."""
    if asked is None:
        return _state["on"]
    return arguments.flag(asked, "classroom")


def enlarge(fig: Any) -> Any:
    """In class mode, ``fig`` drawn at most ``SHOWN`` pixels wide, at the resolution that
    makes its smallest text ``LEAST_PX`` pixels (never a lower one than it has); else as it is."""
    from matplotlib.text import Text

    if not _state["on"]:
        return fig
    sizes = [t.get_fontsize() for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    if not sizes:
        return fig
    width, height = fig.get_size_inches() * fig.dpi
    dpi = max(float(fig.dpi), LEAST_PX * 72 / min(sizes))
    shown = min(width, SHOWN)
    fig.set_dpi(dpi)
    fig.set_size_inches(shown / dpi, height * shown / width / dpi)
    return fig


__all__ = ["LEAST_PX", "SHOWN", "ClassMode", "class_mode", "classroom", "enlarge"]
