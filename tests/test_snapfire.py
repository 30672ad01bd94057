"""SF — snap fire (seed 004) through the whole engine: every SF rule ID and BASE.S.HIT.

Maps are small tabletop scenarios built from dicts (see conftest). Unless a test says
otherwise the mover has move 200 over a phase of length 1 on open ground, so it walks
200 cm per unit of time and a halt at x on a lane from x = 0 happens at t = x / 200.
"""
from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.stats import binom

from conftest import build, lane, recs, run, run_killing, scenario, table, unit
from sim.space.geometry import dist, lerp

ADV = {"type": "advance", "to": "B"}


def mover(uid="m", at="A", **kw):
    kw.setdefault("move", 200)
    kw.setdefault("orders", ADV)
    return unit(uid, at, **kw)


def sf(radius=10, **kw):
    return {"snapfire": {"radius": radius, **kw}}


def sf_records(battle):
    return [r for r in battle.log if str(r["rule"]).startswith("SF.")]


# ---------------------------------------------------------------- SF.TRIGGER / SF.HALT
@settings(max_examples=25, deadline=None, derandomize=True)
@given(fx=st.floats(5, 195), fy=st.floats(20, 80), mx=st.floats(20, 180), my=st.floats(5, 95),
       r=st.floats(2, 20))
def test_sf_halt_point_exact_on_engine_paths(fx, fy, mx, my, r):
    """SF.TRIGGER + SF.HALT end to end: a mover walks the polyline A→M→B; if it passes
    within the radius of the firer it is halted at the first point of the path at
    distance exactly `radius` (1e-6), no earlier point of the path came inside, and the
    halt record carries firer, firer_pos, dist and radius."""
    A, M, B, F = (0.0, 50.0), (mx, my), (200.0, 50.0), (fx, fy)
    assume(dist(A, F) > r + 1e-3 and dist(M, A) > 1 and dist(M, B) > 1)
    terrain = table({"A": A, "M": M, "B": B, "F": F}, [("A", "M"), ("M", "B")], width=200)
    b = run(scenario(terrain, [mover(move=1000)], [unit("f", "F", armour=4)], rules=sf(r), turns=1))
    halts = recs(b, rule="SF.HALT")
    path = [(A, M), (M, B)]
    # The exact first entry, walked segment by segment with dense sampling before it.
    samples = []
    entry = None
    for p0, p1 in path:
        for k in range(600):
            q = lerp(p0, p1, k / 600)
            if dist(q, F) <= r:
                entry = q
                break
            samples.append(q)
        if entry is not None:
            break
    closest = min(dist(lerp(p0, p1, k / 4000), F) for p0, p1 in path for k in range(4001))
    if closest > r + 1e-3:
        assert halts == [] and recs(b, event="arrive", unit="m")
        return
    if closest > r - 1e-3:
        return  # a near-tangent pass: covered exactly by test_geometry
    assert len(halts) == 1
    h = halts[0]
    assert h["unit"] == "m" and h["firer"] == "f" and tuple(h["firer_pos"]) == F
    assert h["radius"] == r and h["inside"] is False and h["phase"] == "movement"
    assert abs(dist(h["pos"], F) - r) <= 1e-6
    assert abs(h["dist"] - r) <= 1e-6
    # the point lies on the path, at (or just before) the first sampled inside point
    assert dist(h["pos"], entry) <= 1000 / 600 + 1e-9
    for q in samples:
        assert dist(q, F) > r - 1e-9
    # the kinematics agree: halt time = path length walked / speed (1000 per unit time)
    walked = 0.0
    for p0, p1 in path:
        seg = dist(p0, p1)
        on = dist(p0, h["pos"]) + dist(h["pos"], p1) - seg
        if abs(on) < 1e-6:
            walked += dist(p0, h["pos"])
            break
        walked += seg
    assert h["t"] == pytest.approx(walked / 1000, abs=1e-9)


