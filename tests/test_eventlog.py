"""The event log contract (DESIGN.md): fields, roll records, JSON Lines, DataFrame."""
from __future__ import annotations

import functools
import json

import pytest

from conftest import SCENARIOS, run
from sim.engine.log import CONTRACT_KEYS, EventLog
from sim.scenario.load import load_scenario


@functools.cache
def battles():
    out = []
    for name in ("open_ground_advance.yaml", "march_column.yaml"):
        sc = load_scenario(SCENARIOS / name)
        for seed in (1, 2, 5):
            out.append(run(sc, seed))
    zoc = load_scenario(SCENARIOS / "open_ground_advance.yaml")
    from sim.scenario.load import apply_overrides

    out.append(run(apply_overrides(zoc, {"rules.snapfire.reaction": "zoc"}), 1))
    return out


def all_records():
    return [r for b in battles() for r in b.log]


def test_every_record_has_the_contract_fields():
    for b in battles():
        last = -1.0
        sides = set(b.scenario.sides)
        for r in b.log:
            assert list(r)[:6] == list(CONTRACT_KEYS)
            assert isinstance(r["t"], float) and r["t"] >= last
            last = r["t"]
            assert isinstance(r["turn"], int) and not isinstance(r["turn"], bool) and r["turn"] >= 1
            assert r["side"] in sides
            assert r["phase"] in ("movement", "shooting", "assault") or (
                r["phase"] == "setup" and r["event"] == "place" and r["t"] == 0.0)
            assert isinstance(r["event"], str) and r["event"]
            assert r["rule"] is None or isinstance(r["rule"], str)


def test_positions_are_pairs_and_units_exist():
    for b in battles():
        for r in b.log:
            if "pos" in r:
                assert len(r["pos"]) == 2 and all(isinstance(v, float) for v in r["pos"])
            for key in ("unit", "target"):
                if r.get(key) is not None:
                    assert r[key] in b.units


def test_rule_ids_are_catalogue_ids():
    from sim.catalogue import TITLES

    assert {r["rule"] for r in all_records()} - {None} <= set(TITLES)


def test_sf_halt_records_carry_firer_and_geometry():
    """SF.HALT: `halt` records with firer, firer_pos, dist and radius; dist = radius
    (1e-6) unless the unit was already inside (SF.INSIDE)."""
    halts = [r for r in all_records() if r["rule"] == "SF.HALT"]
    assert halts
    for h in halts:
        assert h["event"] == "halt"
        for key in ("unit", "pos", "firer", "firer_pos", "dist", "radius"):
            assert key in h
        if not h.get("inside"):
            assert abs(h["dist"] - h["radius"]) <= 1e-6
            d = ((h["pos"][0] - h["firer_pos"][0]) ** 2 + (h["pos"][1] - h["firer_pos"][1]) ** 2) ** 0.5
            assert abs(d - h["radius"]) <= 1e-6
        else:
            assert h["dist"] <= h["radius"]


def test_every_roll_record_is_consistent_with_its_catalogue_test():
    """SF.ROLL: success == dice[-1] >= need; BASE.S.SHOOT: dice + mods >= need;
    BASE.S.ASSAULT: dice >= need. Every record with dice has mods/need/success."""
    tests = {
        "SF.ROLL": lambda r: r["dice"][-1] >= r["need"],
        "BASE.S.SHOOT": lambda r: sum(r["dice"]) + r["mods"] >= r["need"],
        "BASE.S.ASSAULT": lambda r: sum(r["dice"]) >= r["need"],
    }
    seen = set()
    for r in all_records():
        if "dice" not in r:
            continue
        assert isinstance(r["dice"], list) and all(isinstance(d, int) for d in r["dice"])
        assert all(1 <= d <= 6 for d in r["dice"])
        assert isinstance(r["mods"], int) and isinstance(r["need"], int)
        assert isinstance(r["success"], bool)
        assert r["rule"] in tests, r
        assert r["success"] == tests[r["rule"]](r), r
        if r["rule"] != "SF.ROLL":
            assert len(r["dice"]) == 1
        seen.add(r["rule"])
    assert seen == set(tests)


