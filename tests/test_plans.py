"""Tactics as data (issue 14): plans, conditions, route planners, groups, reaction and
target policies, their decisions in the log, and their load-time checks.

Snap-fire tables: a player-turn is movement, shooting, assault of length 1 each, so blue's
turn k starts at t = 6 (k - 1) / 2 for odd k: turn 1 at 0, turn 3 at 6, turn 5 at 12.
A test that checks *when* a step starts fails if it starts a phase (a turn) early or late.
"""
from __future__ import annotations

import copy
import math

import pytest

from conftest import build, recs, run, scenario, table, unit
from invariants import check_battle
from sim.errors import InputError

QUIET = {"base": {"shoot_range": 0, "charge_range": 0}}   # no shooting: only movement matters
LANE = {"A": (0.0, 50.0), "W": (50.0, 50.0), "B": (100.0, 50.0), "C": (0.0, 10.0),
        "D": (100.0, 10.0), "FAR": (190.0, 95.0)}
EDGES = [("A", "W"), ("W", "B"), ("C", "D")]


def lane_battle(blue, red=None, turns=6, rules=None, extra=None):
    data = scenario(table(LANE, EDGES), blue, red or [unit("far", "FAR")], turns=turns,
                    rules=rules or copy.deepcopy(QUIET), destroy=False)
    data.update(extra or {})
    return data


def first_move(b, uid):
    moves = recs(b, event="move", unit=uid)
    return moves[0] if moves else None


def decisions(b, uid):
    return [r for r in b.log if r["event"] == "decide" and r["unit"] == uid]


# -- plans: a list of steps -----------------------------------------------------------------
def test_orders_are_a_one_step_plan():
    """`orders: X` and `plan: [X]` are the same battle, record for record."""
    one = lane_battle([unit("b", "A", move=30, orders={"type": "advance", "to": "B"})])
    plan = lane_battle([unit("b", "A", move=30, plan=[{"type": "advance", "to": "B"}])])
    assert list(run(one).log.lines()) == list(run(plan).log.lines())


def test_steps_follow_each_other_and_a_plan_ends_in_hold():
    """Advance to W, then on to B: the second step starts in the movement phase after the
    unit reached W, and is a logged decision; after B the unit stays."""
    b = run(lane_battle([unit("b", "A", move=50, plan=[{"type": "advance", "to": "W"},
                                                        {"type": "advance", "to": "B"}])]))
    arrivals = recs(b, event="arrive", unit="b")
    assert [a["node"] for a in arrivals] == ["W", "B"]
    assert arrivals[0]["turn"] == 1 and arrivals[1]["turn"] == 3
    (d,) = decisions(b, "b")
    assert d["policy"] == "plan" and d["choice"].startswith("step 2: advance to B")
    assert d["t"] == 6.0 and d["turn"] == 3
    assert len(recs(b, event="move", unit="b")) == 2       # nothing after B
    check_battle(b)


@pytest.mark.parametrize("turn", [3, 5])
def test_from_turn_starts_the_step_on_that_turn(turn):
    b = run(lane_battle([unit("b", "A", move=30, plan=[
        {"type": "advance", "to": "B", "when": {"from_turn": turn}}])]))
    mv = first_move(b, "b")
    assert mv["turn"] == turn and mv["t"] == 3.0 * (turn - 1)
    (d,) = decisions(b, "b")
    assert d["t"] == mv["t"] and d["trigger"] == f"from_turn {turn}"


def test_a_step_waits_for_another_unit_to_arrive():
    """b2 goes when b1 has reached W: b1 gets there in turn 1, so b2 sets off at the start
    of turn 3, its next movement phase (not in turn 1, not in turn 5)."""
    b = run(lane_battle([unit("b1", "A", move=60, orders={"type": "advance", "to": "W"}),
                         unit("b2", "C", move=30, plan=[{"type": "advance", "to": "D", "when": {
                             "arrived": {"unit": "b1", "at": "W"}}}])]))
    assert recs(b, event="arrive", unit="b1")[0]["turn"] == 1
    assert first_move(b, "b2")["turn"] == 3


