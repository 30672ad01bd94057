"""FOW — sniper teams (seed 001, in Russian), on the small tabletop base game of ``fow_base``.

A player-turn is ``movement``, ``shooting``, ``assault`` (the seed's Movement Step,
shooting, Assault Step). A sniper team (``kind: sniper``) is a ``SniperTeam`` process
(``sim.agents.sniper``); its side's Sniper Reserve is a ``SniperReserve`` process around
a ``simpy.Store`` (``sim.agents.reserve``). Every transition is an interrupt sent by
another process:

* FOW.RESERVE: at the start of its owner's turn the reserve places each sniper that has
  waited ``reserve_delay`` of its owner's turns (1: "from the next turn") at one of the
  scenario's ``sniper_team.candidates`` (default: its ``at``) that has no enemy team
  within ``deploy_clearance`` cm (``deploy``). A sniper starts in the reserve unless its
  ``sniper_team.start`` is ``deployed``.
* FOW.RELOCATE: in its owner's Movement Step, if the policy says so, the owner rolls d6
  (``success`` = d6 >= 4): the Movement-Step process sends it ``to_reserve``; otherwise
  it stays. Not tried in the turn it was placed.
* FOW.IMMOBILE: a deployed sniper never gets a movement process, so it has no ``move``
  record. ``forced_move`` destroys it and removes it from the game (``killed``, no
  escape roll: the seed says "removed from the game").
* FOW.CAMO: always Concealed and Gone to Ground (also when it shoots: its shots never
  reveal it) and in Bulletproof Cover (BASE.F.FP instead of a save). An enemy team in
  LOS within ``spot_range`` cm (40: such a team is seen only that close) at the start of
  the enemy's Shooting Step reveals it (``spot``); only then may it be shot at, and only
  from within ``spot_range``.
* FOW.FRIENDLY: no sniper shot while a friendly team is within 10 cm of it.
* FOW.MARKSMAN: the sniper's to-hit (BASE.F.HIT need) re-rolls a failed die: ``dice`` =
  [first] or [first, re-roll]; ``success`` = last die >= ``need``.
* FOW.PIN: the platoon of a team the sniper hits is Pinned Down (before its save).
* FOW.ESCAPE: a sniper Destroyed by shooting: the destroying player rolls d6 (the
  shooter's stream), 4+ killed (``eliminate``), else ``to_reserve``.
* FOW.CATCH: a sniper cannot be assaulted. In the Assault Step every unpinned team
  (one that could move into contact) within 10 cm of an enemy sniper may try to catch
  it: d6 4+ caught and removed, else it escapes to the reserve. The team then still
  takes part in BASE.F.ASSAULT (the record says ``tried_catch``).

Knobs (``rules.fow``), readings of what the seed leaves open:

* ``relocate``: ``{when, cm}``: ``never``, ``when_spotted`` (default: it has been
  revealed, "the hide was discovered") or ``enemy_within`` (an enemy team within
  ``cm``: "the tactical situation changed").
* ``redeploy``: ``best_cover`` (default: the candidate with the highest terrain cover,
  then scenario order) or ``random`` (uniform, from the sniper's ``FOW.RESERVE`` stream).
* ``reserve_delay`` (owner turns), ``deploy_clearance`` (cm), ``spot_range`` (cm) and
  the BASE numbers ``shoot_range``, ``sniper_range``, ``assault_range``, ``firepower``,
  ``sniper_firepower`` (see ``fow_base``).

Teams with ``hunt: true`` move towards the nearest revealed enemy sniper.
"""
from __future__ import annotations

from sim.agents.movement import movement_process
from sim.agents.reserve import SniperReserve
from sim.agents.sniper import HIDDEN, REVEALED, RESERVE, SniperTeam, teams_of
from sim.errors import InputError
from sim.rules import fow_base
from sim.rules.registry import implements
from sim.space.geometry import dist

FRIENDLY_RADIUS = 10.0   # cm, FOW.FRIENDLY (4")
CATCH_RADIUS = 10.0      # cm, FOW.CATCH (4")
NEED_4 = 4               # FOW.RELOCATE / ESCAPE / CATCH


def knobs(battle):
    return battle.knobs.fow


