"""The ground watches: entering a field (MF.ENTER), each further ``step`` inside it (MF.STEP,
MF.BLAST), and wire (MF.WIRE). The referee finds each instant exactly (a segment against a
polygon or a line) and counts the length walked inside each field (``referee.progress``)."""
from __future__ import annotations

from typing import Any

import sim.plugin as sp
from sim_minefield.model import ENTER_FIELD, MINE, MinefieldRules

Battle = sp.BattleContext[MinefieldRules, Any]


class EnterField(sp.GroundWatch):
    """MF.ENTER: a mover passes into a minefield: it is recorded, and carries on."""

    rule = "MF.ENTER"

    def react(self, battle: Battle, mover: sp.Unit, trigger: sp.GroundTrigger) -> sp.Outcome:
        """An ``enter_field`` record where it went in; the mover carries on."""
        battle.record(ENTER_FIELD, rule=self.rule, unit=mover.id, pos=mover.pos, node=mover.node,
                      feature=trigger.feature.id)
        return sp.Outcome.CONTINUE


class FieldStep(sp.GroundWatch):
    """MF.STEP and MF.BLAST: each further ``step`` inside the field, a mine may go off."""

    rule = "MF.STEP"

    def __init__(self, area: sp.Area, step: float, need: int) -> None:
        super().__init__(area, sp.GroundEvent.EVERY, every=step)
        self.need = need

    def react(self, battle: Battle, mover: sp.Unit, trigger: sp.GroundTrigger) -> sp.Outcome:
        """The d6 against the field's ``need``; a mine that goes off damages the mover."""
        area = trigger.feature
        assert isinstance(area, sp.Area)
        inside = battle.referee.progress(mover, area)
        (face,) = battle.dice.roll(mover.id, self.rule)
        success = face >= self.need
        battle.record(MINE, rule=self.rule, unit=mover.id, pos=mover.pos, node=mover.node, feature=area.id,
                      inside=inside, dice=[face], mods=0, need=self.need, success=success)
        if success:
            battle.services.damage(mover, battle.knobs.minefield.damage, rule="MF.BLAST")
        return sp.Outcome.CONTINUE if mover.on_board else sp.Outcome.DEAD


class Wire(sp.GroundWatch):
    """MF.WIRE: a mover that comes to the wire is halted on it and kept busy cutting it."""

    rule = "MF.WIRE"

    def react(self, battle: Battle, mover: sp.Unit, trigger: sp.GroundTrigger) -> sp.Outcome:
        """A ``halt`` record on the wire; the mover is kept busy for ``wire_turns`` turns."""
        battle.record(sp.events.HALT, rule=self.rule, unit=mover.id, pos=mover.pos, node=mover.node,
                      feature=trigger.feature.id)
        battle.services.keep_busy(mover, battle.knobs.minefield.wire_turns, rule=self.rule)
        return sp.Outcome.HALT_PHASE_RECORDED