def test_a_group_arrives_when_all_its_living_members_have():
    b = run(lane_battle(
        [unit("g1", "A", move=60), unit("g2", "A", move=25), unit("b3", "C", move=30, plan=[
            {"type": "advance", "to": "D", "when": {"arrived": {"group": "pair", "at": "W"}}}])],
        extra={"groups": {"pair": {"units": ["g1", "g2"], "plan": [{"type": "advance", "to": "W"}]}}}))
    assert recs(b, event="arrive", unit="g1")[0]["turn"] == 1
    assert recs(b, event="arrive", unit="g2")[0]["turn"] == 3      # 50 cm at 25 a turn
    assert first_move(b, "b3")["turn"] == 5


def test_a_step_waits_until_the_unit_is_fired_on():
    """b2 holds until b1 has been fired on: snap fire hits at b1 in turn 1 (it passes
    5 cm from the firer), so b2 sets off in turn 3."""
    red = [unit("f", "FAR"), unit("sf", "S", armour=6)]
    lane = dict(LANE, S=(50.0, 55.0))
    data = scenario(table(lane, EDGES), [
        unit("b1", "A", move=200, steps=9, orders={"type": "advance", "to": "B"}),
        unit("b2", "C", move=30, plan=[{"type": "advance", "to": "D", "when": {"fired_on": "b1"}}])],
        red, turns=6, rules=copy.deepcopy(QUIET), destroy=False)
    b = run(data)
    assert recs(b, rule="SF.ROLL")[0]["turn"] == 1
    assert first_move(b, "b2")["turn"] == 3


def test_a_step_waits_until_an_enemy_is_seen_close():
    """Blue holds until it sees an enemy within 30 cm; red comes within 30 in its turn 2:
    blue sets off in turn 3."""
    red = [unit("r", "D", move=80, orders={"type": "advance", "to": "C"})]
    data = lane_battle([unit("b", "C", move=10, plan=[
        {"type": "advance", "to": "D", "when": {"enemy_within": 30}}])], red=red, turns=6)
    b = run(data)
    assert first_move(b, "b")["turn"] == 3


def test_in_phase_starts_the_move_part_way_at_the_same_speed():
    b = run(lane_battle([unit("b", "A", move=40, plan=[
        {"type": "advance", "to": "B", "when": {"in_phase": 0.5}}])], turns=2))
    mv = first_move(b, "b")
    assert mv["t"] == 0.5 and mv["times"][-1] <= 1.0
    stop = recs(b, event="stop", unit="b")[0]
    assert stop["pos"] == pytest.approx([20.0, 50.0])      # half a turn at 40 a turn
    check_battle(b)


def test_a_loop_patrols_until_its_exit_holds():
    b = run(lane_battle([unit("b", "A", move=100, plan={
        "steps": [{"type": "advance", "to": "B"}, {"type": "advance", "to": "A"}],
        "loop": True, "until": {"from_turn": 7}})], turns=10))
    nodes = [(a["turn"], a["node"]) for a in recs(b, event="arrive", unit="b")]
    assert nodes == [(1, "B"), (3, "A"), (5, "B"), (7, "A")]


def test_via_nodes_are_passed_in_order():
    lane = dict(LANE, N=(50.0, 90.0))
    edges = EDGES + [("A", "N"), ("N", "B")]
    data = scenario(table(lane, edges), [unit("b", "A", move=400, plan=[
        {"type": "advance", "to": "B", "via": ["N"]}])], [unit("far", "FAR")], turns=1,
        rules=copy.deepcopy(QUIET), destroy=False)
    mv = first_move(run(data), "b")
    assert mv["waypoints"] == [[50.0, 90.0], [100.0, 50.0]] or \
        [list(w) for w in mv["waypoints"]] == [[50.0, 90.0], [100.0, 50.0]]


def test_a_covered_route_keeps_out_of_the_enemys_sight():
    """Two ways from A to B: the short one over open ground the red post sees, a longer one
    behind a wall it cannot see through. `shortest` takes the first, `covered` the second."""
    wp = {"A": (0.0, 50.0), "M": (50.0, 50.0), "B": (100.0, 50.0), "S": (50.0, 10.0),
          "R": (50.0, 95.0)}
    wall = [{"name": "wall", "polygon": [[20, 25], [80, 25], [80, 30], [20, 30]],
             "blocks_sight": True, "cover": 2}]
    terrain = table(wp, [("A", "M"), ("M", "B"), ("A", "S"), ("S", "B")], areas=wall)
    for planner, via in (("shortest", [50.0, 50.0]), ("covered", [50.0, 10.0])):
        data = scenario(terrain, [unit("b", "A", move=400, plan=[
            {"type": "advance", "to": "B", "route": planner}])], [unit("r", "R")], turns=1,
            rules=copy.deepcopy(QUIET), destroy=False)
        mv = first_move(run(data), "b")
        assert [list(w) for w in mv["waypoints"]][0] == via, planner


