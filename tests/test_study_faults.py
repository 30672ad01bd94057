"""Faults mid-study: a study SIGKILLed at several moments resumes with nothing lost or
doubled, a Dask worker killed mid-study has its tasks run again with identical results,
and a replication that raises is stored with its seed and traceback, counted, and
replayed by the ``sim run`` command the study prints.

(test_study_cli.py kills one study once, mid-way; here the kill points are chosen from
the row count in the store, with the whole process group stopped while it is read, so
the kill lands exactly where the test says and never after the study has finished.)
"""
from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

import sim.replication as battle
from sim.cli import main
from sim.cli.study import reproduce_command
from sim.study.plan.seeds import replication_seed
from sim.study.plan.study_file import load_study
from sim.study.reports.summary import as_json
from sim.study.run.executors import DaskExecutor, SerialExecutor, resolve
from sim.study.run.runner import run_study
from sim.study.run.store import ResultStore

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "open_ground_advance.yaml"
REAL_RUN_BATTLE = battle.run_battle

# Four cells: two variants (the non-baseline one first, so cell 0 has a string override)
# times two snap-fire radii. Cells are keyed (variant, point), so duplicates would show.
STUDY = """\
study: faults
scenario: open_ground_advance.yaml
seed: {seed}
replications: {n}
baseline: sf
variants:
  zoc: {{rules.snapfire.reaction: zoc}}
  sf: {{}}
factors:
  vary: {{rules.snapfire.radius: [6, 12]}}
metrics: [attacker_won, end_time, attacker_steps_lost, sf_halts, zoc_halts]
"""
CELLS = 4
N = 50  # replications per cell
TOTAL = CELLS * N
TASK = 5  # replications per task: a committed batch


def study_file(directory: Path, n: int = N, seed: int = 7) -> Path:
    shutil.copy(SCENARIO, directory / SCENARIO.name)
    path = directory / "faults.yaml"
    path.write_text(STUDY.format(seed=seed, n=n))
    return path


# --------------------------------------------------------------------------------------
# 1. SIGKILL at chosen moments, then --resume
# --------------------------------------------------------------------------------------

def _stored(db: Path) -> int | None:
    """Committed replications, or None while the store is not there yet (or locked)."""
    if not db.exists():  # never create it: that is the study's job
        return None
    try:
        with contextlib.closing(sqlite3.connect(db, timeout=0.5)) as conn:
            return conn.execute("SELECT COUNT(*) FROM replications").fetchone()[0]
    except sqlite3.OperationalError:  # no schema yet, or a lock held by a stopped writer
        return None


def _snapshot(db: Path) -> dict[tuple, tuple]:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return {(v, p, r): (s, m) for v, p, r, s, m in conn.execute(
            "SELECT variant, point, rep, seed, metrics FROM replications")}


def _kill_when(child: subprocess.Popen, db: Path, ready, timeout: float = 60) -> int:
    """SIGKILL the study's whole process group as soon as ``ready(stored rows)``.

    Each poll stops the group (SIGSTOP), reads the store and then kills or resumes it
    (SIGCONT), so the kill happens at exactly the state the test read, which may be in
    the middle of a battle or of a transaction, and never after the study finished.
    Returns the rows stored when it was killed.
    """
    deadline = time.monotonic() + timeout
    while True:
        os.killpg(child.pid, signal.SIGSTOP)
        stored = _stored(db)
        if child.poll() is not None:
            raise AssertionError(f"the study ended (exit {child.returncode}) before the kill "
                                 f"point; stored: {stored}")
        if stored is not None and ready(stored):
            os.killpg(child.pid, signal.SIGKILL)
            child.wait(10)
            return stored
        os.killpg(child.pid, signal.SIGCONT)
        if time.monotonic() > deadline:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait(10)
            raise AssertionError(f"kill point not reached in {timeout} s; stored: {stored}")
        time.sleep(0.005)


