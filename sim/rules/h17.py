"""H17 — hex wargame snipers (seed 000), on the small hex base game of ``hex_base``.

A player-turn is ``movement``, ``fire``, ``after_action`` (the catalogue's table). Each
side has at most one sniper (``kind: sniper``, H17.1), off the board until activated.
Its lifecycle is a ``SniperTeam`` process (``sim.agents.sniper``); every transition is
an interrupt sent by another process:

* H17.2a activation: in the fire phase an opposing *infantry* unit's BASE.H.AP attack
  rolls 6, 6. The fire-phase process interrupts the sniper (``activate``; the record's
  ``dice`` are the attack's two dice, no new roll; for a uniform audit it also says
  ``mods`` 0, ``need`` 12, ``success`` true: the faces' natural sum is 12) and waits
  until it has acted.
* H17.2b placement: a hex within 6 hexes of the activating unit, in its LOS, whose cover
  modifier against it (cover + hindrance, ``terrain.cover_modifier``) is > 0, not
  impassable and holding no enemy unit. None: no activation (a ``no_activation`` record).
* H17.2c: the sniper at once attacks the units in the activating unit's hex (H17.5).
* H17.4 opportunity fire: a referee watch (radius 6) on infantry moving in the sniper
  owner's opponent's movement phase. The sniper fires, at most once per turn (the Fire
  marker, ``fired_turn``), at the first moment a mover *in a hex centre* — as it sets off
  on a hex-to-hex step, its first one included — stands in a hex within 6 hexes and in
  LOS. A unit stands in the hex whose centre it last reached; circle entries between
  centres are declined with ``continue``. A mover pinned or eliminated by the attack
  stops (``halt_phase`` / ``dead``); otherwise it keeps moving (``continue``).
* H17.5 attack: d6 > need = the target hex's cover modifier seen from the sniper's hex
  → ``cp`` = d6 − cover casualty points on the units of the target hex (BASE.H.CP).
  The first attack reveals the sniper (``spot``).
* H17.6a: after every sniper attack a process of the targeted side makes the
  elimination check, if any targeted unit in the target hex is still unpinned after the
  attack's damage: d6 > need = the sniper hex's cover modifier seen from the target
  hex → it interrupts the sniper with ``eliminate``. The check is made by the first
  such unit in scenario order (its dice stream).
* H17.6b: a referee watch of radius 0.5 (the hexside) on enemy movers: crossing into the
  sniper's hex eliminates it (interrupt), and the mover goes on.
* H17.6c: ``eliminated`` is terminal in the state machine; ``available`` is false.
* H17.3 withdrawal, in the After-Action Phase, by the owner's policy.
* H17.1s: no spotting for mortars, artillery or air (``can_spot_for``): none exist here.

Knobs (``rules.h17``), the readings of what the seed leaves open:

* ``placement``: ``best_cover`` (default; highest cover modifier, then nearest, then
  map order), ``nearest`` (nearest, then highest cover, then map order) or ``random``
  (uniform over the qualifying hexes, a draw from the sniper's ``H17.2b`` stream).
* ``withdraw``: a small model ``{when, hexes, attacks}``: ``never`` (default),
  ``enemy_within`` (an enemy unit within ``hexes`` of the sniper) or ``after_attacks``
  (the sniper has made ``attacks`` attacks since it was placed).
* ``withdraw_phase``: ``any`` (default: the seed's "during any After-Action Phase",
  the opponent's included) or ``own`` (only its owner's After-Action Phase).
* BASE numbers: ``ap_range``, ``ap_need``, ``cp_per_step`` (see ``hex_base``).

Units with ``hunt: true`` move towards the hex of a revealed enemy sniper (shortest
path) instead of their orders' destination while one is on the board.
"""
from __future__ import annotations

from sim.agents.movement import movement_process
from sim.agents.referee import Trigger, Watch
from sim.agents.sniper import HIDDEN, OFF_BOARD, REVEALED, SniperTeam, teams_of
from sim.errors import InputError
from sim.rules import hex_base
from sim.rules.registry import implements

RANGE = 6   # hexes: placement (H17.2b) and opportunity fire (H17.4)


