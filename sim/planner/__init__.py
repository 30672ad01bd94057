"""An opponent that plans: ``policies.<side>.decide: {policy: mcts, ...}``.

At each of its side's movement phases the planner searches the menu of
``sim.decide.menu`` (plan, hold, fall back, seek cover, per group or unit) by Monte Carlo
tree search over branches of the battle itself (``sim.planner.rollout``), chance sampled
by fresh dice after the decision, and tells its units the choice most visited
(``sim.planner.mcts``). The search tree is ``sim.planner.search``.
"""
from __future__ import annotations

from sim.planner.mcts import BEHAVIOURS, controls_of, mcts
from sim.planner.search import Tree

__all__ = ["BEHAVIOURS", "Tree", "controls_of", "mcts"]