def test_sf_trigger_lane_example_exact_point_and_time():
    """SF.TRIGGER/SF.HALT: lane y=50 past a firer at (50, 58), radius 10: first within
    10 cm at x = 50 - 6 = 44, i.e. t = 44/200; the roll follows at the same instant."""
    terrain, _ = lane(firer_at=(50, 58))
    b = run(scenario(terrain, [mover()], [unit("f", "F")], rules=sf(10), turns=1))
    (h,) = recs(b, rule="SF.HALT")
    assert h["pos"] == pytest.approx((44.0, 50.0), abs=1e-9)
    assert h["t"] == pytest.approx(0.22, abs=1e-12)
    (roll,) = recs(b, rule="SF.ROLL")
    assert roll["unit"] == "f" and roll["target"] == "m" and roll["t"] == h["t"]
    # halted there: moves no further this phase (no arrive, no later move record)
    assert not recs(b, event="arrive")
    assert [r["event"] for r in b.log if r.get("unit") == "m" and r["phase"] == "movement"] == ["move", "halt"]


def test_sf_trigger_earliest_of_two_firers_only():
    """SF.TRIGGER: with two firers along the lane, only the first circle entered fires."""
    terrain = table({"A": (0, 50), "B": (200, 50), "F": (60, 55), "G": (40, 58)}, [("A", "B")])
    b = run(scenario(terrain, [mover()], [unit("f", "F"), unit("g", "G")], rules=sf(10), turns=1))
    (h,) = recs(b, rule="SF.HALT")
    assert h["firer"] == "g" and h["pos"] == pytest.approx((34.0, 50.0))


def test_sf_trigger_radius_knob():
    """SF.TRIGGER: the radius is a knob: 5 cm → this lane passes at 8 cm, no snap fire."""
    terrain, _ = lane(firer_at=(50, 58))
    b = run(scenario(terrain, [mover()], [unit("f", "F")], rules=sf(5), turns=1))
    assert sf_records(b) == [] and recs(b, event="arrive", unit="m")


def test_sf_trigger_fast_mover_cannot_skip_the_radius():
    """SF.TRIGGER is exact in time: a very fast mover (1000 cm per phase) across a 1 cm
    radius is still caught, at the exact point."""
    terrain = table({"A": (0, 50), "B": (200, 50), "F": (100, 50.5)}, [("A", "B")])
    b = run(scenario(terrain, [mover(move=10_000)], [unit("f", "F")], rules=sf(1), turns=1))
    (h,) = recs(b, rule="SF.HALT")
    assert abs(dist(h["pos"], (100, 50.5)) - 1.0) <= 1e-6


# ---------------------------------------------------------------- SF.INSIDE
def _inside(to_x, firer=(56.0, 50.0), orders=None):
    wp = {"A": (50.0, 50.0), "B": (to_x, 50.0), "F": firer}
    terrain = table(wp, [("A", "B")])
    return run(scenario(terrain, [mover(orders=orders or ADV)], [unit("f", "F")], rules=sf(10),
                        turns=1))


def test_sf_inside_moving_away_is_not_fired_at():
    """SF.INSIDE: starting 6 cm from the firer and moving away: no snap fire at all."""
    b = _inside(0.0)
    assert sf_records(b) == []
    assert recs(b, event="arrive", unit="m")


def test_sf_inside_moving_sideways_is_not_fired_at():
    """SF.INSIDE: moving tangentially (not closer) from inside: no snap fire."""
    b = _inside(100.0, firer=(50.0, 56.0))
    assert sf_records(b) == []


def test_sf_inside_holding_is_not_fired_at():
    """SF.INSIDE: a unit that stays where it is is never fired at."""
    b = _inside(100.0, orders={"type": "hold"})
    assert sf_records(b) == []


