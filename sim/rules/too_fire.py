"""TOO fire: target choice, acquisition, the attack, damage and save, opportunity fire.

``TooFire`` is a mixin of ``sim.rules.too.TooGame`` (it uses the game's ``k``, ``figs``,
``order``, ``enemy_figs``, ``visible``, ``sees`` and ``cover_of``); ``OpportunityWatch``
is the referee watch the game installs at setup.

* Target choice: enemy snipers first, then the target whose LOS was lost, then (for a
  figure on alert) enemies that moved in their last turn, then the nearest; file order.
* TOO.KEEP: a sniper keeps a target acquired in an earlier turn while it keeps LOS;
  lost LOS is logged (``lose_target``) and the re-acquisition gets −1.
* TOO.ACQ: d6 + modifiers <= the sniper's morale acquires the target.
* An attack (BASE.T.RANGE, our base game): d10 >= the band's base number; a sniper
  shoots one band closer (TOO.SCOPE). A hit rolls TOO.DAMAGE (d10 + d6), then TOO.SAVE;
  a saved hit has no effect. After an attack by a hidden figure the enemies in sight
  may check to spot it (TOO.FACING, TOO.REHIDE: ``sim.rules.too_spotting``).
* Opportunity fire (TOO.OPP, TOO.ALERT) is a referee watch of radius ``opp_range``: a
  mover is fired at the first moment it is within range, in LOS and in the arc, solved
  exactly along each straight segment on the tabletop (``sim.rules.too_sight``: it
  steps out from behind a wall, or into the arc, and is fired at right there). On a hex
  map sight changes hex by hex; there the watch looks at the moment it comes in range
  and again at each later waypoint. A sniper fires only at the target it has acquired
  (TOO.OPP); another figure at any mover. Each alert figure fires at most once per
  enemy turn.

TOO.DAMAGE records have ``need`` null and ``success`` = killed outright (``dies_in`` 0).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import shapely

from sim.agents.figure import Figure, Wound, death_turn
from sim.agents.referee import Trigger, Watch
from sim.rules.registry import implements
from sim.rules.too_tables import acq_mods, damage, range_band, scoped, within_facing
from sim.rules.too_sight import first_true, sight_changes
from sim.space.geometry import dist, lerp, reach

if TYPE_CHECKING:
    from sim.rules.too import TooGame


class TooFire:
    """The fire half of ``TooGame``: choosing, acquiring and shooting a target."""

    # -- target choice ---------------------------------------------------------------
    def moved_lately(self, t: Figure, turn: int) -> bool:
        return t.moved_turn >= turn - 1 and t.moved_turn > 0

    def _choose_target(self, battle, f: Figure):
        """Enemy snipers first, then the target whose LOS was lost, then (for a figure on
        alert) enemies that moved in their last turn, then the nearest; file order."""
        turn = battle.clock.turn
        seen = [(not e.sniper, e.id != f.lost_target,
                 f.alert is not None and not self.moved_lately(e, turn),
                 dist(f.unit.pos, e.unit.pos), self.order.index(e.id), e)
                for e in self.enemy_figs(f.side) if self.visible(battle, f, e)]
        return min(seen, key=lambda x: x[:5])[5] if seen else None

    # -- TOO.ACQ / TOO.KEEP ----------------------------------------------------------
    @implements("TOO.KEEP")
    def _kept_target(self, battle, f: Figure):
        if f.acquired is None:
            return None
        t = self.figs[f.acquired]
        if not t.alive:
            f.acquired = None
            return None
        if self.visible(battle, f, t):
            return t
        battle.record("lose_target", rule="TOO.KEEP", unit=f.id, target=t.id, pos=f.unit.pos,
                      target_pos=t.unit.pos, hidden=t.hidden)
        f.acquired, f.lost_target = None, t.id
        return None

    def ran(self, t: Figure, turn: int) -> bool:
        return t.moving_full or (t.moved_full and t.moved_turn >= turn - 1)

    @implements("TOO.ACQ", "TOO.KEEP")
    def _acquire(self, battle, f: Figure, t: Figure, turn: int) -> bool:
        vehicle = (t.move_fraction if t.unit.kind == "vehicle" and t.moved_turn >= turn - 1 else None)
        reacquire = f.lost_target == t.id
        mods, terms = acq_mods(target_ran=self.ran(t, turn), attacker_moved=f.moved_turn == turn,
                               vehicle_fraction=vehicle, target_cover=self.cover_of(battle, t),
                               attacker_wounded=f.wounded, reacquire=reacquire,
                               cover_mods=self.k.acq_cover_mods)
        (face,) = battle.dice.roll(f.id, "TOO.ACQ")
        ok = face + mods <= f.morale
        battle.record("acquire", rule="TOO.ACQ", unit=f.id, target=t.id, pos=f.unit.pos,
                      dice=[face], mods=mods, need=f.morale, success=ok, terms=terms,
                      reacquire=reacquire)
        if ok:
            f.acquired, f.acquired_turn, f.lost_target = t.id, turn, None
        return ok

    # -- attacks ---------------------------------------------------------------------
    @implements("BASE.T.RANGE", "TOO.SCOPE")
    def _attack(self, battle, f: Figure, t: Figure, opp: bool) -> bool:
        bands = self.k.range_bands
        d = dist(f.unit.pos, t.unit.pos)
        i = range_band(d, bands)
        j = scoped(i) if f.sniper else i
        if f.sniper:
            battle.record("scope", rule="TOO.SCOPE", unit=f.id, target=t.id, dist=d,
                          band=bands[i][0], shot_band=bands[j][0])
        need = int(bands[j][2])
        (face,) = battle.dice.roll(f.id, "BASE.T.RANGE", 1, 10)
        ok = face >= need
        battle.record("attack", rule="BASE.T.RANGE", unit=f.id, target=t.id, pos=f.unit.pos,
                      target_pos=t.unit.pos, dice=[face], mods=0, need=need, success=ok,
                      band=bands[j][0], dist=d, opp=opp, weapon="sniper_rifle" if f.sniper else "rifle")
        if ok:
            self.hit(battle, t, f)
        if f.hidden:
            self._after_attack(battle, f, opp)
        return ok

    @implements("TOO.DAMAGE", "TOO.SAVE")
    def hit(self, battle, t: Figure, by: Figure) -> dict:
        """TOO.DAMAGE then TOO.SAVE: a saved hit does nothing; else kill or wound."""
        d10 = battle.dice.roll(by.id, "TOO.DAMAGE", 1, 10)[0]
        d6 = battle.dice.roll(by.id, "TOO.DAMAGE", 1, 6)[0]
        res = damage(d10, d6)
        unit = t.unit
        battle.record("hit", rule="TOO.DAMAGE", unit=t.id, target=t.id, by=by.id, pos=unit.pos,
                      node=unit.node, dice=[d10, d6], mods=0, need=None,
                      success=res["dies_in"] == 0, **res)
        cls = self.cover_of(battle, t)
        need = int(self.k.save_need[cls])
        (face,) = battle.dice.roll(t.id, "TOO.SAVE")
        saved = face >= need
        battle.record("save", rule="TOO.SAVE", unit=t.id, pos=unit.pos, dice=[face], mods=0,
                      need=need, success=saved, cover=cls)
        res["saved"] = saved
        if saved:
            return res
        turn = battle.clock.turn
        if res["dies_in"] == 0:
            battle.eliminate(unit, rule="TOO.DAMAGE", reason="killed", location=res["location"])
            return res
        at = death_turn(turn, res["dies_in"], battle.clock, t.side, self.k.bleed_clock)
        t.wounds.append(Wound(res["location"], res["body_side"], res["dies_in"], res["effect"],
                              hit_turn=turn, dies_at_turn=at))
        if res["effect"] == "drops_item":
            t.skip_action = True
        battle.record("wound", rule="TOO.DAMAGE", unit=t.id, pos=unit.pos, location=res["location"],
                      body_side=res["body_side"], dies_in=res["dies_in"], dies_at_turn=at,
                      effect=res["effect"])
        return res


@implements("TOO.OPP", "TOO.ALERT")
class OpportunityWatch(Watch):
    """Opportunity fire by figures on alert, at any point of an enemy's path."""

    rule = "TOO.OPP"

    def __init__(self, game: TooGame):
        self.game = game
        self.radius = game.k.opp_range

    def active(self, battle, mover) -> bool:
        return battle.clock.phase == "movement" and mover.id in self.game.figs

    def reactors(self, battle, side: str):
        return [f.unit for f in self.game.enemy_figs(side) if f.alive and f.alert is not None]

    def eligible(self, battle, reactor, mover) -> bool:
        f, m = self.game.figs[reactor.id], self.game.figs[mover.id]
        a, turn = f.alert, battle.clock.turn
        if a is None or a.armed_turn != turn or f.opp_fired_turn == turn or not f.can_act:
            return False
        if f.sniper and f.acquired != m.id:
            return False
        return (f.id, m.id, battle.env.now) not in self.game.declined

    def _ok(self, battle, f: Figure, m: Figure, point) -> bool:
        return (not m.hidden and self.game.sees(battle, f, m, at=point)
                and within_facing(f.alert.arc, f.unit.pos, point, self.game.k.fire_arc_half))

    def inside_triggers(self, battle, reactor, mover, p0, p1) -> bool:
        return True  # first_moment decides, from the segment's start

    # The moment a mover comes within range it may still be out of sight or arc: the
    # watch then fires the moment, later on the same segment, it comes into both.
    delays = True

    def first_moment(self, battle, reactor, mover, p0, p1, s: float) -> float | None:
        f, m = self.game.figs[reactor.id], self.game.figs[mover.id]
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
        k = self.game.k
        cuts = sight_changes(f.unit.pos, p0, p1, self._walls(terrain, f.unit.pos, p0, p1),
                             (self.radius, k.search_range),
                             (f.alert.arc - k.fire_arc_half, f.alert.arc + k.fire_arc_half))
        return first_true(fires, s, cuts)

    def _walls(self, terrain, f, p0, p1) -> list:
        """The sight-blocking polygons that meet the triangle (f, p0, p1): no other can
        touch a sight line from f to the segment."""
        if getattr(self, "_blocking", None) is None:
            self._blocking = np.array([a.polygon for a in terrain.areas if a.type.blocks_sight],
                                      dtype=object)
        if not len(self._blocking):
            return []
        hull = shapely.MultiPoint([f, p0, p1]).convex_hull
        return list(self._blocking[shapely.intersects(self._blocking, hull)])

    def react(self, battle, mover, trigger: Trigger) -> str:
        game = self.game
        f, m = game.figs[trigger.reactor.id], game.figs[mover.id]
        # Armed when the segment began, the moment may find the figure no longer able
        # to fire: it fired at another mover meanwhile (once per enemy turn), or fell.
        if (not trigger.reactor.on_board or not self.eligible(battle, trigger.reactor, mover)
                or not self._ok(battle, f, m, mover.pos)):
            game.declined.add((f.id, m.id, battle.env.now))
            return "continue"
        f.opp_fired_turn = battle.clock.turn
        battle.record("opp_fire", rule="TOO.OPP" if f.sniper else "TOO.ALERT", unit=f.id,
                      target=m.id, pos=f.unit.pos, target_pos=mover.pos, option=f.alert.option,
                      dist=dist(f.unit.pos, mover.pos), acquired_turn=f.acquired_turn if f.sniper else None)
        game._attack(battle, f, m, opp=True)
        if not mover.on_board:
            return "dead"
        if not m.can_move:
            return "halt_phase"
        return "continue"
