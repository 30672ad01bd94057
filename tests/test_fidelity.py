"""Rule fidelity (issue 12): each test is written from the seed sentence it checks.

* SF (seed 004): "if your opponent moves a unit such that it passes within 10 cm of one of
  your units then you may make a Snap Fire attack" — *each* unit passed within 10 cm may.
* H17 (seed 000) 17.4: "one Opportunity Fire attack per turn ... against a moving infantry
  target ... within six hexes"; 17.2: the sniper "immediately attacks those units" that
  activated it; 17.6: "Only the units targeted by the sniper may make an elimination check".
"""
from __future__ import annotations

import math

import pytest

from conftest import build, lane, recs, run, scenario, set_up, table, unit
from sim.engine.battle import Battle
from sim.scenario.load import scenario_from_dict
from sim.systems.h17 import rules as h17

ADV = {"type": "advance", "to": "B"}
ZOC = {"snapfire": {"reaction": "zoc"}}


def mover(uid="m", at="A", **kw):
    kw.setdefault("move", 200)
    kw.setdefault("orders", ADV)
    kw.setdefault("steps", 10)   # survives a few hits: every tied firer gets to fire
    return unit(uid, at, **kw)


def ambush(f1=(50.0, 58.0), f2=(50.0, 42.0), start=(0.0, 50.0), rules=None, armour=4):
    wp = {"A": start, "B": (100.0, 50.0), "F1": f1, "F2": f2}
    data = scenario(table(wp, [("A", "B")]), [mover(armour=armour)],
                    [unit("f2", "F2"), unit("f1", "F1")], rules=rules, turns=1)
    return data


# -- 1. simultaneous reactions (SF.TRIGGER, SF.HALT) ---------------------------------------
def test_sf_every_firer_whose_circle_is_entered_at_the_first_instant_fires():
    """A symmetric ambush: the lane enters both 10 cm circles at x = 44 at once. Both
    firers snap fire (each its own roll), in unit-id order; the halt is that one point."""
    b = run(ambush())
    halts = recs(b, rule="SF.HALT")
    assert [h["firer"] for h in halts] == ["f1", "f2"]
    assert halts[0]["t"] == halts[1]["t"] and halts[0]["pos"] == halts[1]["pos"]
    assert halts[0]["pos"] == pytest.approx((44.0, 50.0), abs=1e-9)
    for h in halts:
        assert h["inside"] is False and h["dist"] == pytest.approx(10.0, abs=1e-6)
    rolls = recs(b, rule="SF.ROLL")
    assert [r["unit"] for r in rolls] == ["f1", "f2"] and all(r["target"] == "m" for r in rolls)
    # halted there for the rest of the phase: no further move, no arrival
    assert not recs(b, event="arrive") and len(recs(b, event="move", unit="m")) == 1


def test_sf_tie_is_decided_with_the_referees_tolerance_not_float_equality():
    """A firer 1e-12 cm off symmetry is entered at the same instant to within the
    referee's tolerance: both fire. One 1e-3 cm further on is not: the mover is halted
    before it gets there, and only the first fires."""
    near = run(ambush(f2=(50.0, 42.0 + 1e-12)))
    assert sorted(h["firer"] for h in recs(near, rule="SF.HALT")) == ["f1", "f2"]
    far = run(ambush(f2=(50.001, 42.0)))
    assert [h["firer"] for h in recs(far, rule="SF.HALT")] == ["f1"]


def test_sf_start_inside_two_radii_moving_closer_to_both():
    """SF.INSIDE twice over: 9.43 cm from both firers and moving closer to both: both fire
    at once where it stands (inside: true, dist < radius)."""
    b = run(ambush(start=(45.0, 50.0)))
    halts = recs(b, rule="SF.HALT")
    assert [h["firer"] for h in halts] == ["f1", "f2"]
    for h in halts:
        assert h["t"] == 0.0 and h["inside"] is True and h["dist"] == pytest.approx(math.hypot(5, 8))
        assert list(h["pos"]) == [45.0, 50.0]


def test_a_tie_reaches_every_watch_not_only_snap_fire():
    """The referee hands every reactor tied at the first instant to the watch: two zones of
    control entered at once both hold the mover (two SF.ZOC halt records, one point)."""
    b = run(ambush(f1=(50.0, 53.0), f2=(50.0, 47.0), rules=ZOC))
    halts = recs(b, event="halt")
    assert [h["firer"] for h in halts] == ["f1", "f2"] and {h["rule"] for h in halts} == {"SF.ZOC"}
    assert halts[0]["pos"] == halts[1]["pos"] == pytest.approx([46.0, 50.0], abs=1e-9)


