"""A battle a person plays against a planner: ``Session`` (one side's orders given phase by
phase, the other side's planner answering) and its debrief (``judge``: each of the
person's decisions against the planner's evaluation of the same position). The board that
shows it in a notebook is ``sim.viz.play``."""
from __future__ import annotations

from sim.play.debrief import Judged, Option, judge
from sim.play.session import Decision, Played, Session

__all__ = ["Decision", "Judged", "Option", "Played", "Session", "judge"]