# -- set-up --------------------------------------------------------------------------------
def make_teams(battle) -> tuple[list[SniperTeam], dict]:
    file = battle.scenario._file
    reserves = {side: SniperReserve(battle, side, lambda team: placement(battle, team),
                                    delay=knobs(battle).reserve_delay)
                for side in battle.scenario.sides}
    teams = []
    for side, spec in battle.scenario.units():
        if spec.kind != "sniper":
            continue
        st = spec.sniper_team
        start = st.start if st is not None else "reserve"
        cands = list(st.candidates) if st is not None and st.candidates else [spec.at]
        for i, node in enumerate(cands):
            if not battle.terrain.has_node(node):
                raise InputError(f"candidate '{node}' is not on the map (expected a node)",
                                 file=file, place=f"forces.{side}.{spec.id}.sniper_team.candidates[{i}]")
        if start == "off_board":
            raise InputError("a FOW sniper starts in the reserve or deployed, not off_board",
                             file=file, place=f"forces.{side}.{spec.id}.sniper_team.start")
        unit = battle.units[spec.id]
        team = SniperTeam(battle, unit, HIDDEN if start == "deployed" else RESERVE, "fow",
                          candidates=cands, reserve=reserves[side])
        if start != "deployed":
            reserves[side].put(team)
        teams.append(team)
    return teams, reserves


@implements("FOW.RESERVE")
def placement(battle, team):
    """(node, fields) where the reserve places ``team``, or None."""
    t, k = battle.terrain, knobs(battle)
    enemies = [e for e in battle.enemies_of(team.side) if e.kind != "sniper"]
    ok = [(t.cover(n), i, n) for i, n in enumerate(team.candidates)
          if all(dist(t.pos(n), e.pos) > k.deploy_clearance for e in enemies)]
    if not ok:
        return None
    if k.redeploy == "best_cover":
        cover, _, node = min(ok, key=lambda c: (-c[0], c[1]))
    else:
        j = int(battle.dice.uniform(team.id, "FOW.RESERVE") * len(ok))
        cover, _, node = ok[min(j, len(ok) - 1)]
    return node, {"cover": cover, "policy": k.redeploy, "choices": len(ok)}


# -- the rules ------------------------------------------------------------------------------
@implements("FOW.RELOCATE")
def wants_relocation(battle, team) -> bool:
    r = knobs(battle).relocate
    if not team.on_board or r.when == "never" or team.deployed_turn == battle.clock.turn:
        return False
    if r.when == "when_spotted":
        return team.state == REVEALED
    return any(e.kind != "sniper" and dist(e.pos, team.unit.pos) <= r.cm
               for e in battle.enemies_of(team.side))


@implements("FOW.RELOCATE")
def relocate(battle, team):
    """A generator: the owner's d6, 4+ → the Movement-Step process sends it to the reserve."""
    (face,) = battle.dice.roll(team.id, "FOW.RELOCATE")
    success = face >= NEED_4
    battle.record("relocate", rule="FOW.RELOCATE", unit=team.id, pos=team.unit.pos,
                  node=team.unit.node, dice=[face], mods=0, need=NEED_4, success=success)
    if success:
        yield team.request("to_reserve", rule="FOW.RELOCATE")


@implements("FOW.IMMOBILE")
def forced_move(battle, team, reason: str = "forced to move"):
    """A generator: a deployed sniper forced to move is Destroyed and removed from the game."""
    if team.on_board:
        yield team.request("kill", rule="FOW.IMMOBILE", reason=reason)


@implements("FOW.ESCAPE")
def destroyed(battle, team, by):
    """A generator: the destroying player's d6: 4+ killed, else it slips to the reserve."""
    (face,) = battle.dice.roll(by.id, "FOW.ESCAPE")
    killed = face >= NEED_4
    battle.record("escape", rule="FOW.ESCAPE", unit=by.id, target=team.id, pos=team.unit.pos,
                  node=team.unit.node, dice=[face], mods=0, need=NEED_4, success=killed)
    yield team.request("kill" if killed else "to_reserve", rule="FOW.ESCAPE", by=by.id)


@implements("FOW.CAMO")
def visible_to(battle, shooter, target) -> bool:
    """A sniper is seen only when revealed and within ``spot_range``; LOS for everyone."""
    if target.kind == "sniper":
        team = _team(battle, target)
        if team is None or team.state != REVEALED:
            return False
        if dist(shooter.pos, target.pos) > knobs(battle).spot_range:
            return False
    return battle.terrain.los_xy(shooter.pos, target.pos)


