"""TOO opportunity fire (TOO.OPP, TOO.ALERT): a referee watch of radius ``opp_range``.

A mover is fired at the first moment it is within range, in LOS and in the arc, solved
exactly along each straight segment on the tabletop (``sim.systems.too.sight``: it steps
out from behind a wall, or into the arc, and is fired at right there). On a hex map sight
changes hex by hex; there the watch looks at the moment it comes in range and again at
each later waypoint. A sniper fires only at the target it has acquired (TOO.OPP);
another figure at any mover. Each alert figure fires at most once per enemy turn.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import shapely

from sim.agents.outcome import Outcome
from sim.agents.referee import Trigger, Watch
from sim.agents.unit import Unit
from sim.catalogue import implements
from sim.engine.context import BattleContext
from sim.space.geometry import dist, lerp, reach
from sim.space.terrain import Terrain
from sim.systems.too.events import OPP_FIRE
from sim.systems.too.figure import Figure
from sim.systems.too.fire import attack
from sim.systems.too.sight import first_true, sight_changes
from sim.systems.too.state import TooState
from sim.systems.too.tables import range_band, scoped, within_facing
from sim.toolkit.reactions import take

Point = tuple[float, float]


@implements("TOO.OPP", "TOO.ALERT")
class OpportunityWatch(Watch):
    """Opportunity fire by figures on alert, at any point of an enemy's path."""

    rule = "TOO.OPP"

    def __init__(self, st: TooState):
        self.st = st
        self.radius = st.k.opp_range
        self._blocking: Any = None   # the sight-blocking polygons, found at first use

    def active(self, battle: BattleContext, mover: Unit) -> bool:
        return battle.clock.current.moves and mover.id in self.st.figs

    def reactors(self, battle: BattleContext, side: str) -> list[Unit]:
        return [f.unit for f in self.st.enemy_figs(side) if f.alive and f.alert is not None]

    def eligible(self, battle: BattleContext, reactor: Unit, mover: Unit) -> bool:
        f, m = self.st.figs[reactor.id], self.st.figs[mover.id]
        a, turn = f.alert, battle.clock.turn
        if a is None or a.armed_turn != turn or f.opp_fired_turn == turn or not f.can_act:
            return False
        if f.sniper and f.acquired != m.id:
            return False
        return ((f.id, m.id, battle.env.now) not in self.st.declined
                and (f.id, m.id) not in self.st.refused)

    def _ok(self, battle: BattleContext, f: Figure, m: Figure, point: Point) -> bool:
        assert f.alert is not None
        return (not m.hidden and self.st.sees(battle, f, m, at=point)
                and within_facing(f.alert.arc, f.unit.pos, point, self.st.k.fire_arc_half))

    def inside_triggers(self, battle: BattleContext, reactor: Unit, mover: Unit, p0: Point,
                        p1: Point) -> bool:
        return True  # first_moment decides, from the segment's start

    # The moment a mover comes within range it may still be out of sight or arc: the
    # watch then fires the moment, later on the same segment, it comes into both.
    delays = True

    def first_moment(self, battle: BattleContext, reactor: Unit, mover: Unit, p0: Point, p1: Point,
                     s: float) -> float | None:
        f, m = self.st.figs[reactor.id], self.st.figs[mover.id]
        if m.hidden:
            return None
        r = reach(self.radius)  # the entry point lies on the radius, to first_root's tolerance

        def fires(t: float) -> bool:
            q = lerp(p0, p1, t)
            return dist(f.unit.pos, q) <= r and self._ok(battle, f, m, q)

        if fires(s):
            return s
        terrain = battle.terrain
        if terrain.kind != "table":  # hex sight changes hex by hex: looked at again
            return None              # from the next waypoint on
        k = self.st.k
        assert f.alert is not None
        cuts = sight_changes(f.unit.pos, p0, p1, self._walls(terrain, f.unit.pos, p0, p1),
                             (self.radius, k.search_range),
                             (f.alert.arc - k.fire_arc_half, f.alert.arc + k.fire_arc_half))
        return first_true(fires, s, cuts)

    def _walls(self, terrain: Terrain, f: Point, p0: Point, p1: Point) -> list[Any]:
        """The sight-blocking polygons that meet the triangle (f, p0, p1): no other can
        touch a sight line from f to the segment."""
        if self._blocking is None:
            self._blocking = np.array([a.polygon for a in terrain.areas if a.type.blocks_sight],
                                      dtype=object)
        if not len(self._blocking):
            return []
        hull = shapely.MultiPoint([f, p0, p1]).convex_hull
        return list(self._blocking[shapely.intersects(self._blocking, hull)])

    def react(self, battle: BattleContext, mover: Unit, trigger: Trigger) -> Outcome:
        st = self.st
        f, m = st.figs[trigger.reactor.id], st.figs[mover.id]
        # Armed when the segment began, the moment may find the figure no longer able
        # to fire: it fired at another mover meanwhile (once per enemy turn), or fell.
        if (not trigger.reactor.on_board or not self.eligible(battle, trigger.reactor, mover)
                or not self._ok(battle, f, m, mover.pos)):
            st.declined.add((f.id, m.id, battle.env.now))
            return Outcome.CONTINUE
        # "may attack": the side's policy decides, on the attack's chance (BASE.T.RANGE)
        bands = st.k.range_bands
        band = range_band(dist(f.unit.pos, mover.pos), bands)
        need = int(bands[scoped(band) if f.sniper else band][2])
        rule = "TOO.OPP" if f.sniper else "TOO.ALERT"
        if not take(battle, trigger.reactor, mover, rule, max(0, min(10, 11 - need)) / 10,
                    st.k.take_reactions):
            st.refused.add((f.id, m.id))
            return Outcome.CONTINUE
        f.opp_fired_turn = battle.clock.turn
        assert f.alert is not None
        battle.record(OPP_FIRE, rule="TOO.OPP" if f.sniper else "TOO.ALERT", unit=f.id,
                      target=m.id, pos=f.unit.pos, target_pos=mover.pos, option=f.alert.option,
                      dist=dist(f.unit.pos, mover.pos), acquired_turn=f.acquired_turn if f.sniper else None)
        attack(battle, st, f, m, opp=True)
        if not mover.on_board:
            return Outcome.DEAD
        if not m.can_move:
            return Outcome.HALT_PHASE
        return Outcome.CONTINUE
