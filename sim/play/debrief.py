"""The debrief: each of a person's decisions set beside the planner's evaluation of the
same position.

At each decision the planner's way of judging is applied from the person's side: the
battle is replayed to the decision (the same scenario and seed, every earlier order of the
person and every earlier decision of the planner given again, so up to there it is the
real battle record for record), then each option is played on from there ``rollouts``
times with fresh dice (the *k*-th rollout of every option on the same dice: common random
numbers), both sides keeping to their plans after it, as the planner's own rollouts do.
The options are the person's orders and the planner's menu (the same choice for the whole
side: ``plan``, ``hold``, ``fall_back``, ``seek_cover``); each one's score is the planner's,
for the person's side (1 a win, -1 a loss, plus its ``material`` weight). What the planner
would have chosen is the menu's option with the best mean (at a tie, the first of the menu).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.decide.menu import MENU
from sim.decide.orders import give
from sim.decide.replay import Replay
from sim.engine.clock import Phase
from sim.planner.rollout import make, past_decisions, replay_played, score
from sim.play.session import Decision, planners_of

__all__ = ["CHOICES", "Judged", "Option", "judge"]

#: The planner's menu: the choices its search tries (``sim.planner.mcts``: four a control).
CHOICES: tuple[str, ...] = MENU[:4]


@dataclass(frozen=True)
class Option:
    """One option at a decision: its name (``yours`` or a menu choice), its orders, its mean score."""

    name: str
    orders: dict[str, str]
    mean: float
    rollouts: int
    yours: bool


@dataclass(frozen=True)
class Judged:
    """A decision of the person's, judged: its orders, every option's mean, the planner's pick."""

    decision: Decision
    options: list[Option]
    best: str

    @property
    def yours(self) -> Option:
        """The person's own option."""
        return next(o for o in self.options if o.yours)


def _rollout(scenario: Any, seed: int, records: Sequence[dict[str, Any]], side: str, decision: Decision,
             orders: Mapping[str, str], dice: int, material: float) -> float:
    prefix = records[:decision.index]
    replay = Replay(scenario, seed)
    replay.battle.plans.deciders = {}   # every side keeps to its plans after the decision
    replay_played(replay, prefix, [side])
    for other in planners_of(scenario, side):
        past = past_decisions(prefix, other)

        def planned(battle: Any, phase: Phase | None, past: dict[int, dict[str, Any]] = past) -> None:
            assert phase is not None
            made = past.get(phase.turn)
            if made is not None:
                make(battle, made["controls"], made["actions"], phase, made)

        replay.every_turn(other, planned)

    def decide(battle: Any, phase: Phase | None) -> None:
        assert phase is not None
        if (phase.turn, phase.phase) == (decision.turn, decision.phase):
            replay.reseed(dice)
            give(battle, side, orders, phase, f"turn {phase.turn} {phase.phase}")

    replay.every_turn(side, decide)
    replay.run()
    return score(replay.battle, side, material)


def judge(scenario: Any, seed: int, records: Sequence[dict[str, Any]], side: str, decision: Decision,
          rollouts: int, material: float = 0.0) -> Judged:
    """The person's ``decision`` in the battle of ``records`` at ``seed``, judged (module doc)."""
    menu = [(choice, {n: choice for n in decision.controls} if choice != "plan" else {}) for choice in CHOICES]
    mine = {k: v for k, v in decision.orders.items() if v != "plan"}
    rng = np.random.default_rng([seed, scenario.sides.index(side), decision.turn, 1])
    dice = [int(d) for d in rng.integers(0, 2**62, size=rollouts)]

    def mean(orders: Mapping[str, str]) -> float:
        total = sum(_rollout(scenario, seed, records, side, decision, orders, d, material) for d in dice)
        return round(total / rollouts, 4)

    options = []
    for name, orders in menu:
        options.append(Option(name, orders, mean(orders), rollouts, orders == mine))
    if not any(o.yours for o in options):
        options.insert(0, Option("yours", mine, mean(mine), rollouts, True))
    best = max((o for o in options if o.name in CHOICES), key=lambda o: o.mean)   # max keeps the first of a tie
    return Judged(decision, options, best.name)