def test_sf_inside_moving_closer_is_halted_where_it_stands():
    """SF.INSIDE: starting inside and moving closer: snap fire at once, the unit halted
    where it stands (`inside: true`, dist < radius)."""
    b = _inside(100.0)
    (h,) = recs(b, rule="SF.HALT")
    assert h["inside"] is True and h["t"] == 0.0
    assert h["pos"] == pytest.approx((50.0, 50.0))
    assert h["dist"] == pytest.approx(6.0) and h["dist"] < h["radius"]
    assert len(recs(b, rule="SF.ROLL")) == 1
    assert not recs(b, event="arrive")


# ---------------------------------------------------------------- SF.ONCE
def test_sf_once_same_firer_once_per_turn_and_again_next_turn():
    """SF.ONCE: under March orders with `this_move`, the mover halted by f in move 1 goes
    on in moves 2 and 3 without f firing again that turn; another firer g may fire at it.
    In the mover's next turn f fires again (the limit is per turn)."""
    wp = {"A": (0, 50), "B": (200, 50), "F": (20, 58), "G": (50, 42)}
    terrain = table(wp, [("A", "B")])
    data = scenario(terrain, [mover(move=20, orders={"type": "march", "to": "B"}, armour=7)],
                    [unit("f", "F"), unit("g", "G")], rules=sf(10, march_halt="this_move"), turns=1)
    b = run(data)
    halts = recs(b, rule="SF.HALT")
    assert [h["firer"] for h in halts] == ["f", "g"]
    assert [r["unit"] for r in recs(b, rule="SF.ROLL")] == ["f", "g"]
    # f's halt in move 1, g's in a later move; every (firer, target) pair once
    assert halts[0]["t"] < 1 / 3 < halts[1]["t"]
    assert len({(h["firer"], h["unit"]) for h in halts}) == len(halts)


def test_sf_once_resets_next_turn():
    """SF.ONCE: a unit halted on the radius that moves on closer in its next turn is
    fired at again by the same firer (turn 3), once per turn."""
    terrain, _ = lane(firer_at=(50, 58))
    b = run(scenario(terrain, [mover(armour=7)], [unit("f", "F")], rules=sf(10), turns=3))
    halts = recs(b, rule="SF.HALT")
    assert [(h["turn"], h["firer"]) for h in halts] == [(1, "f"), (3, "f")]
    assert [r["turn"] for r in recs(b, rule="SF.ROLL")] == [1, 3]


def test_sf_once_two_movers_both_fired_at():
    """SF.ONCE limits per target, not per firer: one firer fires at each of two movers."""
    wp = {"A": (0, 50), "B": (200, 50), "F": (50, 58)}
    terrain = table(wp, [("A", "B")])
    b = run(scenario(terrain, [mover("m1", armour=7), mover("m2", armour=7)], [unit("f", "F")],
                     rules=sf(10), turns=1))
    assert sorted(r["target"] for r in recs(b, rule="SF.ROLL")) == ["m1", "m2"]


# ---------------------------------------------------------------- SF.NOASSAULT
def test_sf_noassault_charge_passing_within_radius_is_not_fired_at():
    """SF.NOASSAULT: a charge in the Assault phase passes 9 cm from bystander g (radius
    10) and draws no snap fire; the charge itself happens."""
    wp = {"A": (0, 50), "T": (14, 50), "G": (7, 59)}
    terrain = table(wp)
    blue = [unit("c", "A", armour=7, orders={"type": "hold", "charge": True})]
    red = [unit("t", "T", armour=7), unit("g", "G", armour=7)]
    b = run(scenario(terrain, blue, red, rules={"base": {"charge_range": 15, "shoot_range": 0},
                                                **sf(10)}, turns=1))
    charge = [r for r in b.log if r["event"] == "move" and r["rule"] == "BASE.S.ASSAULT"]
    assert len(charge) == 1 and charge[0]["phase"] == "assault"
    p0, p1 = charge[0]["pos"], charge[0]["waypoints"][0]
    closest = min(dist(lerp(p0, p1, k / 100), (7, 59)) for k in range(101))
    assert closest < 10            # it really passed within the radius
    assert sf_records(b) == []
    assert recs(b, rule="BASE.S.ASSAULT", event="assault")


