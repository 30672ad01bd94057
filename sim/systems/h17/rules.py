"""H17's rules that act: activation (H17.2), the sniper's attack (H17.5), the elimination
check (H17.6a) and withdrawal (H17.3); the module docstring of
``sim.systems.h17`` gives every reading."""
from __future__ import annotations

from collections.abc import Generator
from typing import Any

from sim.agents.unit import Unit
from sim.catalogue import implements
from sim.systems.behaviours import behaviour
from sim.systems.h17 import hex_combat
from sim.systems.h17.events import ELIMINATION_CHECK, NO_ACTIVATION, NO_ELIMINATION_CHECK, SNIPER_ATTACK
from sim.systems.h17.policies import PLACEMENT, WITHDRAWAL
from sim.systems.h17.state import H17Battle
from sim.systems.kinds import INFANTRY
from sim.toolkit.sniper_team import HIDDEN, SniperTeam
from sim.toolkit.snipers import SNIPER

RANGE = 6   # hexes: placement (H17.2b) and opportunity fire (H17.4)


@implements("H17.1s")
def can_spot_for(team: SniperTeam, support: str) -> bool:
    """H17.1s: a sniper never spots for mortars, off-board artillery or air strikes."""
    return False


# -- H17.2: activation ----------------------------------------------------------------------
@implements("H17.2b")
def placement(battle: H17Battle, team: SniperTeam,
              activator: Unit) -> tuple[str, dict[str, Any]] | None:
    """(node, fields) of the hex the sniper is placed in, or None (no activation).

    The qualifying hexes are listed in map order as (node, cover, distance, index); the
    ``placement`` behaviour picks one."""
    t = battle.terrain
    here = activator.node
    enemies = {u.node for u in battle.enemies_of(team.side) if u.kind != SNIPER.name}
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
    policy = battle.knobs.h17.placement
    node, cover, d, _ = behaviour(PLACEMENT, policy).choose(battle, team, found)
    return node, {"cover": cover, "dist": d, "policy": policy, "choices": len(found)}


@implements("H17.2a", "H17.2c", "H17.6c")
def natural_twelve(battle: H17Battle, attacker: Unit,
                   attack: dict[str, Any]) -> Generator[Any, Any, None]:
    """A generator for the fire-phase process: an infantry natural 12 activates the
    opposing sniper (if it is available: never after elimination, H17.6c), which then
    attacks the activating unit's hex at once (H17.2c)."""
    if attacker.kind != INFANTRY.name or not attack.get("natural12"):
        return
    for team in battle.state.teams:
        if team.side == attacker.side or not team.available:
            continue
        spot = placement(battle, team, attacker)
        if spot is None:
            battle.record(NO_ACTIVATION, rule="H17.2b", unit=team.id, by=attacker.id,
                          node=attacker.node, reason="no hex in LOS within 6 with cover")
            continue
        node, fields = spot
        target_node = attacker.node

        def attack_now(team: SniperTeam = team, target_node: str = target_node) -> None:
            # "the sniper immediately attacks those units": the one that activated it
            sniper_attack(battle, team, target_node, [attacker], trigger="H17.2c")

        yield team.request("activate", rule="H17.2a", node=node, then=attack_now,
                           placed_by="H17.2b", placement=fields,
                           dice=list(attack["dice"]), mods=0, need=12, success=True,
                           by=[attacker.id], attack_t=attack["t"])


# -- H17.5 / H17.6a: the attack and the elimination check ----------------------------------
@implements("H17.5")
def sniper_attack(battle: H17Battle, team: SniperTeam, target_node: str, targets: list[Unit],
                  trigger: str) -> dict[str, Any]:
    """d6 > the target hex's cover modifier → (d6 − cover) CP on the units attacked
    (``targets``, in that hex: the mover of H17.4, the activating unit of H17.2c); then
    they make the elimination check (H17.6a), in the order ``check_order`` says."""
    t = battle.terrain
    sniper = team.unit
    targets = [u for u in targets if u.on_board and u.node == target_node]
    cover = t.cover_modifier(target_node, sniper.node)
    (face,) = battle.dice.roll(sniper.id, "H17.5")
    success = face > cover
    cp = face - cover if success else 0
    rec = battle.record(SNIPER_ATTACK, rule="H17.5", unit=sniper.id,
                        target=targets[0].id if targets else None,
                        targets=[u.id for u in targets], pos=sniper.pos, node=sniper.node,
                        target_node=target_node, trigger=trigger,
                        dice=[face], mods=0, need=cover, success=success, cp=cp)
    team.attacks += 1
    team.attacks_since_deploy += 1
    if team.state == HIDDEN:
        team.request("spot", rule=trigger, by=[u.id for u in targets])
    check_first = battle.knobs.h17.check_order == "check_then_pin"
    to_pin = hex_combat.apply_cp(battle, targets, cp, by=sniper, cause="H17.5", pin_now=not check_first)
    battle.env.process(elimination_check(battle, team, target_node, targets, to_pin))
    return rec


@implements("H17.6a")
def elimination_check(battle: H17Battle, team: SniperTeam, target_node: str,
                      targets: list[Unit], pin_after: list[Unit] | None = None) -> Generator[Any, Any, None]:
    """The targeted units' process: if one of them in the target hex is unpinned, d6 >
    the sniper hex's cover modifier eliminates the sniper (an interrupt). ``pin_after``
    (check_then_pin) are the attack's pins, made after the check."""
    checker = _checker(battle, team, target_node, targets)
    success = False
    if checker is not None:
        need = battle.terrain.cover_modifier(team.unit.node, target_node)
        (face,) = battle.dice.roll(checker.id, "H17.6a")
        success = face > need
        battle.record(ELIMINATION_CHECK, rule="H17.6a", unit=checker.id, target=team.id,
                      pos=checker.pos, node=checker.node, sniper_node=team.unit.node,
                      dice=[face], mods=0, need=need, success=success)
    for unit in pin_after or []:
        hex_combat.pin(battle, unit, "H17.5")
    if checker is not None and success:
        team.doomed = True
        yield team.request("eliminate", rule="H17.6a", by=checker.id)


def _checker(battle: H17Battle, team: SniperTeam, target_node: str,
             targets: list[Unit]) -> Unit | None:
    """The targeted unit that makes the check: the first still unpinned in the target
    hex; None (logged) when there is none."""
    if not team.on_board or team.doomed:
        return None
    able = [u for u in targets if u.on_board and not u.pinned and u.node == target_node]
    if not able:
        battle.record(NO_ELIMINATION_CHECK, rule="H17.6a", unit=team.id,
                      targets=[u.id for u in targets], reason="no unpinned targeted unit")
        return None
    return able[0]


# -- H17.3: withdrawal ---------------------------------------------------------------------
def withdraw_policy(battle: H17Battle, team: SniperTeam) -> Any:
    """The sniper's withdrawal policy: its own (``policies``, by unit, group or side), else
    the scenario's ``rules.h17.withdraw``."""
    return battle.plans.policy(team.unit, "withdraw") or battle.knobs.h17.withdraw


@implements("H17.3")
def wants_withdrawal(battle: H17Battle, team: SniperTeam) -> bool:
    """Whether the owner's ``withdraw`` policy (a behaviour) withdraws the sniper now."""
    w = withdraw_policy(battle, team)
    if not team.on_board or team.doomed:
        return False
    return bool(behaviour(WITHDRAWAL, w.when).choose(battle, team, w))
