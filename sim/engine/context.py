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

from typing_extensions import TypeVar

if TYPE_CHECKING:
    import simpy

    from sim.agents.plans import Plans
    from sim.agents.referee import Referee
    from sim.agents.unit import Unit
    from sim.engine.clock import Phase, TurnClock
    from sim.engine.dice import Dice
    from sim.engine.log import EventLog
    from sim.scenario.schema import Scenario
    from sim.space.terrain import Terrain

#: The scenario's ``rules`` (a model assembled per system: ``.base``, ``.<system>``, ...).
RulesT = TypeVar("RulesT", covariant=True, default=Any)
#: The rule system's own typed state (``Game.state``).
StateT = TypeVar("StateT", covariant=True, default=Any)


class BattleContext(Protocol[RulesT, StateT]):
    """The battle as the rules see it (``sim.engine.battle.Battle`` implements it).

    Generic over the scenario's rules and the system's state: a system writes
    ``BattleContext[MyRules, MyState]`` and strict mypy checks its use of both.
    """

    env: simpy.Environment
    clock: TurnClock
    terrain: Terrain
    dice: Dice
    referee: Referee
    log: EventLog
    plans: Plans
    attacker: str
    defender: str
    done: simpy.Event

    @property
    def scenario(self) -> Scenario:
        """The loaded scenario the battle fights (read-only)."""

    @property
    def knobs(self) -> RulesT:
        """The scenario's ``rules``: ``knobs.base`` and ``knobs.<system>`` (read-only)."""

    @property
    def state(self) -> StateT:
        """The rule system's own state for this battle (its ``Game.state``)."""

    @property
    def game(self) -> Game[Any]:
        """The rule system's play for this battle."""

    @property
    def units(self) -> Mapping[str, Unit]:
        """Every unit by id, in scenario order."""

    def units_of(self, side: str) -> list[Unit]:
        """A side's units, in scenario order (every one, on the board or not)."""

    def enemies_of(self, side: str) -> list[Unit]:
        """The other side's units that are on the board, in scenario order."""

    def moves_in_phase(self, unit: Unit) -> int:
        """How many moves the unit's step makes in a moving phase (``RuleSystem.step_moves``, else 1)."""

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


#: A game's state type (invariant: the game both gives it and is handed a battle with it).
GameStateT = TypeVar("GameStateT", default=Any)


class Game(Protocol[GameStateT]):
    """A rule system's play for one battle: it owns the system's typed ``state``."""

    @property
    def state(self) -> GameStateT:
        """The system's own typed state for this battle (``BattleContext.state``)."""

    def setup(self, battle: BattleContext[Any, GameStateT]) -> None:
        """Before the first phase: place units, arm referee watches, start processes."""

    def on_phase(self, battle: BattleContext[Any, GameStateT], phase: Phase) -> None:
        """At the start of every phase of every player-turn."""
