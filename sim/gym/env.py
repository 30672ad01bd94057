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
from typing import Any

import gymnasium as gym
import numpy as np

from sim import arguments
from sim.decide.replay import Replay
from sim.engine.clock import Phase
from sim.errors import InputError
from sim.gym.seat import Observation, Reward, Seat, scenario_of, told
from sim.scenario.schema import Scenario

__all__ = ["BattleEnv"]


class BattleEnv(gym.Env[Observation, np.ndarray]):
    """A battle of ``scenario`` (a path or a loaded one) whose ``side`` (default: the
    attacker) an agent plays: one choice of ``MENU`` per unit, or per group (``by``).

    ``flat=True``: each observation is one float32 vector in [0, 1], the ``Dict``'s arrays
    flattened in its keys' order (``gymnasium.spaces.flatten``), in a ``Box`` space:
    what a library that takes one vector (stable-baselines3's ``MlpPolicy``) wants.
    """

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, scenario: Scenario | str, side: str | None = None,
                 reward: Reward | Mapping[str, Any] | None = None, by: str = "unit", flat: bool = False) -> None:
        self.scenario = scenario = scenario_of(scenario)
        self.side = arguments.choice(side if side is not None else scenario.victory.attacker, "side",
                                     scenario.sides)
        self.seat = Seat(scenario, self.side, reward, by, flat)
        self.reward_spec, self.controls, self.observer, self.flat = (
            self.seat.reward_spec, self.seat.controls, self.seat.observer, self.seat.flat)
        self.action_space = self.seat.action_space
        self.observation_space = self.seat.observation_space
        self.replay: Replay | None = None
        self.phase: Phase | None = None
        self._over = False

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
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
        self.seat.sit(self.replay.battle)
        self._over = False
        self.phase = self.replay.next_turn(self.side)
        return self.seat.observe(self.replay.battle), told(self.replay.battle) | {"seed": battle_seed}

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Give every unit (or group) its choice now and play on to the next decision."""
        if self.replay is None or self._over:
            raise InputError("call reset() before step()" if self.replay is None else
                             "the battle is over: call reset() for another", place="step")
        numbers = self.seat.numbers(action)
        if self.phase is not None:
            self.replay.order(self.seat.orders(numbers))
            self.phase = self.replay.next_turn(self.side)
        battle = self.replay.battle
        reward = self.seat.paid(battle)   # with the outcome once the battle has ended
        terminated = self._over = self.replay.done
        return self.seat.observe(battle), reward, terminated, False, told(battle)

    @property
    def log(self) -> Any:
        """The battle's event log so far (``sim.EventLog``)."""
        if self.replay is None:
            raise InputError("call reset() first", place="log")
        return self.replay.battle.log
