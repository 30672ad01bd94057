"""The snap-fire game: movement (with snap fire or a zone of control), shooting, assault.

Only units with orders to move are ever fired at, or move; the phase's movers each get a
movement process. Under SF.ZOC a non-charging unit that starts inside an enemy's zone
leaves it first, and that is its move.
"""
from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any, Protocol

from sim.agents.movement import movement_process
from sim.agents.unit import Unit
from sim.catalogue import implements
from sim.engine.clock import Phase
from sim.engine.context import BattleContext
from sim.systems.snapfire.knobs import SnapFireKnobs
from sim.systems.snapfire.watches import SnapFireWatch, ZoneOfControlWatch, reaction_watch
from sim.toolkit import skirmish
from sim.toolkit.movers import start_moves
from sim.toolkit.skirmish import SkirmishKnobs
from sim.toolkit.targets import GridMemo


@dataclass
class SnapState:
    """What the snap-fire system keeps during a battle."""

    watch: SnapFireWatch | ZoneOfControlWatch | None = None
    #: the shooting and assault phases' indexes of the enemies, kept while they stand still
    indexes: GridMemo[Unit] = field(default_factory=GridMemo)


class SnapRules(Protocol):
    """The scenario's ``rules`` under snap fire: ``rules.base`` and ``rules.snapfire``."""

    @property
    def base(self) -> SkirmishKnobs:
        """``rules.base``."""

    @property
    def snapfire(self) -> SnapFireKnobs:
        """``rules.snapfire``."""


#: The battle as the snap-fire rules see it (``battle.knobs.snapfire``, ``battle.state`` typed).
SnapBattle = BattleContext[SnapRules, SnapState]


class SnapFireGame:
    """SF: movement (with snap fire or a zone of control), shooting, assault."""

    def __init__(self) -> None:
        self.state = SnapState()

    def setup(self, battle: SnapBattle) -> None:
        st = self.state
        st.watch = reaction_watch(battle.knobs.snapfire)
        battle.referee.add(st.watch)

    def on_phase(self, battle: SnapBattle, phase: Phase) -> None:
        if phase.phase == "movement":
            movers = battle.movers_of(phase.side)
            watch = self.state.watch
            assert watch is not None
            watch.begin_phase(movers)
            battle.referee.begin_phase()
            # Without a zone to leave, the move is the process itself: one generator less
            # to pass every segment's event through.
            leaves = isinstance(watch, ZoneOfControlWatch)
            start_moves(battle, phase, movers, move=self._move if leaves else movement_process)
        elif phase.phase == "shooting":
            skirmish.shooting_phase(battle, phase.side, self.state.indexes)
        elif phase.phase == "assault":
            chargers = [u for u in battle.units_of(phase.side) if u.orders.charge]   # as orders now say
            self._assault(battle, phase.side, chargers)

    @implements("SF.NOASSAULT")
    def _assault(self, battle: SnapBattle, side: str, chargers: list[Unit]) -> None:
        """The skirmish game's assault: its charges are never watched, so no snap fire."""
        skirmish.assault_phase(battle, side, chargers, self.state.indexes)

    def _move(self, battle: SnapBattle, unit: Unit, phase: Phase) -> Generator[Any, Any, None]:
        watch = self.state.watch
        assert isinstance(watch, ZoneOfControlWatch)
        left = yield from watch.leave_zone(battle, unit)
        if left:
            unit.process = None
            return
        yield from movement_process(battle, unit, phase)