def test_base_s_assault_charger_struck_down_on_the_way_falls_where_it_is():
    """A charge is a straight move like any other: a charger eliminated half-way (here by
    an outside process, at t = 2.25) is recorded exactly where it then stands, and
    strikes no blow."""
    wp = {"A": (0, 50), "T": (20, 50)}
    blue = [unit("c", "A", armour=7, move=10, orders={"type": "hold", "charge": True})]
    red = [unit("t", "T", armour=7)]
    # the assault phase runs from t = 2; the charge covers 40 cm per phase
    b, e = run_killing(scenario(table(wp), blue, red, rules={"base": {"charge_range": 25, "shoot_range": 0}},
                                turns=1, destroy=False), "c", 2.25)
    assert e["t"] == pytest.approx(2.25) and e["pos"] == pytest.approx((10.0, 50.0), abs=1e-9)
    assert not recs(b, rule="BASE.S.ASSAULT", event="assault")
    assert not recs(b, rule="BASE.S.ASSAULT", event="stop")


@pytest.mark.parametrize("name", ["open_ground_advance.yaml", "march_column.yaml"])
def test_sf_noassault_all_sf_records_are_in_movement_phase(name):
    """SF.NOASSAULT / SF.TRIGGER: snap fire only ever happens in the Movement phase."""
    from conftest import SCENARIOS
    from sim.scenario.load import load_scenario

    sc = load_scenario(SCENARIOS / name)
    for seed in (1, 2, 3):
        b = run(sc, seed)
        records = sf_records(b)
        assert records
        assert {r["phase"] for r in records} == {"movement"}


# ---------------------------------------------------------------- SF.AFTER
def test_sf_after_halted_survivor_shoots_and_charges():
    """SF.AFTER: a mover halted by snap fire (armour 7: the roll cannot hit) still
    shoots in its shooting phase and charges in its assault phase."""
    terrain, _ = lane(firer_at=(50, 58))
    blue = [mover(armour=7, orders={"type": "advance", "to": "B", "charge": True})]
    b = run(scenario(terrain, blue, [unit("f", "F", armour=7)],
                     rules={"base": {"shoot_range": 20, "charge_range": 15}, **sf(10)}, turns=1))
    (h,) = recs(b, rule="SF.HALT")
    shots = recs(b, rule="BASE.S.SHOOT", unit="m")
    assert len(shots) == 1 and shots[0]["phase"] == "shooting" and shots[0]["t"] > h["t"]
    assert shots[0]["pos"] == pytest.approx(h["pos"])
    assert any(r["event"] == "move" and r["unit"] == "m" for r in recs(b, rule="BASE.S.ASSAULT"))
    assert recs(b, rule="BASE.S.ASSAULT", event="assault", unit="m")


def test_sf_after_survivor_moves_again_next_turn():
    """SF.AFTER: nothing marks the survivor: in its next turn it starts a move again."""
    terrain, _ = lane(firer_at=(50, 58))
    b = run(scenario(terrain, [mover(armour=7)], [unit("f", "F")], rules=sf(10), turns=3))
    assert [r["turn"] for r in recs(b, event="move", unit="m")] == [1, 3]


# ---------------------------------------------------------------- SF.MARCH
def _march(march_halt):
    wp = {"A": (0, 50), "B": (200, 50), "F": (20, 58)}
    terrain = table(wp, [("A", "B")])
    return run(scenario(terrain, [mover(move=20, orders={"type": "march", "to": "B"}, armour=7)],
                        [unit("f", "F")], rules=sf(10, march_halt=march_halt), turns=1))


