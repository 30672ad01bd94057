"""FOW's rules that act: the reserve's placement, relocation, the sniper's shot, escape,
spotting and catching; the module docstring of ``sim.systems.fow`` gives every
reading."""
from __future__ import annotations

from collections.abc import Generator
from typing import Any

from sim.agents.unit import Unit
from sim.catalogue import implements
from sim.events import HIT, SHOOT
from sim.space.geometry import dist
from sim.systems.behaviours import behaviour
from sim.systems.fow import team_combat
from sim.systems.fow.events import CATCH, ESCAPE, NO_SHOT, RELOCATE, SNIPER_SHOT
from sim.systems.fow.policies import REDEPLOYMENT, RELOCATION
from sim.systems.fow.state import FowBattle
from sim.toolkit.sniper_team import HIDDEN, REVEALED, SniperTeam
from sim.toolkit.snipers import SNIPER
from sim.toolkit.targets import SpatialGrid, nearest, pick

FRIENDLY_RADIUS = 10.0   # cm, FOW.FRIENDLY (4")
CATCH_RADIUS = 10.0      # cm, FOW.CATCH (4")
NEED_4 = 4               # FOW.RELOCATE / ESCAPE / CATCH


@implements("FOW.RESERVE")
def placement(battle: FowBattle, team: SniperTeam) -> tuple[str, dict[str, Any]] | None:
    """(node, fields) where the reserve places ``team``, or None: the candidates with no
    enemy team within ``deploy_clearance``, as (cover, order, node), picked by the
    ``redeploy`` behaviour."""
    t, k = battle.terrain, battle.knobs.fow
    enemies = [e for e in battle.enemies_of(team.side) if e.kind != SNIPER.name]
    ok = [(t.cover(n), i, n) for i, n in enumerate(team.candidates)
          if all(dist(t.pos(n), e.pos) > k.deploy_clearance for e in enemies)]
    if not ok:
        return None
    cover, _, node = behaviour(REDEPLOYMENT, k.redeploy).choose(battle, team, ok)
    return node, {"cover": cover, "policy": k.redeploy, "choices": len(ok)}


# -- the rules ------------------------------------------------------------------------------
@implements("FOW.RELOCATE")
def wants_relocation(battle: FowBattle, team: SniperTeam) -> bool:
    """Whether the ``relocate`` policy (a behaviour) tries to change the hide now; never
    in the turn the sniper was placed."""
    r = battle.plans.policy(team.unit, "relocate") or battle.knobs.fow.relocate
    if not team.on_board or team.deployed_turn == battle.clock.turn:
        return False
    return bool(behaviour(RELOCATION, r.when).choose(battle, team, r))


@implements("FOW.RELOCATE")
def relocate(battle: FowBattle, team: SniperTeam) -> Generator[Any, Any, None]:
    """A generator: the owner's d6, 4+ → the Movement-Step process sends it to the reserve."""
    (face,) = battle.dice.roll(team.id, "FOW.RELOCATE")
    success = face >= NEED_4
    battle.record(RELOCATE, rule="FOW.RELOCATE", unit=team.id, pos=team.unit.pos,
                  node=team.unit.node, dice=[face], mods=0, need=NEED_4, success=success)
    if success:
        yield team.request("to_reserve", rule="FOW.RELOCATE")


@implements("FOW.IMMOBILE")
def forced_move(battle: FowBattle, team: SniperTeam,
                reason: str = "forced to move") -> Generator[Any, Any, None]:
    """A generator: a deployed sniper forced to move is Destroyed and removed from the game."""
    if team.on_board:
        yield team.request("kill", rule="FOW.IMMOBILE", reason=reason)


@implements("FOW.ESCAPE")
def destroyed(battle: FowBattle, team: SniperTeam, by: Unit) -> Generator[Any, Any, None]:
    """A generator: the destroying player's d6: 4+ killed, else it slips to the reserve."""
    (face,) = battle.dice.roll(by.id, "FOW.ESCAPE")
    killed = face >= NEED_4
    battle.record(ESCAPE, rule="FOW.ESCAPE", unit=by.id, target=team.id, pos=team.unit.pos,
                  node=team.unit.node, dice=[face], mods=0, need=NEED_4, success=killed)
    yield team.request("kill" if killed else "to_reserve", rule="FOW.ESCAPE", by=by.id)


@implements("FOW.CAMO")
def visible_to(battle: FowBattle, shooter: Unit, target: Unit) -> bool:
    """A sniper is seen only when revealed and within ``spot_range``; LOS for everyone."""
    if target.kind == SNIPER.name:
        team = battle.state.team_of(target)
        if team is None or team.state != REVEALED:
            return False
        if dist(shooter.pos, target.pos) > battle.knobs.fow.spot_range:
            return False
    return battle.terrain.los_xy(shooter.pos, target.pos)


@implements("FOW.CAMO")
def spot_check(battle: FowBattle, side: str) -> Generator[Any, Any, None]:
    """A generator: ``side``'s teams reveal hidden enemy snipers within ``spot_range``."""
    rng = battle.knobs.fow.spot_range
    for team in battle.state.teams:
        if team.side == side or team.state != HIDDEN:
            continue
        seers = [u for u in battle.units_of(side) if u.on_board and u.kind != SNIPER.name
                 and dist(u.pos, team.unit.pos) <= rng and battle.terrain.los_xy(u.pos, team.unit.pos)]
        if seers:
            yield team.request("spot", rule="FOW.CAMO", by=seers[0].id,
                               dist=dist(seers[0].pos, team.unit.pos))