# -- 2. H17.4: a mover is a target for its whole move --------------------------------------
def hexdoc(blue, red, rows=("........."), turns=1, rules=None):
    d = {"name": "h", "ruleset": "h17", "turns": turns, "sides": ["blue", "red"],
         "terrain": {"kind": "hex", "rows": list(rows) if isinstance(rows, tuple) else [rows]},
         "forces": {"blue": blue, "red": red}, "victory": {"attacker": "blue", "destroy": False}}
    if rules:
        d["rules"] = rules
    return d


SNIPER = {"id": "s", "kind": "sniper", "at": "8,0", "sniper_team": {"start": "deployed"}}


def test_h17_4_fires_at_a_mover_in_the_hex_where_its_move_ends():
    """From 8 and 7 hexes away the mover is out of range; it ends its move 6 hexes from
    the sniper, in sight: it is a legal target there."""
    b = Battle(scenario_from_dict(hexdoc(
        [{"id": "b", "at": "0,0", "move": 2, "steps": 10, "orders": {"type": "advance", "to": "2,0"}}],
        [SNIPER])), 3).run()
    (fire,) = b.log.where(event="opportunity_fire")
    assert fire["target"] == "b" and fire["target_node"] == "2,0" and fire["dist"] == 6
    arrive = b.log.where(event="arrive", unit="b")[0]
    assert fire["t"] == arrive["t"]


# -- 3. H17.5 / H17.2c: the units attacked take the damage ---------------------------------
def test_h17_opportunity_fire_hurts_only_the_mover():
    """The mover ends its move in a hex where a stronger friend stands still: the friend
    did not move and is not the target; only the mover takes casualty points."""
    b = Battle(scenario_from_dict(hexdoc(
        [{"id": "b", "at": "0,0", "move": 2, "steps": 5, "orders": {"type": "advance", "to": "2,0"}},
         {"id": "still", "at": "2,0", "steps": 9}],
        [SNIPER])), 3).run()
    (atk,) = b.log.where(event="sniper_attack")
    assert atk["targets"] == ["b"] and atk["target"] == "b"
    hits = b.log.where(event="hit")
    assert hits and {h["unit"] for h in hits} == {"b"}


def test_h17_2c_activation_attacks_only_the_activating_unit():
    """17.2: the sniper 'immediately attacks those units' that activated it: the
    attacker, not the stronger unit beside it in its hex."""
    d = hexdoc([{"id": "b1", "at": "0,0", "steps": 3}, {"id": "b2", "at": "0,0", "steps": 9}],
               [{"id": "s", "kind": "sniper", "at": "8,0"}], rows=("..W......",),
               )
    d["terrain"]["types"] = {"W": {"cover": 2}}
    b = set_up(d)
    b.env.process(h17.natural_twelve(b, b.units["b1"], {"natural12": True, "dice": [6, 6], "t": 0}))
    b.env.run(until=1)
    (atk,) = b.log.where(event="sniper_attack")
    assert atk["trigger"] == "H17.2c" and atk["targets"] == ["b1"]
    assert {h["unit"] for h in b.log.where(event="hit")} <= {"b1"}
    check = b.log.where(rule="H17.6a")
    assert check and all(r.get("unit") in ("b1", "s") for r in check)


def test_h17_6a_only_the_targeted_units_may_check():
    """The mover is pinned by the attack; the unpinned friend in the same hex was not
    targeted, so no elimination check can be made (attack_then_check, the default)."""
    d = hexdoc([{"id": "b", "at": "0,0", "move": 2, "steps": 5, "orders": {"type": "advance", "to": "2,0"}},
                {"id": "still", "at": "2,0", "steps": 9}], [SNIPER])
    for seed in range(1, 30):
        b = Battle(scenario_from_dict(d), seed).run()
        atk = b.log.where(event="sniper_attack")
        if not atk or not atk[0]["success"]:
            continue
        assert b.log.where(event="no_elimination_check")
        assert not b.log.where(event="elimination_check")
        return
    pytest.fail("no successful attack in 29 seeds")


