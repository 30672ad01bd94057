"""The environment: one side of a battle played by an agent, the other by its plans.

The battle is a ``sim.decide.Replay``, played on event by event (no threads) to the
announcement of the agent's side's next movement phase; the agent's choices are taken at
that phase's start, after its plans are brought up to date and before its rules move
anyone, so an agent that always chooses ``plan`` plays the scenario's own battle, record
for record. The observation (``sim.gym.observe``) holds what the side knows: its own
units, and of the enemy only those its units see.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from sim import arguments
from sim.decide.menu import MENU, take_over, tell
from sim.decide.replay import Replay, refuse_planners
from sim.engine.clock import Phase
from sim.errors import InputError
from sim.gym.observe import Observer
from sim.metrics import compute_metrics, metric_kinds
from sim.planner.mcts import controls_of
from sim.scenario.schema import Scenario

__all__ = ["BattleEnv", "Reward"]


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


class BattleEnv(gym.Env[dict[str, np.ndarray] | np.ndarray, np.ndarray]):
    """A battle of ``scenario`` (a path or a loaded one) whose ``side`` (default: the
    attacker) an agent plays: one choice of ``MENU`` per unit, or per group (``by``).

    ``flat=True``: each observation is one float32 vector in [0, 1], the ``Dict``'s arrays
    flattened in its keys' order (``gymnasium.spaces.flatten``), in a ``Box`` space:
    what a library that takes one vector (stable-baselines3's ``MlpPolicy``) wants.
    """

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, scenario: Scenario | str, side: str | None = None,
                 reward: Reward | Mapping[str, Any] | None = None, by: str = "unit", flat: bool = False) -> None:
        from sim.scenario.load import load_scenario

        if not isinstance(scenario, Scenario):
            scenario = load_scenario(arguments.path(scenario, "scenario"))
        refuse_planners(scenario)
        self.scenario = scenario
        self.side = arguments.choice(side if side is not None else scenario.victory.attacker, "side",
                                     scenario.sides)
        self.reward_spec = _reward(reward, scenario)
        # the units each of the action's numbers tells, as a planner's choices tell them
        self.controls = controls_of(scenario, self.side, arguments.choice(by, "by", ("unit", "group")))
        self.observer = Observer(scenario, self.side)
        self.flat = arguments.flag(flat, "flat")
        self.action_space = spaces.MultiDiscrete([len(MENU)] * len(self.controls))
        self.observation_space = (spaces.flatten_space(self.observer.space) if self.flat  # type: ignore[assignment]
                                  else self.observer.space)
        self.replay: Replay | None = None
        self.phase: Phase | None = None
        self._read = 0
        self._over = False

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray] | np.ndarray, dict[str, Any]]:
        """A new battle at ``seed`` (None: one drawn from the environment's generator), played
        to the agent's first decision."""
        if seed is not None:
            seed = arguments.seed(seed)
        if options is not None and arguments.mapping(options, "options"):
            raise InputError(f"unknown key {next(iter(options))!r} (expected none: reset reads no options)",
                             place="options")
        super().reset(seed=seed)
        battle_seed = seed if seed is not None else int(self.np_random.integers(0, 2**62))
        self.replay = Replay(self.scenario, battle_seed)
        take_over(self.replay.battle, self.side)
        self._read, self._over = 0, False
        self.phase = self.replay.next_turn(self.side)
        return self._observe(), self._info() | {"seed": battle_seed}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray] | np.ndarray, float, bool, bool, dict[str, Any]]:
        """Give every unit (or group) its choice now and play on to the next decision."""
        if self.replay is None or self._over:
            raise InputError("call reset() before step()" if self.replay is None else
                             "the battle is over: call reset() for another", place="step")
        numbers = self._numbers(action)
        if self.phase is not None:
            choices = [MENU[a] for a in numbers]

            def decide(battle: Any, phase: Phase | None) -> None:
                trigger = f"turn {battle.clock.turn} {battle.clock.phase}"
                for units, choice in zip(self.controls, choices):
                    tell(battle, units, choice, trigger, phase=phase)

            self.replay.order(decide)
            self.phase = self.replay.next_turn(self.side)
        reward = self._losses()
        terminated = self._over = self.replay.done
        if terminated:
            reward += self._outcome()
        return self._observe(), reward, terminated, False, self._info()

    def _numbers(self, action: Any) -> list[int]:
        """The action's numbers: a list, tuple or 1-d array of whole numbers (no bool, no
        float, however whole), one per control, each naming a choice of the menu."""
        n, last = len(self.controls), len(MENU) - 1
        if isinstance(action, np.ndarray) and action.dtype.kind in "iu" and action.shape == (n,):
            numbers: list[int] = action.tolist()   # what a learner gives: read at once, as Python ints
            if all(0 <= a <= last for a in numbers):
                return numbers
        items = list(action) if isinstance(action, list | tuple) or (
            isinstance(action, np.ndarray) and action.ndim == 1) else None
        try:
            if items is not None and len(items) == n:
                return [arguments.whole(a, "action", 0, last) for a in items]
        except InputError:
            pass
        raise arguments.fail("action", f"a list or 1-d array of {n} whole numbers, each 0 to {last} "
                             f"({', '.join(MENU)})", action)

    # -- what the agent is paid and told ------------------------------------------------
    def _observe(self) -> dict[str, np.ndarray] | np.ndarray:
        obs = self.observer.observe(self.replay.battle)   # type: ignore[union-attr]
        if not self.flat:
            return obs
        # gymnasium.spaces.flatten's vector, without its dispatch on the space's kind
        return np.concatenate([obs[key].ravel() for key in self.observer.space.spaces])

    def _losses(self) -> float:
        battle, spec = self.replay.battle, self.reward_spec   # type: ignore[union-attr]
        records = battle.log.records
        total = 0.0
        for r in records[self._read:]:
            lost = r.get("steps_lost")
            if lost and r.get("target") in battle.units:
                mine = battle.units[r["target"]].side == self.side
                total += lost * (spec.step_lost if mine else spec.step_taken)
        self._read = len(records)
        return float(total)

    def _outcome(self) -> float:
        battle, spec = self.replay.battle, self.reward_spec   # type: ignore[union-attr]
        base = spec.draw if battle.winner is None else spec.win if battle.winner == self.side else spec.loss
        if spec.metric is not None:
            base += spec.weight * float(compute_metrics(battle.log, self.scenario)[spec.metric])
        return float(base)

    def _info(self) -> dict[str, Any]:
        battle = self.replay.battle   # type: ignore[union-attr]
        return {"turn": battle.clock.turn, "t": float(battle.env.now), "winner": battle.winner,
                "reason": battle.reason, "menu": MENU}

    @property
    def log(self) -> Any:
        """The battle's event log so far (``sim.EventLog``)."""
        if self.replay is None:
            raise InputError("call reset() first", place="log")
        return self.replay.battle.log