@implements("FOW.CAMO")
def spot_check(battle, side: str):
    """A generator: ``side``'s teams reveal hidden enemy snipers within ``spot_range``."""
    rng = knobs(battle).spot_range
    for team in teams_of(battle):
        if team.side == side or team.state != HIDDEN:
            continue
        seers = [u for u in battle.units_of(side) if u.on_board and u.kind != "sniper"
                 and dist(u.pos, team.unit.pos) <= rng and battle.terrain.los_xy(u.pos, team.unit.pos)]
        if seers:
            yield team.request("spot", rule="FOW.CAMO", by=seers[0].id,
                               dist=dist(seers[0].pos, team.unit.pos))


@implements("FOW.FRIENDLY")
def friend_too_close(battle, team):
    """The nearest friendly team within 10 cm of the sniper, or None."""
    near = [(dist(u.pos, team.unit.pos), u.id, u) for u in battle.units_of(team.side)
            if u is not team.unit and u.on_board and dist(u.pos, team.unit.pos) <= FRIENDLY_RADIUS]
    return min(near)[2] if near else None


@implements("FOW.MARKSMAN", "BASE.F.HIT")
def marksman_roll(battle, sniper, need: int, mods: int = 0, target=None) -> dict:
    """A sniper's to-hit: a failed first die is re-rolled; success = last die >= need."""
    (first,) = battle.dice.roll(sniper.id, "FOW.MARKSMAN")
    faces = [first]
    if first < need:
        faces += battle.dice.roll(sniper.id, "FOW.MARKSMAN")
    success = faces[-1] >= need
    return battle.record("sniper_shot", rule="FOW.MARKSMAN", unit=sniper.id,
                         target=target.id if target is not None else None, pos=sniper.pos,
                         node=sniper.node, dice=faces, mods=mods, need=need, success=success,
                         rerolled=len(faces) == 2)


@implements("FOW.PIN")
def sniper_shoots(battle, team):
    """A generator: one shot by a deployed sniper in its Shooting Step."""
    sniper = team.unit
    friend = friend_too_close(battle, team)
    if friend is not None:
        battle.record("no_shot", rule="FOW.FRIENDLY", unit=team.id, pos=sniper.pos,
                      friend=friend.id, dist=dist(friend.pos, sniper.pos))
        return
    rng = knobs(battle).sniper_range
    cands = [(dist(sniper.pos, e.pos), e.id, e) for e in battle.enemies_of(team.side)
             if e.kind != "sniper" and dist(sniper.pos, e.pos) <= rng
             and battle.terrain.los_xy(sniper.pos, e.pos)]
    if not cands:
        return
    target = min(cands)[2]
    need, mods = fow_base.hit_need(battle, sniper, target, rng)
    rec = marksman_roll(battle, sniper, need, mods, target)
    team.attacks += 1
    team.attacks_since_deploy += 1
    if not rec["success"]:
        return
    battle.record("hit", rule="FOW.MARKSMAN", unit=target.id, target=target.id, pos=target.pos,
                  node=target.node, by=sniper.id, steps_lost=0, steps_left=target.steps)
    fow_base.pin_platoon(battle, target, "FOW.PIN", by=sniper)
    if fow_base.resolve_hit(battle, sniper, target, knobs(battle).sniper_firepower):
        _destroy_team(battle, target)
    yield battle.env.timeout(0)


def _destroy_team(battle, target, rule="BASE.F.FP"):
    target.steps = 0
    battle.eliminate(target, rule=rule)


def team_shoots(battle, unit):
    """A generator: one BASE.F.HIT shot by an ordinary team at the nearest visible enemy."""
    rng = knobs(battle).shoot_range
    cands = [(dist(unit.pos, e.pos), e.id, e) for e in battle.enemies_of(unit.side)
             if dist(unit.pos, e.pos) <= rng and visible_to(battle, unit, e)]
    if not cands:
        return
    target = min(cands)[2]
    need, mods = fow_base.hit_need(battle, unit, target, rng)
    (face,) = battle.dice.roll(unit.id, "BASE.F.HIT")
    success = face >= need
    battle.record("shoot", rule="BASE.F.HIT", unit=unit.id, target=target.id, pos=unit.pos,
                  dice=[face], mods=mods, need=need, success=success)
    if not success:
        return
    battle.record("hit", rule="BASE.F.HIT", unit=target.id, target=target.id, pos=target.pos,
                  node=target.node, by=unit.id, steps_lost=0, steps_left=target.steps)
    if not fow_base.resolve_hit(battle, unit, target, knobs(battle).firepower):
        return
    team = _team(battle, target)
    if team is not None:
        yield from destroyed(battle, team, unit)
    else:
        _destroy_team(battle, target)


