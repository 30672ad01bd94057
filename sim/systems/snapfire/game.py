"""The snap-fire module's play: its watch armed, SF.ONCE reset each moving phase, and under
SF.ZOC a non-charging unit that starts inside an enemy's zone leaving it first (its move)."""
from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, Protocol

from sim.agents.movement import movement_process
from sim.agents.unit import Unit
from sim.engine.clock import Phase
from sim.engine.context import BattleContext
from sim.systems.games import ModulePlay
from sim.systems.snapfire.knobs import SnapFireKnobs
from sim.systems.snapfire.watches import SnapFireWatch, ZoneOfControlWatch, reaction_watch


@dataclass
class SnapState:
    """What the snap-fire module keeps during a battle: its watch."""

    watch: SnapFireWatch | ZoneOfControlWatch | None = None


class SnapRules(Protocol):
    """The scenario's ``rules`` under snap fire: ``rules.snapfire`` (and its base game's)."""

    @property
    def snapfire(self) -> SnapFireKnobs:
        """``rules.snapfire``."""


#: The battle as the snap-fire rules see it (``battle.knobs.snapfire`` typed).
SnapBattle = BattleContext[SnapRules, Any]


class SnapFirePlay(ModulePlay):
    """SF on a base game: the reaction watch on every move of a moving phase."""

    def __init__(self) -> None:
        self.state = SnapState()

    def setup(self, battle: SnapBattle) -> None:
        """Arm the reaction the scenario chose (snap fire, or a zone of control)."""
        self.state.watch = reaction_watch(battle.knobs.snapfire)
        battle.referee.add(self.state.watch)

    def phase_starts(self, battle: SnapBattle, phase: Phase) -> None:
        """SF.ONCE starts afresh for the movers of a new moving phase."""
        if phase.moves:
            watch = self.state.watch
            assert watch is not None
            watch.begin_phase(battle.movers_of(phase.side))

    def move_of(self, battle: SnapBattle, unit: Unit,
                phase: Phase) -> Callable[[SnapBattle, Unit, Phase], Generator[Any, Any, None]] | None:
        """Under SF.ZOC a mover first leaves any zone it starts in (that is its move)."""
        return self._leave_then_move if isinstance(self.state.watch, ZoneOfControlWatch) else None

    def _leave_then_move(self, battle: SnapBattle, unit: Unit, phase: Phase) -> Generator[Any, Any, None]:
        watch = self.state.watch
        assert isinstance(watch, ZoneOfControlWatch)
        left = yield from watch.leave_zone(battle, unit)
        if left:
            unit.process = None
            return
        yield from movement_process(battle, unit, phase)
