"""BASE.H — the hex base game's combat around the H17 sniper rules (not in the seeds): AP
attacks and their targets, casualty points, pins and rallies.

Distances are hex counts (``terrain.distance``); "cover modifier" is the target hex's
cover plus the hindrance between the two hexes (``terrain.cover_modifier``).

BASE.H.AP  Infantry AP attack (AT if the target is a vehicle). In its side's fire phase
           each unpinned infantry unit attacks the nearest enemy unit (not a sniper) it
           sees within ``rules.h17.ap_range`` hexes (ties: unit id). It rolls 2d6:
           ``success`` = 2d6 + ``mods`` >= ``need`` with
           ``mods`` = (attacker's steps − 1) + 1 if adjacent − 1 if beyond half range,
           ``need`` = ``rules.h17.ap_need`` (default 8) + the target's cover modifier.
           A success inflicts 1 casualty point on the units in the target hex. The
           record says ``natural12`` when the faces are 6, 6 (H17.2a).
BASE.H.CP  Casualty points (the seed's rule 14.61 is not given): CPs go to the units of
           the hit hex one at a time, each to the unit with the most steps left (ties:
           unit id); every ``rules.h17.cp_per_step`` CPs a unit has taken remove one of
           its steps. One ``hit`` record per unit that took CPs: ``cp``, ``steps_lost``,
           ``steps_left``. A unit at 0 steps is eliminated.
BASE.H.PIN A unit that loses a step and survives is pinned (``pin``): it neither moves nor
           attacks. In its side's After-Action Phase a pinned unit rallies on
           d6 >= its ``morale`` (``success`` = d6 >= ``need``).
"""
from __future__ import annotations

from typing import Any

from sim.agents.unit import Unit
from sim.catalogue import implements
from sim.events import ATTACK, HIT, RALLY
from sim.events import PIN as PIN_EVENT
from sim.systems.h17.state import H17Battle
from sim.systems.kinds import VEHICLE
from sim.toolkit.snipers import SNIPER
from sim.toolkit.targets import Stack

AP, CP, PIN = "BASE.H.AP", "BASE.H.CP", "BASE.H.PIN"


def hex_units(battle: H17Battle, side: str, node: str) -> list[Unit]:
    """A side's on-board units (not snipers) in hex ``node``, in scenario order.

    Asked in the fire phase of the other side, while ``side`` stands still: from the
    phase's index by node (a sniper placed meanwhile is no target either way).
    """
    at = battle.state.standing.by_node(battle, side).get(node, ())
    return [u for u in at if u.on_board and u.kind != SNIPER.name and u.node == node]


@implements(CP, PIN)
def apply_cp(battle: H17Battle, targets: list[Unit], cp: int, by: Unit | None = None,
             cause: str | None = None, pin_now: bool = True) -> list[Unit]:
    """Spread ``cp`` casualty points over ``targets`` (BASE.H.CP), eliminate those at 0
    steps and pin the survivors that lost a step (BASE.H.PIN). With ``pin_now`` false the
    pins are left to the caller: the units to pin are returned."""
    if cp <= 0:
        return []
    per_step = battle.knobs.h17.cp_per_step
    taken = battle.state.cp_taken
    alive = [u for u in targets if u.on_board]
    got = {u.id: 0 for u in alive}
    lost = {u.id: 0 for u in alive}
    for _ in range(cp):
        pool = [u for u in alive if u.steps > 0]
        if not pool:
            break
        unit = min(pool, key=lambda u: (-u.steps, u.id))
        got[unit.id] += 1
        taken[unit.id] = taken.get(unit.id, 0) + 1
        if taken[unit.id] >= per_step:
            taken[unit.id] = 0
            unit.steps -= 1
            lost[unit.id] += 1
    for unit in alive:
        if not got[unit.id]:
            continue
        battle.record(HIT, rule=CP, unit=unit.id, target=unit.id, pos=unit.pos, node=unit.node,
                      by=by.id if by is not None else None, cause=cause, cp=got[unit.id],
                      steps_lost=lost[unit.id], steps_left=unit.steps)
    to_pin = []
    for unit in alive:
        if unit.steps <= 0:
            battle.eliminate(unit, rule=CP)
        elif lost[unit.id] and not unit.pinned:
            to_pin.append(unit)
            if pin_now:
                pin(battle, unit, cause)
    return [] if pin_now else to_pin