def test_lifecycle_event_names():
    from sim.engine.log import LIFECYCLE_EVENTS

    events = {r["event"] for r in all_records()}
    assert {"move", "halt", "hit", "eliminate"} <= events
    assert LIFECYCLE_EVENTS >= {"move", "halt", "arrive", "eliminate", "hit"}
    for r in all_records():
        if r["event"] in ("move", "halt", "arrive", "eliminate"):
            assert "unit" in r and "pos" in r and "node" in r


def test_jsonl_is_valid_and_round_trips(tmp_path):
    b = battles()[0]
    path = tmp_path / "log.jsonl"
    b.log.to_jsonl(path)
    raw = path.read_bytes()
    assert raw.endswith(b"\n") and b"\r" not in raw
    lines = raw.decode("utf-8").splitlines()
    assert len(lines) == len(b.log)
    parsed = [json.loads(line) for line in lines]
    for rec, line in zip(parsed, lines):
        assert list(rec)[:6] == list(CONTRACT_KEYS)
        assert isinstance(rec["t"], float)       # written as 0.0, not 0
        assert "NaN" not in line and "Infinity" not in line
    back = EventLog.read_jsonl(path)
    assert back.records == parsed
    assert [r["t"] for r in parsed] == pytest.approx([r["t"] for r in b.log], abs=1e-9)


def test_to_frame_is_a_dataframe():
    import pandas as pd

    b = battles()[0]
    df = b.log.to_frame()
    assert isinstance(df, pd.DataFrame) and len(df) == len(b.log)
    assert list(df.columns[:6]) == list(CONTRACT_KEYS)
    assert (df["t"].diff().dropna() >= 0).all()
    assert (df.loc[df.rule == "SF.HALT", "event"] == "halt").all()


def test_log_refuses_time_going_back():
    log = EventLog()
    log.append({"t": 1.0, "turn": 1, "side": "a", "phase": "movement", "event": "x", "rule": None})
    with pytest.raises(RuntimeError):
        log.append({"t": 0.5, "turn": 1, "side": "a", "phase": "movement", "event": "x", "rule": None})


def test_where_filters():
    b = battles()[0]
    halts = b.log.where(rule="SF.HALT")
    assert halts and all(r["rule"] == "SF.HALT" for r in halts)
    assert len(b.log.where(rule="SF.HALT", event="halt")) == len(halts)


def test_end_is_the_last_record():
    """Nothing is logged after the battle's `end` (e.g. other chargers' contact at the
    same instant the last defender falls)."""
    from sim.scenario.load import load_scenario

    sc = load_scenario(SCENARIOS / "open_ground_advance.yaml")
    for seed in (3, 4, 7):     # seeds where the battle ends mid-assault
        b = run(sc, seed)
        assert [r["event"] for r in b.log].count("end") == 1
        assert b.log.records[-1]["event"] == "end"


def test_spelled_out_move_and_stop_records_equal_the_general_ones():
    """record_move / record_stop (the hot path's literals) write exactly what
    record("move", ...) / record("stop", ...) would: same keys, same order, same values."""
    from sim.engine.battle import Battle

    b = Battle(load_scenario(SCENARIOS / "open_ground_advance.yaml"), 1)
    u = next(iter(b.units.values()))
    b.record_move(u, 2, [(1.0, 2.0)], [0.5])
    b.record("move", unit=u.id, pos=u.pos, node=u.node, move=2, waypoints=[(1.0, 2.0)], times=[0.5])
    b.record_stop(u)
    b.record("stop", unit=u.id, pos=u.pos, node=u.node, reason="allowance")
    fast_move, slow_move, fast_stop, slow_stop = b.log.records
    assert list(fast_move.items()) == list(slow_move.items())
    assert list(fast_stop.items()) == list(slow_stop.items())