def test_a_group_shares_its_plan_with_formation_offsets():
    lane = dict(LANE, B2=(100.0, 40.0))
    data = scenario(table(lane, EDGES + [("W", "B2")]), [unit("g1", "A", move=200), unit("g2", "A", move=200)],
                    [unit("far", "FAR")], turns=1, rules=copy.deepcopy(QUIET), destroy=False)
    data["groups"] = {"sec": {"units": ["g1", "g2"], "plan": [{"type": "advance", "to": "B"}],
                              "formation": {"g2": [0.0, -9.0]}}}
    b = run(data)
    assert recs(b, event="arrive", unit="g1")[0]["node"] == "B"
    assert recs(b, event="arrive", unit="g2")[0]["node"] == "B2"


# -- reaction and target policies ------------------------------------------------------------
def fired_on_data(policy, **extra):
    """b walks A→B past a snap-fire post at (50, 55); its policy when fired on is set."""
    lane = dict(LANE, S=(50.0, 55.0), H=(30.0, 50.0))
    terrain = table(lane, EDGES + [("A", "H"), ("H", "W")])
    data = scenario(terrain, [unit("b", "A", move=40, steps=9, armour=6,
                                   orders={"type": "advance", "to": "B"})],
                    [unit("sf", "S", armour=6)], turns=10, rules=copy.deepcopy(QUIET), destroy=False)
    data["policies"] = {"b": {"on_fired": {"policy": policy, **extra}}}
    return data


def test_go_to_ground_holds_for_its_turns_then_resumes():
    b = run(fired_on_data("go_to_ground", turns=2))
    fired = recs(b, rule="SF.ROLL")[0]["turn"]
    (d,) = [r for r in decisions(b, "b") if r["policy"] == "go_to_ground"]
    assert d["turn"] == fired + 2 and d["trigger"] == "fired_on" and d["choice"] == "hold 2 turn(s)"
    moved = {r["turn"] for r in recs(b, event="move", unit="b")}
    assert fired + 2 not in moved and fired + 4 not in moved and fired + 6 in moved
    (again,) = [r for r in decisions(b, "b") if r["policy"] == "plan"]
    assert again["turn"] == fired + 6 and again["choice"].startswith("resume step 1: advance to B")
    assert again["trigger"] == "the reaction is over"
    check_battle(b)


def test_carry_on_is_logged_and_changes_nothing():
    policy = run(fired_on_data("carry_on"))
    plain_data = fired_on_data("carry_on")
    del plain_data["policies"]
    plain = run(plain_data)
    assert [r for r in policy.log if r["event"] != "decide"] == list(plain.log.records)
    choices = [r["choice"] for r in decisions(policy, "b")]
    assert choices and set(choices) == {"carry on"}


def test_fall_back_returns_to_where_it_set_off():
    """At 45 a turn b is halted 41.3 cm out, past A on the edge to W: it falls back to A
    (part of an edge, back the way it came) and gets there in that phase."""
    data = fired_on_data("fall_back")
    data["forces"]["blue"][0]["move"] = 45
    b = run(data)
    d = [r for r in decisions(b, "b") if r["policy"] == "fall_back"][0]
    assert d["choice"].startswith("fall back to ")
    back_to = d["choice"].removeprefix("fall back to ")
    arrive = [r for r in recs(b, event="arrive", unit="b") if r["t"] > d["t"]][0]
    assert arrive["node"] == back_to and arrive["turn"] == d["turn"]


def _fall_back_along(wp, edges):
    """b sets off from A for B with move 80 past a snap-fire post S; fired on, it falls back."""
    data = scenario(table(wp, edges), [unit("b", "A", move=80, steps=9, armour=6,
                                            orders={"type": "advance", "to": "B"})],
                    [unit("sf", "S", armour=6)], turns=4, rules=copy.deepcopy(QUIET), destroy=False)
    data["policies"] = {"b": {"on_fired": {"policy": "fall_back"}}}
    b = run(data)
    (d,) = [r for r in decisions(b, "b") if r["policy"] == "fall_back"]
    arrive = [r for r in recs(b, event="arrive", unit="b") if r["t"] > d["t"]][0]
    return d, arrive


