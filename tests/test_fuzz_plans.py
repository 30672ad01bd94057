"""Adversarial fuzzing of plans, groups, policies and knobs, audited by ``tests/invariants.py``.

``tests/test_invariants.py`` draws maps, forces, orders and knobs; here each generated
scenario's orders are rewritten into what a tactics author writes: plans of several steps
(hold, advance, march, charge) with ``via`` nodes and route planners, start conditions
(``from_turn``, ``arrived``, ``fired_on``, ``halted``, ``pinned``, ``lost_steps``,
``enemy_within``, ``in_phase``), loops with an exit, groups with formation offsets, and
reaction, target and take-reaction policies at every level (side, group, unit). Every
battle that loads is run at three seeds and its log and final state audited; a scenario
the loader refuses must be refused with an ``InputError`` (one line), never anything else.

Bounded for 2 cores (derandomized, modest example counts); set SIM_INVARIANT_EXAMPLES=N
and SIM_INVARIANT_RANDOM=1 to explore further.
"""
from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from invariants import check
from sim.engine.battle import Battle
from sim.engine.log import EventLog
from sim.errors import InputError
from sim.scenario.load import scenario_from_dict
from sim.space import build_terrain
from test_invariants import SEEDS, _run_all, _settings, scenarios

# The events each rule system writes, so that a condition on one it never writes (refused at
# load, by design) is rarely drawn.
CONDITIONS = {"snapfire": ["fired_on", "halted", "lost_steps"],
              "h17": ["fired_on", "pinned", "lost_steps"],
              "fow": ["fired_on", "pinned", "lost_steps"],
              "too": ["fired_on", "lost_steps"]}
MOVES = {"snapfire": ["advance", "march", "charge", "hold"], "fow": ["advance", "charge", "hold"],
         "h17": ["advance", "hold"], "too": ["advance", "hold"]}


def _reach(terrain, at):
    """The passable nodes a unit standing at ``at`` can reach (its component, less ``at``)."""
    import networkx as nx

    g = terrain.graph
    return [n for n in terrain.nodes if n != at and g.nodes[n]["passable"]
            and n in nx.node_connected_component(g, at)]


@st.composite
def condition(draw, ruleset, data, uid, reach, others):
    """A ``when`` (or ``until``): one to three keys, every one of which can come to hold."""
    keys = draw(st.lists(st.sampled_from(["from_turn", "arrived", "event", "enemy_within",
                                          "in_phase"]), min_size=1, max_size=3, unique=True))
    when: dict = {}
    for key in keys:
        if key == "from_turn":
            when["from_turn"] = draw(st.integers(1, max(1, data["turns"] - 2)))
        elif key == "arrived":
            able = [w for w in [uid, *others] if reach[w]]
            if able:
                who = draw(st.sampled_from(able))
                when["arrived"] = {"unit": who, "at": draw(st.sampled_from(reach[who]))}
        elif key == "event":
            event = draw(st.sampled_from(CONDITIONS[ruleset]))
            when[event] = draw(st.sampled_from(["self", *others]))
        elif key == "enemy_within":
            when["enemy_within"] = float(draw(st.integers(1, 120)))
        elif key == "in_phase" and ruleset != "too":
            when["in_phase"] = draw(st.sampled_from([0.0, 0.25, 0.5, 0.9]))
    return when or {"from_turn": 1}


@st.composite
def step(draw, ruleset, data, uid, reach, others):
    """One plan step: a move to a reachable node (maybe via another), or a hold."""
    kind = draw(st.sampled_from(MOVES[ruleset])) if reach[uid] else "hold"
    s: dict = {"type": kind}
    if kind != "hold":
        s["to"] = draw(st.sampled_from(reach[uid]))
        if draw(st.integers(0, 3)) == 0:
            via = [n for n in reach[uid] if n != s["to"]]
            if via:
                s["via"] = [draw(st.sampled_from(via))]
        s["route"] = draw(st.sampled_from(["shortest", "shortest", "covered"]
                                          + (["via"] if "via" in s else [])))
    if draw(st.booleans()):
        s["when"] = draw(condition(ruleset, data, uid, reach, others))
    return s


@st.composite
def plan(draw, ruleset, data, uid, reach, others):
    """A plan: a bare list of steps, or its long form with a loop and its exit."""
    steps = draw(st.lists(step(ruleset, data, uid, reach, others), min_size=1, max_size=4))
    if len(steps) >= 2 and draw(st.integers(0, 3)) == 0:
        return {"steps": steps, "loop": True,
                "until": draw(condition(ruleset, data, uid, reach, others))}
    return steps


@st.composite
def move_policy(draw):
    """A reaction policy (``on_fired``, ``on_halted``)."""
    name = draw(st.sampled_from(["carry_on", "go_to_ground", "fall_back", "seek_cover"]))
    return {"policy": name, **({"turns": draw(st.integers(1, 3))} if name == "go_to_ground" else {})}