# -- 4. H17.6a against BASE.H.PIN: the order is a knob --------------------------------------
@pytest.mark.parametrize("order", ["attack_then_check", "check_then_pin"])
def test_h17_check_order_knob(order):
    """attack_then_check (default): the attack's step loss pins a lone target first, so it
    cannot check. check_then_pin: the target checks, then is pinned."""
    d = hexdoc([{"id": "b", "at": "0,0", "move": 2, "steps": 5, "orders": {"type": "advance", "to": "2,0"}}],
               [SNIPER], rules={"h17": {"check_order": order}})
    for seed in range(1, 30):
        b = Battle(scenario_from_dict(d), seed).run()
        atk = b.log.where(event="sniper_attack")
        if not atk or not 0 < atk[0]["cp"] < 5:   # damaged, not destroyed (5 steps)
            continue
        recs_b = b.log.records
        if order == "attack_then_check":
            assert b.log.where(event="no_elimination_check") and b.log.where(event="pin", unit="b")
        else:
            (chk,) = b.log.where(event="elimination_check")
            pin = b.log.where(event="pin", unit="b")
            assert chk["unit"] == "b" and pin and recs_b.index(pin[0]) > recs_b.index(chk)
        return
    pytest.fail("no damaging attack in 29 seeds")


# -- 5. SF.ZOC: leaving a zone is watched; on the edge is not inside -------------------------
def test_zoc_exit_stops_on_the_edge_of_the_next_zone():
    """Leaving h1's zone westwards, the straight exit would enter h2's zone at x = 46: it
    stops there, on h2's edge, unless charging."""
    wp = {"A": (47.0, 50.0), "B": (150.0, 50.0), "H1": (50.0, 50.0), "H2": (41.0, 50.0)}
    b = run(scenario(table(wp, [("A", "B")]), [mover()], [unit("h1", "H1"), unit("h2", "H2")],
                     rules=ZOC, turns=1))
    (leave,) = recs(b, event="move", unit="m")
    assert leave["reason"] == "leave_zone"
    (halt,) = recs(b, event="halt")
    assert halt["rule"] == "SF.ZOC" and halt["firer"] == "h2"
    assert halt["pos"] == pytest.approx([46.0, 50.0], abs=1e-9) and halt["dist"] == pytest.approx(5.0)
    assert not [r for r in b.log if r.get("reason") == "left_zone"]


def test_zoc_a_unit_on_the_edge_to_the_tolerance_is_not_inside():
    """5 cm less a float's rounding from the holder is *on* the edge: no zero-length
    'leave' move; moving on, away from the holder, it is free."""
    wp = {"A": (55.0 - 1e-13, 50.0), "B": (150.0, 50.0), "H1": (50.0, 50.0)}
    b = run(scenario(table(wp, [("A", "B")]), [mover()], [unit("h1", "H1")], rules=ZOC, turns=1))
    assert not [r for r in b.log if r.get("reason") in ("leave_zone", "left_zone")]
    assert recs(b, event="arrive", unit="m")


EDGE = (52.722576065864445, 45.80624517102131)   # on h1's edge: 5 cm from (50, 50) exactly


def _on_h1s_edge(route_to, h2=None, at=EDGE):
    """A mover at ``at``, on h1's zone edge (h1 at (50, 50)), moving to ``route_to``;
    with ``h2``, standing inside h2's zone too."""
    assert abs(math.dist(at, (50.0, 50.0)) - 5.0) < 1e-14
    wp = {"A": at, "B": route_to, "H1": (50.0, 50.0)}
    red = [unit("h1", "H1")]
    if h2 is not None:
        wp["H2"] = h2
        red.append(unit("h2", "H2"))
    return run(scenario(table(wp, [("A", "B")]), [mover()], red, rules=ZOC, turns=1))


@pytest.mark.parametrize("at, h2", [
    (EDGE, (51.045074134272966, 44.71721474467553)),   # 0 from h1 by the numbers
    ((51.55151153176674, 45.24681033759489), (49.6502356668047, 44.62620572488819)),  # 2e-15 out
])
def test_zoc_a_unit_on_a_zone_edge_leaving_another_zone_along_it_is_not_halted(at, h2):
    """On h1's edge, inside h2's zone: the way out of h2 runs along h1's edge (h2 stands
    on h1's tangent there, to rounding), so it never comes within h1's zone: neither
    at once nor, by the tangent tolerance, somewhere along the way."""
    b = _on_h1s_edge((150.0, 50.0), h2=h2, at=at)
    (leave,) = recs(b, event="move", unit="m")
    assert leave["reason"] == "leave_zone"
    assert not recs(b, event="halt")
    (left,) = [r for r in b.log if r.get("reason") == "left_zone"]
    assert left["dist"] == pytest.approx(5.0) and math.dist(left["pos"], (50.0, 50.0)) > 5.0