def test_fall_back_goes_back_to_the_last_node_passed_not_where_the_move_began():
    """Set off from A, b passes W and is halted 61.3 cm out, past W: it falls back to W
    (back along the edge it stands on), not all the way to A."""
    d, arrive = _fall_back_along(dict(LANE, S=(70.0, 55.0)), EDGES)
    assert d["pos"] == pytest.approx([61.33974596215561, 50.0]) and d["node"] == "W"
    assert d["choice"] == "fall back to W" and arrive["node"] == "W" and arrive["turn"] == d["turn"]


def test_fall_back_from_a_node_goes_to_the_node_it_came_from():
    """Set off from A, b passes H and is halted exactly at W (S's circle meets the lane
    there): it falls back to H, the node it came to W from."""
    wp = {"A": (0.0, 50.0), "H": (25.0, 50.0), "W": (50.0, 50.0), "B": (100.0, 50.0),
          "S": (50.0 + math.sqrt(75.0), 55.0)}
    d, arrive = _fall_back_along(wp, [("A", "H"), ("H", "W"), ("W", "B")])
    assert list(d["pos"]) == [50.0, 50.0] and d["node"] == "W"
    assert d["choice"] == "fall back to H" and arrive["node"] == "H" and arrive["turn"] == d["turn"]


def test_seek_cover_goes_to_the_nearest_covered_node():
    data = fired_on_data("seek_cover")
    data["terrain"]["areas"] = [{"name": "hedge", "terrain": "hedge",
                                 "polygon": [[26, 46], [34, 46], [34, 54], [26, 54]]}]
    b = run(data)
    d = [r for r in decisions(b, "b") if r["policy"] == "seek_cover"][0]
    assert d["choice"] == "cover at H"


def test_target_policy_weakest_shoots_the_weaker_enemy():
    """Two red units in range: the nearer is strong, the farther weak. `nearest` (default)
    shoots the first, `weakest` the second."""
    wp = {"A": (0.0, 50.0), "N": (20.0, 50.0), "F": (35.0, 50.0)}
    for policy, target in ((None, "strong"), ("weakest", "weak")):
        data = scenario(table(wp), [unit("b", "A")], [unit("strong", "N", steps=4), unit("weak", "F", steps=1)],
                        turns=1, destroy=False)
        if policy:
            data["policies"] = {"blue": {"target": {"policy": policy}}}
        shot = recs(run(data), rule="BASE.S.SHOOT")[0]
        assert shot["target"] == target


# -- studies sweep tactics -------------------------------------------------------------------
def test_set_paths_reach_into_plans(tmp_path):
    from sim.scenario.load import apply_overrides

    sc = build(lane_battle([unit("b", "A", move=30, plan=[{"type": "hold"},
                                                         {"type": "advance", "to": "B"}])]))
    later = apply_overrides(sc, {"forces.blue.0.plan.1.when": {"from_turn": 5}})
    assert first_move(run(sc), "b")["turn"] == 1     # a hold step is done at once
    assert first_move(run(later), "b")["turn"] == 5


# -- load-time checks: file and line ---------------------------------------------------------
BAD = [
    ({"plan": [{"type": "advance", "to": "B", "when": {"arrived": {"unit": "nobody", "at": "W"}}}]},
     "forces.blue.0.plan.0.when.arrived.unit", "not a unit"),
    ({"plan": [{"type": "advance", "to": "B", "when": {"from_turn": 99}}]},
     "forces.blue.0.plan.0.when.from_turn", "never comes"),
    ({"plan": [{"type": "advance", "to": "B", "when": {"fired_on": "ghost"}}]},
     "forces.blue.0.plan.0.when.fired_on", "not a unit"),
    ({"plan": [{"type": "advance", "to": "B"}, {"type": "advance", "to": "NOPE"}]},
     "forces.blue.0.plan.1.to", "not on the map"),
    ({"plan": [{"type": "advance", "to": "B"}, {"type": "advance", "to": "D"}]},
     "forces.blue.0.plan.1.to", "cannot reach 'D' from 'B'"),
    ({"plan": {"steps": [{"type": "advance", "to": "B"}], "loop": True}},
     "forces.blue.0.plan", "a loop without an exit"),
    ({"plan": [{"type": "advance", "to": "B", "route": "scenic"}]},
     "forces.blue.0.plan.0.route", "not a route behaviour"),
    ({"plan": [{"type": "hold"}], "orders": {"type": "hold"}}, "forces.blue.0", "both 'orders' and a 'plan'"),
]