def knobs(battle):
    return battle.knobs.h17


# -- set-up -------------------------------------------------------------------------------
@implements("H17.1")
def make_teams(battle) -> list[SniperTeam]:
    """One ``SniperTeam`` per sniper unit; at most one per side (H17.1), off the board."""
    teams = []
    seen: dict[str, str] = {}
    for side, spec in battle.scenario.units():
        if spec.kind != "sniper":
            continue
        if side in seen:
            raise InputError(f"side '{side}' has two snipers ('{seen[side]}', '{spec.id}'); "
                             "H17.1 allows at most one per player per game",
                             file=battle.scenario._file, place=f"forces.{side}")
        seen[side] = spec.id
        unit = battle.units[spec.id]
        start = spec.sniper_team.start if spec.sniper_team is not None else OFF_BOARD
        if start == "reserve":
            raise InputError("an H17 sniper starts off_board (or deployed), not in a reserve",
                             file=battle.scenario._file, place=f"forces.{side}")
        state = HIDDEN if start == "deployed" else OFF_BOARD
        teams.append(SniperTeam(battle, unit, state, "h17"))
    return teams


@implements("H17.1s")
def can_spot_for(team, support: str) -> bool:
    """H17.1s: a sniper never spots for mortars, off-board artillery or air strikes."""
    return False


# -- H17.2: activation ----------------------------------------------------------------------
@implements("H17.2b")
def placement(battle, team, activator):
    """(node, fields) of the hex the sniper is placed in, or None (no activation)."""
    t = battle.terrain
    here = activator.node
    enemies = {u.node for u in battle.enemies_of(team.side) if u.kind != "sniper"}
    found = []
    for i, node in enumerate(t.within(here, RANGE)):
        if node in enemies or not t.graph.nodes[node]["passable"] or not t.los(node, here):
            continue
        cover = t.cover_modifier(node, here)
        if cover <= 0:
            continue
        found.append((node, cover, int(t.distance(node, here)), i))
    if not found:
        return None
    policy = knobs(battle).placement
    if policy == "best_cover":
        node, cover, d, _ = min(found, key=lambda f: (-f[1], f[2], f[3]))
    elif policy == "nearest":
        node, cover, d, _ = min(found, key=lambda f: (f[2], -f[1], f[3]))
    else:
        k = int(battle.dice.uniform(team.id, "H17.2b") * len(found))
        node, cover, d, _ = found[min(k, len(found) - 1)]
    return node, {"cover": cover, "dist": d, "policy": policy, "choices": len(found)}


@implements("H17.2a", "H17.2c", "H17.6c")
def natural_twelve(battle, attacker, attack: dict):
    """A generator for the fire-phase process: an infantry natural 12 activates the
    opposing sniper (if it is available: never after elimination, H17.6c), which then
    attacks the activating unit's hex at once (H17.2c)."""
    if attacker.kind != "infantry" or not attack.get("natural12"):
        return
    for team in teams_of(battle):
        if team.side == attacker.side or not team.available:
            continue
        spot = placement(battle, team, attacker)
        if spot is None:
            battle.record("no_activation", rule="H17.2b", unit=team.id, by=attacker.id,
                          node=attacker.node, reason="no hex in LOS within 6 with cover")
            continue
        node, fields = spot
        target_node = attacker.node

        def attack_now(team=team, target_node=target_node):
            sniper_attack(battle, team, target_node, trigger="H17.2c")

        yield team.request("activate", rule="H17.2a", node=node, then=attack_now,
                           dice=list(attack["dice"]), mods=0, need=12, success=True,
                           by=[attacker.id], attack_t=attack["t"],
                           placement=fields)


