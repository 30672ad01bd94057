"""Pictures of battles and studies, all drawn from an event log or a study result.

- ``plot_map(scenario, log=None, t=None)``: terrain, units, radii, paths, halt points;
- ``plot_timeline(log)``: per-unit state lanes and sniper lifecycle lanes;
- ``animate(scenario, log)``: an animated replay (matplotlib); ``replay_html(scenario, log)``:
  the same as one self-contained HTML page that plays offline (``replay_fragment``: for a
  notebook cell);
- ``unit_tracks`` / ``positions_at`` and ``unit_states`` / ``states_frame``: where each
  unit is, and what it is doing, at any instant (pure functions of the log);
- study plots (``plot_means``, ``plot_differences``, ``plot_response``, ``plot_study``);
- ``check_legible(fig)``: what would keep a picture from being read on a projector;
- ``editor(scenario=None, ground="table")``: a widget on which a scenario is drawn, checked
  as it is drawn, saved as YAML and run (loaded at first use: it needs anywidget, the
  ``notebooks`` extra).
- ``class_mode(True)``: larger text, and the replay's inspector and the board's readout beside
  their map, in what sim.viz makes from then on (``sim.viz.classroom``).
- ``play(scenario, side, seed)``: a board in a notebook on which a person plays one side
  against the other side's planner (an anywidget: the ``notebooks`` extra; loaded when used).
- ``Choice`` and ``Slider``: a notebook's controls whose keys stay in them (an arrow key
  never also moves JupyterLab's notebook), for ``ipywidgets.interactive_output``.

Every function returns a matplotlib Figure (or Animation) and, given ``path``, saves a PNG.
No pyplot state is used, so all of it works headless as well as in Jupyter. Needs the
``plots`` extra (``pip install 'sim[plots]'``: matplotlib); ``states_frame`` the ``frames``
extra (pandas).
"""
from __future__ import annotations

from typing import Any

try:
    import matplotlib  # noqa: F401 - the extra this package needs
except ImportError as err:   # pragma: no cover - the extra is installed for the tests
    raise ImportError("sim.viz needs matplotlib: pip install 'sim[plots]'") from err

from sim.viz.animation import animate, save_frame
from sim.viz.classroom import class_mode
from sim.viz.common import records_of
from sim.viz.legibility import check_legible
from sim.viz.maps import halt_table, plot_map
from sim.viz.replay import replay_fragment, replay_html
from sim.viz.states import Span, states_frame, unit_states
from sim.viz.study_plots import plot_differences, plot_means, plot_response, plot_study
from sim.viz.timeline import ACTIVITY_COLOURS, LIFECYCLE_COLOURS, plot_timeline
from sim.viz.tracks import frame_times, position_at, positions_at, unit_tracks

__all__ = ["ACTIVITY_COLOURS", "LIFECYCLE_COLOURS", "Choice", "Editor", "Slider", "Span", "animate",
           "check_legible", "class_mode",
           "editor", "frame_times", "halt_table", "play", "plot_differences", "plot_map",
           "plot_means", "plot_response", "plot_study", "plot_timeline", "position_at",
           "positions_at", "records_of", "replay_fragment", "replay_html", "save_frame", "states_frame",
           "unit_states", "unit_tracks"]

#: Names loaded at first use, by the module that has them (it needs anywidget).
LAZY = {"Editor": "sim.viz.editing.widget", "editor": "sim.viz.editing.widget", "play": "sim.viz.play_board",
        "Choice": "sim.viz.controls", "Slider": "sim.viz.controls"}


def __getattr__(name: str) -> Any:
    """The names of ``LAZY``, imported when first used (``import sim.viz`` needs no anywidget)."""
    if name not in LAZY:
        raise AttributeError(f"module 'sim.viz' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(LAZY[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(LAZY))