@pytest.mark.parametrize("keys,place,words", BAD)
def test_bad_plans_are_input_errors_naming_the_key(keys, place, words):
    data = lane_battle([unit("b", "A", move=30, **keys)])
    with pytest.raises(InputError) as err:
        build(data)
    assert place in str(err.value) and words in str(err.value), str(err.value)


def test_bad_groups_and_policies_are_input_errors():
    cases = [
        ({"groups": {"g": {"units": ["b", "zz"], "plan": [{"type": "hold"}]}}}, "groups.g.units.1", "not a unit"),
        ({"groups": {"g": {"units": ["b"], "plan": [{"type": "hold"}], "formation": {"x": [1, 1]}}}},
         "groups.g.formation.x", "not a unit of group"),
        ({"policies": {"nobody": {"on_fired": {"policy": "go_to_ground"}}}}, "policies.nobody", "not a side"),
        ({"policies": {"blue": {"on_fired": {"policy": "panic"}}}}, "policies.blue.on_fired", "reaction_move"),
    ]
    for extra, place, words in cases:
        data = lane_battle([unit("b", "A", move=30)], extra=copy.deepcopy(extra))
        with pytest.raises(InputError) as err:
            build(data)
        assert place in str(err.value) and words in str(err.value), str(err.value)
    grouped = lane_battle([unit("b", "A", move=30, orders={"type": "advance", "to": "B"})],
                          extra={"groups": {"g": {"units": ["b"], "plan": [{"type": "hold"}]}}})
    with pytest.raises(InputError, match="orders of its own"):
        build(grouped)


# -- the other event conditions: halted, lost_steps, pinned ----------------------------------
def test_a_step_waits_until_a_unit_is_halted():
    """b1 is halted by snap fire in turn 1 (it passes 5 cm from the post): b2 sets off in
    turn 3, its next movement phase."""
    lane = dict(LANE, S=(50.0, 55.0))
    data = scenario(table(lane, EDGES), [
        unit("b1", "A", move=200, steps=9, armour=7, orders={"type": "advance", "to": "B"}),
        unit("b2", "C", move=30, plan=[{"type": "advance", "to": "D", "when": {"halted": "b1"}}])],
        [unit("sf", "S")], turns=6, rules=copy.deepcopy(QUIET), destroy=False)
    b = run(data)
    assert recs(b, event="halt", unit="b1")[0]["turn"] == 1
    assert first_move(b, "b2")["turn"] == 3
    (d,) = decisions(b, "b2")
    assert d["trigger"] == "halted b1" and d["turn"] == 3


@pytest.mark.parametrize("fact", ["lost_steps", "pinned"])
def test_a_step_waits_until_a_unit_loses_a_step_or_is_pinned(fact):
    """H17: b walks into the sniper's range and is hit in turn 1 (seed 3), so it loses a
    step and is pinned (BASE.H.PIN); b2, out of range, sets off in turn 3."""
    from test_fidelity import SNIPER, hexdoc

    data = hexdoc([{"id": "b", "at": "0,0", "move": 2, "steps": 5, "orders": {"type": "advance", "to": "2,0"}},
                   {"id": "b2", "at": "0,0", "move": 1, "plan": [
                       {"type": "advance", "to": "1,0", "when": {fact: "b"}}]}],
                  [SNIPER], turns=6)
    b = run(data, seed=3)
    first = (recs(b, event="hit", unit="b") if fact == "lost_steps" else recs(b, event="pin", unit="b"))[0]
    assert first["turn"] == 1
    assert first_move(b, "b2")["turn"] == 3