# -- H17.5 / H17.6a: the attack and the elimination check ----------------------------------
@implements("H17.5")
def sniper_attack(battle, team, target_node, trigger: str) -> dict:
    """d6 > the target hex's cover modifier → (d6 − cover) CP on the units there."""
    t = battle.terrain
    sniper = team.unit
    enemy_sides = [s for s in battle.scenario.sides if s != team.side]
    targets = [u for s in enemy_sides for u in hex_base.hex_units(battle, s, target_node)]
    cover = t.cover_modifier(target_node, sniper.node)
    (face,) = battle.dice.roll(sniper.id, "H17.5")
    success = face > cover
    cp = face - cover if success else 0
    rec = battle.record("sniper_attack", rule="H17.5", unit=sniper.id,
                        target=targets[0].id if targets else None,
                        targets=[u.id for u in targets], pos=sniper.pos, node=sniper.node,
                        target_node=target_node, trigger=trigger,
                        dice=[face], mods=0, need=cover, success=success, cp=cp)
    team.attacks += 1
    team.attacks_since_deploy += 1
    if team.state == HIDDEN:
        team.request("spot", rule=trigger, by=[u.id for u in targets])
    hex_base.apply_cp(battle, targets, cp, by=sniper, cause="H17.5")
    battle.env.process(elimination_check(battle, team, target_node, targets))
    return rec


@implements("H17.6a")
def elimination_check(battle, team, target_node, targets):
    """The targeted units' process: if one of them in the target hex is unpinned, d6 >
    the sniper hex's cover modifier eliminates the sniper (an interrupt)."""
    if not team.on_board or team.doomed:
        return
    able = [u for u in targets if u.on_board and not u.pinned and u.node == target_node]
    if not able:
        battle.record("no_elimination_check", rule="H17.6a", unit=team.id,
                      targets=[u.id for u in targets], reason="no unpinned targeted unit")
        return
    checker = able[0]
    need = battle.terrain.cover_modifier(team.unit.node, target_node)
    (face,) = battle.dice.roll(checker.id, "H17.6a")
    success = face > need
    battle.record("elimination_check", rule="H17.6a", unit=checker.id, target=team.id,
                  pos=checker.pos, node=checker.node, sniper_node=team.unit.node,
                  dice=[face], mods=0, need=need, success=success)
    if success:
        team.doomed = True
        yield team.request("eliminate", rule="H17.6a", by=checker.id)


# -- referee watches: H17.4 and H17.6b --------------------------------------------------------
def _at_centre(battle, p):
    node = battle.terrain.nearest_node(*p)
    q = battle.terrain.pos(node)
    return node if abs(q[0] - p[0]) + abs(q[1] - p[1]) < 1e-6 else None


@implements("H17.4")
class OpportunityFireWatch(Watch):
    rule = "H17.4"
    radius = RANGE + 1e-9   # hex distance <= 6 implies centre distance <= 6

    def active(self, battle, mover) -> bool:
        return battle.clock.phase == "movement" and mover.kind == "infantry"

    def reactors(self, battle, side):
        return [tm.unit for tm in teams_of(battle) if tm.side != side and tm.on_board]

    def eligible(self, battle, reactor, mover) -> bool:
        team = _team(battle, reactor)
        return (team is not None and team.on_board and not team.doomed
                and team.fired_turn != battle.clock.turn)

    def _qualifies(self, battle, team, mover, p) -> bool:
        node = _at_centre(battle, p)
        t = battle.terrain
        return (node is not None and mover.on_board and not mover.pinned
                and t.distance(node, team.unit.node) <= RANGE and t.los(node, team.unit.node))

    def inside_triggers(self, battle, reactor, mover, p0, p1) -> bool:
        team = _team(battle, reactor)
        return team is not None and self._qualifies(battle, team, mover, p0)

    def react(self, battle, mover, trigger: Trigger) -> str:
        team = _team(battle, trigger.reactor)
        if (team is None or not self.eligible(battle, trigger.reactor, mover)
                or not self._qualifies(battle, team, mover, mover.pos)):
            return "continue"
        team.fired_turn = battle.clock.turn
        battle.record("opportunity_fire", rule="H17.4", unit=team.id, target=mover.id,
                      pos=team.unit.pos, node=team.unit.node, target_node=mover.node,
                      dist=battle.terrain.distance(mover.node, team.unit.node), marker="fire")
        sniper_attack(battle, team, mover.node, trigger="H17.4")
        if not mover.alive:
            return "dead"
        return "halt_phase" if mover.pinned else "continue"


