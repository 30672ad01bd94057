"""Running studies on the real engine: executors agree to the last digit, the store
resumes without loss or duplicates, failures are recorded, precision stops correctly."""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from sim.errors import InputError
from sim.replication import run_battle
from sim.study.analysis.stats import summarize
from sim.study.plan.study_file import load_study
from sim.study.reports.summary import as_json
from sim.study.run.executors import DaskExecutor, ProcessExecutor, SerialExecutor, run_task, task_size
from sim.study.run.runner import PrecisionTarget, run_study
from sim.study.run.store import ResultStore

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "open_ground_advance.yaml"

GRID = """\
study: grid
scenario: open_ground_advance.yaml
seed: 11
replications: 30
baseline: sf
variants:
  sf: {}
  zoc: {rules.snapfire.reaction: zoc}
factors:
  vary: {rules.snapfire.radius: [6, 12]}
metrics: [attacker_won, end_time, attacker_steps_lost, sf_halts]
"""


def flaky_battle(scenario, seed):
    """The real battle, except that every seed divisible by 5 raises."""
    if seed % 5 == 0:
        raise RuntimeError(f"boom at {seed}")
    return run_battle(scenario, seed)


@pytest.fixture
def grid(tmp_path):
    shutil.copy(SCENARIO, tmp_path / SCENARIO.name)
    (tmp_path / "grid.yaml").write_text(GRID)
    return load_study(tmp_path / "grid.yaml")


def test_serial_processes_and_dask_agree_to_the_last_digit(grid):
    runs = {}
    for name, ex, size in [("serial", SerialExecutor(), None), ("processes", ProcessExecutor(2), 4),
                           ("dask", DaskExecutor(2), 7)]:
        with ex:
            runs[name] = run_study(grid, executor=ex, per_task=size)
    ref = runs["serial"]
    assert ref.ran == 4 * 30 and not ref.failures
    for name in ("processes", "dask"):
        other = runs[name]
        # Same outcomes, same stored bytes, same statistics: exact equality, no tolerance.
        assert {k: (r.seed, json.dumps(r.metrics, sort_keys=True)) for k, r in other.records.items()} \
            == {k: (r.seed, json.dumps(r.metrics, sort_keys=True)) for k, r in ref.records.items()}
        assert json.dumps(as_json(other)) == json.dumps(as_json(ref)), name
    # The grid really varies something: snap fire at radius 12 halts more than at 6.
    cells = as_json(ref)["variants"]
    assert cells["sf@radius=12"]["sf_halts"]["mean"] > cells["sf@radius=6"]["sf_halts"]["mean"]
    assert cells["zoc@radius=6"]["sf_halts"]["mean"] == 0


def test_crn_pairs_share_seeds_and_no_crn_does_not(grid, tmp_path):
    with ResultStore(tmp_path / "r.db") as store:
        run_study(grid, replications=5, store=store)
        run_study(grid, replications=5, store=store, crn=False)
        rows = store.conn.execute(
            "SELECT r.study_hash, COUNT(DISTINCT seed) FROM replications r GROUP BY study_hash").fetchall()
    by_hash = dict(rows)
    assert sorted(by_hash.values()) == [5, 20]  # CRN: 5 seeds for 4 cells; no CRN: 20


def test_crn_makes_a_null_variant_differ_by_exactly_zero(tmp_path):
    # 'same' sets the radius to the value the scenario already has: the same battles.
    shutil.copy(SCENARIO, tmp_path / SCENARIO.name)
    (tmp_path / "null.yaml").write_text(GRID.split("variants:")[0] + """variants:
  sf: {}
  same: {rules.snapfire.radius: 10}
metrics: [end_time, attacker_steps_lost]
""")
    study = load_study(tmp_path / "null.yaml")
    crn = run_study(study, replications=15).summary.differences["same - sf"]
    ind = run_study(study, replications=15, crn=False).summary.differences["same - sf"]
    for m in ("end_time", "attacker_steps_lost"):
        assert (crn[m].mean, crn[m].ci_low, crn[m].ci_high, crn[m].method) == (0.0, 0.0, 0.0, "constant")
        assert ind[m].half_width > 0
    assert ind["end_time"].mean != 0.0


def test_store_refuses_a_second_run_then_resumes_to_the_same_result(grid, tmp_path):
    db = tmp_path / "r.db"
    with ResultStore(db) as store:
        first = run_study(grid, replications=10, store=store)
        assert first.ran == 40 and store.counts(first.study_hash) == (40, 0)
        with pytest.raises(InputError, match="--resume") as info:
            run_study(grid, replications=10, store=store)
        assert info.value.file == str(db)
        more = run_study(grid, replications=25, store=store, resume=True)
        assert (more.resumed, more.ran) == (40, 60)
        assert store.counts(first.study_hash) == (100, 0)
        config = store.config(first.study_hash)
    fresh = run_study(grid, replications=25)
    assert json.dumps(as_json(more)) == json.dumps(as_json(fresh))
    assert config["scenario"]["name"] == "open_ground_advance"
    assert [c["label"] for c in config["cells"]][:2] == ["sf@radius=6", "sf@radius=12"]
    assert config["study"]["seed"] == 11 and config["version"]


