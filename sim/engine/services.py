"""The base game's services: how a rule module changes a unit's combat state.

A rule module (snap fire, a minefield) does not decide what a hit does to a unit: the
scenario's base game does (the skirmish game takes a step off, BASE.F rolls a save). The
module asks the base through ``battle.services``, and the base's answer is its own rules:

* ``hit(target, by=, rule=)``: one hit scored on ``target``, with the base's effect;
* ``damage(target, steps, by=, rule=)``: ``steps`` steps taken off it;
* ``pin(unit, by=, rule=)``: it is pinned (the base says what that stops, and how it ends);
* ``keep_busy(unit, turns, rule=)``: it does nothing (no move, no shot, no assault) for the
  rest of this turn and its side's next ``turns`` player-turns; ``busy`` then ``ready``
  records say so (the kernel's own, in every base that provides it);
* ``eliminate(unit, rule=)``: it is removed for good (every base);
* ``can_react(unit)``: whether it may take a reaction a module offers (every base says;
  by default any unit not kept busy).

A base game declares which of the first four it ``provides`` (``Service``); a module
declares which it needs, and a scenario whose base lacks one is refused when it is read.
``Services`` is the class a base's services derive from: it answers ``eliminate`` and
``keep_busy`` itself and refuses the others, which a base overrides.
"""
from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sim.agents.unit import Unit
    from sim.engine.context import BattleContext

from sim.events import BUSY, READY

__all__ = ["Service", "Services"]

class Service(enum.Enum):
    """A service a base game may provide to the rule modules on it."""

    HIT = "the hit service"
    DAMAGE = "the damage service"
    PIN = "the pin service"
    KEEP_BUSY = "the keep-busy service"


class Services:
    """A base game's services for one battle (``battle.services``).

    ``eliminate`` and ``keep_busy`` are the kernel's; a base overrides ``hit``, ``damage``
    and ``pin`` for those it provides. The rest raise: a module that calls a service its
    declared needs do not include is a bug of the module.
    """

    def __init__(self, battle: BattleContext[Any, Any]) -> None:
        self.battle = battle
        self._until: dict[str, int] = {}   # a busy unit's id -> the turn it acts again

    def hit(self, target: Unit, *, by: Unit | None = None, rule: str) -> None:
        """One hit scored on ``target`` (by ``by``, under ``rule``): the base's effect of a hit."""
        raise NotImplementedError(f"this base game has no hit service (rule {rule})")

    def damage(self, target: Unit, steps: int, *, by: Unit | None = None, rule: str) -> None:
        """``steps`` steps taken off ``target``; at none left it is eliminated."""
        raise NotImplementedError(f"this base game has no damage service (rule {rule})")

    def pin(self, unit: Unit, *, by: Unit | None = None, rule: str) -> None:
        """``unit`` is pinned (the base game says what that stops and how it ends)."""
        raise NotImplementedError(f"this base game has no pin service (rule {rule})")

    def eliminate(self, unit: Unit, *, rule: str) -> None:
        """``unit`` is removed for good (``battle.eliminate``)."""
        self.battle.eliminate(unit, rule=rule)

    def can_react(self, unit: Unit) -> bool:
        """Whether ``unit`` may take a reaction a rule module offers (snap fire): yes, unless busy."""
        return "busy" not in unit.flags

    def able_to_react(self, units: Iterable[Unit]) -> list[Unit]:
        """Those of ``units`` that ``can_react``, in order."""
        if type(self).can_react is Services.can_react:
            # can_react's own rule, without a call a unit: a module asks it of every reactor
            return [u for u in units if "busy" not in u.flags]
        can_react = self.can_react
        return [u for u in units if can_react(u)]

    def keep_busy(self, unit: Unit, turns: int, *, rule: str) -> None:
        """``unit`` does nothing for the rest of this turn and its side's next ``turns`` turns."""
        if not unit.on_board or turns < 0:
            return
        battle = self.battle
        sides = battle.scenario.sides
        own_next = battle.clock.turn + 1   # its side's next player-turn ...
        while sides[(own_next - 1) % len(sides)] != unit.side:
            own_next += 1
        # ... and ``turns`` of its own from there: it acts again at the one after
        until = max(self._until.get(unit.id, 0), own_next + len(sides) * turns)
        self._until[unit.id] = until
        unit.flags.add("busy")
        battle.record(BUSY, rule=rule, unit=unit.id, pos=unit.pos, node=unit.node, turns=turns, until=until)

    def release(self, side: str, turn: int) -> None:
        """At the start of ``side``'s player-turn ``turn``: its units whose time is up act again."""
        if not self._until:
            return
        battle = self.battle
        for unit in battle.units_of(side):
            until = self._until.get(unit.id)
            if until is not None and until <= turn:
                del self._until[unit.id]
                unit.flags.discard("busy")
                if unit.on_board:
                    battle.record(READY, rule=None, unit=unit.id, pos=unit.pos, node=unit.node)
