"""What rules and agents may see of a running battle: the ``BattleContext`` protocol.

A rule system's code, the agents (movement, the referee, sniper teams) and a plug-in's
code talk to the battle only through this protocol. They may *read* everything here;
they may *change* the battle only by writing records (``record``), by the outcomes
(``eliminate``, ``on_arrive``, ``end``), by moving and flagging the units they act on
(``Unit`` fields), through the referee (``referee.add`` / ``begin_phase``) and through
their own system's ``state``, a typed object the system's ``Game`` owns. Nothing else is
ever set on the battle or on a unit.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import simpy

    from sim.agents.plans import Plans
    from sim.agents.referee import Referee
    from sim.agents.unit import Unit
    from sim.engine.clock import TurnClock
    from sim.engine.dice import Dice
    from sim.engine.log import EventLog
    from sim.space.terrain import Terrain
    from sim.systems.registry import Game, RuleSystem


class BattleContext(Protocol):
    """The battle as the rules see it (``sim.engine.battle.Battle`` implements it)."""

    env: simpy.Environment
    clock: TurnClock
    terrain: Terrain
    dice: Dice
    referee: Referee
    log: EventLog
    scenario: Any
    knobs: Any
    system: RuleSystem
    game: Game
    state: Any
    plans: Plans
    attacker: str
    defender: str
    done: simpy.Event

    @property
    def units(self) -> Mapping[str, Unit]:
        """Every unit by id, in scenario order."""

    def units_of(self, side: str) -> list[Unit]:
        """A side's units, in scenario order (every one, on the board or not)."""

    def enemies_of(self, side: str) -> list[Unit]:
        """The other side's units that are on the board, in scenario order."""

    def movers_of(self, side: str) -> list[Unit]:
        """The side's units whose current orders move them."""

    def cover_at(self, unit: Unit) -> int:
        """The cover of the terrain node nearest to the unit."""

    def record(self, event: str, rule: str | None = None, **fields: Any) -> dict[str, Any]:
        """Write one record of the event log at the current instant; returns it."""

    def record_move(self, unit: Unit, move: int, waypoints: list[tuple[float, float]],
                    times: list[float]) -> None:
        """The ``move`` record of a unit setting off, with each waypoint's planned arrival."""

    def record_stop(self, unit: Unit) -> None:
        """The ``stop`` record of a move whose allowance is spent."""

    def record_arrive(self, unit: Unit) -> None:
        """The ``arrive`` record of a mover at its destination, then ``on_arrive``."""

    def eliminate(self, unit: Unit, rule: str | None = None, **fields: Any) -> None:
        """Remove a unit for good (it falls exactly where it is) and log it."""

    def on_arrive(self, unit: Unit) -> None:
        """Tell the battle a unit reached its destination (objective victory)."""

    def end(self, winner: str | None, reason: str) -> None:
        """End the battle now."""
