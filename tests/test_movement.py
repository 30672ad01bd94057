"""Movement (sim.agents.movement): continuous-time walking, allowances, March orders,
interrupts, and every move staying inside its own phase."""
from __future__ import annotations

import pytest

from conftest import SCENARIOS, build, recs, run, run_killing, scenario, table, unit
from sim.engine.battle import Battle
from sim.scenario.load import load_scenario

ADV = {"type": "advance", "to": "B"}
QUIET = {"base": {"shoot_range": 0, "charge_range": 0}}


def lane_map(length=200, areas=None):
    return table({"A": (0, 50), "B": (length, 50)}, [("A", "B")], width=max(length, 10),
                 areas=areas)


def far_enemy():
    return [unit("r", "Z")]


def with_far_enemy(terrain):
    terrain["waypoints"]["Z"] = [terrain["width"], 0]
    return terrain


def test_move_uses_its_allowance_in_the_whole_phase():
    """An advance of 15 cm along a 200 cm lane: stops after 15 cm at the phase's end."""
    b = run(scenario(with_far_enemy(lane_map()), [unit("m", "A", move=15, orders=ADV)], far_enemy(),
                     rules=QUIET, turns=1))
    (mv,) = recs(b, event="move", unit="m")
    assert mv["pos"] == [0.0, 50.0] or tuple(mv["pos"]) == (0.0, 50.0)
    (stop,) = recs(b, event="stop", unit="m")
    assert stop["pos"] == pytest.approx((15.0, 50.0)) and stop["reason"] == "allowance"
    assert stop["t"] == pytest.approx(1.0) and stop["phase"] == "movement"


def test_terrain_cost_slows_the_move():
    """An edge in cost-2 ground costs twice its length: 20 of allowance walk 10 cm."""
    area = [{"name": "mud", "polygon": [[0, 40], [200, 40], [200, 60], [0, 60]], "cost": 2}]
    b = run(scenario(with_far_enemy(lane_map(areas=area)), [unit("m", "A", move=20, orders=ADV)],
                     far_enemy(), rules=QUIET, turns=1))
    (stop,) = recs(b, event="stop", unit="m")
    assert stop["pos"] == pytest.approx((10.0, 50.0))


def test_arrival_records_arrive_and_wins_the_objective():
    """Reaching the objective node: an `arrive` record, then the battle ends."""
    b = run(scenario(with_far_enemy(lane_map(50)), [unit("m", "A", move=100, orders=ADV)],
                     far_enemy(), rules=QUIET, turns=3, objective="B"))
    (arr,) = recs(b, event="arrive", unit="m")
    assert arr["node"] == "B" and arr["pos"] == pytest.approx((50.0, 50.0))
    assert arr["t"] == pytest.approx(0.5)           # 50 cm at 100 cm per phase
    assert b.winner == "blue" and b.reason == "objective"
    assert b.log.records[-1]["event"] == "end"


def test_multi_leg_path_passes_through_waypoints():
    """A route A→M→B (a bend) is walked leg by leg; the allowance spans the bend."""
    wp = {"A": (0, 0), "M": (30, 40), "B": (90, 40), "Z": (100, 100)}
    terrain = table(wp, [("A", "M"), ("M", "B")], width=100, height=100)
    b = run(scenario(terrain, [unit("m", "A", move=80, orders=ADV)], far_enemy(), rules=QUIET, turns=1))
    (stop,) = recs(b, event="stop", unit="m")
    # 50 cm to M, then 30 more along M→B
    assert stop["pos"] == pytest.approx((60.0, 40.0)) and stop["node"] == "M"


def test_sf_march_three_moves_each_in_its_slot():
    """SF.MARCH: March orders give three moves, at t = 0, 1/3, 2/3, each of `move` cm."""
    b = run(scenario(with_far_enemy(lane_map()), [unit("m", "A", move=12, orders={"type": "march", "to": "B"})],
                     far_enemy(), rules=QUIET, turns=1))
    moves = recs(b, event="move", unit="m")
    assert [m["move"] for m in moves] == [1, 2, 3]
    assert [m["t"] for m in moves] == pytest.approx([0.0, 1 / 3, 2 / 3])
    assert [m["pos"][0] for m in moves] == pytest.approx([0.0, 12.0, 24.0])
    stops = recs(b, event="stop", unit="m")
    assert stops[-1]["pos"] == pytest.approx((36.0, 50.0)) and stops[-1]["t"] == pytest.approx(1.0)


