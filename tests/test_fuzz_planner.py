"""Fuzzing a planner's knobs (``policies.<who>.decide``): whatever the section holds, the
scenario either loads and its battle runs (and keeps the event-log invariants), or
loading raises ``InputError`` with one line naming the place under ``policies``, never
another exception: whatever ``sim run`` would refuse is refused when the file is read.

The scenario is small (blue: five stands, two groups and one alone; red: one stand; three
turns) so that a planner's battle costs little: by unit it has more choices than the
planner takes, by group three, by side one. Budgets are drawn small (every valid budget
runs the same code; junk that loads as a budget is at most 8).

Bounded: derandomized, no example database, 250 examples (a few seconds).
"""
from __future__ import annotations

import copy
import math

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sim
from invariants import check
from sim.errors import InputError
from sim.scenario.load import scenario_from_dict

FUZZ = settings(max_examples=250, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

DOC = yaml.safe_load("""
name: planner_fuzz
ruleset: snapfire
turns: 3
sides: [blue, red]
terrain:
  kind: table
  width: 60
  height: 20
  grid: {spacing: 10}
  waypoints: {ZONE: [40, 10], R: [50, 10], OBJ: [55, 10]}
forces:
  blue:
    - {id: b1, at: "2,1", steps: 1, armour: 3, move: 15}
    - {id: b2, at: "2,1", steps: 1, armour: 3, move: 15}
    - {id: b3, at: "1,1", steps: 1, armour: 3, move: 15}
    - {id: b4, at: "1,1", steps: 1, armour: 3, move: 15}
    - {id: b5, at: "1,0", steps: 1, armour: 3, move: 15, orders: {type: advance, to: ZONE}}
  red:
    - {id: r1, at: R, steps: 3, armour: 5}
groups:
  front: {units: [b1, b2], plan: [{type: advance, to: ZONE}]}
  back: {units: [b3, b4], plan: [{type: hold}, {type: advance, to: ZONE, when: {from_turn: 3}}]}
victory: {attacker: blue, objective: OBJ}
rules:
  base: {shoot_range: 20}
""")

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 8), st.sampled_from([0, -1, 10**9, 2**63, 2**70]),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.5, 1e-9, 1e300, -0.0]),
    st.text(max_size=6), st.sampled_from(["mcts", "side", "group", "unit", "army", "", "1"]),
    st.just([]), st.just({}), st.just([1, 2]), st.just({"policy": "mcts"}))

# Each knob: values it takes (a budget kept small), then anything at all.
KNOBS = {
    "policy": st.just("mcts"),
    "rollouts": st.integers(1, 4),
    "seconds": st.sampled_from([None, 1e-9, 0.5, 3600]),
    "depth": st.integers(1, 50),
    "horizon": st.one_of(st.none(), st.integers(1, 1000)),
    "exploration": st.sampled_from([0, 0.5, 1.0, 100]),
    "by": st.sampled_from(["side", "group", "unit"]),
    "material": st.sampled_from([0, 0.25, 100]),
}


@st.composite
def decide(draw):
    """A ``decide`` section: mostly a mapping of knobs (each valid or junk), else junk itself."""
    if draw(st.integers(0, 11)) == 0:
        return draw(JUNK)
    section = {}
    for knob, valid in KNOBS.items():
        if knob == "policy" or draw(st.booleans()):
            section[knob] = draw(valid) if draw(st.integers(0, 7)) else draw(JUNK)
    if draw(st.integers(0, 11)) == 0:
        section[draw(st.sampled_from(["budget", "Rollouts", "by ", "turns"]))] = draw(JUNK)
    return section


@FUZZ
@given(who=st.sampled_from(["blue", "blue", "blue", "red", "red", "front", "b5", "nobody"]), section=decide(),
       seed=st.integers(1, 3))
def test_planner_knobs_load_and_play_or_are_an_input_error_with_a_place(who, section, seed):
    doc = copy.deepcopy(DOC)
    doc["policies"] = {who: {"decide": section}}
    try:
        scenario = scenario_from_dict(doc, "fuzz.yaml")
    except InputError as err:
        assert "\n" not in str(err) and str(err).startswith("fuzz.yaml: ")
        assert err.place and "policies" in err.place, str(err)
        return
    planner = scenario.policies[who].decide
    assert planner is not None or section is None   # `decide: null` is no planner
    assert planner is None or (who in ("blue", "red") and isinstance(section, dict))
    result = sim.run(scenario, seed)   # a budget that loads is small here: rollouts <= 8
    check(scenario, result.log.records)
    decided = [r for r in result.log.records if r["event"] == "decide" and "rollouts" in r]
    assert all(len(r["controls"]) <= 4 and 1 <= r["rollouts"] <= planner.rollouts for r in decided)
    assert all(not isinstance(v, float) or math.isfinite(v) for r in decided for v in r["values"].values())