def test_on_halted_reacts_to_a_halt_not_to_fire():
    """A zone of control halts without firing: `on_halted` reacts (in the unit's next
    movement phase), `on_fired` never does."""
    lane = dict(LANE, S=(50.0, 53.0))
    rules = copy.deepcopy(QUIET)
    rules["snapfire"] = {"reaction": "zoc"}
    for what, reacts in (("on_halted", True), ("on_fired", False)):
        data = scenario(table(lane, EDGES), [unit("b", "A", move=40, orders={"type": "advance", "to": "B"})],
                        [unit("z", "S")], turns=6, rules=copy.deepcopy(rules), destroy=False)
        data["policies"] = {"blue": {what: {"policy": "go_to_ground"}}}
        b = run(data)
        halted = recs(b, event="halt", unit="b")
        assert halted, what
        chosen = [r for r in decisions(b, "b") if r["policy"] == "go_to_ground"]
        if reacts:
            assert chosen[0]["turn"] == halted[0]["turn"] + 2 and chosen[0]["trigger"] == "halted"
        else:
            assert chosen == []


def test_enemy_within_does_not_see_a_hidden_sniper():
    """H17: the only enemy is a deployed, hidden sniper 8 hexes off. b2 waits for an enemy
    it can see within 20 hexes: not in turn 1 (the sniper is hidden), but in turn 3, after
    the sniper revealed itself by firing at b in turn 1 (its `spot` record)."""
    from test_fidelity import SNIPER, hexdoc

    data = hexdoc([{"id": "b", "at": "0,0", "move": 2, "steps": 5, "orders": {"type": "advance", "to": "2,0"}},
                   {"id": "b2", "at": "0,0", "move": 1, "plan": [
                       {"type": "advance", "to": "1,0", "when": {"enemy_within": 20}}]}],
                  [SNIPER], turns=6)
    b = run(data, seed=3)
    assert recs(b, event="spot", unit="s")[0]["turn"] == 1
    assert first_move(b, "b2")["turn"] == 3


def test_a_covered_route_on_a_hex_map_goes_behind_the_woods():
    """Hexes as on a table: the least-cost way along row 1 is in the red post's sight;
    `covered` drops to row 3, behind the woods of row 2, and comes back up at the end."""
    from test_fidelity import hexdoc

    rows = ("..........", "..........", "..WWWWWW..", "..........")
    found = {}
    for planner in ("shortest", "covered"):
        d = hexdoc([{"id": "b", "at": "0,1", "move": 30, "plan": [
            {"type": "advance", "to": "9,1", "route": planner}]}], [{"id": "r", "at": "4,0"}], rows=rows)
        d["rules"] = {"h17": {"ap_range": 1}}
        b = run(d)
        found[planner] = [b.scenario.map.nearest_node(*p) for p in first_move(b, "b")["waypoints"]]
    assert found["shortest"] == [f"{q},1" for q in range(1, 10)]
    assert found["covered"] == ["0,2", "0,3", "1,3", "2,3", "3,3", "4,3", "5,3", "6,3", "7,2", "8,1", "9,1"]


# -- found by trying it as a new user ---------------------------------------------------------
def test_a_reaction_does_not_start_a_step_still_waiting_for_its_condition():
    """b waits for turn 7; red shoots at it in turn 2 (and then leaves), so it goes to
    ground in turn 3, and after that it goes on waiting: it does not set off in turn 5
    because the reaction is over."""
    data = scenario(table(dict(LANE, H=(30.0, 50.0), S=(50.0, 55.0)), EDGES + [("H", "W"), ("S", "FAR")]),
                    [unit("b", "H", move=40, steps=9, plan=[
                        {"type": "advance", "to": "B", "when": {"from_turn": 7}}])],
                    [unit("sf", "S", armour=7, move=200, plan=[
                        {"type": "advance", "to": "FAR", "when": {"from_turn": 4}}])], turns=8,
                    rules={"base": {"shoot_range": 30}, "snapfire": {"radius": 1}}, destroy=False)
    data["policies"] = {"blue": {"on_fired": {"policy": "go_to_ground", "turns": 1}}}
    b = run(data)
    assert [r["turn"] for r in recs(b, rule="BASE.S.SHOOT") if r["target"] == "b"][0] == 2
    assert [r["turn"] for r in decisions(b, "b") if r["policy"] == "go_to_ground"][0] == 3
    assert first_move(b, "b")["turn"] == 7
    assert not [r for r in decisions(b, "b") if r["choice"].startswith("resume")]