def test_rerun_batch_is_not_duplicated(grid, tmp_path):
    with ResultStore(tmp_path / "r.db") as store:
        run = run_study(grid, replications=3, store=store)
        batch = [run.records[k] for k in sorted(run.records)]
        store.add(run.study_hash, batch)  # the same batch arriving twice
        assert store.counts(run.study_hash) == (12, 0)
        with pytest.raises(sqlite3.IntegrityError):
            store.conn.execute("INSERT INTO replications SELECT * FROM replications LIMIT 1")


def test_failing_replications_are_recorded_and_left_out(grid, tmp_path):
    with ResultStore(tmp_path / "r.db") as store:
        run = run_study(grid, replications=20, store=store, battle=f"{__name__}:flaky_battle")
        bad = [r for r in run.records.values() if r.seed % 5 == 0]
        assert bad and len(run.failures) == len(bad)
        assert all("RuntimeError: boom" in f.error and "flaky_battle" in f.traceback
                   for f in run.failures)
        assert store.counts(run.study_hash) == (80 - len(bad), len(bad))
        good_reps = sorted({r.rep for r in run.records.values() if r.seed % 5})
        n = run.summary.cells["sf@radius=6"]["end_time"].n
        assert n == len(good_reps)  # CRN: a failing seed fails in every cell
        again = run_study(grid, replications=20, store=store, resume=True,
                          battle=f"{__name__}:flaky_battle")
        assert again.ran == 0  # failures count as done: a deterministic battle fails again


def test_precision_rule_stops_at_the_first_batch_that_meets_the_target(grid):
    probe = run_study(grid, replications=20)
    target = 0.6 * max(e.half_width for e in probe.summary.intervals(["end_time"]))
    rule = PrecisionTarget(target, max_replications=400, batch=20, metrics=("end_time",))
    run = run_study(grid, precision=rule)
    n = run.replications
    assert run.stop == "precision" and n % 20 == 0 and 20 < n < 400
    assert run.ran == 4 * n  # nothing past n was run
    assert run.summary.precise(target, ["end_time"])
    before = summarize(grid.cells, grid.baseline, run.rows(), run.metrics, run.kinds, reps=n - 20)
    assert not before.precise(target, ["end_time"])
    capped = run_study(grid, precision=PrecisionTarget(1e-6, max_replications=30, batch=20))
    assert capped.stop == "cap" and capped.replications == 30 and capped.ran == 4 * 30


def test_resume_of_an_edited_study_says_nothing_was_reused(grid, tmp_path):
    (tmp_path / "edited.yaml").write_text(GRID.replace("seed: 11", "seed: 12"))
    edited = load_study(tmp_path / "edited.yaml")
    with ResultStore(tmp_path / "r.db") as store:
        first = run_study(grid, replications=2, store=store)
        same = run_study(grid, replications=2, store=store, resume=True)
        other = run_study(edited, replications=2, store=store, resume=True)
    assert (same.resumed, same.ran, same.notes) == (8, 0, [])
    assert (other.resumed, other.ran) == (0, 8)
    assert len(other.notes) == 1 and first.study_hash in other.notes[0]


class _Recording(SerialExecutor):
    """A serial executor that notes each task's size (and may claim a larger cap)."""

    def __init__(self, workers=1, most=None):
        super().__init__()
        self.workers = workers
        if most is not None:
            self.most_per_task = most
        self.sizes = []

    def run(self, tasks):
        for task in tasks:
            self.sizes.append(len(task.jobs))
            yield run_task(task)


def test_task_size_bounds():
    assert task_size(2000, 2) == 50 and task_size(2000, 2, 250) == 167
    assert task_size(12, 2) == 5 and task_size(3, 1) == 5 and task_size(100_000, 2, 250) == 250


def test_tasks_are_cut_to_the_executors_cap(grid):
    """A process pool's tasks hold at most 50 replications; Dask's (fewer, larger, as each
    costs its scheduler more) up to 250; the results are the same either way."""
    assert DaskExecutor.most_per_task == 250
    small, large = _Recording(workers=1), _Recording(workers=1, most=250)
    a = run_study(grid, executor=small, replications=400)
    b = run_study(grid, executor=large, replications=400)
    assert max(small.sizes) == 50 and max(large.sizes) == 250   # 1600 / 6 = 267, capped
    assert sum(small.sizes) == sum(large.sizes) == 1600
    assert json.dumps(as_json(a)) == json.dumps(as_json(b))
