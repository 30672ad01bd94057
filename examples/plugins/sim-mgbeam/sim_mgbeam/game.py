"""The mgbeam game: beams laid at set-up, movers moved in ``advance``, rallies in ``rally``."""
from __future__ import annotations

import sim
from sim.toolkit.movers import move_side
from sim_mgbeam.geometry import beam_end
from sim_mgbeam.model import BEAM, RALLY_PHASE, Beam, BeamBattle, BeamState, beam_units
from sim_mgbeam.watch import BeamWatch


@sim.implements("MG.BEAM")
class BeamGame:
    """Lays every team's beam, moves the movers that are not pinned, rallies the pinned."""

    def __init__(self) -> None:
        self.state = BeamState()

    def setup(self, battle: BeamBattle) -> None:
        """Each machine-gun team lays its beam (a ``beam`` record); the beams' watch is armed."""
        length = battle.knobs.mgbeam.length
        specs = beam_units(battle.scenario)
        for unit in battle.units.values():
            bearing = specs[unit.id].bearing
            if bearing is None or not unit.on_board:
                continue
            beam = self.state.beams[unit.id] = Beam(unit.pos, beam_end(unit.pos, bearing, length))
            battle.record(BEAM, rule="MG.BEAM", unit=unit.id, pos=beam.start, end=beam.end,
                          bearing=bearing, length=length)
        battle.referee.add(BeamWatch(length))

    def on_phase(self, battle: BeamBattle, phase: sim.Phase) -> None:
        """A moving phase moves the phasing side's movers (not the pinned); ``rally`` rallies."""
        if phase.moves:
            move_side(battle, phase)   # the toolkit's: every mover not pinned sets off
        elif phase.phase == RALLY_PHASE:
            rally(battle, phase.side)


@sim.implements("MG.RALLY")
def rally(battle: BeamBattle, side: str) -> None:
    """Each pinned unit of ``side`` rolls d6 and rallies (is pinned no more) on >= its morale."""
    for unit in battle.units_of(side):
        if not unit.on_board or not unit.pinned:
            continue
        (face,) = battle.dice.roll(unit.id, "MG.RALLY")
        need = unit.morale
        rallied = face >= need
        battle.record(sim.events.RALLY, rule="MG.RALLY", unit=unit.id, pos=unit.pos, dice=[face],
                      mods=0, need=need, success=rallied)
        if rallied:
            unit.flags.discard("pinned")


def check(c: sim.Checks) -> None:
    """A machine-gun team holds: its beam is laid from where it stands, once."""
    scenario: sim.Scenario = c.scenario
    specs = beam_units(scenario)
    for side in scenario.sides:
        for i, spec in enumerate(scenario.forces[side]):
            if specs[spec.id].bearing is not None and (spec.plan is not None or spec.orders.type != "hold"):
                c.fail("a machine-gun team (a unit with a bearing) holds: its beam is fixed "
                       "(expected orders of type hold and no plan)", "forces", side, i,
                       "orders" if spec.plan is None else "plan")