@st.composite
def policies_for(draw, ruleset, kinds):
    """One ``policies.WHO`` entry: some of on_fired, on_halted, target, take_reaction."""
    p: dict = {}
    if draw(st.booleans()):
        p["on_fired"] = draw(move_policy())
    if ruleset == "snapfire" and draw(st.booleans()):
        p["on_halted"] = draw(move_policy())
    if draw(st.booleans()):
        name = draw(st.sampled_from(["nearest", "weakest", "most_dangerous", "priority"]))
        p["target"] = {"policy": name}
        if name == "priority":
            p["target"]["kinds"] = draw(st.lists(st.sampled_from(sorted(kinds)), min_size=1,
                                                 max_size=2, unique=True))
    if ruleset in ("snapfire", "h17") and draw(st.booleans()):
        name = draw(st.sampled_from(["always", "never", "threshold"]))
        p["take_reaction"] = {"policy": name}
        if name == "threshold":
            p["take_reaction"]["at_least"] = draw(st.sampled_from([0.1, 0.5, 0.9]))
    return p


@st.composite
def tactics(draw, ruleset):
    """A generated scenario (``test_invariants.scenarios``) given plans, groups, policies."""
    data = draw(scenarios(ruleset))
    terrain = build_terrain(data["terrain"])
    movers = {u["id"]: u for side in data["forces"].values() for u in side
              if u.get("kind") != "sniper"}
    reach = {uid: _reach(terrain, u["at"]) for uid, u in movers.items()}
    for uid, u in movers.items():
        if draw(st.integers(0, 3)) > 0:
            u.pop("orders", None)
            others = [o for o in movers if o != uid]
            u["plan"] = draw(plan(ruleset, data, uid, reach, others))
    groups: dict = {}
    for side, units in data["forces"].items():
        free = [u for u in units if u.get("kind") != "sniper"]
        if len(free) >= 2 and draw(st.integers(0, 2)) == 0:
            members = free[:draw(st.integers(2, len(free)))]
            lead = members[0]["id"]
            # Every member can reach what the leader can: they stand in one component.
            at = members[0]["at"]
            members = [m for m in members if m["at"] == at or m["at"] in reach[lead]]
            if len(members) >= 2:
                for m in members:
                    m.pop("orders", None)
                    m.pop("plan", None)
                name = f"{side}_grp"
                groups[name] = {"units": [m["id"] for m in members],
                                "plan": draw(plan(ruleset, data, lead, reach, []))}
                if draw(st.booleans()):
                    groups[name]["formation"] = {members[1]["id"]: [float(draw(st.integers(-10, 10))),
                                                                    float(draw(st.integers(-10, 10)))]}
    if groups:
        data["groups"] = groups
    kinds = {u.get("kind", "infantry") for side in data["forces"].values() for u in side}
    who = [*data["sides"], *groups, *movers]
    policies = {}
    for w in draw(st.lists(st.sampled_from(who), max_size=3, unique=True)):
        p = draw(policies_for(ruleset, kinds))
        if p:
            policies[w] = p
    if policies:
        data["policies"] = policies
    if draw(st.integers(0, 3)) == 0:   # the schema's smallest phase lengths (the log's rounding)
        data["rules"].setdefault("base", {})["phase_length"] = draw(st.sampled_from([0.001, 1e-6]))
    return data


def _audit(data, tmp_path):
    try:
        scenario = scenario_from_dict(data)
    except InputError as err:   # a refusal is one line naming the place; then draw again
        assert "\n" not in str(err) and str(err)
        assume(False)
    _run_all(data)
    # The file the contract promises, read back as a user's auditor reads it.
    battle = Battle(scenario, SEEDS[0]).run()
    path = tmp_path / "log.jsonl"
    battle.log.to_jsonl(path)
    check(scenario, EventLog.read_jsonl(path).records)


@pytest.mark.parametrize("ruleset", ["snapfire", "h17", "fow", "too"])
@_settings(40)
@given(data=st.data())
def test_plans_and_policies_keep_the_invariants(ruleset, data, tmp_path_factory):
    """Every battle of generated plans, groups, policies and knobs passes the audit, and so
    does its written log."""
    _audit(data.draw(tactics(ruleset)), tmp_path_factory.mktemp("log"))


def test_a_team_an_assault_moved_off_its_plans_route_goes_on_from_where_it_stands():
    """Found by this fuzzer: a FOW team with a plan through a ``via`` node assaulted into
    contact, which left it at another node than its route went on from; its next move
    looked up an edge the map does not have (a KeyError at seed 3). Its route now joins
    the node it stands at to the route's next node by the least-cost path."""
    import json

    from conftest import ROOT

    data = json.loads((ROOT / "tests" / "data" / "fow_assault_off_route.json").read_text())
    _run_all(data)
    battle = Battle(scenario_from_dict(data), 3).run()
    assaults = [r for r in battle.log.records if r["event"] == "stop" and r.get("reason") == "contact"
                and r["unit"] == "u7"]
    assert assaults and assaults[0]["node"] == "P0"   # the assault left it at P0, off its route
    later = [r for r in battle.log.records if r["event"] == "move" and r["unit"] == "u7"
             and r["t"] > assaults[0]["t"]]
    assert later and later[0]["node"] == "P0"          # and it set off again from there
