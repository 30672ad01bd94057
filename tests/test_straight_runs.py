"""One scheduled end of motion per straight run (sim.agents.runs), the instant ordering
key of ends of motion (sim.engine.instants), and where a run puts a unit it stops."""
from __future__ import annotations

import pytest

from conftest import recs, run, run_killing, scenario, table, unit
from sim.agents.runs import run_end
from sim.engine.instants import Environment

ADV = {"type": "advance", "to": "B"}
QUIET = {"base": {"shoot_range": 0, "charge_range": 0}}


def row(n_edges: int, length: float = 200.0) -> dict:
    """A straight row A=N0 … N{n}=B of ``n_edges`` equal collinear edges, a far enemy at Z."""
    step = length / n_edges
    wp = {f"N{k}": (k * step, 50.0) for k in range(n_edges + 1)}
    wp["A"], wp["B"] = wp.pop("N0"), wp.pop(f"N{n_edges}")
    names = ["A", *[f"N{k}" for k in range(1, n_edges)], "B"]
    wp["Z"] = (length, 0.0)
    return table(wp, list(zip(names, names[1:])), width=length)


def march(n_edges: int, move: float = 150.0, turns: int = 1):
    return run(scenario(row(n_edges), [unit("m", "A", move=move, orders=ADV)], [unit("r", "Z")],
                        rules=QUIET, turns=turns))


def test_a_move_along_collinear_edges_is_one_scheduled_end_of_motion():
    """150 cm along a row cut into 2 or into 40 edges: the same number of SimPy events
    (one end of motion for the straight run, whatever the edges), the same stop."""
    coarse, fine = march(2), march(40)
    assert coarse.env.numbers_drawn() == fine.env.numbers_drawn()
    (a,), (b,) = recs(coarse, event="stop"), recs(fine, event="stop")
    assert tuple(a["pos"]) == tuple(b["pos"]) == (150.0, 50.0) and a["t"] == pytest.approx(1.0, abs=1e-12)
    assert b["t"] == pytest.approx(1.0, abs=1e-12)
    assert b["node"] == "N30" and fine.units["m"].route == [f"N{k}" for k in range(31, 40)] + ["B"]


def test_a_march_watched_by_a_far_enemy_arms_one_reaction_a_run():
    """The same rows with a snap-fire enemy near the lane's far end (watched moves):
    events still do not grow with the number of edges, and the halt is the same."""
    def watched(n):
        terrain = row(n)
        terrain["waypoints"]["F"] = [120.0, 58.0]
        return run(scenario(terrain, [unit("m", "A", move=150, orders=ADV)], [unit("r", "F")],
                            rules=QUIET, turns=1))
    coarse, fine = watched(2), watched(40)
    assert coarse.env.numbers_drawn() == fine.env.numbers_drawn()
    (h2,), (h40,) = recs(coarse, event="halt"), recs(fine, event="halt")
    assert h2["pos"] == pytest.approx(h40["pos"], abs=1e-9) and h2["t"] == pytest.approx(h40["t"], abs=1e-12)
    assert h2["pos"] == pytest.approx((120.0 - 6.0, 50.0))   # 10 cm from (120, 58): x = 120 - 6


def test_a_unit_halted_exactly_at_a_waypoint_stands_at_its_node():
    """A firer 10 cm (its radius) from waypoint N9 at (90, 50): the mover comes within the
    radius exactly there: it stands at N9, its route goes on from N10. (Float rounding of
    the entry, s = 0.99999… of an edge, once left such a unit 'just before' its waypoint,
    and its next move walked back to it: open_ground_advance, seed 12, turn 13.)"""
    terrain = row(20)
    terrain["waypoints"]["F"] = [98.0, 56.0]
    b = run(scenario(terrain, [unit("m", "A", move=150, orders=ADV)], [unit("r", "F")],
                     rules=QUIET, turns=1))
    (halt,) = recs(b, event="halt")
    assert tuple(halt["pos"]) == (90.0, 50.0) and halt["node"] == "N9" and halt["rule"] == "SF.HALT"
    assert b.units["m"].route[0] == "N10"


def test_struck_down_mid_run_it_has_passed_the_waypoints_behind_it():
    """Killed at t = 0.75 of a 150 cm move in the phase along 20 cm edges (at 112.5 cm:
    past N5 at 100 cm): it falls at (112.5, 50) with node N5 and the route from N6 on."""
    data = scenario(row(10), [unit("m", "A", move=150, orders=ADV)], [unit("r", "Z")], rules=QUIET,
                    turns=1)
    b, e = run_killing(data, "m", 0.75)
    assert e["pos"] == pytest.approx((112.5, 50.0), abs=1e-9) and e["node"] == "N5"
    assert b.units["m"].route[0] == "N6"