def test_sf_march_this_move_moves_again_in_the_next_slot():
    """SF.MARCH `this_move`: halted in move 1 at x = 14, the unit makes move 2 in its own
    slot (starting at t = 1/3) and move 3 (t = 2/3): 14 + 20 + 20 = 54."""
    b = _march("this_move")
    (h,) = recs(b, rule="SF.HALT")
    assert h["pos"] == pytest.approx((14.0, 50.0)) and h["t"] < 1 / 3
    moves = recs(b, event="move", unit="m")
    assert [m["move"] for m in moves] == [1, 2, 3]
    assert moves[1]["t"] == pytest.approx(1 / 3) and moves[1]["pos"] == pytest.approx((14.0, 50.0))
    assert moves[2]["t"] == pytest.approx(2 / 3)
    last = [r for r in b.log if r.get("unit") == "m" and r["phase"] == "movement"][-1]
    assert last["event"] == "stop" and last["pos"] == pytest.approx((54.0, 50.0))


def test_sf_march_rest_of_phase_ends_all_moves():
    """SF.MARCH `rest_of_phase` (default): after the halt in move 1 there are no further
    move records that phase, and the unit ends the phase at the halt point."""
    b = _march("rest_of_phase")
    (h,) = recs(b, rule="SF.HALT")
    moves = recs(b, event="move", unit="m")
    assert [m["move"] for m in moves] == [1]
    assert not [r for r in b.log if r.get("unit") == "m" and r["phase"] == "movement" and r["t"] > h["t"]]
    assert b.units["m"].pos == pytest.approx((14.0, 50.0))


def test_sf_march_default_is_rest_of_phase():
    from sim.systems.snapfire.knobs import SnapFireKnobs

    assert SnapFireKnobs().march_halt == "rest_of_phase"


# ---------------------------------------------------------------- SF.ZOC
ZOC = sf(10, reaction="zoc", zoc_radius=5)


def test_sf_zoc_mover_stops_on_the_zone_edge_without_a_roll():
    """SF.ZOC: a non-charging mover stops exactly 5 cm from the holder, no dice rolled,
    no snap fire (the lane passes 3 cm from it, and 10 cm would be snap-fire range)."""
    terrain, _ = lane(firer_at=(50, 53))
    b = run(scenario(terrain, [mover()], [unit("f", "F")], rules=ZOC, turns=1))
    (h,) = recs(b, event="halt")
    assert h["rule"] == "SF.ZOC" and h["firer"] == "f"
    assert abs(dist(h["pos"], (50, 53)) - 5.0) <= 1e-6 and h["dist"] == pytest.approx(5.0)
    assert h["pos"] == pytest.approx((46.0, 50.0))
    assert not [r for r in b.log if r["phase"] == "movement" and "dice" in r]
    assert not [r for r in b.log if r["rule"] in ("SF.HALT", "SF.ROLL", "SF.TRIGGER")]


def test_sf_zoc_charging_unit_is_not_stopped():
    """SF.ZOC: a unit with charge orders may enter the zone: it walks through."""
    terrain, _ = lane(firer_at=(50, 53))
    b = run(scenario(terrain, [mover(orders={"type": "advance", "to": "B", "charge": True})],
                     [unit("f", "F")], rules={"base": {"charge_range": 0}, **ZOC}, turns=1))
    assert not [r for r in b.log if r["event"] == "halt"]
    assert recs(b, event="arrive", unit="m")


def test_sf_zoc_unit_starting_inside_leaves_to_the_edge():
    """SF.ZOC: a non-charging unit starting 3 cm from a holder must leave: it moves
    straight away to the zone's edge (5 cm), and that is its move for the phase."""
    wp = {"A": (50, 50), "B": (150, 50), "F": (50, 53)}
    terrain = table(wp, [("A", "B")])
    b = run(scenario(terrain, [mover()], [unit("f", "F")], rules=ZOC, turns=1))
    moves = recs(b, event="move", unit="m")
    assert len(moves) == 1 and moves[0]["reason"] == "leave_zone" and moves[0]["rule"] == "SF.ZOC"
    (stop,) = recs(b, event="stop", unit="m")
    assert stop["pos"] == pytest.approx((50.0, 48.0)) and stop["dist"] == pytest.approx(5.0)
    assert stop["phase"] == "movement"
    assert not recs(b, event="arrive")


