"""sim-duel: the stochastic duel, a rule system for ``sim`` written only against ``import sim``.

Two forces exchange aimed fire until one is gone. Every unit fires at exponentially
distributed intervals, ``rate`` shots per unit of time on average (a unit key, default
1), and a shot kills its target when a d100 comes up at most ``kill_percent`` (a unit
key, default 50). Exponential intervals make the fight a Markov chain, so its outcome
is exactly Brown's (1963): ``sim.win_probability`` gives the chance that the first side
wins. The knob ``rules.duel.law`` says how the fire is aimed:

* ``square`` (aimed fire, Lanchester's square law): a shot is aimed at a living enemy
  (the first in scenario order: they are all alike). A side's kill rate is its size
  times its per-unit rate, so ``A = r·x / (r·x + y)`` with ``r`` = (rate × kill chance)
  of the first side over that of the second.
* ``linear`` (area fire, the linear law): a shot falls on one of the enemy's starting
  positions at random (a die with as many faces as the enemy started with), and kills
  only if a living enemy is there (then the d100 decides). A side's kill rate grows
  with both forces, so ``A`` is constant: (rate × kill chance / red's starting size)
  over that plus the same for red.

Each shot is one ``shot`` record (rules DUEL.FIRE and DUEL.KILL) with its ``dice``
(``[d100]``, or ``[position, d100]`` under the linear law), ``mods`` 0, ``need`` (the
lowest d100 face that misses: a kill is d100 < need) and ``success`` (the target died).

Typed throughout (strict mypy passes; nothing is left untyped): the battle is a
``sim.BattleContext[DuelRules, DuelState]``, the scenario's ``rules`` seen through the
``DuelRules`` protocol and the system's own state a ``DuelState``.
"""
from __future__ import annotations

import math
from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Literal, Protocol

from pydantic import Field

import sim

if TYPE_CHECKING:
    import simpy

RULES = sim.define_rules({
    "DUEL.FIRE": "Each unit fires at exponentially distributed intervals, `rate` shots per unit of time",
    "DUEL.KILL": "A shot kills its target on a d100 <= kill_percent (linear law: if a living enemy is where it falls)",
})
SHOT = "shot"


class DuelKnobs(sim.Knobs):
    """``rules.duel``: how fire is aimed (``square``: aimed; ``linear``: area fire)."""

    law: Literal["square", "linear"] = "square"


class DuelUnitKeys(sim.Knobs):
    """A duellist's keys: its firing ``rate`` (shots per unit of time) and the chance, in
    percent, that a shot kills."""

    rate: float = Field(1.0, gt=0, le=1000, allow_inf_nan=False)
    kill_percent: int = Field(50, ge=1, le=100)


class DuelRules(Protocol):
    """The scenario's ``rules`` as the duel reads them: its own section ``rules.duel``."""

    @property
    def duel(self) -> DuelKnobs:
        """``rules.duel``."""
        ...


class Duellist(Protocol):
    """A unit spec as a duel scenario gives it: its id and its unit keys."""

    @property
    def id(self) -> str:
        """The unit's id."""
        ...

    @property
    def rate(self) -> float:
        """Shots per unit of time."""
        ...

    @property
    def kill_percent(self) -> int:
        """The chance, in percent, that a shot kills."""
        ...


@dataclass
class DuelState:
    """What the duel keeps during a battle: each side's starting size."""

    started: dict[str, int] = field(default_factory=dict)


#: The battle as the duel's code sees it: its rules and its state typed.
DuelBattle = sim.BattleContext[DuelRules, DuelState]


def duellists(scenario: sim.Scenario, side: str | None = None) -> Iterator[tuple[str, Duellist]]:
    """(side, unit spec) of the scenario's units (of ``side`` only, if given), in order."""
    for who, spec in scenario.units():
        if side is None or who == side:
            yield who, spec