def test_events_count_from_when_the_step_before_began():
    """Step 2 waits until the unit has been fired on. Red shoots at it in turn 2, while it
    is still on step 1 (on its way to W, which it reaches in turn 3, out of red's range):
    step 2 starts in turn 5, the phase after step 1 is done."""
    data = scenario(table(dict(LANE, S=(0.0, 95.0)), EDGES), [unit("b", "A", move=30, steps=9, plan=[
        {"type": "advance", "to": "W"},
        {"type": "advance", "to": "B", "when": {"fired_on": "self"}}])],
        [unit("sf", "S", armour=7)], turns=8, rules={"base": {"shoot_range": 60}, "snapfire": {"radius": 1}},
        destroy=False)
    b = run(data)
    shots = [r for r in recs(b, rule="BASE.S.SHOOT") if r["target"] == "b"]
    assert [r["turn"] for r in shots] == [2]
    assert recs(b, event="arrive", unit="b")[0]["turn"] == 3
    (d,) = decisions(b, "b")
    assert d["turn"] == 5 and d["choice"].startswith("step 2")


def test_a_waiting_charge_step_does_not_assault():
    wp = {"A": (0.0, 50.0), "E": (10.0, 50.0)}
    data = scenario(table(wp, [("A", "E")]), [unit("b", "A", move=30, armour=7, plan=[
        {"type": "charge", "to": "E", "when": {"from_turn": 5}}])], [unit("e", "E", armour=7)],
        turns=6, rules={"base": {"shoot_range": 0, "charge_range": 15}, "snapfire": {"radius": 1}},
        destroy=False)
    b = run(data)
    assaults = recs(b, rule="BASE.S.ASSAULT")
    assert assaults and min(r["turn"] for r in assaults) == 5


def test_seek_cover_does_not_run_to_the_enemy():
    """The only cover within a move is the hedge the firer stands in: the unit holds."""
    data = fired_on_data("seek_cover")
    data["terrain"]["areas"] = [{"name": "hedge", "terrain": "hedge",
                                 "polygon": [[46, 51], [54, 51], [54, 59], [46, 59]]}]
    data["terrain"]["waypoints"]["S"] = [50.0, 55.0]
    b = run(data)
    d = [r for r in decisions(b, "b") if r["policy"] == "seek_cover"][0]
    assert d["choice"] == "hold (no cover within reach)"


def test_a_units_own_on_halted_comes_before_its_sides_on_fired():
    """Snap fire halts and fires at once: the unit's own `on_halted` (fall back) decides,
    not its side's `on_fired` (carry on)."""
    data = fired_on_data("carry_on")
    data["forces"]["blue"][0]["move"] = 45
    data["policies"] = {"blue": {"on_fired": {"policy": "carry_on"}}, "b": {"on_halted": {"policy": "fall_back"}}}
    b = run(data)
    first = decisions(b, "b")[0]
    assert first["policy"] == "fall_back" and first["trigger"] == "halted"


def test_in_phase_delays_only_the_steps_first_move():
    b = run(lane_battle([unit("b", "A", move=20, plan=[
        {"type": "advance", "to": "B", "when": {"in_phase": 0.5}}])], turns=4))
    moves = recs(b, event="move", unit="b")
    assert [m["t"] for m in moves] == [0.5, 6.0]


def test_a_target_choice_among_several_is_a_decide_record():
    wp = {"A": (0.0, 50.0), "N": (20.0, 50.0), "F": (35.0, 50.0)}
    data = scenario(table(wp), [unit("b", "A")], [unit("strong", "N", steps=4), unit("weak", "F", steps=1)],
                    turns=1, destroy=False)
    data["policies"] = {"blue": {"target": {"policy": "weakest"}}}
    b = run(data)
    (d,) = decisions(b, "b")
    assert (d["policy"], d["choice"], d["candidates"]) == ("weakest", "weak", ["strong", "weak"])
    assert b.log.records.index(d) < b.log.records.index(recs(b, rule="BASE.S.SHOOT")[0])


