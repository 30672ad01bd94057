"""Decision points: the moments of a battle at which a branch gives new orders.

A point is data (a study's ``branch.at``, ``sim.branch``'s ``at``), one of:

* ``{turn: 5, phase: movement}``: the start of that phase of that player-turn (``phase``
  defaults to the rule system's first phase in which units move);
* ``{halted: a1}``: a unit's first halt by a reaction (a ``halt`` record, or a ``stop``
  whose reason is ``halted``), right after the record;
* ``{side: blue, when: {...}}``: the start of the first of ``side``'s movement phases at
  which the condition holds (a plan step's ``when``, its events counted from the battle's
  start; no ``self``, ``enemy_within`` or ``in_phase``: they need a unit's own step).

At a phase's start a point is taken after the phase's plans are brought up to date and
before its rules play it, so new orders of the phasing side move its units at once.
"""
from __future__ import annotations

from typing import Any

from pydantic import Field, ValidationError, model_validator

from sim.agents.plan_facts import EVENT_FACTS, Facts
from sim.errors import InputError
from sim.scenario.orders import Condition
from sim.systems.knobs import Sealed

__all__ = ["At", "at_point", "describe_at"]


class At(Sealed):
    """A decision point: ``turn`` (and ``phase``), ``halted``, or ``side`` with ``when``."""

    turn: int | None = Field(None, ge=1, le=1000, description=(
        "the player-turn (as the log's `turn`) at whose `phase` the branch is taken"))
    phase: str | None = Field(None, min_length=1, description=(
        "with `turn`: the phase (default: the rule system's first phase in which units move)"))
    halted: str | None = Field(None, min_length=1, description=(
        "a unit id: the branch is taken right after the unit's first halt by a reaction"))
    side: str | None = Field(None, min_length=1, description=(
        "with `when`: the side at whose movement phases the condition is looked at"))
    when: Condition | None = Field(None, description=(
        "with `side`: the branch is taken at the first of its movement phases at which this "
        "holds (a step's `when`: its events counted from the battle's start)"))

    @model_validator(mode="after")
    def _one_kind(self) -> At:
        kinds = [k for k, on in (("turn", self.turn is not None), ("halted", self.halted is not None),
                                 ("when", self.when is not None)) if on]
        if len(kinds) != 1:
            raise ValueError("give exactly one of 'turn' (and 'phase'), 'halted', or 'when' (and 'side')")
        if self.phase is not None and self.turn is None:
            raise ValueError("'phase' goes with 'turn'")
        if (self.side is None) != (self.when is None):
            raise ValueError("'when' and 'side' go together")
        w = self.when
        if w is not None:
            if w.enemy_within is not None or w.in_phase is not None:
                raise ValueError("a decision point's 'when' has no 'enemy_within' or 'in_phase' "
                                 "(they need a unit's own step)")
            if any(getattr(w, f) == "self" for f in EVENT_FACTS):
                raise ValueError("a decision point's 'when' names a unit, not 'self'")
        return self


def at_point(value: Any, scenario: Any, source: str = "at") -> At:
    """``value`` (a mapping or an ``At``) checked against ``scenario``; else an ``InputError``."""
    if not isinstance(value, At):
        if not isinstance(value, dict):
            raise InputError("expected a mapping: {turn, phase}, {halted} or {side, when}", place=source)
        try:
            value = At.model_validate(value)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join([source, *map(str, err["loc"])])
            msg = err.get("msg", "invalid value").removeprefix("Value error, ")
            raise InputError(msg if err["type"] == "value_error" else f"{msg} (got {err.get('input')!r})",
                             place=where) from None
    ids = {spec.id for _, spec in scenario.units()}
    phases = [p.name for p in scenario.composition.phases]

    def fail(msg: str, key: str) -> InputError:
        return InputError(msg, place=f"{source}.{key}")

    if value.turn is not None:
        if value.turn > scenario.turns:
            raise fail(f"turn {value.turn} is after the battle's last ({scenario.turns})", "turn")
        if value.phase is not None and value.phase not in phases:
            raise fail(f"no phase '{value.phase}' (expected one of {phases})", "phase")
    if value.halted is not None and value.halted not in ids:
        raise fail(f"no unit '{value.halted}' in the scenario", "halted")
    if value.side is not None and value.side not in scenario.sides:
        raise fail(f"no side '{value.side}' (expected one of {scenario.sides})", "side")
    w = value.when
    if w is not None:
        for f in EVENT_FACTS:
            who = getattr(w, f)
            if who is not None and who not in ids:
                raise fail(f"no unit '{who}' in the scenario", f"when.{f}")
        a = w.arrived
        if a is not None and (a.unit or a.group) not in (ids | set(scenario.groups)):
            raise fail(f"no unit or group '{a.unit or a.group}' in the scenario", "when.arrived")
    return value


def moving_phase(scenario: Any) -> str:
    """The rule system's first phase in which units move (a ``turn`` point's default)."""
    system = scenario.composition
    return next((p.name for p in system.phases if p.moves), system.phases[0].name)


def describe_at(at: At, scenario: Any) -> str:
    """A point in the words of the ``decide`` record a branch writes (its ``trigger``)."""
    if at.turn is not None:
        return f"turn {at.turn} {at.phase or moving_phase(scenario)}"
    if at.halted is not None:
        return f"{at.halted} halted"
    assert at.when is not None
    return f"{at.side}: " + ", ".join(f"{k} {v}" for k, v in at.when.model_dump(exclude_none=True).items())


def holds(at: At, battle: Any, facts: dict[str, Facts], phase: Any) -> bool:
    """Whether a ``when`` point holds at the start of ``phase`` (one of its side's moving ones)."""
    w = at.when
    assert w is not None
    if not phase.moves or phase.side != at.side:
        return False
    if w.from_turn is not None and phase.turn < w.from_turn:
        return False
    for f in EVENT_FACTS:
        who = getattr(w, f)
        if who is not None and not getattr(facts[who], f):
            return False
    return w.arrived is None or battle.plans.arrived(w.arrived, facts)
