"""TOO spotting: stealth movement and the checks that reveal a hidden figure.

Functions of the battle and the system's ``TooState`` (``sim.systems.too.state``):

* TOO.STEALTH: a hidden figure's move is checked for stealth (knob
  ``stealth_reading``, the readings are in ``sim.systems.too.tables``); a revealed
  stealthy figure that ends its move out of every enemy's sight goes back to stealth.
* A search is one spotting check at the nearest hidden enemy in sight: TOO.COUNTER
  when sniper seeks sniper, else TOO.CONCEAL.
* After an attack by a hidden sniper every enemy figure in sight facing it within 45°
  checks again (TOO.FACING; a sniper so checking gets −1); after opportunity fire by a
  hidden figure, the others in sight make the concealment check (TOO.REHIDE). A figure
  makes at most one of these per attack.
"""
from __future__ import annotations

from typing import Any

from sim.catalogue import implements
from sim.events import REHIDE, REVEAL, SPOT
from sim.space.geometry import dist
from sim.systems.too.events import SPOT_CHECK, STEALTH
from sim.systems.too.figure import Figure
from sim.systems.too.state import TooBattle, TooState
from sim.systems.too.tables import conceal_mods, counter_mods, stealth_rule, within_facing


# -- TOO.STEALTH -------------------------------------------------------------------------
@implements("TOO.STEALTH")
def stealth(battle: TooBattle, st: TooState, f: Figure, start_cover: bool, end_cover: bool,
            full: bool) -> None:
    """A hidden figure's move is checked for stealth; a revealed stealthy figure out of
    every enemy's sight goes back to stealth."""
    unit = f.unit
    if f.hidden:
        rule = stealth_rule(st.k.stealth_reading, start_cover, end_cover, full)
        common: dict[str, Any] = dict(unit=f.id, pos=unit.pos, node=unit.node,
                                      start_cover=start_cover, end_cover=end_cover,
                                      full_move=full, reading=st.k.stealth_reading)
        if rule is None:
            battle.record(STEALTH, rule="TOO.STEALTH", checked=False, **common)
            return
        if rule == "reveal":
            f.hidden = False
            battle.record(REVEAL, rule="TOO.STEALTH", reason="no_cover", **common)
            return
        (face,) = battle.dice.roll(f.id, "TOO.STEALTH")
        ok = face + rule <= f.morale
        battle.record(STEALTH, rule="TOO.STEALTH", checked=True, dice=[face], mods=rule,
                      need=f.morale, success=ok, **common)
        if not ok:
            f.hidden = False
            battle.record(REVEAL, rule="TOO.STEALTH", reason="failed_check", **common)
    elif f.stealthy and not any(e.alive and e.can_act and st.sees(battle, e, f)
                                for e in st.near(battle, _enemy(battle, f.side), unit.pos, st.k.search_range)):
        f.hidden = True
        battle.record(REHIDE, rule="TOO.STEALTH", unit=f.id, pos=unit.pos, node=unit.node)


# -- spotting ----------------------------------------------------------------------------
def search(battle: TooBattle, st: TooState, f: Figure) -> bool:
    """One spotting check at the nearest hidden enemy in sight; False if there is none."""
    hidden = [(dist(f.unit.pos, e.unit.pos), st.rank(e), e)
              for e in st.near(battle, _enemy(battle, f.side), f.unit.pos, st.k.search_range)
              if e.alive and e.hidden]
    hidden.sort(key=lambda x: x[:2])
    for _, _, e in hidden:     # nearest first: sight is looked at until one is seen
        if st.sees(battle, f, e):
            spot_check(battle, st, f, e, "search")
            return True
    return False


@implements("TOO.CONCEAL", "TOO.COUNTER", "TOO.FACING", "TOO.REHIDE")
def spot_check(battle: TooBattle, st: TooState, spotter: Figure, hider: Figure,
               context: str) -> bool:
    """One spotting roll: d6 + mods <= the spotter's morale reveals the hider.

    ``context``: ``search`` (logged as TOO.COUNTER or TOO.CONCEAL), ``facing``
    (TOO.FACING, after a sniper's attack) or ``rehide`` (TOO.REHIDE, after
    opportunity fire). ``check`` in the record names the procedure used.
    """
    counter = spotter.sniper and hider.sniper
    if counter:
        terms = {"morale_difference": counter_mods(hider.morale, spotter.morale)}
    else:
        terms = {"level": conceal_mods(hider.level)}
    facing_in = within_facing(spotter.facing, spotter.unit.pos, hider.unit.pos, st.k.facing_half_angle)
    if spotter.sniper and facing_in and (context == "facing" or st.k.facing_bonus_scope == "all_searches"):
        terms["sniper_facing"] = -1
    mods = sum(terms.values())
    rule = {"search": "TOO.COUNTER" if counter else "TOO.CONCEAL",
            "facing": "TOO.FACING", "rehide": "TOO.REHIDE"}[context]
    (face,) = battle.dice.roll(spotter.id, rule)
    ok = face + mods <= spotter.morale
    battle.record(SPOT_CHECK, rule=rule, unit=spotter.id, target=hider.id, pos=spotter.unit.pos,
                  dice=[face], mods=mods, need=spotter.morale, success=ok,
                  check="counter" if counter else "conceal", terms=terms,
                  hider_level=hider.level, hider_morale=hider.morale)
    if ok:
        hider.hidden = False
        battle.record(SPOT, rule=rule, unit=spotter.id, target=hider.id, pos=hider.unit.pos,
                      node=hider.unit.node)
    return ok


@implements("TOO.FACING", "TOO.REHIDE")
def after_attack(battle: TooBattle, st: TooState, f: Figure, opp: bool) -> None:
    """After an attack by a hidden figure: TOO.FACING re-checks, or TOO.REHIDE's."""
    near = st.near(battle, _enemy(battle, f.side), f.unit.pos, st.k.search_range)
    for e in sorted(near, key=st.rank):            # file order, as the checks are made
        if not f.hidden:
            return
        if not (e.alive and e.can_act and st.sees(battle, e, f)):
            continue
        if f.sniper and within_facing(e.facing, e.unit.pos, f.unit.pos, st.k.facing_half_angle):
            spot_check(battle, st, e, f, "facing")
        elif opp:
            spot_check(battle, st, e, f, "rehide")


def _enemy(battle: TooBattle, side: str) -> str:
    """The other side of the battle."""
    return next(s for s in battle.scenario.sides if s != side)
