"""The named route planners and policies that plans use (behaviours in the registry).

A route planner (kind ``route``) is ``choose(plans, unit, start, via, goal) -> [nodes]``;
a reaction policy (kind ``reaction_move``) is ``choose(plans, runner, policy) -> str`` (the
choice it logs), which calls ``plans.hold`` or ``plans.detour`` to act, or nothing to
carry on; a target policy (kind ``target``) is ``choose([(distance, enemy)], policy) ->
enemy``. A user adds one with ``sim.experimental.register_behaviour`` and names it in a
scenario's ``route`` or ``policies``.
"""
from __future__ import annotations

from typing import Any

from sim.agents.plans import Plans, Runner
from sim.agents.unit import Unit
from sim.space import routes
from sim.space.geometry import dist
from sim.systems.behaviours import Behaviour


def _shortest(plans: Plans, unit: Unit, start: str, via: list[str], goal: str) -> list[str]:
    return routes.shortest(plans.battle.terrain, start, via, goal)


def _covered(plans: Plans, unit: Unit, start: str, via: list[str], goal: str) -> list[str]:
    return routes.covered(plans.battle.terrain, start, via, goal, plans.seen_by_enemies_of(unit.side))


def _carry_on(plans: Plans, r: Runner, p: Any) -> str:
    return "carry on"


def _go_to_ground(plans: Plans, r: Runner, p: Any) -> str:
    return plans.hold(r, p.turns)


def _fall_back(plans: Plans, r: Runner, p: Any) -> str:
    # back along the edge it stands on to the node it stands past, or from a node to the
    # one it came to it from
    back = r.way.last_passed(r.unit, plans.battle.terrain)
    if back is None:
        plans.hold(r)
        return "hold (nowhere to fall back to)"
    plans.detour(r, back)
    return f"fall back to {back}"


def _seek_cover(plans: Plans, r: Runner, p: Any) -> str:
    """The nearest node with cover within one move that no enemy holds and that is no
    nearer any enemy than the unit is now (seeking cover is not closing in)."""
    unit, t = r.unit, plans.battle.terrain
    enemies = [e for e in plans.battle.enemies_of(unit.side)]
    held = {e.node for e in enemies}

    def closest(pos: Any) -> float:
        return min((dist(pos, e.pos) for e in enemies), default=float("inf"))

    now = closest(unit.pos)
    cover = [n for n in t.within(unit.node, unit.move) if t.cover(n) > 0 and n not in held
             and closest(t.pos(n)) >= now - 1e-9 and t.reachable(unit.node, n)]
    near = [(cost, n) for n in cover if (cost := t.path_cost(unit.node, n)) <= unit.move + 1e-9]
    if not near:
        plans.hold(r)
        return "hold (no cover within reach)"
    cost, node = min(near)
    if node == unit.node and unit.pos == t.pos(node):
        plans.hold(r)   # already in cover: it stays there this phase
    else:
        plans.detour(r, node)
    return f"cover at {node}"


def _nearest(candidates: list[tuple[float, Unit]], p: Any) -> Unit:
    return min(candidates, key=lambda c: (c[0], c[1].id))[1]


def _weakest(candidates: list[tuple[float, Unit]], p: Any) -> Unit:
    return min(candidates, key=lambda c: (c[1].steps, c[0], c[1].id))[1]


def _most_dangerous(candidates: list[tuple[float, Unit]], p: Any) -> Unit:
    return min(candidates, key=lambda c: (-c[1].steps, c[1].armour, c[0], c[1].id))[1]


def _priority(candidates: list[tuple[float, Unit]], p: Any) -> Unit:
    order = {k: i for i, k in enumerate(p.kinds)}
    return min(candidates, key=lambda c: (order.get(c[1].kind, len(order)), c[0], c[1].id))[1]


BEHAVIOURS = [
    Behaviour("route", "shortest", _shortest, "the least-cost path, through `via` in order (default)"),
    Behaviour("route", "via", _shortest, "the least-cost legs between the `via` nodes"),
    Behaviour("route", "covered", _covered,
              "keeps out of the ground the enemy saw from its start (10x dearer there)"),
    Behaviour("reaction_move", "carry_on", _carry_on, "keep to the plan (the default)"),
    Behaviour("reaction_move", "go_to_ground", _go_to_ground, "hold for `turns` movement phases"),
    Behaviour("reaction_move", "fall_back", _fall_back,
              "move back to the last node it passed (along the edge it stands on, or to the node "
              "before the one it stands on)"),
    Behaviour("reaction_move", "seek_cover", _seek_cover,
              "move to the nearest node with cover it can reach this phase, not one an enemy holds "
              "nor nearer the enemy than it stands"),
    Behaviour("target", "nearest", _nearest, "the nearest enemy in range and sight (the default)"),
    Behaviour("target", "weakest", _weakest, "the enemy with fewest steps, then the nearest"),
    Behaviour("target", "most_dangerous", _most_dangerous,
              "the enemy with most steps (then least armour), then the nearest"),
    Behaviour("target", "priority", _priority, "the first of `kinds` present, then the nearest"),
]
