"""The skirmish base game's play and services (BASE.S; ``sim.toolkit.skirmish``)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sim.agents.unit import Unit
from sim.catalogue import implements
from sim.engine.clock import Phase
from sim.engine.context import BattleContext
from sim.engine.services import Services
from sim.events import HIT, PIN, RALLY
from sim.toolkit import skirmish
from sim.toolkit.movers import start_moves
from sim.toolkit.targets import GridMemo


@dataclass
class SkirmishState:
    """What the skirmish game keeps during a battle."""

    #: the shooting and assault phases' indexes of the enemies, kept while they stand still
    indexes: GridMemo[Unit] = field(default_factory=GridMemo)


class SkirmishGame:
    """BASE.S: the movers set off, then shooting, then assault."""

    def __init__(self) -> None:
        self.state = SkirmishState()

    def setup(self, battle: BattleContext[Any, SkirmishState]) -> None:
        """Nothing to set up: the modules arm their watches."""

    def on_phase(self, battle: BattleContext[Any, SkirmishState], phase: Phase) -> None:
        """Movement (the movers set off, each as a module may say), shooting or assault."""
        if phase.moves:
            battle.referee.begin_phase()
            start_moves(battle, phase, battle.movers_of(phase.side))
        elif phase.phase == "shooting":
            skirmish.shooting_phase(battle, phase.side, self.state.indexes)
        elif phase.phase == "assault":
            chargers = [u for u in battle.units_of(phase.side) if u.orders.charge]   # as orders now say
            skirmish.assault_phase(battle, phase.side, chargers, self.state.indexes)


class SkirmishServices(Services):
    """BASE.S's services: a hit (BASE.S.HIT), damage, a pin (BASE.S.PIN), keep busy."""

    def __init__(self, battle: BattleContext[Any, Any]) -> None:
        super().__init__(battle)
        self._pinned: dict[str, int] = {}   # pinned by a rule: unit id -> the turn it rallies

    def hit(self, target: Unit, *, by: Unit | None = None, rule: str) -> None:
        """BASE.S.HIT: the target loses ``steps_per_hit`` steps; at 0 it is eliminated."""
        skirmish.apply_hit(self.battle, target, by=by)

    def damage(self, target: Unit, steps: int, *, by: Unit | None = None, rule: str) -> None:
        """The target loses ``steps`` steps (a ``hit`` record under ``rule``); at 0 it is eliminated."""
        battle = self.battle
        if not target.on_board or steps <= 0:
            return
        lost = min(target.steps, steps)
        target.steps -= lost
        battle.record(HIT, rule=rule, unit=target.id, target=target.id, pos=target.pos, node=target.node,
                      by=by.id if by is not None else None, steps_lost=lost, steps_left=target.steps)
        if target.steps <= 0:
            battle.eliminate(target, rule=rule)

    @implements("BASE.S.PIN")
    def pin(self, unit: Unit, *, by: Unit | None = None, rule: str) -> None:
        """BASE.S.PIN: it neither moves nor charges until the start of its side's next turn."""
        battle = self.battle
        if not unit.on_board or unit.pinned:
            return
        unit.flags.add("pinned")
        sides = battle.scenario.sides
        turn = battle.clock.turn + 1
        while sides[(turn - 1) % len(sides)] != unit.side:
            turn += 1
        self._pinned[unit.id] = turn
        battle.record(PIN, rule=rule, unit=unit.id, pos=unit.pos, node=unit.node,
                      by=by.id if by is not None else None, until=turn)

    def release(self, side: str, turn: int) -> None:
        """Busy units whose time is up act again; units pinned by a rule rally (BASE.S.PIN)."""
        super().release(side, turn)
        if not self._pinned:
            return
        for unit in self.battle.units_of(side):
            rallies = self._pinned.get(unit.id)
            if rallies is not None and rallies <= turn:
                del self._pinned[unit.id]
                unit.flags.discard("pinned")
                if unit.on_board:
                    self.battle.record(RALLY, rule="BASE.S.PIN", unit=unit.id, pos=unit.pos,
                                       node=unit.node, success=True)