def test_a_route_planner_that_leaves_the_map_is_a_plugin_error():
    from sim.experimental import Behaviour, register_behaviour, unregister_behaviour
    from sim.systems.registry import PluginError

    register_behaviour(Behaviour("route", "teleport", lambda plans, u, start, via, goal: [goal], "jump"))
    try:
        data = lane_battle([unit("b", "A", move=30, plan=[{"type": "advance", "to": "B", "route": "teleport"}])])
        with pytest.raises(PluginError, match="'B' does not follow 'A'"):
            run(data)
    finally:
        unregister_behaviour("route", "teleport")


def test_a_group_with_a_formation_arrives_each_member_at_its_own_place():
    lane = dict(LANE, B2=(100.0, 40.0))
    data = scenario(table(lane, EDGES + [("W", "B2")]),
                    [unit("g1", "A", move=200), unit("g2", "A", move=200),
                     unit("b3", "C", move=30, plan=[{"type": "advance", "to": "D",
                                                     "when": {"arrived": {"group": "sec", "at": "B"}}}])],
                    [unit("far", "FAR")], turns=4, rules=copy.deepcopy(QUIET), destroy=False)
    data["groups"] = {"sec": {"units": ["g1", "g2"], "plan": [{"type": "advance", "to": "B"}],
                              "formation": {"g2": [0.0, -9.0]}}}
    b = run(data)
    assert first_move(b, "b3")["turn"] == 3


def test_a_move_ending_on_a_zero_length_edge_ends_in_its_phase():
    """FIRE is a waypoint exactly on a grid node: the edge between them has no length.
    A move that reaches them at its slot's end logs its arrive in the movement phase."""
    data = scenario({"kind": "table", "width": 60, "height": 60, "grid": {"spacing": 10},
                     "waypoints": {"FIRE": [30, 30]}},
                    [unit("b", "0,3", move=30, orders={"type": "advance", "to": "FIRE"})],
                    [unit("far", "5,0")], turns=2, rules=copy.deepcopy(QUIET), destroy=False)
    b = run(data)
    (arrive,) = recs(b, event="arrive", unit="b")
    assert arrive["node"] == "FIRE" and arrive["phase"] == "movement" and arrive["t"] == 1.0
    check_battle(b)


@pytest.mark.parametrize("when,words", [
    ({"from_turn": 6}, "turn 6 never comes for side 'blue'"),
    ({"pinned": "self"}, "never pins a unit"),
])
def test_a_condition_that_can_never_hold_is_refused(when, words):
    data = lane_battle([unit("b", "A", move=30, plan=[{"type": "advance", "to": "B", "when": when}])], turns=6)
    with pytest.raises(InputError, match=words):
        build(data)


def test_an_until_that_can_never_hold_says_the_loop_never_ends():
    data = lane_battle([unit("b", "A", move=100, plan={
        "steps": [{"type": "advance", "to": "B"}, {"type": "advance", "to": "A"}],
        "loop": True, "until": {"from_turn": 99}})], turns=10)
    with pytest.raises(InputError, match="the loop could never end"):
        build(data)


def test_messages_for_misspelt_and_foreign_policy_keys():
    data = lane_battle([unit("b", "A", move=30)],
                       extra={"groups": {"g": {"units": ["b"], "plans": [{"type": "hold"}]}}})
    with pytest.raises(InputError, match=r"groups\.g\.plans: unknown key"):
        build(data)
    data = lane_battle([unit("b", "A", move=30)], extra={"policies": {"blue": {"withdraw": {"when": "never"}}}})
    with pytest.raises(InputError, match=r"'withdraw' is set but ruleset 'snapfire' does not read it \(only \['h17'\]"):
        build(data)


def test_set_paths_address_a_plan_either_way():
    from sim.scenario.load import apply_overrides

    sc = build(lane_battle([unit("b", "A", move=100, plan=[{"type": "advance", "to": "B"},
                                                          {"type": "advance", "to": "A"}])], turns=10))
    a = apply_overrides(sc, {"forces.blue.0.plan.steps.1.when": {"from_turn": 5}})
    b = apply_overrides(sc, {"forces.blue.0.plan.1.when": {"from_turn": 5}})
    assert a.forces["blue"][0].plan.steps[1].when.from_turn == b.forces["blue"][0].plan.steps[1].when.from_turn == 5
    looped = apply_overrides(sc, {"forces.blue.0.plan.loop": True, "forces.blue.0.plan.until": {"from_turn": 7}})
    assert looped.forces["blue"][0].plan.loop and len(looped.forces["blue"][0].plan.steps) == 2
