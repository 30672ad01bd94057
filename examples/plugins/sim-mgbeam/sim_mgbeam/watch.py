"""The beam as a referee watch: movers are halted exactly where they cross it."""
from __future__ import annotations

import sim
from sim_mgbeam.geometry import Point, crossing
from sim_mgbeam.model import BEAM_CROSS, BeamBattle


@sim.implements("MG.HALT")
class BeamWatch(sim.Watch):
    """Every beam of the other side: a mover crossing one is halted there and rolled at.

    ``radius`` is the beam length: every point of a beam is within it of its team, so the
    referee's grid offers each team whose beam a segment may cross; ``first_moment`` then
    says where along the segment (if anywhere) it crosses the beam.
    """

    rule = "MG.HALT"
    delays = True

    def __init__(self, length: float) -> None:
        self.radius = length

    def active(self, battle: BeamBattle, mover: sim.Unit) -> bool:
        """Beams watch moves made in a moving phase."""
        return battle.clock.current.moves

    def reactors(self, battle: BeamBattle, side: str) -> list[sim.Unit]:
        """The other side's machine-gun teams on the board."""
        beams = battle.state.beams
        return [u for u in battle.enemies_of(side) if u.id in beams]

    def inside_triggers(self, battle: BeamBattle, reactor: sim.Unit, mover: sim.Unit, p0: Point,
                        p1: Point) -> bool:
        """A mover within the beam's length of the team may still cross it, moving closer or not."""
        return True

    def first_moment(self, battle: BeamBattle, reactor: sim.Unit, mover: sim.Unit, p0: Point, p1: Point,
                     s: float) -> float | None:
        """The fraction of p0→p1 at which it crosses the team's beam (``geometry.crossing``)."""
        beam = battle.state.beams[reactor.id]
        t = crossing(p0, p1, beam.start, beam.end)
        # The crossing is within the radius, so never before the entry s but by rounding.
        return None if t is None else max(t, s)

    @sim.implements("MG.HALT", "MG.PIN")
    def react(self, battle: BeamBattle, mover: sim.Unit, trigger: sim.Trigger) -> sim.Outcome:
        """Halt the mover where it crossed (one ``halt`` record), roll to pin it."""
        team, state = trigger.reactor, battle.state
        now = battle.env.now
        if state.halted.get(mover.id) != now:   # beams crossed at one instant: one halt
            state.halted[mover.id] = now
            battle.record(sim.events.HALT, rule="MG.HALT", unit=mover.id, pos=mover.pos,
                          node=mover.node, firer=team.id, firer_pos=team.pos)
        need = battle.knobs.mgbeam.pin_need
        (face,) = battle.dice.roll(team.id, "MG.PIN")
        pinned = face >= need
        battle.record(BEAM_CROSS, rule="MG.PIN", unit=team.id, target=mover.id, pos=mover.pos,
                      dice=[face], mods=0, need=need, success=pinned)
        if pinned and not mover.pinned:
            mover.flags.add("pinned")
            battle.record(sim.events.PIN, rule="MG.PIN", unit=mover.id, pos=mover.pos, by=team.id)
        return sim.Outcome.HALT_PHASE_RECORDED