@implements(PIN)
def pin(battle: H17Battle, unit: Unit, cause: str | None) -> None:
    """BASE.H.PIN: a unit that lost a step (and is still on the board) is pinned."""
    if unit.on_board and not unit.pinned:
        unit.flags.add("pinned")
        battle.record(PIN_EVENT, rule=PIN, unit=unit.id, pos=unit.pos, node=unit.node, cause=cause)


def nearest_target(battle: H17Battle, unit: Unit) -> Unit | None:
    """The unit's target among the enemies (not snipers) in LOS within AP range: the
    nearest (ties by unit id), or its target policy's choice among all of them.

    Looked for ring by ring of hexes, nearest first, among the fire phase's stacks of
    enemy units (they stand still while ``unit``'s side fires), and sight only until an
    enemy is seen. Hex centres k hexes apart are at most k apart, so a ring of radius k
    in the plane holds every hex within k.
    """
    t = battle.terrain
    enemy = next(s for s in battle.scenario.sides if s != unit.side)
    stacks = battle.state.standing.stacks(battle, enemy)
    here, reach = t.pos(unit.node), battle.knobs.h17.ap_range
    if battle.plans.policy(unit, "target") is not None:
        found = [(d, e) for stack in stacks.near_segment(here, here, reach)
                 if (d := t.distance(unit.node, stack.node)) <= reach
                 for e in _targets_in(stack) if t.los(unit.node, e.node)]
        return battle.plans.choose_target(unit, found)
    inner, k = -1.0, min(2.0, reach)
    while True:
        ring: list[tuple[float, str, Unit]] = []
        for stack in stacks.near_segment(here, here, k):
            d = t.distance(unit.node, stack.node)
            if inner < d <= k:
                ring.extend((d, e.id, e) for e in _targets_in(stack))
        ring.sort(key=lambda e: e[:2])
        for _, _, e in ring:
            if t.los(unit.node, e.node):
                return e
        if k >= reach:
            return None
        inner, k = k, min(2.0 * k, reach)


def _targets_in(stack: Stack) -> list[Unit]:
    """The stack's units an AP attack may target: on the board, still in its hex, not snipers."""
    return [e for e in stack.units if e.kind != SNIPER.name and e.on_board and e.node == stack.node]


@implements(AP)
def ap_attack(battle: H17Battle, attacker: Unit, target: Unit) -> dict[str, Any]:
    """One 2d6 AP/AT attack, logged; returns its record (``natural12`` for H17.2a)."""
    t, k = battle.terrain, battle.knobs.h17
    faces = battle.dice.roll(attacker.id, AP, 2)
    d = t.distance(attacker.node, target.node)
    mods = (attacker.steps - 1) + (1 if d <= 1 else 0) - (1 if d > k.ap_range / 2 else 0)
    need = k.ap_need + t.cover_modifier(target.node, attacker.node)
    success = sum(faces) + mods >= need
    rec = battle.record(ATTACK, rule=AP, unit=attacker.id, target=target.id, pos=attacker.pos,
                        node=attacker.node, target_node=target.node,
                        attack="AT" if target.kind == VEHICLE.name else "AP", dist=d,
                        dice=faces, mods=mods, need=need, success=success,
                        natural12=faces == [6, 6])
    if success:
        apply_cp(battle, hex_units(battle, target.side, target.node), 1, by=attacker, cause=AP)
    return rec


@implements(PIN)
def rally(battle: H17Battle, side: str) -> None:
    """BASE.H.PIN: the side's pinned units try to rally, d6 >= morale."""
    for unit in battle.units_of(side):
        if not unit.on_board or not unit.pinned:
            continue
        (face,) = battle.dice.roll(unit.id, PIN)
        success = face >= unit.morale
        battle.record(RALLY, rule=PIN, unit=unit.id, pos=unit.pos, node=unit.node,
                      dice=[face], mods=0, need=unit.morale, success=success)
        if success:
            unit.flags.discard("pinned")
