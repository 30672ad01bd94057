"""`sim study` and `sim demo` end to end: JSON contract, CSV, plots, exit codes, and a
study killed by SIGKILL that resumes with nothing lost and nothing duplicated."""
from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from sim.cli import main
from sim.replication import run_battle
from sim.study.plan.study_file import load_study

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "open_ground_advance.yaml"
PNG = b"\x89PNG\r\n\x1a\n"

STUDY = """\
study: cli
scenario: open_ground_advance.yaml
seed: 5
replications: {n}
baseline: sf
variants:
  sf: {{}}
  zoc: {{rules.snapfire.reaction: zoc}}
metrics: [attacker_won, end_time, sf_halts]
"""


def study_file(tmp_path, n=12, extra=""):
    shutil.copy(SCENARIO, tmp_path / SCENARIO.name)
    path = tmp_path / "study.yaml"
    path.write_text(STUDY.format(n=n) + extra)
    return path


def test_json_is_exactly_the_contract_object(tmp_path, capsys):
    path = study_file(tmp_path)
    assert main(["study", str(path), "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"study", "variants", "differences"} and out["study"] == "cli"
    assert list(out["variants"]) == ["sf", "zoc"] and list(out["differences"]) == ["zoc - sf"]
    for per in [*out["variants"].values(), *out["differences"].values()]:
        assert list(per) == ["attacker_won", "end_time", "sf_halts"]
        for e in per.values():
            assert set(e) == {"mean", "ci_low", "ci_high", "n", "method"} and e["n"] == 12
            assert e["ci_low"] <= e["mean"] <= e["ci_high"]
    # 0 in every replication: labelled, not an interval of width 0 passed off as certain
    assert out["variants"]["zoc"]["sf_halts"] == {"mean": 0.0, "ci_low": 0.0, "ci_high": 0.0, "n": 12,
                                                  "method": "constant"}
    won = out["variants"]["sf"]["attacker_won"]
    assert 0 <= won["ci_low"] and won["ci_high"] <= 1 and won["method"] == "wilson"  # Wilson, not t
    diff = out["differences"]["zoc - sf"]["attacker_won"]
    assert diff["method"] == "newcombe-paired" and -1 <= diff["ci_low"] <= diff["ci_high"] <= 1


def test_table_csv_plots_and_factor_cells(tmp_path, capsys):
    path = study_file(tmp_path, n=6, extra="factors: {vary: {rules.snapfire.radius: [5, 10]}}\n")
    out_csv, plots = tmp_path / "r.csv", tmp_path / "plots"
    assert main(["study", str(path), "--csv", str(out_csv), "--plot", str(plots)]) == 0
    text = capsys.readouterr().out
    assert "zoc@radius=5 - sf@radius=5" in text and "95% CI" in text and "(Wilson)" in text
    with open(out_csv) as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 4 * 6
    assert [r["cell"] for r in rows[:7]] == ["sf@radius=5"] * 6 + ["sf@radius=10"]
    study = load_study(path)
    first = rows[0]
    metrics = run_battle(study.cells[0].scenario, int(first["seed"])).metrics
    assert float(first["metric:end_time"]) == metrics["end_time"]  # the row is that battle
    assert first["rules.snapfire.radius"] == "5" and first["status"] == "ok"
    names = sorted(p.name for p in plots.iterdir())
    assert names == ["differences.png", "means.png", "response_rules_snapfire_radius.png"]
    assert all((plots / n).read_bytes().startswith(PNG) for n in names)


def test_a_factor_and_a_metric_of_one_name_are_two_columns(tmp_path, capsys):
    # Issue 22, item 1: the metric `turns` took over the column of the factor `turns`.
    path = study_file(tmp_path, n=2, extra="factors: {vary: {turns: [4, 16]}}\n")
    text = path.read_text().replace("metrics: [attacker_won, end_time, sf_halts]",
                                    "metrics: [turns, attacker_won]")
    path.write_text(text)
    out_csv, db, out = tmp_path / "r.csv", tmp_path / "r.db", tmp_path / "analysis"
    assert main(["study", str(path), "--csv", str(out_csv), "--db", str(db), "--quiet"]) == 0
    with open(out_csv) as fh:
        header = next(csv.reader(fh))
        fh.seek(0)
        rows = list(csv.DictReader(fh))
    assert header.count("turns") == 1 and header.count("metric:turns") == 1
    study = load_study(path)
    for row in rows:
        cell = next(c for c in study.cells if c.label == row["cell"])
        assert row["turns"] == str(dict(cell.point)["turns"])   # the factor's value
        played = run_battle(cell.scenario, int(row["seed"])).metrics["turns"]
        assert float(row["metric:turns"]) == played                 # the metric's
    assert any(float(r["metric:turns"]) != float(r["turns"]) for r in rows)
    capsys.readouterr()
    assert main(["analyse", str(path), "--db", str(db), "--out", str(out)]) == 0
    assert "metric:turns (sf, 2 points)" in capsys.readouterr().out
    with open(out / "responses.csv") as fh:
        header = next(csv.reader(fh))
        fh.seek(0)
        responses = list(csv.DictReader(fh))
    assert header.count("turns") == 1 and header.count("metric:turns") == 1
    assert sorted(r["turns"] for r in responses if r["variant"] == "sf") == ["16", "4"]


def test_bad_input_exits_2_with_one_line(tmp_path, capsys):
    path = study_file(tmp_path)
    db = tmp_path / "r.db"
    assert main(["study", str(path), "--db", str(db), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["study", str(path), "--db", str(db), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--resume" in err[0] and str(db) in err[0]
    assert main(["study", str(path), "--resume", "--quiet"]) == 2
    assert "--resume needs --db" in capsys.readouterr().err
    assert main(["study", str(path), "--executor", "serial", "--address", "tcp://127.0.0.1:1"]) == 2
    assert main(["study", str(path), "--precision", "-1"]) == 2
    (tmp_path / "junk.db").write_text("not a database " * 100)
    assert main(["study", str(path), "--db", str(tmp_path / "junk.db"), "--quiet"]) == 2
    assert "junk.db" in capsys.readouterr().err


def _rows(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as conn:
            return conn.execute("SELECT COUNT(*) FROM replications").fetchone()[0]
    except sqlite3.OperationalError:  # not created yet
        return 0


def test_sigkill_mid_study_then_resume_loses_and_duplicates_nothing(tmp_path):
    n = 1000
    path = study_file(tmp_path, n=n)
    db = tmp_path / "r.db"
    cmd = [sys.executable, "-m", "sim", "study", str(path), "--db", str(db), "--workers", "2",
           "--executor", "processes", "--task-size", "10", "--quiet", "--json"]
    # A session of its own, so the kill also reaches the pool's worker processes.
    child = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while _rows(db) < 200 and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert child.poll() is None, "the study finished before it could be killed"
        os.killpg(child.pid, signal.SIGKILL)
        child.wait(10)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait(10)
    assert child.returncode == -signal.SIGKILL
    stored = _rows(db)
    assert 200 <= stored < 2 * n
    done = subprocess.run(cmd + ["--resume"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert {v["end_time"]["n"] for v in result["variants"].values()} == {n}
    with sqlite3.connect(db) as conn:
        total, distinct = conn.execute(
            "SELECT COUNT(*), COUNT(DISTINCT variant || '/' || point || '/' || rep) "
            "FROM replications").fetchone()
        reps = conn.execute("SELECT variant, MIN(rep), MAX(rep), COUNT(*) FROM replications "
                            "GROUP BY variant ORDER BY variant").fetchall()
        sample = conn.execute("SELECT variant, seed, metrics FROM replications "
                              "ORDER BY (rep * 7919) % 997 LIMIT 8").fetchall()
        fails = conn.execute("SELECT COUNT(*) FROM failures").fetchone()[0]
    assert (total, distinct, fails) == (2 * n, 2 * n, 0)
    assert reps == [("sf", 0, n - 1, n), ("zoc", 0, n - 1, n)]
    study = load_study(path)
    cells = {c.variant: c for c in study.cells}
    for variant, seed, metrics in sample:  # stored rows are the battles they claim to be
        assert json.loads(metrics) == run_battle(cells[variant].scenario, seed).metrics


def test_demo_fast_runs_prints_its_meaning_and_writes_plots(tmp_path, capsys):
    out = tmp_path / "demo"
    assert main(["demo", "--fast", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "zoc - snap_fire" in text and "The headline reads attacker_won" in text
    assert "n = 12 pairs on common random numbers" in " ".join(text.split())
    assert sorted(p.name for p in out.iterdir()) == ["differences.png", "means.png"]


def test_precision_from_the_file_and_from_the_command_line(tmp_path, capsys):
    path = study_file(tmp_path, n=1).read_text().replace(
        "replications: 1", "precision: {half_width: 0.6, batch: 10, max_replications: 80, "
        "metrics: [sf_halts]}")
    (tmp_path / "p.yaml").write_text(path)
    assert main(["study", str(tmp_path / "p.yaml"), "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    n = out["variants"]["sf"]["sf_halts"]["n"]
    # Whole batches of 10, and it stops at the target or at the cap. (That it stops at the
    # *first* batch meeting the target is test_study_run's precision test.)
    assert n % 10 == 0 and 10 <= n <= 80
    assert n == 80 or all((v["sf_halts"]["ci_high"] - v["sf_halts"]["ci_low"]) / 2 <= 0.6
                          for v in [*out["variants"].values(), *out["differences"].values()])
    assert main(["study", str(tmp_path / "p.yaml"), "--json", "--quiet", "--precision", "1e-9",
                 "--replications", "30"]) == 0
    capped = json.loads(capsys.readouterr().out)
    assert capped["variants"]["sf"]["sf_halts"]["n"] == 30  # --replications caps --precision


def test_packaged_demo_files_are_copies_of_the_shipped_ones():
    # `sim demo` reads sim/data/ so it works from an installed package; keep it in step.
    from sim.cli.demo import demo_study_path

    assert Path(demo_study_path()) == ROOT / "sim" / "data" / "snapfire_vs_zoc.yaml"
    for name in ("snapfire_vs_zoc.yaml", "open_ground_advance.yaml"):
        assert (ROOT / "sim" / "data" / name).read_bytes() == (ROOT / "scenarios" / name).read_bytes()
