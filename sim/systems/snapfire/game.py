"""The snap-fire module's play: the chosen reaction kind's watch armed, told of each moving
phase (SF.ONCE resets), and a mover doing first what the kind says it must (under SF.ZOC a
non-charging unit that starts inside an enemy's zone leaves it: its move)."""
from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, Protocol

from sim.agents.movement import movement_process
from sim.agents.unit import Unit
from sim.engine.clock import Phase
from sim.engine.context import BattleContext
from sim.systems.games import ModulePlay
from sim.systems.registry import REGISTRY
from sim.systems.snapfire.knobs import SnapFireKnobs
from sim.systems.snapfire.reactions import PhasedWatch, SnapReaction


@dataclass
class SnapState:
    """What the snap-fire module keeps during a battle: its reaction kind and that kind's watch."""

    kind: SnapReaction | None = None
    watch: PhasedWatch | None = None


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
        """Arm the reaction kind the scenario chose (snap fire, a zone of control, ...)."""
        knobs = battle.knobs.snapfire
        self.state.kind = REGISTRY.reactions.get(knobs.reaction)
        self.state.watch = self.state.kind.watch(knobs)
        battle.referee.add(self.state.watch)
        self.takes_moves = self.state.kind.before_move is not None   # a mover must do something first

    def phase_starts(self, battle: SnapBattle, phase: Phase) -> None:
        """SF.ONCE starts afresh for the movers of a new moving phase."""
        if phase.moves:
            watch = self.state.watch
            assert watch is not None
            watch.begin_phase(battle.movers_of(phase.side))

    def move_of(self, battle: SnapBattle, unit: Unit,
                phase: Phase) -> Callable[[SnapBattle, Unit, Phase], Generator[Any, Any, None]] | None:
        """A mover first does what the reaction kind says (SF.ZOC: leave a zone it starts in)."""
        kind = self.state.kind
        return self._first_then_move if kind is not None and kind.before_move is not None else None

    def _first_then_move(self, battle: SnapBattle, unit: Unit, phase: Phase) -> Generator[Any, Any, None]:
        kind, watch = self.state.kind, self.state.watch
        assert kind is not None and kind.before_move is not None and watch is not None
        done = yield from kind.before_move(watch, battle, unit)
        if done:
            unit.process = None
            return
        yield from movement_process(battle, unit, phase)
