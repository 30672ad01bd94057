"""The parallel environment: both sides of a battle played by agents (a PettingZoo ``ParallelEnv``).

The agents are the scenario's sides, in turn order, each seated as ``BattleEnv`` seats
its one (``sim.gym.seat``: its controls, observation and reward). The battle is a
``sim.decide.Replay`` played on to the next movement phase of either side; a phase is one
side's, so at each step exactly one agent decides: ``deciding`` (and its info's
``decides``). Both agents stay live until the battle ends (an agent that leaves
PettingZoo's ``agents`` may not come back): each is given an observation, a reward and an
info at every step, and may be given an action; the waiting agent's action is checked,
then ignored (it may be left out). Both sides always saying ``plan`` play the scenario's
own battle, record for record.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import ParallelEnv

from sim import arguments
from sim.decide.replay import Replay
from sim.engine.clock import Phase
from sim.engine.log import EventLog
from sim.errors import InputError
from sim.gym.seat import Observation, Reward, Seat, scenario_of, told
from sim.scenario.schema import Scenario

__all__ = ["BattleParallelEnv"]


class BattleParallelEnv(ParallelEnv):
    """A battle of ``scenario`` (a path or a loaded one) whose sides agents play, each one
    choice of ``MENU`` per unit, or per group (``by``), at its movement phases.

    ``reward`` (a ``Reward`` or a mapping of its fields) pays each side from its own view;
    ``flat=True`` gives each observation as one float32 vector (as ``BattleEnv``'s);
    ``max_cycles``: after that many steps an unfinished battle is truncated (None: it runs
    to its end, which its turn limit bounds). ``render_mode`` may only be None.
    """

    metadata: dict[str, Any] = {"name": "sim_battle_v0", "render_modes": [], "is_parallelizable": True}

    def __init__(self, scenario: Scenario | str, reward: Reward | Mapping[str, Any] | None = None,
                 by: str = "unit", flat: bool = False, max_cycles: int | None = None,
                 render_mode: str | None = None) -> None:
        self.scenario = scenario = scenario_of(scenario)
        self.seats = {side: Seat(scenario, side, reward, by, flat) for side in scenario.sides}
        self.max_cycles = None if max_cycles is None else arguments.count(max_cycles, "max_cycles")
        if render_mode is not None:
            raise arguments.fail("render_mode", "None (the environment draws nothing: sim.viz draws a battle)",
                                 render_mode)
        self.render_mode = None
        self.possible_agents: list[str] = list(scenario.sides)
        self.agents: list[str] = []
        self.observation_spaces: dict[str, spaces.Space[Any]] = {
            side: seat.observation_space for side, seat in self.seats.items()}
        self.action_spaces: dict[str, spaces.Space[Any]] = {
            side: seat.action_space for side, seat in self.seats.items()}
        self.replay: Replay | None = None
        self.phase: Phase | None = None
        self.cycles = 0
        self._rng: np.random.Generator | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The space of ``agent``'s observations (the same object at every call)."""
        return self.observation_spaces[arguments.choice(agent, "agent", self.possible_agents)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The space of ``agent``'s actions (the same object at every call)."""
        return self.action_spaces[arguments.choice(agent, "agent", self.possible_agents)]

    @property
    def deciding(self) -> str | None:
        """The agent whose action the next step takes (None: no battle yet, or it has ended)."""
        return self.phase.side if self.phase is not None and self.agents else None

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """A new battle at ``seed`` (None: one drawn from the environment's generator), played
        to the first decision of either side; ``options`` (a dict) is not read."""
        if seed is not None:
            seed = arguments.seed(seed)
        if options is not None:
            arguments.mapping(options, "options")   # PettingZoo's api test passes one: its keys are not read
        if seed is not None or self._rng is None:
            self._rng, _ = seeding.np_random(seed)
        battle_seed = seed if seed is not None else int(self._rng.integers(0, 2**62))
        self.replay = replay = Replay(self.scenario, battle_seed)
        for seat in self.seats.values():
            seat.sit(replay.battle)
        self.phase = replay.next_turn(*self.possible_agents)
        self.cycles = 0
        self.agents = list(self.possible_agents) if not replay.done else []
        infos = self._infos(self.possible_agents)
        for info in infos.values():
            info["seed"] = battle_seed
        return self._observe(self.possible_agents), infos

    def step(self, actions: Mapping[str, Any]) -> tuple[
            dict[str, Observation], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        """Take the deciding agent's action (each given is checked; the waiting agent's is
        ignored) and play on to the next decision of either side, or the end."""
        if self.replay is None or not self.agents:
            raise InputError("call reset() before step()" if self.replay is None else
                             "the episode is over (the battle ended, or max_cycles cut it): call reset() for another",
                             place="step")
        side = cast(Phase, self.phase).side   # (live agents: the battle stands at a decision)
        self.replay.order(self.seats[side].orders(self._numbers(actions, side)))
        self.phase = self.replay.next_turn(*self.possible_agents)
        self.cycles += 1
        live, battle = self.agents, self.replay.battle
        rewards = {agent: self.seats[agent].paid(battle) for agent in live}   # the outcome once it has ended
        over = self.replay.done
        cut = not over and self.max_cycles is not None and self.cycles >= self.max_cycles
        if over or cut:
            self.agents = []   # before the infos: none decides next
        observations, infos = self._observe(live), self._infos(live)
        return observations, rewards, dict.fromkeys(live, over), dict.fromkeys(live, cut), infos

    def _numbers(self, actions: Any, side: str) -> list[int]:
        """The deciding ``side``'s numbers; every action given is checked first."""
        agents = ", ".join(self.agents)
        if not isinstance(actions, Mapping):
            raise arguments.fail("actions", f"a dict from agent ({agents}) to its action", actions)
        for agent in actions:
            if not isinstance(agent, str) or agent not in self.agents:
                raise arguments.fail("actions", f"a dict whose keys are agents ({agents})", agent)
        if side not in actions:
            raise InputError(f"expected an action for {side!r}: it decides now (the other's may be left out)",
                             place="actions")
        numbers = {agent: self.seats[agent].numbers(action, f"actions.{agent}") for agent, action in actions.items()}
        return numbers[side]

    def _observe(self, agents: list[str]) -> dict[str, Observation]:
        battle = self.replay.battle   # type: ignore[union-attr]
        return {agent: self.seats[agent].observe(battle) for agent in agents}

    def _infos(self, agents: list[str]) -> dict[str, dict[str, Any]]:
        battle, deciding = self.replay.battle, self.deciding   # type: ignore[union-attr]
        return {agent: told(battle) | {"decides": agent == deciding} for agent in agents}

    def render(self) -> None:
        """Nothing: the environment has no render mode (``sim.viz`` draws a battle's log)."""
        return None

    def close(self) -> None:
        """Nothing to release: the battle holds no resource beyond memory."""

    @property
    def log(self) -> EventLog:
        """The battle's event log so far (``sim.EventLog``)."""
        if self.replay is None:
            raise InputError("call reset() first", place="log")
        return self.replay.battle.log
