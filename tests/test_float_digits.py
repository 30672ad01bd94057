"""``benchmarks/float_digits.py``, the proof that the logs at full precision differ from the
old ones only in float digits: it passes a battle's log against the same log rounded as
the old writer did, and fails on any other difference."""
from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from conftest import ROOT, SCENARIOS, benchmark
from sim.replication import run_battle
from sim.scenario.load import load_scenario

SEEDS = (1, 2, 3)


FD = benchmark("float_digits")


def _rounded(value):
    """A record's value as the old writer held it: floats to 9 decimals, tuples as lists."""
    if isinstance(value, float):
        r = round(value, 9) if math.isfinite(value) else None
        return 0.0 if r == 0 else r
    if isinstance(value, (list, tuple)):
        return [_rounded(v) for v in value]
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    return value


@pytest.fixture(scope="module")
def logs():
    """(old text, new text) of kill_zone_run at a few seeds: the old one rounded from the records."""
    sc = load_scenario(SCENARIOS / "kill_zone_run.yaml")
    out = []
    for seed in SEEDS:
        log = run_battle(sc, seed).log
        old = "".join(json.dumps(_rounded(r), separators=(",", ":"), ensure_ascii=False) + "\n"
                      for r in log.records)
        out.append((old, log.text().decode()))
    return out


def test_a_log_and_its_old_rounding_differ_only_in_float_digits(logs):
    for old, new in logs:
        assert old != new
        tally = FD.compare_logs(old, new)
        assert tally.problems == []
        assert tally.lines == new.count("\n") and tally.changed > 0 and tally.floats > tally.changed


def _edit(text, number, change):
    """``text`` with the record of line ``number`` (from 0) changed by ``change``, as the old writer writes it."""
    lines = text.split("\n")
    lines[number] = json.dumps(change(json.loads(lines[number])), separators=(",", ":"), ensure_ascii=False)
    return "\n".join(lines)


@pytest.mark.parametrize("what, change", [
    ("a string", lambda r: {**r, "event": r["event"] + "x"}),
    ("an int for a float", lambda r: {**r, "t": int(r["t"])}),
    ("a whole number", lambda r: {**r, "turn": r["turn"] + 1}),
    ("a null for a float", lambda r: {**r, "t": None}),
    ("the key order", lambda r: {"side": r["side"], **r}),
    ("a key more", lambda r: {**r, "extra": 1}),
    ("a float beyond rounding", lambda r: {**r, "t": r["t"] + 1e-8}),
])
def test_any_other_difference_fails(logs, what, change):
    before, after = logs[0]
    assert FD.compare_logs(_edit(before, 1, change), after).problems, what
    assert FD.compare_logs(before, _edit(after, 1, change)).problems, what


def test_a_line_more_or_less_fails(logs):
    before, after = logs[0]
    n = before.count("\n")
    assert FD.compare_logs(before, after + "{}\n").problems == [f"{n} lines against {n + 1}"]
    assert FD.compare_logs(before, after.split("\n", 1)[1]).problems


def test_the_old_line_must_be_the_old_writers_text(logs):
    before, after = logs[0]
    spaced = before.replace('"turn":1,', '"turn": 1,', 1)
    assert FD.compare_logs(spaced, after).problems == [
        "line 1: the old line is not the old writer's text of the new record"]


def test_the_new_line_must_be_the_new_writers_text(logs):
    before, after = logs[0]
    padded = after.replace('"t":0.0,', '"t":0.00,', 1)
    assert FD.compare_logs(before, padded).problems == [
        "line 1: the new line is not the new writer's text of its record"]


def test_the_script_exits_0_on_float_digits_1_on_another_difference_2_on_a_bad_folder(logs, tmp_path):
    old_dir, new_dir = tmp_path / "old", tmp_path / "new"
    old_dir.mkdir()
    new_dir.mkdir()
    for seed, (old, new) in zip(SEEDS, logs):
        (old_dir / f"k.s{seed}.jsonl").write_text(old, encoding="utf-8")
        (new_dir / f"k.s{seed}.jsonl").write_text(new, encoding="utf-8")
    script = [sys.executable, str(ROOT / "benchmarks" / "float_digits.py")]
    out = subprocess.run([*script, str(old_dir), str(new_dir)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("3 logs: 3 differ only in float digits, 0 otherwise")
    (new_dir / "k.s2.jsonl").write_text(logs[1][1].replace('"turn":1,', '"turn":3,', 1), encoding="utf-8")
    out = subprocess.run([*script, str(old_dir), str(new_dir)], capture_output=True, text=True)
    assert out.returncode == 1 and "k.s2.jsonl: line 1: turn: 1 against 3" in out.stdout
    out = subprocess.run([*script, str(tmp_path / "nowhere"), str(new_dir)], capture_output=True, text=True)
    assert out.returncode == 2 and out.stdout == "" and len(out.stderr.splitlines()) == 1
    assert "nowhere: not a folder" in out.stderr