def test_zoc_a_unit_on_a_zone_edge_moving_outward_is_not_halted():
    """From exactly on h1's edge along a lane that moves away from h1 (by the numbers'
    exact values, though by ~1e-16 of a right angle), it walks on."""
    from fractions import Fraction as F

    at, to, c = (2.2927452698427317, 12.058435564147242), (19.07427553616845, 20.181396911923077), \
        (0.11431784483568741, 16.55893042071326)
    assert math.dist(at, c) == 5.0
    assert (F(to[0]) - F(at[0])) * (F(at[0]) - F(c[0])) + (F(to[1]) - F(at[1])) * (F(at[1]) - F(c[1])) > 0
    wp = {"A": at, "B": to, "H1": c}
    b = run(scenario(table(wp, [("A", "B")]), [mover()], [unit("h1", "H1")], rules=ZOC, turns=1))
    assert not recs(b, event="halt") and recs(b, event="arrive", unit="m")


@pytest.mark.parametrize("h2", [None, (53.5, 44.5)])
def test_zoc_a_unit_on_a_zone_edge_moving_inward_is_halted_at_once(h2):
    """The converse: from h1's edge moving closer to h1 (along its route, or leaving
    h2's zone), it comes within h1's zone at once, where it stands: an ordinary halt."""
    b = _on_h1s_edge((40.0, 50.0), h2=h2)
    (halt,) = recs(b, event="halt")
    assert halt["firer"] == "h1" and halt["t"] == 0.0 and halt["inside"] is False
    assert halt["pos"] == pytest.approx(list(EDGE), abs=1e-12)
    assert halt["dist"] == pytest.approx(5.0, abs=1e-9)


# -- 6. a log that needs nothing else -------------------------------------------------------
@pytest.mark.parametrize("name", ["open_ground_advance", "march_column", "village_sniper",
                                  "crossing_sniper", "stalingrad_bookstore"])
def test_every_unit_is_placed_in_the_log_at_t0(name):
    from conftest import SCENARIOS
    from sim import load_scenario
    from sim import run as run_battle

    sc = load_scenario(SCENARIOS / f"{name}.yaml")
    log = run_battle(sc, 2).log.records
    places = [r for r in log if r["event"] == "place"]
    ids = [spec.id for _, spec in sc.units()]
    assert [r["unit"] for r in places] == ids
    for r, (side, spec) in zip(places, sc.units()):
        assert r["t"] == 0.0 and r["phase"] == "setup" and r["turn"] == 1 and r["rule"] is None
        assert r["force"] == side and r["kind"] == spec.kind and r["steps"] == spec.steps
        if r["on_board"]:
            assert r["node"] == spec.at and r["pos"] == pytest.approx(list(sc.map.pos(spec.at)))
        else:
            assert r["pos"] is None
    first = {}
    for i, r in enumerate(log):
        first.setdefault(r.get("unit"), i)
    assert all(log[first[u]]["event"] in ("place", "deploy") for u in ids if u in first)


def test_move_records_carry_each_waypoints_planned_arrival():
    terrain, _ = lane(firer_at=(50.0, 95.0))
    b = run(scenario(terrain, [mover(move=100)], [unit("far", "F")], turns=1))
    (mv,) = recs(b, event="move", unit="m")
    assert len(mv["times"]) == len(mv["waypoints"]) == 1
    arrive = recs(b, event="arrive", unit="m")[0]
    assert mv["times"][-1] == pytest.approx(arrive["t"]) == pytest.approx(1.0)


def test_a_move_cut_short_by_the_end_of_the_battle_is_closed():
    """The fast unit reaches the objective at t = 0.25 and wins; the slow one is a quarter
    of the way along its road: a `stop` record (reason battle_end) says exactly where."""
    wp = {"A": (0.0, 50.0), "B": (100.0, 50.0), "C": (0.0, 10.0), "D": (100.0, 10.0), "F": (50, 95)}
    data = scenario(table(wp, [("A", "B"), ("C", "D")]),
                    [mover("fast", "A", move=400), mover("slow", "C", move=100, orders={"type": "advance", "to": "D"})],
                    [unit("far", "F")], turns=2, objective="B")
    b = run(data)
    end = b.log.records[-1]
    assert end["event"] == "end" and end["reason"] == "objective"
    stop = b.log.records[-2]
    assert stop["event"] == "stop" and stop["unit"] == "slow" and stop["reason"] == "battle_end"
    assert stop["t"] == end["t"] == pytest.approx(0.25)
    assert stop["pos"] == pytest.approx([25.0, 10.0], abs=1e-9)