def test_sf_zoc_unit_struck_down_while_leaving_falls_where_it_is():
    """Leaving a zone is a straight move too: eliminated half-way out (t = 0.005, 200 cm
    per phase, 2 cm to go), the unit falls at (50, 49); the battle goes on."""
    wp = {"A": (50, 50), "B": (150, 50), "F": (50, 53)}
    b, e = run_killing(scenario(table(wp, [("A", "B")]), [mover(), mover("m2", "B")], [unit("f", "F")],
                                rules=ZOC, turns=2), "m", 0.005)
    assert e["pos"] == pytest.approx((50.0, 49.0), abs=1e-9)
    assert not recs(b, event="stop", unit="m") and b.log.records[-1]["event"] == "end"


def test_sf_zoc_halted_unit_does_not_waste_its_next_move_leaving():
    """SF.ZOC: a unit stopped on the zone's edge is not 'inside' it next turn (it must
    not spend its move leaving a zone it never entered); moving on along its path it is
    held at the edge, which is the zone's effect."""
    terrain, _ = lane(firer_at=(50, 53))
    b = run(scenario(terrain, [mover()], [unit("f", "F")], rules=ZOC, turns=3))
    assert not [r for r in b.log if r.get("reason") in ("leave_zone", "left_zone")]


# ---------------------------------------------------------------- SF.ROLL
def test_sf_roll_success_iff_die_at_least_armour():
    """SF.ROLL: every roll record has one d6, mods 0, need = the target's armour and
    success == (die >= need); a success is followed by a hit on the target."""
    terrain, _ = lane(firer_at=(50, 58))
    data = scenario(terrain, [mover(f"m{i}", armour=1 + i % 6, steps=3) for i in range(30)],
                    [unit("f", "F")], rules=sf(10), turns=1)
    b = run(data, seed=3)
    rolls = recs(b, rule="SF.ROLL")
    assert len(rolls) == 30
    armour = {u.id: u.armour for u in b.units.values()}
    for r in rolls:
        assert len(r["dice"]) == 1 and 1 <= r["dice"][0] <= 6
        assert r["mods"] == 0 and r["need"] == armour[r["target"]]
        assert r["success"] == (r["dice"][-1] >= r["need"])
    hits = {r["unit"] for r in recs(b, event="hit", rule="BASE.S.HIT", phase="movement")}
    assert hits == {r["target"] for r in rolls if r["success"]}


def test_sf_roll_hit_frequency_matches_d6_at_least_armour():
    """SF.ROLL statistics: many independent snap fires (one firer, 300 targets per armour
    value, each fired at once) hit with probability P(d6 >= armour) = (7 - armour)/6,
    computed exactly with icepool; the counts lie in binomial bounds whose false-alarm
    rate is <= 1e-6 per armour value."""
    import icepool

    per = 300
    armours = (2, 4, 6)
    terrain, _ = lane(firer_at=(50, 58))
    blue = [mover(f"m{a}_{i}", armour=a, steps=2) for a in armours for i in range(per)]
    sc = build(scenario(terrain, blue, [unit("f", "F")], rules=sf(10), turns=1))
    b = run(sc, seed=20240611)
    rolls = recs(b, rule="SF.ROLL")
    assert len(rolls) == per * len(armours)
    for a in armours:
        p = icepool.d6.probability(">=", a)
        assert p == pytest.approx((7 - a) / 6)
        k = sum(r["success"] for r in rolls if r["need"] == a)
        lo, hi = binom.ppf(0.5e-6, per, float(p)), binom.isf(0.5e-6, per, float(p))
        assert lo <= k <= hi, (a, k, lo, hi)
    faces = [r["dice"][0] for r in rolls]
    for f in range(1, 7):  # each face ~ 1/6 of 900
        n = faces.count(f)
        assert binom.ppf(0.5e-6, len(faces), 1 / 6) <= n <= binom.isf(0.5e-6, len(faces), 1 / 6)