class DuelGame:
    """Every unit fires from the first instant; the phases only keep the clock."""

    def __init__(self) -> None:
        self.state = DuelState()

    def setup(self, battle: DuelBattle) -> None:
        """Note each side's size and start every unit's fire."""
        for side in battle.scenario.sides:
            self.state.started[side] = len(battle.units_of(side))
        specs = {spec.id: spec for _, spec in duellists(battle.scenario)}
        for unit in battle.units.values():
            battle.env.process(self._fire(battle, unit, specs[unit.id]))

    def on_phase(self, battle: DuelBattle, phase: sim.Phase) -> None:
        """Nothing starts with a phase: fire is continuous."""

    @sim.implements("DUEL.FIRE", "DUEL.KILL")
    def _fire(self, battle: DuelBattle, unit: sim.Unit, spec: Duellist) -> Generator[simpy.Event, object, None]:
        law = battle.knobs.duel.law
        while True:
            u = battle.dice.uniform(unit.id, "DUEL.FIRE")
            yield battle.env.timeout(-math.log1p(-u) / spec.rate)
            if not unit.on_board or battle.done.triggered:
                return
            other = next(s for s in battle.scenario.sides if s != unit.side)
            if law == "square":
                target = next(e for e in battle.units_of(other) if e.on_board)
                dice: list[int] = []
            else:
                (slot,) = battle.dice.roll(unit.id, "DUEL.FIRE", 1, self.state.started[other])
                target = battle.units_of(other)[slot - 1]
                dice = [slot]
            (face,) = battle.dice.roll(unit.id, "DUEL.KILL", 1, 100)
            kill = target.on_board and face <= spec.kill_percent
            battle.record(SHOT, rule="DUEL.KILL", unit=unit.id, target=target.id, law=law,
                          dice=[*dice, face], mods=0, need=spec.kill_percent + 1, success=kill)
            if kill:
                target.steps = 0
                battle.eliminate(target, rule="DUEL.KILL")


def check(c: sim.Checks) -> None:
    """A duel is fought where the units stand, to the end: every unit holds, and the
    battle ends when a force is destroyed (otherwise those settings would be ignored)."""
    scenario: sim.Scenario = c.scenario
    if not scenario.victory.destroy or scenario.victory.objective is not None:
        c.fail("a duel ends only when a force is destroyed (expected destroy: true and no "
               "objective)", "victory")
    for side in scenario.sides:
        for i, spec in enumerate(scenario.forces[side]):
            if spec.orders.type != "hold":
                c.fail("duellists do not move (expected orders of type hold)",
                       "forces", side, i, "orders", "type")


def _duel_metrics(records: Sequence[Mapping[str, object]], scenario: sim.Scenario) -> dict[str, float]:
    first, second = scenario.sides
    left = {side: float(len(scenario.forces[side])) for side in scenario.sides}
    side_of = {spec.id: side for side, spec in duellists(scenario)}
    shots = kills = 0.0
    for r in records:
        if r["event"] == SHOT:
            shots += 1
            kills += bool(r["success"])
        elif r["event"] == sim.events.ELIMINATE:
            left[side_of[str(r["unit"])]] -= 1
    return {"duel_shots": shots, "duel_kills": kills, "duel_first_won": float(left[second] == 0),
            "duel_first_left": left[first], "duel_second_left": left[second]}


METRICS = sim.MetricReporter(
    "duel", {"duel_shots": "count", "duel_kills": "count", "duel_first_won": "binary",
             "duel_first_left": "count", "duel_second_left": "count"}, _duel_metrics)

SYSTEM = sim.RuleSystem(
    name="duel",
    title="The stochastic duel: aimed (square law) or area (linear law) fire to the end",
    phases=(sim.PhaseSpec("engagement"),),
    game=DuelGame,
    knobs=DuelKnobs,
    unit_keys=DuelUnitKeys,
    check=check,
    metrics=(METRICS,),
    events=frozenset({SHOT}),
    rules=tuple(RULES),
    source="Brown (1963), Theory of Combat: The Probability of Winning",
)


def kill_rate_ratio(scenario: sim.Scenario) -> Fraction:
    """``r``: the first side's per-unit kill rate (rate × kill chance) over the second's,
    exactly, for two uniform forces (every unit of a side alike); ValueError otherwise."""
    per_side = []
    for side in scenario.sides:
        kinds = {(u.rate, u.kill_percent) for _, u in duellists(scenario, side)}
        if len(kinds) != 1:
            raise ValueError(f"side {side!r} is not uniform: {sorted(kinds)}")
        (rate, pct), = kinds
        per_side.append(Fraction(rate) * Fraction(pct, 100))
    return per_side[0] / per_side[1]


def exact_win(scenario: sim.Scenario) -> int | float | Fraction:
    """The exact probability that the first side wins (``sim.win_probability``)."""
    x, y = (len(scenario.forces[s]) for s in scenario.sides)
    r = kill_rate_ratio(scenario)
    rules: DuelRules = scenario.rules
    if rules.duel.law == "square":
        return sim.win_probability(x, y, law="square", r=r)
    a = (r / y) / (r / y + 1 / x)
    return sim.win_probability(x, y, law="linear", a=a)
