"""One side's seat at a battle played by agents: the units its action tells, what it sees
and what it is paid.

``sim.gym.BattleEnv`` seats one side, ``sim.gym.BattleParallelEnv`` both. An action is one
number of ``sim.decide.menu.MENU`` per control (a unit, or a group with ``by="group"``);
it is taken at the start of the side's movement phase, after its plans are brought up to
date (``take_over``) and before its rules move anyone, so a side that always says ``plan``
plays as its plans would.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
from gymnasium import spaces

from sim import arguments
from sim.decide.menu import MENU, take_over, tell
from sim.decide.replay import refuse_planners
from sim.engine.battle import Battle
from sim.engine.clock import Phase
from sim.errors import InputError
from sim.gym.observe import Observer
from sim.metrics import compute_metrics, metric_kinds
from sim.planner.mcts import controls_of
from sim.scenario.schema import Scenario

__all__ = ["Observation", "Reward", "Seat", "scenario_of", "told"]

#: What a side is shown: the observer's arrays by key, or one float32 vector (``flat``).
Observation = dict[str, np.ndarray] | np.ndarray


@dataclass(frozen=True)
class Reward:
    """What the agent is paid: at the end ``win``, ``loss`` or ``draw`` (and ``metric``'s
    value, a metric of the scenario's rule system, times ``weight``); on the way, per step
    of strength lost, ``step_lost`` (its side's) and ``step_taken`` (the enemy's)."""

    win: float = 1.0
    loss: float = -1.0
    draw: float = 0.0
    step_lost: float = 0.0
    step_taken: float = 0.0
    metric: str | None = None
    weight: float = 1.0


def _reward(value: Any, scenario: Scenario) -> Reward:
    if value is None:
        return Reward()
    if isinstance(value, Reward):
        given = {f.name: getattr(value, f.name) for f in fields(Reward)}
    else:
        given = dict(arguments.mapping(value, "reward"))
    names = {f.name for f in fields(Reward)}
    for key, v in given.items():
        if key not in names:
            raise InputError(f"unknown key {key!r} (expected one of {sorted(names)})", place="reward")
        if key == "metric":
            if v is not None and (not isinstance(v, str) or v not in metric_kinds(scenario)):
                raise InputError(f"unknown metric {v!r} (expected one of {sorted(metric_kinds(scenario))})",
                                 place="reward.metric")
        else:
            arguments.number(v, f"reward.{key}")
    # a weight is of the metric: without one it would be ignored (a Reward always has a
    # weight, so there only one other than the default is refused)
    weighted = "weight" in given if not isinstance(value, Reward) else value.weight != Reward.weight
    if weighted and given.get("metric") is None:
        raise InputError("a weight without a metric (expected 'metric' too: the weight multiplies its value)",
                         place="reward.weight")
    return Reward(**given)


def scenario_of(scenario: Scenario | str) -> Scenario:
    """The scenario (loaded from a path if one is given) an agent may play: none of its sides plans."""
    from sim.scenario.load import load_scenario

    if not isinstance(scenario, Scenario):
        scenario = load_scenario(arguments.path(scenario, "scenario"))
    refuse_planners(scenario)
    return scenario


def told(battle: Battle) -> dict[str, Any]:
    """What an agent is told beside its observation: the turn, the time, the winner and why
    (None until the end), and the menu its numbers name."""
    return {"turn": battle.clock.turn, "t": float(battle.env.now), "winner": battle.winner,
            "reason": battle.reason, "menu": MENU}


class Seat:
    """``side``'s seat at battles of ``scenario`` (module doc): its controls (``by``: ``unit``
    or ``group``), its observation (``flat``: one vector) and its ``reward`` (a ``Reward``,
    a mapping of its fields, or None for the default)."""

    def __init__(self, scenario: Scenario, side: str, reward: Reward | Mapping[str, Any] | None = None,
                 by: str = "unit", flat: bool = False) -> None:
        self.side = side
        self.reward_spec = _reward(reward, scenario)
        # the units each of the action's numbers tells, as a planner's choices tell them
        self.controls = controls_of(scenario, side, arguments.choice(by, "by", ("unit", "group")))
        self.observer = Observer(scenario, side)
        self.flat = arguments.flag(flat, "flat")
        self.action_space = spaces.MultiDiscrete([len(MENU)] * len(self.controls))
        self.observation_space: spaces.Space[Any] = (spaces.flatten_space(self.observer.space) if self.flat
                                                     else self.observer.space)
        self.scenario = scenario
        self._read = 0

    def sit(self, battle: Battle) -> None:
        """Take the side's plans over in a new battle (so they follow its choices); pay from its start."""
        take_over(battle, self.side)
        self._read = 0

    def numbers(self, action: Any, place: str = "action") -> list[int]:
        """The action's numbers: a list, tuple or 1-d array of whole numbers (no bool, no
        float, however whole), one per control, each naming a choice of the menu; anything
        else is an ``InputError`` at ``place``."""
        n, last = len(self.controls), len(MENU) - 1
        if isinstance(action, np.ndarray) and action.dtype.kind in "iu" and action.shape == (n,):
            numbers: list[int] = action.tolist()   # what a learner gives: read at once, as Python ints
            if all(0 <= a <= last for a in numbers):
                return numbers
        items = list(action) if isinstance(action, list | tuple) or (
            isinstance(action, np.ndarray) and action.ndim == 1) else None
        try:
            if items is not None and len(items) == n:
                return [arguments.whole(a, place, 0, last) for a in items]
        except InputError:
            pass
        raise arguments.fail(place, f"a list or 1-d array of {n} whole numbers, each 0 to {last} "
                             f"({', '.join(MENU)})", action)

    def orders(self, numbers: list[int]) -> Callable[[Battle, Phase | None], None]:
        """What tells each control its choice of ``numbers`` at the phase's start (for ``Replay.order``)."""
        choices = [MENU[a] for a in numbers]

        def decide(battle: Battle, phase: Phase | None) -> None:
            trigger = f"turn {battle.clock.turn} {battle.clock.phase}"
            for units, choice in zip(self.controls, choices):
                tell(battle, units, choice, trigger, phase=phase)

        return decide

    def observe(self, battle: Battle) -> Observation:
        """The side's observation of ``battle`` now."""
        obs = self.observer.observe(battle)
        if not self.flat:
            return obs
        # gymnasium.spaces.flatten's vector, without its dispatch on the space's kind
        return np.concatenate([obs[key].ravel() for key in self.observer.space.spaces])

    def paid(self, battle: Battle) -> float:
        """What the side is paid for the records since it was last paid and, once the battle
        has ended, for its outcome."""
        spec, records = self.reward_spec, battle.log.records
        total = 0.0
        for r in records[self._read:]:
            lost = r.get("steps_lost")
            if lost and r.get("target") in battle.units:
                mine = battle.units[r["target"]].side == self.side
                total += lost * (spec.step_lost if mine else spec.step_taken)
        self._read = len(records)
        total = float(total)
        if battle.done.triggered:
            total += self._outcome(battle)
        return total

    def _outcome(self, battle: Battle) -> float:
        spec = self.reward_spec
        base = spec.draw if battle.winner is None else spec.win if battle.winner == self.side else spec.loss
        if spec.metric is not None:
            base += spec.weight * float(compute_metrics(battle.log, self.scenario)[spec.metric])
        return float(base)