def _study_cmd(path: Path, db: Path, executor: str) -> list[str]:
    workers = ["--workers", "2"] if executor == "processes" else []
    return [sys.executable, "-m", "sim", "study", str(path), "--db", str(db), "--json",
            "--quiet", "--executor", executor, *workers, "--task-size", str(TASK)]


STARTUP = ("during start-up (no row stored)", lambda n: n == 0)
FIRST = ("after the first batch", lambda n: n >= 1)
HALF = ("mid-way", lambda n: n >= TOTAL // 2)
NEAR_END = ("near the end", lambda n: n >= TOTAL - 8 * TASK)

# Each case: the kills, in order (a later kill hits the --resume run of the earlier one),
# with the executor of each run; the last executor finishes the study with --resume.
KILLS = {
    "startup-processes": ([(STARTUP, "processes")], "processes"),
    "first-then-half-serial": ([(FIRST, "serial"), (HALF, "serial")], "processes"),
    "near-end-processes": ([(NEAR_END, "processes")], "serial"),
}


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> str:
    """The --json output of the same study run without a fault, in one go."""
    path = study_file(tmp_path_factory.mktemp("reference"))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["study", str(path), "--json", "--quiet", "--task-size", "7"]) == 0
    return out.getvalue()


@pytest.mark.parametrize("case", list(KILLS))
def test_sigkill_at_chosen_moments_then_resume_loses_and_doubles_nothing(
        case, tmp_path, sim_env, uninterrupted):
    kills, finisher = KILLS[case]
    path, db = study_file(tmp_path), tmp_path / "r.db"
    before: dict[tuple, tuple] = {}
    for i, ((what, ready), executor) in enumerate(kills):
        cmd = _study_cmd(path, db, executor) + (["--resume"] if i else [])
        # A session of its own, so the stop and the kill reach the pool's workers too.
        child = subprocess.Popen(cmd, cwd=tmp_path, env=sim_env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            stored = _kill_when(child, db, ready)
        finally:
            if child.poll() is None:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait(10)
        assert child.returncode == -signal.SIGKILL, what
        assert ready(stored) and stored < TOTAL, (what, stored)
        now = _snapshot(db)  # the schema is there: ready() saw a row count
        assert len(now) == stored
        # Whole batches only: a batch is one transaction, so a kill keeps it or drops it.
        assert stored % TASK == 0, (what, stored)
        # Nothing committed before is lost or changed by the kill or by the resumed run.
        assert all(now.get(k) == v for k, v in before.items()), what
        before = now

    done = subprocess.run(_study_cmd(path, db, finisher) + ["--resume"], cwd=tmp_path,
                          env=sim_env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    # Byte for byte the output of the study run without a fault.
    assert done.stdout == uninterrupted
    with contextlib.closing(sqlite3.connect(db)) as conn:
        total, distinct = conn.execute(
            "SELECT COUNT(*), COUNT(DISTINCT variant || '/' || point || '/' || rep) "
            "FROM replications").fetchone()
        per_cell = conn.execute(
            "SELECT variant, point, MIN(rep), MAX(rep), COUNT(*) FROM replications "
            "GROUP BY variant, point ORDER BY variant, point").fetchall()
        failures = conn.execute("SELECT COUNT(*) FROM failures").fetchone()[0]
        studies = conn.execute("SELECT COUNT(*) FROM studies").fetchone()[0]
    assert (total, distinct, failures, studies) == (TOTAL, TOTAL, 0, 1)
    assert per_cell == [(v, p, 0, N - 1, N) for v in ("sf", "zoc")
                        for p in ('{"rules.snapfire.radius":12}', '{"rules.snapfire.radius":6}')]
    final = _snapshot(db)
    assert all(final.get(k) == v for k, v in before.items())


# --------------------------------------------------------------------------------------
# 2. A Dask worker killed mid-study
# --------------------------------------------------------------------------------------

class KillAWorker:
    """A progress bar (the runner calls ``update`` after each stored batch) that, after
    ``after`` batches, SIGKILLs the process of a worker that has a task in flight."""

    def __init__(self, client, after: int = 2):
        self.client, self.after = client, after
        self.total = self.n = self.batches = 0
        self.killed: tuple[str, int, list] | None = None

    def refresh(self):
        pass

    def update(self, k: int) -> None:
        self.n += k
        self.batches += 1
        if self.killed is None and self.batches >= self.after:
            pids = self.client.run(os.getpid)  # {worker address: worker process id}
            busy = {w: keys for w, keys in self.client.processing().items() if keys}
            assert busy, "no task in flight to lose"
            worker = sorted(busy)[0]
            os.kill(pids[worker], signal.SIGKILL)
            self.killed = (worker, pids[worker], list(busy[worker]))


def _transitions(dask_scheduler, keys):
    """The scheduler's (from, to) state transitions of each task key."""
    return {k: [(t[1], t[2]) for t in dask_scheduler.story(k) if t[0] == k] for k in keys}


def test_dask_worker_killed_mid_study_is_retried_with_identical_results(tmp_path):
    from distributed import Client, LocalCluster

    study = load_study(study_file(tmp_path, n=30))
    reference = run_study(study, executor=SerialExecutor())
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL) as cluster, \
            Client(cluster) as watcher:
        killer = KillAWorker(watcher)
        with DaskExecutor(1, address=cluster.scheduler_address) as executor, \
                ResultStore(tmp_path / "r.db") as store:
            assert executor.workers == 2  # it joined our cluster
            run = run_study(study, executor=executor, store=store, progress=killer, per_task=2)
            counts = store.counts(run.study_hash)
            lost = killer.killed[2] if killer.killed else []
            stories = watcher.run_on_scheduler(_transitions, keys=lost)
        assert killer.killed is not None, "the study ended before a worker was killed"
        worker, pid, lost = killer.killed
        assert lost  # the killed worker was running (or holding) tasks
        for steps in stories.values():
            # The scheduler's story of each: released with the dead worker (running, or
            # just finished with its result held there), then computed again.
            gone = [i for i, (a, b) in enumerate(steps)
                    if b == "released" and a in ("processing", "memory")]
            assert gone and ("processing", "memory") in steps[gone[0]:], steps
        # The worker really died (its nanny may have started a new one in its place).
        assert pid not in watcher.run(os.getpid).values()
    # Every replication ran exactly once in the results: none lost, none doubled.
    assert counts == (CELLS * 30, 0) and not run.failures and run.ran == CELLS * 30
    assert {k: (r.seed, json.dumps(r.metrics, sort_keys=True)) for k, r in run.records.items()} \
        == {k: (r.seed, json.dumps(r.metrics, sort_keys=True)) for k, r in reference.records.items()}
    assert json.dumps(as_json(run)) == json.dumps(as_json(reference))


# --------------------------------------------------------------------------------------
# 3. A replication that raises
# --------------------------------------------------------------------------------------

FAIL_SEED_STUDY = 7
FAIL_REPS = (1, 4)  # under common random numbers these seeds fail in every cell
FAIL_SEEDS = {replication_seed(FAIL_SEED_STUDY, r) for r in FAIL_REPS}


def failing_run_battle(scenario, seed):
    """The engine, with an internal error on some seeds (a stand-in for a real bug)."""
    if int(seed) in FAIL_SEEDS:
        raise RuntimeError(f"internal error: referee lost a mover at seed {seed}")
    return REAL_RUN_BATTLE(scenario, seed)


@pytest.fixture
def failing_engine(monkeypatch):
    """``sim.replication.run_battle`` raises for FAIL_SEEDS, for the serial executor
    (which resolves the battle function by name) and for ``sim run`` alike."""
    monkeypatch.setattr(battle, "run_battle", failing_run_battle)
    resolve.cache_clear()
    yield
    monkeypatch.undo()
    resolve.cache_clear()


def test_failing_replication_is_stored_counted_and_replayed_by_sim_run(
        tmp_path, capsys, sim_env, failing_engine):
    n = 8
    path, db = study_file(tmp_path, n=n, seed=FAIL_SEED_STUDY), tmp_path / "r.db"
    assert main(["study", str(path), "--db", str(db), "--json", "--quiet"]) == 1
    out, err = capsys.readouterr()
    # The study went on: every cell's statistics cover the replications that did not raise.
    result = json.loads(out)
    assert {e["n"] for per in result["variants"].values() for e in per.values()} \
        == {n - len(FAIL_REPS)}
    bad = CELLS * len(FAIL_REPS)
    first_seed = replication_seed(FAIL_SEED_STUDY, FAIL_REPS[0])
    assert f"{bad} replications raised; first: seed {first_seed}: RuntimeError: internal error" \
        in err and str(db) in err

    with contextlib.closing(sqlite3.connect(db)) as conn:
        rows = conn.execute("SELECT COUNT(*), MAX(rep) FROM replications").fetchone()
        failures = conn.execute(
            "SELECT variant, point, rep, seed, error, traceback FROM failures "
            "ORDER BY variant, point, rep").fetchall()
    assert rows == (CELLS * (n - len(FAIL_REPS)), n - 1)
    assert len(failures) == bad
    assert {(v, p) for v, p, *_ in failures} == {("sf", '{"rules.snapfire.radius":6}'),
                                                ("sf", '{"rules.snapfire.radius":12}'),
                                                ("zoc", '{"rules.snapfire.radius":6}'),
                                                ("zoc", '{"rules.snapfire.radius":12}')}
    for _variant, _point, rep, seed, error, tb in failures:
        assert rep in FAIL_REPS and seed == replication_seed(FAIL_SEED_STUDY, rep)
        assert error == f"RuntimeError: internal error: referee lost a mover at seed {seed}"
        assert tb.startswith("Traceback (most recent call last)")
        assert "failing_run_battle" in tb and tb.rstrip().endswith(error)

    # The printed command replays the first failure (cell 0 is zoc at radius 6): same
    # scenario file, the stored seed, the cell's overrides; with the same engine it fails
    # the same way.
    line = next(x for x in err.splitlines() if x.startswith("reproduce it with: "))
    argv = shlex.split(line.removeprefix("reproduce it with: "))
    study = load_study(path)
    assert argv == ["sim", "run", study.scenario_path, "--seed", str(first_seed),
                    "--set", "rules.snapfire.reaction=zoc", "--set", "rules.snapfire.radius=6"]
    with pytest.raises(RuntimeError, match=f"referee lost a mover at seed {first_seed}$"):
        main(argv[1:])

    # A --resume runs nothing again (a failure is a result: the same seed fails again),
    # and the table reports the count too.
    assert main(["study", str(path), "--db", str(db), "--resume"]) == 1
    table = capsys.readouterr().out
    assert f"{CELLS * n} replications resumed from the store" in table
    assert f"{bad} replications FAILED" in table

    # The stored seed is the seed `sim run --seed` takes: the printed command of a stored
    # row that succeeded, run by a real `sim run` process, gives that row's metrics.
    with ResultStore(db) as store:
        stored = store.load(study.key(True))
    for rec in (r for r in stored if r.metrics is not None and r.rep == 6):
        cell = next(c for c in study.cells
                    if (c.variant, c.point_json) == (rec.variant, rec.point))
        assert REAL_RUN_BATTLE(cell.scenario, rec.seed).metrics == rec.metrics
    zoc12 = next(r for r in stored if r.metrics is not None and r.rep == 6
                 and r.variant == "zoc" and r.point == '{"rules.snapfire.radius":12}')
    argv = shlex.split(reproduce_command(study, zoc12))
    assert argv[-4:] == ["--set", "rules.snapfire.reaction=zoc", "--set", "rules.snapfire.radius=12"]
    replay = subprocess.run([sys.executable, "-m", "sim", *argv[1:], "--json"], env=sim_env,
                            capture_output=True, text=True, timeout=60)
    assert replay.returncode == 0, replay.stderr
    assert json.loads(replay.stdout)["metrics"] == zoc12.metrics
    assert json.loads(replay.stdout)["seed"] == zoc12.seed