# ---------------------------------------------------------------- BASE.S.HIT
def test_base_s_hit_steps_go_down_and_zero_eliminates():
    """BASE.S.HIT: a snap-fire hit (armour 1: d6 >= 1 always hits) removes one step;
    at 0 steps the unit is eliminated and moves no more."""
    terrain, _ = lane(firer_at=(50, 58))
    b = run(scenario(terrain, [mover("m3", armour=1, steps=3), mover("m1", armour=1, steps=1),
                               mover("ok", armour=7)],
                     [unit("f", "F")], rules=sf(10), turns=1))
    (h3,) = recs(b, event="hit", unit="m3")
    assert h3["rule"] == "BASE.S.HIT" and h3["steps_lost"] == 1 and h3["steps_left"] == 2
    assert b.units["m3"].steps == 2 and b.units["m3"].alive
    (h1,) = recs(b, event="hit", unit="m1")
    assert h1["steps_left"] == 0
    (e,) = recs(b, event="eliminate", unit="m1")
    assert e["rule"] == "BASE.S.HIT" and not b.units["m1"].alive
    assert not [r for r in b.log if r.get("unit") == "m1" and r["t"] > e["t"]]


def test_base_s_hit_steps_per_hit_knob_and_destroyed_force():
    """BASE.S.HIT: `steps_per_hit: 2` removes two steps; losing the whole force ends the
    battle (victory `destroy`)."""
    terrain, _ = lane(firer_at=(50, 58))
    b = run(scenario(terrain, [mover(armour=1, steps=2)], [unit("f", "F")],
                     rules={"base": {"steps_per_hit": 2}, **sf(10)}, turns=4))
    (h,) = recs(b, event="hit")
    assert h["steps_lost"] == 2 and h["steps_left"] == 0
    end = b.log.records[-1]
    assert end["event"] == "end" and end["winner"] == "red" and end["reason"] == "destroyed"
    assert b.winner == "red"


@pytest.mark.parametrize("crowd", [0, 12, 130])
def test_base_s_shoot_range_is_inclusive_and_idle_shooters_change_nothing(crowd):
    """BASE.S.SHOOT: an enemy at exactly ``shoot_range`` is shot at, one a hair beyond is
    not. With more units far from everyone on both sides (the phase then skips idle
    shooters in bulk: numpy for a few pairs, a k-d tree for many), the same two
    shooters and only they shoot."""
    wp = {"S1": (0.0, 0.0), "T1": (20.0, 0.0), "S2": (0.0, 60.0), "T2": (20.000001, 60.0),
          "FAR": (190.0, 95.0), "FAR2": (150.0, 5.0)}
    red = [unit("s1", "S1", armour=7), unit("s2", "S2", armour=7)] + \
        [unit(f"x{i}", "FAR", armour=7) for i in range(crowd)]
    blue = [unit("t1", "T1", armour=7), unit("t2", "T2", armour=7)] + \
        [unit(f"y{i}", "FAR2", armour=7) for i in range(crowd)]
    data = scenario(table(wp), blue, red, rules={"base": {"shoot_range": 20, "charge_range": 0}},
                    turns=2, destroy=False)
    b = run(data)
    shots = {(r["turn"], r["unit"], r["target"]) for r in recs(b, rule="BASE.S.SHOOT")}
    assert shots == {(1, "t1", "s1"), (2, "s1", "t1")}
