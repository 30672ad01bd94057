"""The command line contract (DESIGN.md): exit codes, one-line errors, --json, rules."""
from __future__ import annotations

import json
import subprocess

import pytest

from conftest import PY, ROOT, SCENARIOS
from sim.cli import main
from test_scenario_load import BAD

OPEN = str(SCENARIOS / "open_ground_advance.yaml")
MARCH = str(SCENARIOS / "march_column.yaml")


def _one_error_line(capsys, argv):
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 2, (argv, out, err)
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1, err
    assert "Traceback" not in err and lines[0].startswith("sim: error: ")
    return lines[0]


@pytest.mark.parametrize("case", sorted(BAD))
@pytest.mark.parametrize("command", ["validate", "run"])
def test_bad_scenario_exits_2_with_one_line(tmp_path, capsys, case, command):
    data, parts = BAD[case]
    path = tmp_path / f"{case}.yaml"
    path.write_bytes(data)
    line = _one_error_line(capsys, [command, str(path)])
    assert str(path) in line
    for part in parts:
        assert part in line


def test_missing_file_and_directory(tmp_path, capsys):
    line = _one_error_line(capsys, ["run", str(tmp_path / "missing.yaml")])
    assert "missing.yaml" in line and "no such file" in line
    line = _one_error_line(capsys, ["validate", str(tmp_path)])
    assert str(tmp_path) in line and "directory" in line


@pytest.mark.parametrize("arg, parts", [
    ("rules.snapfire.radiuss=3", ["--set", "rules.snapfire.radiuss", "unknown key"]),
    ("rules.snapfire.radius=abc", ["--set", "rules.snapfire.radius", "number"]),
    ("rules.snapfire.radius=-1", ["--set", "rules.snapfire.radius", "greater than 0"]),
    ("rules.snapfire.reaction=ambush", ["--set", "rules.snapfire.reaction"]),
    ("rules.snapfire.radius", ["--set", "KEY=VALUE"]),
    ("=3", ["--set"]),
])
def test_bad_set_exits_2(capsys, arg, parts):
    line = _one_error_line(capsys, ["run", OPEN, "--set", arg])
    for part in parts:
        assert part in line


@pytest.mark.parametrize("seed", ["x", "-1", "1.5", str(2**63)])
def test_bad_seed_exits_2(capsys, seed):
    line = _one_error_line(capsys, ["run", OPEN, "--seed", seed])
    assert "--seed" in line


def test_bad_command_and_options_exit_2(capsys):
    _one_error_line(capsys, ["frobnicate"])
    _one_error_line(capsys, ["run", OPEN, "--bogus"])
    _one_error_line(capsys, ["run"])


def test_validate_shipped_scenarios_exit_0(capsys):
    assert main(["validate", OPEN, MARCH]) == 0
    out = capsys.readouterr().out
    assert "open_ground_advance.yaml: valid scenario" in out and "march_column.yaml: valid scenario" in out


def test_rules_lists_sf_halt_and_where(capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    i = next(k for k, l in enumerate(lines) if l.startswith("SF.HALT "))
    assert "sim.systems.snapfire" in lines[i + 1]
    for rid in ("SF.TRIGGER", "SF.ROLL", "SF.ONCE", "SF.AFTER", "SF.INSIDE", "SF.NOASSAULT",
                "SF.MARCH", "SF.ZOC", "BASE.S.HIT"):
        assert any(l.startswith(rid + " ") for l in lines), rid
    assert main(["rules", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    sf = {r["id"]: r for r in rows if r["id"].startswith("SF.")}
    assert all(any(w.startswith("sim.systems.snapfire") for w in r["where"]) for r in sf.values())


def test_run_json_prints_one_object_of_numbers(capsys):
    assert main(["run", OPEN, "--seed", "3", "--json"]) == 0
    out = capsys.readouterr().out.strip()
    assert "\n" not in out
    obj = json.loads(out)
    assert set(obj) == {"scenario", "seed", "metrics"}
    assert obj["scenario"] == "open_ground_advance" and obj["seed"] == 3
    assert obj["metrics"] and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                  for v in obj["metrics"].values())
    assert obj["metrics"]["sf_halts"] >= 1


def test_run_set_changes_the_rules(capsys):
    # march_column's column passes 8 cm from a1: a 9 cm zone of control stops it.
    assert main(["run", MARCH, "--seed", "1", "--json", "--set", "rules.snapfire.reaction=zoc",
                 "--set", "rules.snapfire.zoc_radius=9"]) == 0
    m = json.loads(capsys.readouterr().out)["metrics"]
    assert m["sf_halts"] == 0 and m["sf_rolls"] == 0 and m["zoc_halts"] >= 1


def test_run_summary_and_log(tmp_path, capsys):
    log = tmp_path / "x.jsonl"
    assert main(["run", OPEN, "--seed", "1", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "open_ground_advance" in out
    recs = [json.loads(l) for l in log.read_text().splitlines()]
    assert recs and any(r["rule"] == "SF.HALT" for r in recs)


def test_unwritable_log_exits_2(tmp_path, capsys):
    line = _one_error_line(capsys, ["run", OPEN, "--log", str(tmp_path / "no" / "dir" / "x.jsonl")])
    assert "x.jsonl" in line


def test_subprocess_bad_input_has_no_traceback(tmp_path):
    """Through the real entry point: exit 2, one stderr line, no traceback."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nturns: [1,\n")
    p = subprocess.run([PY, "-m", "sim", "run", str(bad), "--set", "turns=3"], capture_output=True,
                       text=True, cwd=ROOT)
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr
    assert "bad.yaml" in p.stderr and "line " in p.stderr


def test_subprocess_run_json():
    p = subprocess.run([PY, "-m", "sim", "run", MARCH, "--seed", "2", "--json"], capture_output=True,
                       text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    obj = json.loads(p.stdout)
    assert obj["scenario"] == "march_column" and obj["seed"] == 2


def test_run_on_a_study_file_says_it_is_one(capsys):
    study = ROOT / "scenarios" / "snapfire_vs_zoc.yaml"
    assert main(["run", str(study)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err == (f"sim: error: {study}: line 6, key study: is a study file, not a scenario "
                   f"(run it with: sim study {study})\n")