@implements("FOW.FRIENDLY")
def friend_too_close(battle: FowBattle, team: SniperTeam) -> Unit | None:
    """The nearest friendly team within 10 cm of the sniper, or None."""
    near = [(dist(u.pos, team.unit.pos), u.id, u) for u in battle.units_of(team.side)
            if u is not team.unit and u.on_board and dist(u.pos, team.unit.pos) <= FRIENDLY_RADIUS]
    return min(near)[2] if near else None


@implements("FOW.MARKSMAN", "BASE.F.HIT")
def marksman_roll(battle: FowBattle, sniper: Unit, need: int, mods: int = 0,
                  target: Unit | None = None) -> dict[str, Any]:
    """A sniper's to-hit: a failed first die is re-rolled; success = last die >= need."""
    (first,) = battle.dice.roll(sniper.id, "FOW.MARKSMAN")
    faces = [first]
    if first < need:
        faces += battle.dice.roll(sniper.id, "FOW.MARKSMAN")
    success = faces[-1] >= need
    return battle.record(SNIPER_SHOT, rule="FOW.MARKSMAN", unit=sniper.id,
                         target=target.id if target is not None else None, pos=sniper.pos,
                         node=sniper.node, dice=faces, mods=mods, need=need, success=success,
                         rerolled=len(faces) == 2)


@implements("FOW.PIN")
def sniper_shoots(battle: FowBattle, team: SniperTeam) -> Generator[Any, Any, None]:
    """A generator: one shot by a deployed sniper in its Shooting Step."""
    sniper = team.unit
    friend = friend_too_close(battle, team)
    if friend is not None:
        battle.record(NO_SHOT, rule="FOW.FRIENDLY", unit=team.id, pos=sniper.pos,
                      friend=friend.id, dist=dist(friend.pos, sniper.pos))
        return
    rng = battle.knobs.fow.sniper_range
    los = battle.terrain.los_xy
    target = nearest(enemies(battle, team.side, rng), sniper.pos, rng,
                     lambda e, d: e.kind != SNIPER.name and e.on_board and los(sniper.pos, e.pos), rng / 8)
    if target is None:
        return
    need, mods = team_combat.hit_need(battle, sniper, target, rng)
    rec = marksman_roll(battle, sniper, need, mods, target)
    team.attacks += 1
    team.attacks_since_deploy += 1
    if not rec["success"]:
        return
    battle.record(HIT, rule="FOW.MARKSMAN", unit=target.id, target=target.id, pos=target.pos,
                  node=target.node, by=sniper.id, steps_lost=0, steps_left=target.steps)
    team_combat.pin_platoon(battle, target, "FOW.PIN", by=sniper)
    if team_combat.resolve_hit(battle, sniper, target, battle.knobs.fow.sniper_firepower):
        destroy_team(battle, target)
    yield battle.env.timeout(0)


def destroy_team(battle: FowBattle, target: Unit, rule: str = "BASE.F.FP") -> None:
    """A team (not a sniper) destroyed: removed from the game."""
    target.steps = 0
    battle.eliminate(target, rule=rule)


def team_shoots(battle: FowBattle, unit: Unit) -> Generator[Any, Any, None]:
    """A generator: one BASE.F.HIT shot by an ordinary team at the nearest visible enemy."""
    rng = battle.knobs.fow.shoot_range
    # The target policy's choice (default the nearest) among the visible enemies in range.
    target = pick(battle, unit, enemies(battle, unit.side, rng), rng,
                  lambda e, d: e.on_board and visible_to(battle, unit, e), rng / 8)
    if target is None:
        return
    need, mods = team_combat.hit_need(battle, unit, target, rng)
    (face,) = battle.dice.roll(unit.id, "BASE.F.HIT")
    success = face >= need
    battle.record(SHOOT, rule="BASE.F.HIT", unit=unit.id, target=target.id, pos=unit.pos,
                  dice=[face], mods=mods, need=need, success=success)
    if not success:
        return
    battle.record(HIT, rule="BASE.F.HIT", unit=target.id, target=target.id, pos=target.pos,
                  node=target.node, by=unit.id, steps_lost=0, steps_left=target.steps)
    if not team_combat.resolve_hit(battle, unit, target, battle.knobs.fow.firepower):
        return
    team = battle.state.team_of(target)
    if team is not None:
        yield from destroyed(battle, team, unit)
    else:
        destroy_team(battle, target)


def enemies(battle: FowBattle, side: str, reach: float) -> SpatialGrid[Unit]:
    """The enemies of ``side`` on the board, indexed once a phase: asked while ``side``
    shoots or assaults, when they stand still (their snipers are placed only in their
    own Movement Step)."""
    enemy = next(s for s in battle.scenario.sides if s != side)
    return battle.state.standing.grid(battle, enemy, reach)


@implements("FOW.CATCH")
def catch(battle: FowBattle, unit: Unit, team: SniperTeam) -> Generator[Any, Any, None]:
    """A generator: d6 4+ caught and removed; otherwise it escapes to the reserve."""
    (face,) = battle.dice.roll(unit.id, "FOW.CATCH")
    caught = face >= NEED_4
    battle.record(CATCH, rule="FOW.CATCH", unit=unit.id, target=team.id, pos=unit.pos,
                  dist=dist(unit.pos, team.unit.pos), dice=[face], mods=0, need=NEED_4,
                  success=caught)
    yield team.request("kill" if caught else "to_reserve", rule="FOW.CATCH", by=unit.id)
