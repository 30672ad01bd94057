"""A battle a person plays: one side's orders given at each of its movement phases, the
other side a planner (``policies.<side>.decide``), played on phase by phase.

``Session(scenario, side, seed)`` is the battle (a ``sim.decide.Replay``) stopped at the
announcement of the person's first movement phase. ``end_phase(orders)`` gives the orders
(``sim.decide.orders``: a choice of the menu or ``to NODE`` per unit or group) at that
phase's start and plays on to the next one, the planner's phases and rollouts on the way;
it returns what happened since (a ``Played``). The same scenario, seed and orders give the
same log, byte for byte. The planner's rollouts give the person's past orders again (they
are in the log), then keep the person's side to its plans (``sim.planner.rollout.PLAYED``).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sim import arguments
from sim.decide.menu import take_over
from sim.decide.orders import Control, check_order, controls, give
from sim.decide.replay import Replay
from sim.engine.clock import Phase
from sim.errors import InputError
from sim.replication import BattleResult
from sim.scenario.schema import Scenario
from sim.scenario.yamlfile import place_of

__all__ = ["Decision", "Played", "Session", "planners_of"]


@dataclass(frozen=True)
class Decision:
    """One of the person's decisions: when (the records before it, ``index``), the orders,
    and the controls it had (those with a unit on the board)."""

    index: int
    t: float
    turn: int
    phase: str
    orders: dict[str, str]
    controls: tuple[str, ...]


@dataclass(frozen=True)
class Played:
    """What one ``end_phase`` played: the records from the person's phase's start (``start``)
    to the next decision or the end (``stop``), and from when to when."""

    start: int
    stop: int
    t0: float
    t1: float


def planners_of(scenario: Scenario, side: str) -> dict[str, Any]:
    """The other sides' planners (side -> ``policies.<side>.decide``)."""
    return {s: p.decide for s, p in scenario.policies.items()
            if s != side and s in scenario.sides and p.decide is not None}


def _refuse(scenario: Scenario, side: str) -> None:
    policies = scenario.policies.get(side)
    if policies is not None and policies.decide is not None:
        raise InputError(f"{side} has a planner: a side a person plays cannot also plan (play another side)",
                         file=scenario.file, place=place_of(("policies", side, "decide"), scenario._lines))
    if not planners_of(scenario, side):
        other = next(s for s in scenario.sides if s != side)
        raise InputError(f"no other side has a planner to play against (give one, as "
                         f"policies.{other}.decide: {{policy: mcts}})", file=scenario.file,
                         place=f"policies.{other}.decide")
    if not any(p.moves for p in scenario.composition.phases) or not any(s == side for s, _ in scenario.units()):
        raise InputError(f"{side} has no decision to take (no unit of it, or no phase in which units move)",
                         place="side")


class Session:
    """``side`` of ``scenario`` played by a person at ``seed`` against a planner (module doc)."""

    def __init__(self, scenario: Scenario | str, side: Any, seed: Any = 1) -> None:
        from sim.scenario.load import load_scenario

        if not isinstance(scenario, Scenario):
            scenario = load_scenario(arguments.path(scenario, "scenario"))
        self.scenario = scenario
        self.side = arguments.choice(side, "side", scenario.sides)
        self.seed = arguments.seed(seed)
        _refuse(scenario, self.side)
        self.replay = Replay(scenario, self.seed)
        battle = self.battle = self.replay.battle
        battle.played = frozenset({self.side})
        take_over(battle, self.side)
        self.decisions: list[Decision] = []
        self.played: list[Played] = []
        self.phase: Phase | None = self.replay.next_turn(self.side)
        self._result: BattleResult | None = None

    @property
    def over(self) -> bool:
        """Whether the battle has ended."""
        return self.phase is None

    def controls(self) -> list[Control]:
        """What the person gives orders to now: the side's groups and units with a unit on the board."""
        units = self.battle.units
        return [c for c in controls(self.scenario, self.side) if any(units[u].on_board for u in c.units)]

    def check(self, orders: Any) -> dict[str, str]:
        """``orders`` (control -> order) checked against the controls now; else an ``InputError``."""
        arguments.mapping(orders, "orders", keys="unit or group names")
        now = {c.name: c for c in self.controls()}
        for name in orders:
            if name not in now:
                raise InputError(f"no unit or group {name!r} of {self.side} on the board "
                                 f"(expected one of {', '.join(now)})", place="orders")
        return {name: check_order(orders[name], self.battle, c, f"orders.{name}") for name, c in now.items()
                if name in orders}

    def end_phase(self, orders: Mapping[str, str] | None = None) -> Played:
        """Give ``orders`` (none: every control keeps to its plan) and play on to the side's
        next movement phase, or the end."""
        if self.phase is None:
            raise InputError("the battle is over", place="end_phase")
        given = self.check(orders or {})
        names = tuple(c.name for c in self.controls())
        phase, records = self.phase, self.battle.log.records
        start = len(records)

        def act(battle: Any, now: Phase | None) -> None:
            self.decisions.append(Decision(len(records), float(battle.env.now), phase.turn, phase.phase, given, names))
            give(battle, self.side, given, now, f"turn {phase.turn} {phase.phase}")

        self.replay.order(act)
        self.phase = self.replay.next_turn(self.side)
        played = Played(start, len(records), float(phase.start), float(self.battle.env.now))
        self.played.append(played)
        return played

    def result(self) -> BattleResult:
        """The battle's result (log, metrics, winner, why); only once it is over."""
        if self.phase is not None:
            raise InputError("the battle is not over yet", place="result")
        if self._result is None:
            self._result = self.replay.run()
        return self._result