def test_moves_ending_at_one_instant_end_in_the_order_they_began():
    """Three movers whose moves all end at the phase's end: their stop records come in
    the order they were set off (unit order), whether a move is one run or turns a
    corner into two."""
    wp = {"A": (0, 10), "B": (200, 10), "C": (0, 50), "K": (60, 50), "D": (60, 150),
          "E": (0, 90), "G": (200, 90), "Z": (200, 190)}
    edges = [("A", "B"), ("C", "K"), ("K", "D"), ("E", "G")]
    blue = [unit("u1", "A", move=100, orders={"type": "advance", "to": "B"}),
            unit("u2", "C", move=100, orders={"type": "advance", "to": "D"}),
            unit("u3", "E", move=100, orders={"type": "advance", "to": "G"})]
    b = run(scenario(table(wp, edges, height=200), blue, [unit("r", "Z")], rules=QUIET, turns=1))
    stops = [r["unit"] for r in b.log if r["event"] == "stop"]
    assert stops == ["u1", "u2", "u3"]
    assert {r["t"] for r in b.log if r["event"] == "stop"} == {1.0}


def test_run_end_joins_legs_in_one_direction_at_one_cost_only():
    """Legs join while they keep direction and cost per unit length: a turn, a reversal,
    dearer ground or a leg of no length ends the run; without merging each leg is a run."""
    legs = [((10.0, 0.0), "a", 10.0), ((20.0, 0.0), "b", 10.0), ((30.0, 0.0), "c", 20.0),
            ((40.0, 0.0), "d", 20.0), ((40.0, 10.0), "e", 10.0), ((40.0, 10.0), "f", 0.0)]
    assert run_end((0.0, 0.0), legs, 0, True) == 1        # c costs twice as much a cm
    assert run_end((20.0, 0.0), legs, 2, True) == 3       # e turns north
    assert run_end((40.0, 0.0), legs, 4, True) == 4       # f has no length
    assert run_end((0.0, 0.0), legs, 0, False) == 0
    back = [((10.0, 0.0), "a", 10.0), ((5.0, 0.0), "b", 5.0)]
    assert run_end((0.0, 0.0), back, 0, True) == 0


def test_events_at_one_instant_run_by_key_and_urgent_ones_first():
    """``schedule_at`` schedules at exactly t (not now + delay), in key order within an instant,
    an urgent event before every other; a time before now is refused."""
    env = Environment()
    order = []

    def wait(name, t, key, urgent=False):
        yield env.schedule_at(t, key, urgent)
        order.append((name, env.now))

    first, second = env.order_key(), env.order_key()
    keys = env.order_keys()
    k0, k1 = next(keys), next(keys)
    assert first < second < k0 < k1 < env.order_key()
    env.process(wait("late-key", 0.3, second))
    env.process(wait("early-key", 0.3, first))
    env.process(wait("urgent", 0.3, k1, urgent=True))
    env.process(wait("odd-time", 0.1 + 0.2, k0))   # 0.30000000000000004: not 0.3
    env.run()
    assert order == [("urgent", 0.3), ("early-key", 0.3), ("late-key", 0.3),
                     ("odd-time", 0.1 + 0.2)]
    with pytest.raises(ValueError, match="before now"):
        env.schedule_at(0.1, env.order_key())


def test_a_move_nothing_can_react_to_is_one_end_of_motion_even_round_a_corner():
    """With no enemy within reach of the move, a move that turns a corner (two runs) makes
    as many events as a straight one: nothing is armed, so nothing cuts it into runs; it
    still ends where its legs say, past the corner, at the corner's node and beyond."""
    wp = {"A": (0, 50), "K": (60, 50), "B": (60, 150), "C": (0, 150), "Z": (200, 0)}

    def one(to, edges):
        mover = unit("m", "A", move=100, orders={"type": "advance", "to": to})
        return run(scenario(table(wp, edges, height=200), [mover], [unit("r", "Z")], rules=QUIET, turns=1))
    straight = one("C", [("A", "C")])
    corner = one("B", [("A", "K"), ("K", "B")])
    assert straight.env.numbers_drawn() == corner.env.numbers_drawn()
    (stop,) = recs(corner, event="stop")
    assert tuple(stop["pos"]) == pytest.approx((60.0, 90.0)) and stop["node"] == "K"
    assert corner.units["m"].route == ["B"]
