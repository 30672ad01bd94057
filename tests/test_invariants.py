"""Invariants over generated battles (issue 7, item 3), property-based with hypothesis.

Small random scenarios (random tabletop and hex maps, forces, orders and knobs) under
every ruleset (snapfire with snap fire, zone of control and both SF.MARCH readings; h17;
fow; too) are run with several seeds, and ``tests/invariants.py`` audits each log and
final state: time never goes back, turns and phases are the ruleset's, no unit is in two
places, strength never below zero and casualties never above it, every sniper
transition is in the lifecycle table, every roll passes its rule's test, and SF.HALT
points lie on the radius.

Bounded for 2 cores: derandomized, no example database, modest example counts. To
explore further, set SIM_INVARIANT_EXAMPLES=N (examples per test) and
SIM_INVARIANT_RANDOM=1 (a fresh random seed each run).
"""
from __future__ import annotations

import copy
import json
import os

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import SCENARIOS
from invariants import CATALOGUE_TESTS, DICE_WITHOUT_TEST, ROLL_TESTS, InvariantError, check, check_battle
from sim.engine.battle import Battle
from sim.scenario.load import load_scenario, scenario_from_dict
from sim.space import build_terrain

EXAMPLES = int(os.environ.get("SIM_INVARIANT_EXAMPLES", "0")) or None
SEEDS = (1, 2, 3)


