"""The shipped route planners and policies that plans use (behaviours of the kinds in
``sim.agents.choices``, whose protocols say each one's arguments)."""
from __future__ import annotations

from typing import Any

from sim.agents.choices import REACTION_MOVE, ROUTE, TARGET, Response
from sim.agents.unit import Unit
from sim.engine.context import BattleContext
from sim.scenario.orders import MovePolicy, TargetPolicy
from sim.space import route_planners as routes
from sim.space.geometry import dist
from sim.systems.behaviours import Behaviour


def _shortest(battle: BattleContext, unit: Unit, start: str, via: list[str], goal: str) -> list[str]:
    return routes.shortest(battle.terrain, start, via, goal)


def _covered(battle: BattleContext, unit: Unit, start: str, via: list[str], goal: str) -> list[str]:
    return routes.covered(battle.terrain, start, via, goal, battle.plans.seen_by_enemies_of(unit.side))


def _carry_on(battle: BattleContext, unit: Unit, p: MovePolicy) -> Response:
    return Response.carry_on()


def _go_to_ground(battle: BattleContext, unit: Unit, p: MovePolicy) -> Response:
    return Response.stand(p.turns)


def _fall_back(battle: BattleContext, unit: Unit, p: MovePolicy) -> Response:
    # back along the edge it stands on to the node it stands past, or from a node to the
    # one it came to it from
    back = battle.plans.last_passed(unit)
    if back is None:
        return Response.stand(1, "hold (nowhere to fall back to)")
    return Response.move_to(back, f"fall back to {back}")


def _seek_cover(battle: BattleContext, unit: Unit, p: MovePolicy) -> Response:
    """The nearest node with cover within one move that no enemy holds and that is no
    nearer any enemy than the unit is now (seeking cover is not closing in)."""
    t = battle.terrain
    enemies = [e for e in battle.enemies_of(unit.side)]
    held = {e.node for e in enemies}

    def closest(pos: Any) -> float:
        return min((dist(pos, e.pos) for e in enemies), default=float("inf"))

    now = closest(unit.pos)
    cover = [n for n in t.within(unit.node, unit.move) if t.cover(n) > 0 and n not in held
             and closest(t.pos(n)) >= now - 1e-9 and t.reachable(unit.node, n)]
    near = [(cost, n) for n in cover if (cost := t.path_cost(unit.node, n)) <= unit.move + 1e-9]
    if not near:
        return Response.stand(1, "hold (no cover within reach)")
    cost, node = min(near)
    if node == unit.node and unit.pos == t.pos(node):
        return Response.stand(1, f"cover at {node}")   # already in cover: it stays there this phase
    return Response.move_to(node, f"cover at {node}")


def _nearest(candidates: list[tuple[float, Unit]], p: TargetPolicy) -> Unit:
    return min(candidates, key=lambda c: (c[0], c[1].id))[1]


def _weakest(candidates: list[tuple[float, Unit]], p: TargetPolicy) -> Unit:
    return min(candidates, key=lambda c: (c[1].steps, c[0], c[1].id))[1]


def _most_dangerous(candidates: list[tuple[float, Unit]], p: TargetPolicy) -> Unit:
    return min(candidates, key=lambda c: (-c[1].steps, c[1].armour, c[0], c[1].id))[1]


def _priority(candidates: list[tuple[float, Unit]], p: TargetPolicy) -> Unit:
    order = {k: i for i, k in enumerate(p.kinds)}
    return min(candidates, key=lambda c: (order.get(c[1].kind, len(order)), c[0], c[1].id))[1]


BEHAVIOURS: list[Behaviour[Any]] = [
    Behaviour(ROUTE, "shortest", _shortest, "the least-cost path, through `via` in order (default)"),
    Behaviour(ROUTE, "via", _shortest, "the least-cost legs between the `via` nodes"),
    Behaviour(ROUTE, "covered", _covered,
              "keeps out of the ground the enemy saw from its start (10x dearer there)"),
    Behaviour(REACTION_MOVE, "carry_on", _carry_on, "keep to the plan (the default)"),
    Behaviour(REACTION_MOVE, "go_to_ground", _go_to_ground, "hold for `turns` movement phases"),
    Behaviour(REACTION_MOVE, "fall_back", _fall_back,
              "move back to the last node it passed (along the edge it stands on, or to the node "
              "before the one it stands on)"),
    Behaviour(REACTION_MOVE, "seek_cover", _seek_cover,
              "move to the nearest node with cover it can reach this phase, not one an enemy holds "
              "nor nearer the enemy than it stands"),
    Behaviour(TARGET, "nearest", _nearest, "the nearest enemy in range and sight (the default)"),
    Behaviour(TARGET, "weakest", _weakest, "the enemy with fewest steps, then the nearest"),
    Behaviour(TARGET, "most_dangerous", _most_dangerous,
              "the enemy with most steps (then least armour), then the nearest"),
    Behaviour(TARGET, "priority", _priority, "the first of `kinds` present, then the nearest"),
]