def test_interrupt_mid_segment_knows_the_exact_position():
    """An interrupt at any instant: a snap-fire halt at t lies at start + v·t (v = 200/phase)."""
    terrain = table({"A": (0, 50), "B": (200, 50), "F": (123.456, 57.0)}, [("A", "B")])
    b = run(scenario(terrain, [unit("m", "A", move=200, orders=ADV, armour=7)], [unit("f", "F")],
                     turns=1))
    (h,) = recs(b, rule="SF.HALT")
    assert h["pos"][0] == pytest.approx(200 * h["t"], abs=1e-9)
    assert b.units["m"].pos == pytest.approx(tuple(h["pos"]))


def test_eliminated_mover_stops_at_once():
    """A unit eliminated while moving (by anything) makes no further record."""
    sc = build(scenario(with_far_enemy(lane_map()), [unit("m", "A", move=100, orders=ADV),
                                                     unit("m2", "A", move=100, orders=ADV)],
                        far_enemy(), rules=QUIET, turns=1))
    b, e = run_killing(sc, "m", 0.25)
    assert e["t"] == pytest.approx(0.25)
    assert not [r for r in b.log if r.get("unit") == "m" and r["t"] > 0.25]
    assert not recs(b, event="stop", unit="m") and recs(b, event="stop", unit="m2")


@pytest.mark.parametrize("watched", [False, True])
def test_eliminated_mover_falls_exactly_where_it_is(watched):
    """Interrupted at any instant, by anything, a mover knows its exact position: killed
    at t = 0.37 on its second leg (speed 100 cm per phase), it falls at x = 37, and
    the eliminate record and the unit both say so. Watched (an enemy near the lane,
    its segments armed) or not, the same."""
    wp = {"A": (0, 50), "M": (10, 50), "B": (200, 50), "Z": (200, 0),
          "N": (150, 58) if watched else (200, 0)}
    data = scenario(table(wp, [("A", "M"), ("M", "B")]), [unit("m", "A", move=100, orders=ADV)],
                    [unit("r", "Z"), unit("n", "N")], rules=QUIET, turns=1)
    b, e = run_killing(data, "m", 0.37)
    assert e["pos"] == pytest.approx((37.0, 50.0), abs=1e-9) and e["node"] == "M"
    assert b.units["m"].pos == pytest.approx((37.0, 50.0), abs=1e-9)
    assert b.units["m"].course is None


def test_hex_moves_end_in_hex_centres():
    """On a hex map a move never ends between hexes: 2.5 of allowance walks 2 hexes."""
    terrain = {"kind": "hex", "width": 8, "height": 3}
    data = scenario(terrain, [unit("m", "0,1", move=2.5, orders={"type": "advance", "to": "6,1"})],
                    [unit("r", "7,0")], rules={"base": {"shoot_range": 0, "charge_range": 0},
                                               "snapfire": {"radius": 0.1}}, turns=1)
    b = run(data)
    (stop,) = recs(b, event="stop", unit="m")
    sc = b.scenario

    t = sc.map
    assert stop["node"] in t.nodes and tuple(stop["pos"]) == pytest.approx(t.pos(stop["node"]))
    assert t.distance("0,1", stop["node"]) == pytest.approx(2)


@pytest.mark.parametrize("name", ["open_ground_advance.yaml", "march_column.yaml"])
def test_every_walk_record_stays_inside_its_movement_phase(name):
    """Regression: summed segment times must not drift past the phase end, or a unit's
    last step lands in the shooting phase (after others have already shot)."""
    sc = load_scenario(SCENARIOS / name)
    for seed in (1, 2, 3, 4):
        b = Battle(sc, seed).run()
        walk = [r for r in b.log if r["event"] in ("move", "stop", "halt", "arrive")
                and r["rule"] in (None, "SF.HALT", "SF.ZOC") and r.get("reason") != "battle_end"]
        assert walk
        bad = [r for r in walk if r["phase"] != "movement"]
        assert bad == []
        for r in walk:
            phase_end = b.clock.phase_length * (3 * (r["turn"] - 1) + 1)
            assert r["t"] <= phase_end + 1e-12


def test_struck_down_the_instant_it_reaches_a_waypoint_is_at_that_node():
    """Killed at the very instant it reaches waypoint M (t = 0.1 at 100 cm per phase),
    before its walk has noted the arrival: the record says M's position and node M."""
    wp = {"A": (0, 50), "M": (10, 50), "B": (200, 50), "Z": (200, 0)}
    data = scenario(table(wp, [("A", "M"), ("M", "B")]), [unit("m", "A", move=100, orders=ADV)],
                    [unit("r", "Z")], rules=QUIET, turns=1)
    b, e = run_killing(data, "m", 0.1)
    assert e["pos"] == pytest.approx((10.0, 50.0), abs=1e-12) and e["node"] == "M"
    assert b.units["m"].route == ["B"]
