"""TOO fire: target choice, acquisition, the attack, damage and save.

Functions of the battle and the system's ``TooState``; the opportunity-fire watch that
calls them is ``sim.systems.too.watch``.

* Target choice: enemy snipers first, then the target whose LOS was lost, then (for a
  figure on alert) enemies that moved in their last turn, then the nearest; file order.
* TOO.KEEP: a sniper keeps a target acquired in an earlier turn while it keeps LOS;
  lost LOS is logged (``lose_target``) and the re-acquisition gets −1.
* TOO.ACQ: d6 + modifiers <= the sniper's morale acquires the target.
* An attack (BASE.T.RANGE, our base game): d10 >= the band's base number; a sniper
  shoots one band closer (TOO.SCOPE). A hit rolls TOO.DAMAGE (d10 + d6), then TOO.SAVE;
  a saved hit has no effect. After an attack by a hidden figure the enemies in sight
  may check to spot it (TOO.FACING, TOO.REHIDE: ``sim.systems.too.spotting``).

TOO.DAMAGE records have ``need`` null and ``success`` = killed outright (``dies_in`` 0).
"""
from __future__ import annotations

from typing import Any

from sim.catalogue import implements
from sim.events import ATTACK, HIT, SAVE, WOUND
from sim.space.geometry import dist
from sim.systems.kinds import VEHICLE
from sim.systems.too.events import ACQUIRE, LOSE_TARGET, SCOPE
from sim.systems.too.figure import Figure, Wound, death_turn
from sim.systems.too.spotting import after_attack
from sim.systems.too.state import TooBattle, TooState
from sim.systems.too.tables import acq_mods, damage, range_band, scoped


# -- target choice ---------------------------------------------------------------------
def moved_lately(t: Figure, turn: int) -> bool:
    """The figure moved in this turn or the last."""
    return t.moved_turn >= turn - 1 and t.moved_turn > 0


def choose_target(battle: TooBattle, st: TooState, f: Figure) -> Figure | None:
    """Enemy snipers first, then the target whose LOS was lost, then (for a figure on
    alert) enemies that moved in their last turn, then the nearest; file order."""
    turn = battle.clock.turn
    enemy = next(s for s in battle.scenario.sides if s != f.side)
    ranked = sorted(((not e.sniper, e.id != f.lost_target,
                      f.alert is not None and not moved_lately(e, turn),
                      dist(f.unit.pos, e.unit.pos), st.rank(e), e)
                     for e in st.near(battle, enemy, f.unit.pos, st.k.search_range)
                     if e.alive and not e.hidden), key=lambda x: x[:5])
    for *_, e in ranked:        # in that order, sight is looked at until one is seen
        if st.sees(battle, f, e):
            return e
    return None


# -- TOO.ACQ / TOO.KEEP ----------------------------------------------------------------
@implements("TOO.KEEP")
def kept_target(battle: TooBattle, st: TooState, f: Figure) -> Figure | None:
    """The acquired target while the figure keeps LOS to it; else None (LOS lost: logged)."""
    if f.acquired is None:
        return None
    t = st.figs[f.acquired]
    if not t.alive:
        f.acquired = None
        return None
    if st.visible(battle, f, t):
        return t
    battle.record(LOSE_TARGET, rule="TOO.KEEP", unit=f.id, target=t.id, pos=f.unit.pos,
                  target_pos=t.unit.pos, hidden=t.hidden)
    f.acquired, f.lost_target = None, t.id
    return None


def ran(t: Figure, turn: int) -> bool:
    """The figure is making, or made last turn, a move of its whole allowance."""
    return t.moving_full or (t.moved_full and t.moved_turn >= turn - 1)