def _settings(n: int):
    return settings(max_examples=EXAMPLES or n, deadline=None, database=None,
                    derandomize=not os.environ.get("SIM_INVARIANT_RANDOM"),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


# -- maps -----------------------------------------------------------------------------------
TYPES = ["open", "woods", "building", "hedge", "rubble", "impassable"]


@st.composite
def table_terrain(draw):
    w = draw(st.integers(40, 140))
    h = draw(st.integers(30, 90))
    spec = {"kind": "table", "width": w, "height": h}
    coord = lambda hi: st.integers(0, hi * 4).map(lambda v: v / 4)  # noqa: E731
    n_wp = draw(st.integers(0, 6))
    wps = {f"P{i}": [draw(coord(w)), draw(coord(h))] for i in range(n_wp)}
    grid = draw(st.booleans()) or n_wp < 2
    if grid:
        spec["grid"] = {"spacing": draw(st.sampled_from([8, 10, 12.5, 15, 20]))}
    if wps:
        spec["waypoints"] = wps
        names = list(wps)
        if len(names) >= 2 and draw(st.booleans()):
            pairs = draw(st.lists(st.lists(st.sampled_from(names), min_size=2, max_size=2, unique=True),
                                  max_size=8))
            if pairs:
                spec["edges"] = [list(p) for p in pairs]
    areas = []
    for i in range(draw(st.integers(0, 3))):
        x0, y0 = draw(st.integers(0, w - 6)), draw(st.integers(0, h - 6))
        x1, y1 = draw(st.integers(x0 + 3, w)), draw(st.integers(y0 + 3, h))
        area = {"name": f"a{i}", "terrain": draw(st.sampled_from(TYPES)),
                "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}
        if draw(st.booleans()):
            area["cover"] = draw(st.integers(0, 4))
        if draw(st.booleans()):
            area["cost"] = draw(st.sampled_from([0.5, 1, 2, 3]))
        areas.append(area)
    if areas:
        spec["areas"] = areas
    return spec


@st.composite
def hex_terrain(draw):
    w, h = draw(st.integers(4, 10)), draw(st.integers(3, 7))
    letters = st.sampled_from("......WBHRX")
    rows = ["".join(draw(st.lists(letters, min_size=w, max_size=w))) for _ in range(h)]
    return {"kind": "hex", "rows": rows}


# -- forces ---------------------------------------------------------------------------------
def _places(terrain):
    """Passable nodes, and for each its connected component (in build order)."""
    g = terrain.graph
    nodes = [n for n in terrain.nodes if g.nodes[n]["passable"]]
    comp = {}
    for c in nx.connected_components(g):
        members = [n for n in terrain.nodes if n in c]
        for n in c:
            comp[n] = members
    return nodes, comp


@st.composite
def unit_dict(draw, uid, ruleset, terrain, places, comp, hexmap):
    at = draw(st.sampled_from(places))
    u = {"id": uid, "at": at}
    reach = [n for n in comp[at] if n != at and terrain.graph.nodes[n]["passable"]]
    kinds = {"snapfire": ["infantry", "vehicle", "team"], "h17": ["infantry", "infantry", "vehicle"],
             "fow": ["team"], "too": ["figure"]}[ruleset]
    u["kind"] = draw(st.sampled_from(kinds))
    orders = ["hold", "advance", "march"] if ruleset == "snapfire" else ["hold", "advance"]
    kind = draw(st.sampled_from(orders)) if reach else "hold"
    o = {"type": kind}
    if kind != "hold":
        o["to"] = draw(st.sampled_from(reach))
    if ruleset in ("snapfire", "fow") and draw(st.booleans()):
        o["charge"] = True
    u["orders"] = o
    u["steps"] = draw(st.integers(1, 3))
    u["armour"] = draw(st.integers(2, 6))
    u["morale"] = draw(st.integers(2, 6))
    u["skill"] = draw(st.integers(2, 6))
    u["move"] = float(draw(st.integers(1, 4))) if hexmap else float(draw(st.integers(4, 30)))
    # ``no_snap_fire`` is SF's own flag: another system refuses it.
    own = ["pinned", "no_snap_fire"] if ruleset == "snapfire" else ["pinned"]
    flags = draw(st.lists(st.sampled_from(own), max_size=1, unique=True))
    if ruleset == "too":
        flags = draw(st.lists(st.sampled_from(["hidden"]), max_size=1))
        u["level"] = draw(st.sampled_from([None, "green", "recruit", "seasoned", "veteran", "elite"]))
        u["sniper"] = draw(st.booleans())
        u["medic"] = draw(st.booleans())
        u["prone"] = draw(st.booleans())
        u["alert"] = draw(st.sampled_from([None, None, "A", "B"]))
        if draw(st.booleans()):
            u["facing"] = float(draw(st.integers(-359, 359)))
    if ruleset in ("h17", "fow") and draw(st.booleans()):
        u["hunt"] = True
    if ruleset == "fow":
        u["platoon"] = draw(st.sampled_from(["A", "B", "C"]))
    if flags:
        u["flags"] = flags
    return {k: v for k, v in u.items() if v is not None}


@st.composite
def sniper_dict(draw, uid, ruleset, places):
    at = draw(st.sampled_from(places))
    u = {"id": uid, "kind": "sniper", "at": at, "skill": draw(st.integers(2, 6)),
         "morale": draw(st.integers(2, 6))}
    if ruleset == "h17":
        u["sniper_team"] = {"start": draw(st.sampled_from(["off_board", "off_board", "deployed"]))}
    else:
        cands = draw(st.lists(st.sampled_from(places), min_size=0, max_size=4))
        u["sniper_team"] = {"start": draw(st.sampled_from(["reserve", "reserve", "deployed"])),
                            "candidates": cands}
        if draw(st.integers(0, 5)) == 0:
            u["orders"] = {"type": "hold"}
    return u


# -- knobs ----------------------------------------------------------------------------------
@st.composite
def knobs(draw, ruleset, hexmap, variant=None):
    rules = {}
    if draw(st.booleans()):
        rules["base"] = {"phase_length": draw(st.sampled_from([0.5, 1.0, 2.5]))}
        if ruleset == "snapfire":   # the other rulesets read only phase_length
            rules["base"].update(shoot_range=float(draw(st.integers(0, 60))),
                                 charge_range=float(draw(st.integers(0, 30))),
                                 steps_per_hit=draw(st.integers(1, 2)))
    if ruleset == "snapfire":
        r = draw(st.sampled_from([0.5, 1.0, 1.5, 2.5])) if hexmap else float(draw(st.integers(2, 25)))
        sf = {"radius": r, "zoc_radius": r / 2}
        sf.update(variant or {})
        rules["snapfire"] = sf
    elif ruleset == "h17":
        rules["h17"] = {
            "placement": draw(st.sampled_from(["best_cover", "random", "nearest"])),
            "withdraw": {"when": draw(st.sampled_from(["never", "enemy_within", "after_attacks"])),
                         "hexes": draw(st.integers(0, 4)), "attacks": draw(st.integers(1, 3))},
            "withdraw_phase": draw(st.sampled_from(["any", "own"])),
            "ap_range": draw(st.integers(2, 8)), "ap_need": draw(st.integers(2, 12)),
            "cp_per_step": draw(st.integers(1, 2))}
    elif ruleset == "fow":
        rules["fow"] = {
            "relocate": {"when": draw(st.sampled_from(["never", "when_spotted", "enemy_within"])),
                         "cm": float(draw(st.integers(0, 40)))},
            "redeploy": draw(st.sampled_from(["best_cover", "random"])),
            "reserve_delay": draw(st.integers(1, 2)),
            "deploy_clearance": float(draw(st.integers(0, 30))),
            "spot_range": float(draw(st.integers(5, 80))),
            "shoot_range": float(draw(st.integers(5, 80))),
            "sniper_range": float(draw(st.integers(5, 120))),
            "assault_range": float(draw(st.integers(0, 20))),
            "firepower": draw(st.integers(1, 6)), "sniper_firepower": draw(st.integers(1, 6))}
    elif ruleset == "too":
        rules["too"] = {
            "stealth_reading": draw(st.sampled_from(["literal", "exposure", "cover_bonus"])),
            "facing_bonus_scope": draw(st.sampled_from(["recheck", "all_searches"])),
            "treatment": draw(st.sampled_from(["medic", "buddy", "none"])),
            "bleed_clock": draw(st.sampled_from(["player_turns", "own_turns"])),
            "alert_fraction": draw(st.sampled_from([0.0, 0.5, 1.0])),
            "alert_rounding": draw(st.sampled_from(["floor", "ceil"])),
            "opp_range": float(draw(st.integers(5, 120))),
            "search_range": float(draw(st.integers(5, 200))),
            "treat_range": float(draw(st.integers(0, 20))),
            "snipers_start_hidden": draw(st.booleans())}
    return rules


# -- whole scenarios ------------------------------------------------------------------------
@st.composite
def scenarios(draw, ruleset, variant=None):
    hexmap = {"h17": True, "fow": False, "snapfire": None, "too": None}[ruleset]
    if hexmap is None:
        hexmap = draw(st.booleans())
    tspec = draw(hex_terrain() if hexmap else table_terrain())
    terrain = build_terrain(tspec)
    places, comp = _places(terrain)
    if not places:
        places = list(terrain.nodes)
    forces = {}
    n = 0
    for side in ("blue", "red"):
        units = []
        for _ in range(draw(st.integers(1, 5))):
            n += 1
            units.append(draw(unit_dict(f"u{n}", ruleset, terrain, places, comp, hexmap)))
        if ruleset in ("h17", "fow") and draw(st.integers(0, 2)) > 0:
            n += 1
            units.append(draw(sniper_dict(f"s{n}", ruleset, places)))
        forces[side] = units
    attacker = draw(st.sampled_from(["blue", "red"]))
    victory = {"attacker": attacker, "destroy": draw(st.booleans())}
    if draw(st.booleans()):
        victory["objective"] = draw(st.sampled_from(places))
    data = {"name": f"gen_{ruleset}", "ruleset": ruleset, "turns": draw(st.integers(3, 10)),
            "sides": ["blue", "red"], "terrain": tspec, "forces": forces, "victory": victory,
            "rules": draw(knobs(ruleset, hexmap, variant))}
    return data


def _run_all(data):
    scenario = scenario_from_dict(data)
    for seed in SEEDS:
        battle = Battle(scenario, seed).run()
        check_battle(battle)


VARIANTS = {
    "snap_fire": {"reaction": "snap_fire", "march_halt": "rest_of_phase"},
    "snap_fire_this_move": {"reaction": "snap_fire", "march_halt": "this_move"},
    "zoc": {"reaction": "zoc"},
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@_settings(80)
@given(data=st.data())
def test_snapfire_invariants(variant, data):
    _run_all(data.draw(scenarios("snapfire", VARIANTS[variant])))


@_settings(150)
@given(data=scenarios("h17"))
def test_h17_invariants(data):
    _run_all(data)


@_settings(150)
@given(data=scenarios("fow"))
def test_fow_invariants(data):
    _run_all(data)


@_settings(120)
@given(data=scenarios("too"))
def test_too_invariants(data):
    _run_all(data)


# -- the shipped scenarios, and the checker itself ------------------------------------------
SHIPPED = ["open_ground_advance", "march_column", "village_sniper", "crossing_sniper",
           "stalingrad_bookstore"]


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_scenarios_keep_the_invariants(name):
    scenario = load_scenario(SCENARIOS / f"{name}.yaml")
    for seed in range(1, 6):
        check_battle(Battle(scenario, seed).run())


def test_checker_reads_a_written_log(tmp_path):
    """The checker works on a `sim run --log` file as well (rounded floats, lists)."""
    from sim.engine.log import EventLog

    scenario = load_scenario(SCENARIOS / "open_ground_advance.yaml")
    battle = Battle(scenario, 7).run()
    path = tmp_path / "log.jsonl"
    battle.log.to_jsonl(path)
    records = EventLog.read_jsonl(path).records
    assert any(r["rule"] == "SF.HALT" for r in records)
    check(scenario, records)


@pytest.mark.parametrize("phase_length", [0.001, 1e-9])
def test_a_written_log_at_short_phases_is_the_battles_own_and_passes_unaided(tmp_path, phase_length):
    """A log file holds the records' times at full precision: at a phase of 0.001 a march
    covers 36 cm in 1e-9, and the file's times still give each move its exact speed, with
    no allowance for rounding."""
    from sim.engine.log import EventLog
    from sim.scenario.load import apply_overrides

    scenario = apply_overrides(load_scenario(SCENARIOS / "march_column.yaml"),
                               {"rules.base.phase_length": phase_length})
    path = tmp_path / "log.jsonl"
    log = Battle(scenario, 1).run().log
    log.to_jsonl(path)
    records = EventLog.read_jsonl(path).records
    assert records == [json.loads(json.dumps(r)) for r in log.records]   # tuples read back as lists
    assert sum(r["event"] == "move" for r in records) > 4
    check(scenario, records)


def test_checker_reads_a_plans_march_as_march_orders():
    """`plan: [{type: march, ...}]` logs byte for byte what `orders: march` logs, and the
    auditor allows both the same three moves a phase; an advance's one move it still
    holds to (the march's log checked as an advance's fails)."""
    import yaml

    data = yaml.safe_load((SCENARIOS / "march_column.yaml").read_text())
    as_plan = copy.deepcopy(data)
    for unit in as_plan["forces"]["blue"]:
        unit["plan"] = [unit.pop("orders")]
    orders, plan = scenario_from_dict(data), scenario_from_dict(as_plan)
    log = Battle(orders, 1).run().log.records
    assert Battle(plan, 1).run().log.records == log
    check(orders, log)
    check(plan, log)
    for unit in as_plan["forces"]["blue"]:
        unit["plan"][0]["type"] = "advance"
    with pytest.raises(InvariantError, match="moved"):
        check(scenario_from_dict(as_plan), log)


def test_every_catalogued_roll_has_a_test():
    """The table covers every rule whose catalogue row states a roll test."""
    import re

    from conftest import ROOT

    text = (ROOT.parent / "shared" / "rules" / "CATALOGUE.md")
    if not text.exists():
        pytest.skip("the shared catalogue is not next to the repository")
    rows = [line for line in text.read_text().splitlines() if line.startswith("| ")]
    with_test = set()
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        if len(cells) >= 4 and re.match(r"^[A-Z0-9]+(\.[A-Za-z0-9]+)+$", cells[0]) and "success" in cells[-1]:
            with_test.add(cells[0])
    assert with_test, "no roll tests found in the catalogue"
    assert with_test <= set(CATALOGUE_TESTS) | set(DICE_WITHOUT_TEST), with_test - set(ROLL_TESTS)


@pytest.mark.parametrize("mutate, message", [
    (lambda rs: rs.insert(_k(rs) + 1, dict(rs[_k(rs)], t=rs[_k(rs)]["t"] - 1.0)), "time went back"),
    (lambda rs: _first(rs, "SF.HALT").update(dist=9.5, pos=[0.0, 0.0]), "dist"),
    (lambda rs: _first(rs, "SF.ROLL").update(success=not _first(rs, "SF.ROLL")["success"]), "SF.ROLL"),
    (lambda rs: _first(rs, "BASE.S.HIT").update(steps_left=-1), "steps"),
    (lambda rs: rs[_k(rs)].update(phase="fire"), "phase"),
    (lambda rs: rs[_k(rs)].update(turn=0), "turn"),
    (lambda rs: rs.insert(_k(rs), {**rs[_k(rs)], "event": "stand", "rule": None, "unit": "r1", "pos": [1.0, 1.0]}),
     "two places"),
    (lambda rs: rs.pop(0), "place records"),
    (lambda rs: rs[_k(rs)].pop("times", None) if rs[_k(rs)]["event"] == "move" else
     next(r for r in rs if r["event"] == "move").pop("times"), "planned time"),
])
def test_checker_catches_broken_logs(mutate, message):
    scenario = load_scenario(SCENARIOS / "open_ground_advance.yaml")
    battle = Battle(scenario, 1).run()
    records = copy.deepcopy(battle.log.records)
    check(scenario, records)
    mutate(records)
    with pytest.raises(InvariantError, match=message):
        check(scenario, records)


def _k(records):
    """The index of the third record after the placements (the first phases' records)."""
    return next(i for i, r in enumerate(records) if r["phase"] != "setup") + 2


def _first(records, rule):
    return next(r for r in records if r.get("rule") == rule)


def test_checker_catches_an_illegal_sniper_transition():
    import copy

    scenario = load_scenario(SCENARIOS / "crossing_sniper.yaml")
    battle = next(b for b in (Battle(scenario, s).run() for s in range(1, 30))
                  if any(r["event"] == "to_reserve" for r in b.log.records))
    records = copy.deepcopy(battle.log.records)
    check(scenario, records)
    rec = next(r for r in records if r["event"] == "to_reserve")
    rec["state"] = "withdrawn"     # FOW has no withdrawal: logged under the wrong name
    with pytest.raises(InvariantError, match="to_reserve"):
        check(scenario, records)


def test_roll_table_lists_the_untested_dice():
    assert set(DICE_WITHOUT_TEST) == {"H17.2a", "TOO.DAMAGE"}
