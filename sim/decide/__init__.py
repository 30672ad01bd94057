"""Decisions mid-battle: decision points, branches of a battle at one, and a battle
played on step by step (``Replay``) by a caller that decides (an agent, a planner)."""
from __future__ import annotations

from sim.decide.branch import Branching, BranchResult, branch, branching
from sim.decide.changes import Changes, apply_changes, changes_between
from sim.decide.points import At, at_point
from sim.decide.replay import Decision, Replay

__all__ = ["At", "BranchResult", "Branching", "Changes", "Decision", "Replay", "apply_changes", "at_point",
           "branch", "branching", "changes_between"]