@implements("FOW.CATCH")
def catch(battle, unit, team):
    """A generator: d6 4+ caught and removed; otherwise it escapes to the reserve."""
    (face,) = battle.dice.roll(unit.id, "FOW.CATCH")
    caught = face >= NEED_4
    battle.record("catch", rule="FOW.CATCH", unit=unit.id, target=team.id, pos=unit.pos,
                  dist=dist(unit.pos, team.unit.pos), dice=[face], mods=0, need=NEED_4,
                  success=caught)
    yield team.request("kill" if caught else "to_reserve", rule="FOW.CATCH", by=unit.id)


def _team(battle, unit):
    for team in teams_of(battle):
        if team.unit is unit:
            return team
    return None


def route_for(battle, unit):
    """The route for this Movement Step: hunters head for the nearest revealed enemy
    sniper, the others for their orders' destination. A team that stands between nodes
    (a move or an assault ended there) sets off from the node nearest to it."""
    t = battle.terrain
    if dist(unit.pos, t.pos(unit.node)) > 1e-9:
        unit.node = t.nearest_node(*unit.pos)
    # Only prey it can reach (the map may be in several pieces).
    prey = [(dist(unit.pos, tm.unit.pos), tm.id, tm) for tm in teams_of(battle)
            if unit.hunt and tm.side != unit.side and tm.state == REVEALED and tm.unit.alive
            and t.reachable(unit.node, tm.unit.node)]
    if prey:
        goal = min(prey)[2].unit.node
    elif unit.orders.type != "hold" and unit.orders.to is not None:
        goal = unit.orders.to
    else:
        return []
    if goal == unit.node or not t.reachable(unit.node, goal):
        return []
    return list(t.path(unit.node, goal)[1:])


# -- the ruleset ----------------------------------------------------------------------------
class FowGame:
    """FOW: Movement Step (rally, relocation, moves), shooting, Assault Step (catching,
    then assaults)."""

    phases = ("movement", "shooting", "assault")

    def setup(self, battle) -> None:
        specs = {spec.id: spec for _, spec in battle.scenario.units()}
        for unit in battle.units.values():
            unit.hunt = specs[unit.id].hunt
            unit.platoon = specs[unit.id].platoon
        battle.sniper_teams, battle.sniper_reserves = make_teams(battle)

    def on_phase(self, battle, phase) -> None:
        step = {"movement": self._movement, "shooting": self._shooting,
                "assault": self._assault}[phase.phase]
        battle.env.process(step(battle, phase))

    def _movement(self, battle, phase):
        fow_base.rally(battle, phase.side)
        for team in teams_of(battle):
            if team.side == phase.side and wants_relocation(battle, team):
                yield from relocate(battle, team)
        battle.referee.begin_phase()
        for unit in battle.units_of(phase.side):
            if not unit.on_board or unit.pinned:
                continue
            if unit.kind == "sniper":
                team = _team(battle, unit)
                if team is not None and unit.route:   # ordered to move: FOW.IMMOBILE
                    unit.route = []
                    yield from forced_move(battle, team, reason="ordered to move")
                continue
            unit.route = route_for(battle, unit)
            if unit.route:
                unit.process = battle.env.process(movement_process(battle, unit, phase))

    def _shooting(self, battle, phase):
        yield from spot_check(battle, phase.side)
        for unit in battle.units_of(phase.side):
            if battle.done.triggered:
                return
            if not unit.on_board:
                continue
            team = _team(battle, unit)
            if team is not None:
                yield from sniper_shoots(battle, team)
            else:
                yield from team_shoots(battle, unit)

    def _assault(self, battle, phase):
        tried = []
        for unit in battle.units_of(phase.side):
            if not unit.on_board or unit.pinned or unit.kind == "sniper":
                continue
            for team in teams_of(battle):
                if (team.side != unit.side and team.on_board
                        and dist(unit.pos, team.unit.pos) <= CATCH_RADIUS):
                    tried.append(unit.id)
                    yield from catch(battle, unit, team)
        for unit in battle.units_of(phase.side):
            if battle.done.triggered:
                return
            if not unit.on_board or unit.pinned or unit.kind == "sniper" or not unit.orders.charge:
                continue
            near = [(dist(unit.pos, e.pos), e.id, e) for e in battle.enemies_of(unit.side)
                    if e.kind != "sniper" and dist(unit.pos, e.pos) <= knobs(battle).assault_range]
            if near:
                target = min(near)[2]
                if unit.id in tried:
                    battle.record("assault_after_catch", rule="FOW.CATCH", unit=unit.id,
                                  target=target.id)
                fow_base.assault(battle, unit, target)
