"""Hunters' routes: units that head for a revealed enemy sniper team, else by their orders.

Each moving phase a unit's route is ``hunt_route``: a hunter (``hunt: true``,
``SniperTeams.hunters``) heads for the nearest revealed enemy team it can reach (the map
may be in several pieces; nearest by the system's ``Measure``, then the team's id),
along the least-cost path. A unit with no such prey follows its orders:

* ``hold`` (or no destination): it stays;
* orders through ``via`` nodes or by a route planner other than ``shortest``: the plan's
  own route (``unit.route``); a hunter whose prey is gone plans that route again from
  where it stands (``Plans.route``: its hunt left the plan's route behind);
* otherwise the least-cost path to the orders' destination.

A unit that stands between nodes (a move or a rule ended there) sets off from the node
nearest to it.
"""
from __future__ import annotations

from collections.abc import Callable

from sim.agents.unit import Unit
from sim.engine.context import BattleContext
from sim.space.geometry import dist
from sim.toolkit.sniper_team import REVEALED
from sim.toolkit.snipers import SniperTeams

__all__ = ["Measure", "hex_count", "hunt_route", "straight_line"]

#: How far a hunter is from a prey's unit: (battle, hunter, prey) -> distance.
Measure = Callable[[BattleContext, Unit, Unit], float]


def hex_count(battle: BattleContext, hunter: Unit, prey: Unit) -> float:
    """The map's distance between the two units' nodes (hexes on a hex map)."""
    return battle.terrain.distance(hunter.node, prey.node)


def straight_line(battle: BattleContext, hunter: Unit, prey: Unit) -> float:
    """The straight-line distance between the two units' positions (they may stand between nodes)."""
    return dist(hunter.pos, prey.pos)


def hunt_route(battle: BattleContext, unit: Unit, teams: SniperTeams, measure: Measure) -> list[str]:
    """The unit's route for this moving phase: towards its nearest prey among ``teams``
    if it hunts and one is revealed, else by its orders (the module docstring)."""
    t = battle.terrain
    if dist(unit.pos, t.pos(unit.node)) > 1e-9:
        unit.node = t.nearest_node(*unit.pos)
    prey = [(measure(battle, unit, tm.unit), tm.id, tm) for tm in teams.teams
            if unit.id in teams.hunters and tm.side != unit.side and tm.state == REVEALED
            and tm.unit.alive and t.reachable(unit.node, tm.unit.node)]
    orders = unit.orders
    if prey:
        teams.hunting.add(unit.id)
        goal = min(prey)[2].unit.node
    elif orders.type == "hold" or orders.to is None:
        teams.hunting.discard(unit.id)
        return []
    else:
        goal = orders.to
        if orders.via or orders.route != "shortest":
            if unit.id in teams.hunting:
                teams.hunting.discard(unit.id)
                return battle.plans.route(unit, orders)
            return unit.route   # its plan's own route (through its via nodes, by its planner)
        teams.hunting.discard(unit.id)
    if goal == unit.node:   # there, or beside it: the last step is onto the node itself
        return [goal] if dist(unit.pos, t.pos(goal)) > 1e-9 else []
    if not t.reachable(unit.node, goal):
        return []
    return list(t.path(unit.node, goal)[1:])