def test_inside_records_are_strictly_inside():
    """A unit starting exactly on the 10 cm circle and moving closer first comes within
    10 cm there: an ordinary SF.HALT (inside: false, dist == radius); an `inside: true`
    record always has dist < radius."""
    wp = {"A": (44.0, 50.0), "B": (100.0, 50.0), "F": (50.0, 58.0)}
    assert math.hypot(6.0, 8.0) == 10.0
    b = run(scenario(table(wp, [("A", "B")]), [mover()], [unit("f", "F")], turns=1))
    (h,) = recs(b, rule="SF.HALT")
    assert h["inside"] is False and h["dist"] == 10.0 and h["t"] == 0.0


# -- 7. declining a reaction ("you may snap fire") -------------------------------------------
def policy(when, at_least=None, side="red"):
    p = {"policy": when}
    if at_least is not None:
        p["at_least"] = at_least
    return {"snapfire": {"take_reactions": {side: p}}}


def test_a_side_that_never_snap_fires_only_logs_its_decisions():
    b = run(ambush(rules=policy("never")))
    assert not recs(b, rule="SF.HALT") and not recs(b, rule="SF.ROLL")
    decisions = recs(b, event="decide")
    assert [(d["unit"], d["target"], d["choice"]) for d in decisions] == [("f1", "m", "decline"),
                                                                         ("f2", "m", "decline")]
    assert all(d["policy"] == "never" and d["rule"] == "SF.TRIGGER" for d in decisions)
    assert recs(b, event="arrive", unit="m")       # never halted


@pytest.mark.parametrize("armour,fires", [(5, False), (3, True), (4, True)])
def test_threshold_policy_fires_only_at_good_enough_odds(armour, fires):
    """threshold 0.5: the chance to hit is (7 - armour) / 6: 1/3, 2/3, 1/2."""
    b = run(ambush(f2=(50.0, 20.0), rules=policy("threshold", 0.5), armour=armour))
    (d,) = recs(b, event="decide")
    assert d["chance"] == pytest.approx((7 - armour) / 6) and d["at_least"] == 0.5
    assert d["choice"] == ("take" if fires else "decline")
    assert bool(recs(b, rule="SF.ROLL")) == fires


def test_default_policy_writes_no_decisions():
    assert not recs(run(ambush()), event="decide")


def test_reaction_policy_names_a_side_of_the_scenario():
    from sim.errors import InputError

    with pytest.raises(InputError, match="take_reactions.green"):
        build(ambush(rules=policy("never", side="green")))


def test_h17_opportunity_fire_may_be_declined():
    """17.4 "may make one Opportunity Fire attack": a sniper whose side never takes it
    logs the decision and lets the mover go; the chance is that of H17.5 (d6 > cover)."""
    mover = [{"id": "b", "at": "0,0", "move": 2, "steps": 10, "orders": {"type": "advance", "to": "2,0"}}]
    b = Battle(scenario_from_dict(hexdoc(mover, [SNIPER], rules={
        "h17": {"take_reactions": {"red": {"policy": "never"}}}})), 3).run()
    assert not b.log.where(event="opportunity_fire") and not b.log.where(event="sniper_attack")
    (d,) = b.log.where(event="decide")
    assert d["rule"] == "H17.4" and d["unit"] == "s" and d["target"] == "b" and d["choice"] == "decline"
    assert d["chance"] == pytest.approx(1.0)      # open ground: cover 0, any d6 > 0
    assert b.log.where(event="arrive", unit="b")


def test_too_opportunity_fire_threshold_uses_the_attacks_chance():
    """TOO.ALERT "may attack": the runner enters the arc 55 cm away (long band, base 8:
    a rifle hits on d10 >= 8, a chance of 0.3); a threshold of 0.31 declines, 0.3 takes."""
    from test_too import _behind_the_wall

    for at_least, choice in ((0.31, "decline"), (0.3, "take")):
        data = _behind_the_wall(arc=70.0)
        data["terrain"]["areas"] = []
        data["rules"] = {"too": {"take_reactions": {"blue": {"policy": "threshold",
                                                            "at_least": at_least}}}}
        b = run(data)
        decisions = recs(b, event="decide")
        assert decisions and all(d["choice"] == choice and d["rule"] == "TOO.ALERT" for d in decisions)
        assert decisions[0]["chance"] == pytest.approx(0.3)
        assert len(decisions) == 1     # a declined mover is not asked about again this turn
        assert bool(recs(b, event="opp_fire")) == (choice == "take")
