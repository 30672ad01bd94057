"""Pictures of battles and studies, all drawn from an event log or a study result.

- ``plot_map(scenario, log=None, t=None)``: terrain, units, radii, paths, halt points;
- ``plot_timeline(log)``: per-unit state lanes and sniper lifecycle lanes;
- ``animate(scenario, log)`` / ``replay_html(scenario, log)``: an animated replay;
- study plots (``plot_means``, ``plot_differences``, ``plot_response``, ``plot_study``)
  from ``sim.viz.study_plots``, loaded on first use.

Every function returns a matplotlib Figure (or Animation) and, given ``path``, saves a PNG.
No pyplot state is used, so all of it works headless as well as in Jupyter.
"""
from __future__ import annotations

from sim.viz.animation import (animate, frame_times, position_at, positions_at, replay_html,
                               save_frame, unit_tracks)
from sim.viz.maps import halt_table, plot_map, records_of
from sim.viz.timeline import plot_timeline, states_frame, unit_states

_STUDY = ("plot_means", "plot_differences", "plot_response", "plot_study")

__all__ = ["animate", "frame_times", "halt_table", "plot_map", "plot_timeline", "position_at",
           "positions_at", "records_of", "replay_html", "save_frame", "states_frame",
           "unit_states", "unit_tracks", *_STUDY]


def __getattr__(name):
    # The study plots belong to sim.viz.study_plots; imported lazily (and only if present)
    # so that importing sim.viz never changes the matplotlib backend of a notebook.
    if name in _STUDY:
        try:
            from sim.viz import study_plots
        except ImportError as err:  # pragma: no cover - the module is optional
            raise AttributeError(f"sim.viz.{name} needs sim.viz.study_plots ({err})") from None
        return getattr(study_plots, name)
    raise AttributeError(f"module 'sim.viz' has no attribute {name!r}")
