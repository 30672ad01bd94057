"""Hunters' routes (``sim.toolkit.hunters``), written once for H17 and FOW: a unit with no
prey follows its orders (via nodes, its route planner, ``hold``), a hunter heads for the
nearest revealed enemy sniper by its system's measure, and one whose prey is gone plans its
orders' route again."""
from __future__ import annotations

import sim.plugin as sp
from conftest import set_up
from sim.agents.unit import Unit
from sim.engine.clock import Phase
from sim.experimental import Behaviour, register_behaviour, unregister_behaviour
from sim.replication import run_battle
from sim.scenario.load import scenario_from_dict
from sim.space import route_planners as routes
from sim.toolkit import sniper_team as sn
from sim.toolkit.hunters import hex_count, hunt_route, straight_line
from sim.toolkit.snipers import SniperTeams
from test_h17 import doc

ROWS = ["........", "........", "........", "........"]


def hunter_doc(orders, **hunter):
    """A hex map, a blue hunter at 0,0 and a red sniper off the board (never revealed:
    blue has no infantry target, so no natural 12 activates it)."""
    blue = [{"id": "h", "at": "0,0", "move": 3, "hunt": True, "orders": orders, **hunter}]
    return doc(ROWS, blue, [{"id": "s", "kind": "sniper", "at": "6,3"}], turns=6)


def nodes_passed(data, unit="h"):
    b = set_up(data)
    log = run_battle(scenario_from_dict(data), 1).log
    return [b.terrain.nearest_node(*p) for r in log.where(event="move", unit=unit) for p in r["waypoints"]]


def test_an_h17_hunter_with_no_prey_goes_through_its_orders_via_nodes():
    """The old H17 copy sent a hunter with no prey by the shortest path to ``to``, past its ``via``."""
    passed = nodes_passed(hunter_doc({"type": "advance", "to": "7,0", "via": ["2,3"]}))
    assert "2,3" in passed and passed[:3] == ["0,1", "0,2", "0,3"]
    assert "2,3" not in nodes_passed(hunter_doc({"type": "advance", "to": "7,0"}))


def _bottom_row(battle, unit, start, via, goal):
    return routes.shortest(battle.terrain, start, ["2,3"], goal)


def test_an_h17_hunter_with_no_prey_keeps_its_route_planners_route():
    """The old H17 copy replaced the planner's route by the shortest path to ``to``."""
    register_behaviour(Behaviour(sp.ROUTE, "bottom_row", _bottom_row, "by way of 2,3"))
    try:
        passed = nodes_passed(hunter_doc({"type": "advance", "to": "7,0", "route": "bottom_row"}))
    finally:
        unregister_behaviour("route", "bottom_row")
    assert "2,3" in passed


def test_an_h17_hunter_on_hold_with_no_prey_stays():
    """A ``hold`` that still names a destination (a plug-in's reaction may copy a step so)
    stays: the old H17 copy moved a hunter to its ``to`` whatever its orders' type."""
    b = set_up(hunter_doc({"type": "advance", "to": "7,0"}))
    h = b.units["h"]
    h.orders = h.orders.model_copy(update={"type": "hold"})
    b.game.on_phase(b, Phase(1, "blue", "movement", 0.0, 1.0, True))
    assert h.route == [] and h.node == "0,0"


def _team(b, uid, node, state=sn.REVEALED):
    u = Unit(id=uid, side="red", kind="sniper", steps=1, armour=4, morale=4, skill=4, move=1.0,
             orders=None, node=node, pos=b.terrain.pos(node))
    return sn.SniperTeam(b, u, state)


def test_the_nearest_prey_is_by_the_systems_measure():
    """H17 counts hexes between nodes, FOW measures straight lines between positions: two
    prey two hexes away, one of them nearer in the plane."""
    b = set_up(hunter_doc({"type": "advance", "to": "7,0"}))
    h, t = b.units["h"], b.terrain
    a, c = _team(b, "a", "2,0"), _team(b, "c", "1,1")
    assert t.distance("0,0", "2,0") == t.distance("0,0", "1,1") == 2
    assert straight_line(b, h, c.unit) < straight_line(b, h, a.unit)
    teams = SniperTeams(teams=[a, c], hunters=frozenset({"h"}))
    assert hunt_route(b, h, teams, hex_count)[-1] == "2,0"          # tie in hexes: by id
    assert hunt_route(b, h, teams, straight_line)[-1] == "1,1"
    assert teams.hunting == {"h"}
    assert hunt_route(b, h, SniperTeams(teams=[a, c]), hex_count) == t.path("0,0", "7,0")[1:]


def test_a_hunter_whose_prey_is_gone_plans_its_orders_route_again():
    b = set_up(hunter_doc({"type": "advance", "to": "7,0", "via": ["2,3"]}))
    h = b.units["h"]
    prey = _team(b, "p", "3,1")
    teams = SniperTeams(teams=[prey], hunters=frozenset({"h"}))
    assert hunt_route(b, h, teams, hex_count)[-1] == "3,1" and teams.hunting == {"h"}
    h.route = ["1,0"]                      # what is left of the hunt's route
    prey.state = sn.WITHDRAWN
    assert hunt_route(b, h, teams, hex_count) == b.plans.route(h, h.orders)
    assert "2,3" in b.plans.route(h, h.orders) and teams.hunting == set()
    h.route = ["0,1", "0,2"]               # no longer hunting: the plan's own route stands
    assert hunt_route(b, h, teams, hex_count) == ["0,1", "0,2"]