@implements("H17.6b")
class HexEntryWatch(Watch):
    rule = "H17.6b"
    radius = 0.5   # the hexside: crossing it enters the sniper's hex

    def active(self, battle, mover) -> bool:
        return mover.kind != "sniper"

    def reactors(self, battle, side):
        return [tm.unit for tm in teams_of(battle) if tm.side != side and tm.on_board]

    def eligible(self, battle, reactor, mover) -> bool:
        team = _team(battle, reactor)
        return team is not None and team.on_board and not team.doomed

    def react(self, battle, mover, trigger: Trigger) -> str:
        team = _team(battle, trigger.reactor)
        if team is not None and team.on_board and not team.doomed:
            team.doomed = True
            team.request("eliminate", rule="H17.6b", by=mover.id, entered=True)
        return "continue"


def _team(battle, unit):
    for team in teams_of(battle):
        if team.unit is unit:
            return team
    return None


# -- H17.3: withdrawal -------------------------------------------------------------------------
@implements("H17.3")
def wants_withdrawal(battle, team) -> bool:
    w = knobs(battle).withdraw
    if not team.on_board or team.doomed or w.when == "never":
        return False
    if w.when == "after_attacks":
        return team.attacks_since_deploy >= w.attacks
    t = battle.terrain
    return any(e.kind != "sniper" and t.distance(e.node, team.unit.node) <= w.hexes
               for e in battle.enemies_of(team.side))


# -- hunting -----------------------------------------------------------------------------------
def route_for(battle, unit):
    """Hunters head for a revealed enemy sniper's hex; others keep their orders' route."""
    if not unit.hunt:
        return unit.route
    t = battle.terrain
    prey = [(t.distance(unit.node, tm.unit.node), tm.id, tm) for tm in teams_of(battle)
            if tm.side != unit.side and tm.state == REVEALED and tm.unit.alive
            and t.reachable(unit.node, tm.unit.node)]   # the map may be in several pieces
    if prey:
        goal = min(prey)[2].unit.node
    elif unit.orders.to is not None:
        goal = unit.orders.to
    else:
        return []
    if goal == unit.node:
        return []
    return list(t.path(unit.node, goal)[1:])


# -- the ruleset --------------------------------------------------------------------------------
class H17Game:
    """H17: movement (opportunity fire, entering the sniper's hex), fire (AP attacks and
    their natural 12s), after-action (rally, withdrawal)."""

    phases = ("movement", "fire", "after_action")

    def setup(self, battle) -> None:
        hunts = {spec.id: spec.hunt for _, spec in battle.scenario.units()}
        for unit in battle.units.values():
            unit.hunt = hunts.get(unit.id, False)
        battle.sniper_teams = make_teams(battle)
        battle.referee.add(OpportunityFireWatch())
        battle.referee.add(HexEntryWatch())

    def on_phase(self, battle, phase) -> None:
        if phase.phase == "movement":
            battle.referee.begin_phase()
            for unit in battle.units_of(phase.side):
                if not unit.on_board or unit.kind == "sniper" or unit.pinned:
                    continue
                unit.route = route_for(battle, unit)
                if unit.route:
                    unit.process = battle.env.process(movement_process(battle, unit, phase))
        elif phase.phase == "fire":
            battle.env.process(self._fire(battle, phase))
        elif phase.phase == "after_action":
            battle.env.process(self._after_action(battle, phase))

    def _fire(self, battle, phase):
        for unit in battle.units_of(phase.side):
            if battle.done.triggered:
                return
            if not unit.on_board or unit.kind == "sniper" or unit.pinned:
                continue
            target = hex_base.nearest_target(battle, unit)
            if target is None:
                continue
            attack = hex_base.ap_attack(battle, unit, target)
            yield from natural_twelve(battle, unit, attack)
            yield battle.env.timeout(0)   # let elimination checks finish first

    def _after_action(self, battle, phase):
        hex_base.rally(battle, phase.side)
        for team in teams_of(battle):
            if knobs(battle).withdraw_phase == "own" and team.side != phase.side:
                continue
            if wants_withdrawal(battle, team):
                yield team.request("withdraw", rule="H17.3",
                                   policy=knobs(battle).withdraw.when)
