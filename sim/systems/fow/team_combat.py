"""BASE.F — the tabletop base game's combat between teams around the FOW sniper rules (not in
the seeds): to-hit, saves and firepower, pins and rallies, assaults.

Distances in cm. A *team* is a unit; its ``platoon`` (scenario field, default the team
itself) is what FOW.PIN and BASE.F.PIN pin and rally.

BASE.F.HIT   To-hit: d6 >= ``need``, where ``need`` = the target's ``skill`` (its "hit
             on" rating) + ``mods``; ``mods`` is +1 if the target is Concealed, +1 if it
             is Gone to Ground, +1 beyond half the shooter's range. Snipers are always
             Concealed and Gone to Ground (FOW.CAMO); other teams are Concealed in an
             area with cover >= 1 and never Gone to Ground (they are moving in). A need
             above 6 is capped at 6 (a 6 always hits). The record's ``success`` is
             d6 >= ``need`` (``mods`` is already inside ``need``, shown for the audit).
BASE.F.SAVE  A hit team in the open saves on d6 >= its ``armour`` (its save).
BASE.F.FP    A team hit in Bulletproof Cover (a sniper always, FOW.CAMO; other teams in an
             area with cover >= 2) makes no save: the shooter rolls d6 >= its firepower
             (``rules.fow.firepower``; a sniper's is ``sniper_firepower``) to destroy it.
BASE.F.PIN   A Pinned Down platoon neither moves nor assaults. At the start of its
             Movement Step it rallies on d6 >= its teams' ``morale`` (motivation; one
             roll per platoon, by its first team).
BASE.F.ASSAULT  In the Assault Step each unpinned team with ``charge`` orders within
             ``rules.fow.assault_range`` of an enemy team (not a sniper: FOW.CATCH) moves
             into contact with the nearest and destroys it on d6 >= its ``skill``.
"""
from __future__ import annotations

from sim.agents.unit import Unit
from sim.catalogue import implements
from sim.events import ASSAULT as ASSAULT_EVENT
from sim.events import HIT as HIT_EVENT
from sim.events import MOVE, RALLY, STOP
from sim.events import PIN as PIN_EVENT
from sim.events import SAVE as SAVE_EVENT
from sim.space.geometry import dist
from sim.systems.fow.events import FIREPOWER
from sim.systems.fow.state import FowBattle
from sim.toolkit.snipers import SNIPER

HIT, SAVE, FP, PIN, ASSAULT = "BASE.F.HIT", "BASE.F.SAVE", "BASE.F.FP", "BASE.F.PIN", "BASE.F.ASSAULT"
CONTACT = 1.0


def concealed(battle: FowBattle, unit: Unit) -> bool:
    """Concealed: a sniper always (FOW.CAMO), another team in an area with cover >= 1."""
    return unit.kind == SNIPER.name or battle.cover_at(unit) >= 1


def gone_to_ground(battle: FowBattle, unit: Unit) -> bool:
    """Gone to Ground: only snipers (FOW.CAMO); the other teams are moving in."""
    return unit.kind == SNIPER.name


def bulletproof(battle: FowBattle, unit: Unit) -> bool:
    """In Bulletproof Cover: a sniper always (FOW.CAMO), another team with cover >= 2."""
    return unit.kind == SNIPER.name or battle.cover_at(unit) >= 2


@implements(HIT)
def hit_need(battle: FowBattle, shooter: Unit, target: Unit, max_range: float) -> tuple[int, int]:
    """(need, mods) of a to-hit roll by the BASE.F.HIT table."""
    mods = (int(concealed(battle, target)) + int(gone_to_ground(battle, target))
            + int(dist(shooter.pos, target.pos) > max_range / 2))
    return min(6, target.skill + mods), mods


def pin_platoon(battle: FowBattle, unit: Unit, rule: str, by: Unit | None = None) -> None:
    """Pin the unit's platoon (one ``pin`` record per team newly pinned)."""
    st = battle.state
    plat = st.platoon_of(unit)
    for team in st.members(battle, unit.side, plat):
        if team.on_board and not team.pinned:
            team.flags.add("pinned")
            battle.record(PIN_EVENT, rule=rule, unit=team.id, pos=team.pos, node=team.node,
                          platoon=plat, by=by.id if by is not None else None)


@implements(SAVE, FP)
def resolve_hit(battle: FowBattle, shooter: Unit, target: Unit, firepower: int) -> bool:
    """Save or firepower test for a hit team; True if it is destroyed."""
    if bulletproof(battle, target):
        (face,) = battle.dice.roll(shooter.id, FP)
        destroyed = face >= firepower
        battle.record(FIREPOWER, rule=FP, unit=shooter.id, target=target.id, pos=shooter.pos,
                      dice=[face], mods=0, need=firepower, success=destroyed)
        return destroyed
    return save(battle, target)


def save(battle: FowBattle, target: Unit, rule: str = SAVE) -> bool:
    """The hit team's save (BASE.F.SAVE; ``rule``: a reading that makes it one): True if destroyed."""
    (face,) = battle.dice.roll(target.id, rule)
    saved = face >= target.armour
    battle.record(SAVE_EVENT, rule=rule, unit=target.id, target=target.id, pos=target.pos,
                  dice=[face], mods=0, need=target.armour, success=saved)
    return not saved


@implements(PIN)
def rally(battle: FowBattle, side: str) -> None:
    """Each pinned platoon of ``side`` rolls d6 >= its first team's morale to rally."""
    platoon_of = battle.state.platoon_of
    done: set[str] = set()
    for unit in battle.units_of(side):
        if not unit.on_board or not unit.pinned or platoon_of(unit) in done:
            continue
        plat = platoon_of(unit)
        done.add(plat)
        (face,) = battle.dice.roll(unit.id, PIN)
        success = face >= unit.morale
        battle.record(RALLY, rule=PIN, unit=unit.id, platoon=plat, pos=unit.pos,
                      dice=[face], mods=0, need=unit.morale, success=success)
        if success:
            for team in battle.state.members(battle, side, plat):
                team.flags.discard("pinned")


@implements(ASSAULT)
def assault(battle: FowBattle, unit: Unit, target: Unit) -> None:
    """The team moves into contact and destroys its target on d6 >= the target's skill."""
    d = dist(unit.pos, target.pos)
    if d > CONTACT:
        k = (d - CONTACT) / d
        contact = (unit.pos[0] + (target.pos[0] - unit.pos[0]) * k,
                   unit.pos[1] + (target.pos[1] - unit.pos[1]) * k)
        battle.record(MOVE, rule=ASSAULT, unit=unit.id, pos=unit.pos, node=unit.node,
                      waypoints=[contact], times=[battle.env.now], reason="assault")
        unit.pos = contact
        unit.node = battle.terrain.nearest_node(*contact)
        battle.record(STOP, rule=ASSAULT, unit=unit.id, pos=unit.pos, node=unit.node,
                      reason="contact")
    (face,) = battle.dice.roll(unit.id, ASSAULT)
    success = face >= target.skill
    battle.record(ASSAULT_EVENT, rule=ASSAULT, unit=unit.id, target=target.id, pos=unit.pos,
                  dice=[face], mods=0, need=target.skill, success=success)
    if success:
        battle.record(HIT_EVENT, rule=ASSAULT, unit=target.id, target=target.id, pos=target.pos,
                      node=target.node, by=unit.id, steps_lost=target.steps, steps_left=0)
        target.steps = 0
        battle.eliminate(target, rule=ASSAULT)