@implements("TOO.ACQ", "TOO.KEEP")
def acquire(battle: TooBattle, st: TooState, f: Figure, t: Figure, turn: int) -> bool:
    """TOO.ACQ: d6 + modifiers <= morale acquires ``t``."""
    vehicle = (t.move_fraction if t.unit.kind == VEHICLE.name and t.moved_turn >= turn - 1 else None)
    reacquire = f.lost_target == t.id
    mods, terms = acq_mods(target_ran=ran(t, turn), attacker_moved=f.moved_turn == turn,
                           vehicle_fraction=vehicle, target_cover=st.cover_of(battle, t),
                           attacker_wounded=f.wounded, reacquire=reacquire,
                           cover_mods=st.k.acq_cover_mods)
    (face,) = battle.dice.roll(f.id, "TOO.ACQ")
    ok = face + mods <= f.morale
    battle.record(ACQUIRE, rule="TOO.ACQ", unit=f.id, target=t.id, pos=f.unit.pos,
                  dice=[face], mods=mods, need=f.morale, success=ok, terms=terms,
                  reacquire=reacquire)
    if ok:
        f.acquired, f.acquired_turn, f.lost_target = t.id, turn, None
    return ok


# -- attacks -----------------------------------------------------------------------------
@implements("BASE.T.RANGE", "TOO.SCOPE")
def attack(battle: TooBattle, st: TooState, f: Figure, t: Figure, opp: bool) -> bool:
    """One attack: d10 >= the band's base number (a sniper's one band closer)."""
    bands = st.k.range_bands
    d = dist(f.unit.pos, t.unit.pos)
    i = range_band(d, bands)
    j = scoped(i) if f.sniper else i
    if f.sniper:
        battle.record(SCOPE, rule="TOO.SCOPE", unit=f.id, target=t.id, dist=d,
                      band=bands[i][0], shot_band=bands[j][0])
    need = int(bands[j][2])
    (face,) = battle.dice.roll(f.id, "BASE.T.RANGE", 1, 10)
    ok = face >= need
    battle.record(ATTACK, rule="BASE.T.RANGE", unit=f.id, target=t.id, pos=f.unit.pos,
                  target_pos=t.unit.pos, dice=[face], mods=0, need=need, success=ok,
                  band=bands[j][0], dist=d, opp=opp, weapon="sniper_rifle" if f.sniper else "rifle")
    if ok:
        hit(battle, st, t, f)
    if f.hidden:
        after_attack(battle, st, f, opp)
    return ok


@implements("TOO.DAMAGE", "TOO.SAVE")
def hit(battle: TooBattle, st: TooState, t: Figure, by: Figure) -> dict[str, Any]:
    """TOO.DAMAGE then TOO.SAVE: a saved hit does nothing; else kill or wound."""
    d10 = battle.dice.roll(by.id, "TOO.DAMAGE", 1, 10)[0]
    d6 = battle.dice.roll(by.id, "TOO.DAMAGE", 1, 6)[0]
    res = damage(d10, d6)
    unit = t.unit
    battle.record(HIT, rule="TOO.DAMAGE", unit=t.id, target=t.id, by=by.id, pos=unit.pos,
                  node=unit.node, dice=[d10, d6], mods=0, need=None,
                  success=res["dies_in"] == 0, **res)
    cls = st.cover_of(battle, t)
    need = int(st.k.save_need[cls])
    (face,) = battle.dice.roll(t.id, "TOO.SAVE")
    saved = face >= need
    battle.record(SAVE, rule="TOO.SAVE", unit=t.id, pos=unit.pos, dice=[face], mods=0,
                  need=need, success=saved, cover=cls)
    res["saved"] = saved
    if saved:
        return res
    turn = battle.clock.turn
    if res["dies_in"] == 0:
        battle.eliminate(unit, rule="TOO.DAMAGE", reason="killed", location=res["location"])
        return res
    at = death_turn(turn, res["dies_in"], battle.clock, t.side, st.k.bleed_clock)
    t.wounds.append(Wound(res["location"], res["body_side"], res["dies_in"], res["effect"],
                          hit_turn=turn, dies_at_turn=at))
    if res["effect"] == "drops_item":
        t.skip_action = True
    battle.record(WOUND, rule="TOO.DAMAGE", unit=t.id, pos=unit.pos, location=res["location"],
                  body_side=res["body_side"], dies_in=res["dies_in"], dies_at_turn=at,
                  effect=res["effect"])
    return res
