"""A million battles on a real Dask cluster, started with Dask's own commands.

    .venv/bin/python benchmarks/cluster.py [--battles N] [--pool-battles N] [--quick] [--sample N] [--json FILE]

On 127.0.0.1 it starts ``dask scheduler`` and two ``dask worker`` processes (one thread
each, no nanny), runs ``sim study scenarios/snapfire_vs_zoc.yaml --address ... --db ...
--replications N/2 --quiet`` against them, SIGKILLs one worker part-way and starts a new
one, and lets the study finish. Then it checks and prints:

- every battle is stored exactly once (rows per (variant, replication)), none missing;
- a sample of replications, run again serially through the path the study's tasks take
  (``run_task`` of a ``Task`` of the cell's recipe and the replication's seed), gives
  exactly the stored metrics; the local process pool's run gives exactly the same store
  (on its replications, when ``--pool-battles`` makes it smaller);
- battles per second on the cluster and on the local process pool (``--workers 2``),
  in the same run, and their ratio (target >= 0.9); ``--pool-battles`` runs the pool at a
  smaller size, when two runs of a million would take longer than one may wait;
- every process's resident memory and CPU time sampled through the run (the study client,
  the scheduler, each worker; the pool's client): a timeline with the rate, and each
  one's first and last quarter's medians, peak and fitted slope against battles stored
  (target: flat);
- CPU per battle on a worker against the client's and the scheduler's per batch: how
  many workers one client (with its store) and one scheduler could keep busy;
- the store's size on disk, and the time ``--resume`` takes to find where it was, on the
  finished store and on a copy cut to half of its batches (an interrupted run).

The default is 1,000,000 battles (two runs of it: an hour or two on two cores);
``--quick`` is 1,000. A script, never a test: its timings are figures to read. A step
that fails prints one line and the script exits 1; every child process ends with it.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

# This checkout's sim, in this process as in every child it starts (their PYTHONPATH): the
# checks it makes itself (the serial sample, --resume's lookup) must run the same code as
# the study did, or the store's code fingerprint refuses them (a venv of another checkout).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cluster_procs import Children, Failure, cpu_seconds, descendants, free_port, rss_mib
from cluster_report import cpu_per_battle, feed, report, timeline, trend
from sim.study.plan.seeds import replication_seed
from sim.study.plan.study_file import load_study
from sim.study.run.executors import DEFAULT_BATTLE, DaskExecutor, SerialExecutor, Task, run_task, task_size
from sim.study.run.runner import run_study
from sim.study.run.store import ResultStore

ROOT = Path(__file__).resolve().parents[1]
STUDY = ROOT / "scenarios" / "snapfire_vs_zoc.yaml"
# The settings sim's own LocalCluster uses (sim.study.run.executors), given to Dask's
# commands as environment: no statistical profiler, slower housekeeping timers. And a
# shorter debugging log: the scheduler keeps each connection's last 1000 messages by
# default, each task's message with its recipe, a few MiB that fill up over the first
# thousand batches a worker and look like growth (flat from then on).
DASK_ENV = {"DASK_DISTRIBUTED__ADMIN__LOW_LEVEL_LOG_LENGTH": "100",
            "DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False",
            "DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL": "500ms",
            "DASK_DISTRIBUTED__ADMIN__TICK__LIMIT": "30s",
            "DASK_DISTRIBUTED__ADMIN__SYSTEM_MONITOR__INTERVAL": "5s",
            "DASK_DISTRIBUTED__WORKER__MEMORY__MONITOR_INTERVAL": "1s"}


def dask_command() -> str:
    """Dask's own command line tool, beside this Python (a venv's bin/dask)."""
    beside = Path(sys.executable).with_name("dask")
    found = str(beside) if beside.exists() else shutil.which("dask")
    if not found:
        raise Failure("no 'dask' command beside this Python or on PATH (pip install 'sim[dask]')")
    return found


def stored_rows(db: Path, before: int = 0) -> int:
    """Replications stored so far (0 before the study has made its tables; ``before``, the
    last count, while the study holds the store locked). A short wait for the lock: a
    signal is handled only once SQLite's busy wait returns, and the benchmark must stop at
    once when told to."""
    if not db.exists():
        return before
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.5) as conn:
            return conn.execute("SELECT COUNT(*) FROM replications").fetchone()[0]
    except sqlite3.OperationalError:
        return before


def run_on_cluster(kids: Children, args, db: Path, reps: int, battles: int) -> dict:
    """Scheduler, two workers, the study; one worker killed and replaced part-way."""
    dask, port = dask_command(), free_port()
    address = f"tcp://127.0.0.1:{port}"
    kids.start("scheduler", [dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                             "--no-dashboard", "--no-show"])
    kids.wait_for("scheduler", "Scheduler at:", 60)
    print(f"scheduler at {address}; scratch {kids.logs}", flush=True)
    worker = [dask, "worker", address, "--nthreads", "1", "--nworkers", "1", "--no-nanny",
              "--host", "127.0.0.1", "--no-dashboard"]
    for name in ("worker-1", "worker-2"):
        kids.start(name, [*worker, "--name", name])
    for name in ("worker-1", "worker-2"):
        kids.wait_for(name, "Registered to:", 60)
    killed: list[int] = []

    def replace_worker(rows: int) -> None:
        if not killed and rows >= max(1, int(args.kill_at * battles)):
            kids.kill("worker-1")  # SIGKILL, mid-task: the worker is never idle
            kids.start("worker-3", [*worker, "--name", "worker-3"])
            killed.append(rows)

    load = os.getloadavg()[0]
    study = study_command(args, reps)
    seconds, samples = watch(kids, [*study, "--address", address, "--db", str(db)], db,
                             args.every, replace_worker)
    if not killed:
        raise Failure(f"the study finished before the kill point ({args.kill_at:.0%} of {battles} rows)")
    joined = "Registered to:" in kids.log("worker-3")
    found = resume_command(kids, [*study, "--address", address, "--db", str(db), "--resume"])
    kids.kill_all()
    return {"address": address, "port": port, "seconds": seconds, "killed_at_rows": killed[0],
            "replacement_joined": joined, "samples": samples, "resume_command_s": found,
            "load_before": load}


def watch(kids: Children, argv: list[str], db: Path, every: float, act=None) -> tuple[float, list[dict]]:
    """Run ``argv`` (a ``sim study`` storing into ``db``) to its end as child ``client``:
    its wall time, and a sample of the rows stored and of every child's memory and CPU time
    every ``every`` seconds; ``act(rows)`` after each sample."""
    t0 = time.perf_counter()
    proc = kids.start("client", argv)
    samples: list[dict] = []
    rows = 0
    while proc.poll() is None:
        pids = {name: p.pid for name, p in kids.procs.items()}
        below = descendants(proc.pid)  # the pool's workers; none for a Dask client
        rows = stored_rows(db, rows)
        sample = {"t": time.perf_counter() - t0, "rows": rows,
                  "rss": {n: rss_mib(pid) for n, pid in pids.items()},
                  "cpu": {n: cpu_seconds(pid) for n, pid in pids.items()}}
        if below:
            sample["rss"]["pool workers"] = sum(map(rss_mib, below))
            sample["cpu"]["pool workers"] = sum(map(cpu_seconds, below))
        if sample["rss"]["client"] > 0:  # not a sample of a client that has just exited
            samples.append(sample)
        if act is not None:
            act(rows)
        time.sleep(every)
    seconds = time.perf_counter() - t0
    kids.finished("client")
    return seconds, samples


def study_command(args, reps: int) -> list[str]:
    """``sim study`` of the benchmark's study, to which each run adds its options."""
    size = ["--task-size", str(args.task_size)] if args.task_size else []
    return [sys.executable, "-m", "sim", "study", str(STUDY), "--replications", str(reps),
            "--quiet", *size]


def resume_command(kids: Children, argv: list[str]) -> float:
    """The whole ``sim study --resume`` command on the finished store (nothing to run)."""
    return kids.run("resume", argv, timeout=3600)


def check_store(db: Path, variants: list[str], reps: int) -> dict:
    """Each (variant, replication) stored exactly once; none missing; no failures."""
    with sqlite3.connect(db) as conn:
        hashes = conn.execute("SELECT COUNT(DISTINCT study_hash) FROM replications").fetchone()[0]
        twice = conn.execute("SELECT COUNT(*) FROM (SELECT 1 FROM replications GROUP BY "
                             "variant, rep HAVING COUNT(*) > 1)").fetchone()[0]
        per = dict(conn.execute("SELECT variant, COUNT(DISTINCT rep) FROM replications "
                                "WHERE rep >= 0 AND rep < ? GROUP BY variant", (reps,)))
        rows = conn.execute("SELECT COUNT(*) FROM replications").fetchone()[0]
        failures = conn.execute("SELECT COUNT(*) FROM failures").fetchone()[0]
    missing = sum(reps - per.get(v, 0) for v in variants)
    return {"rows": rows, "duplicated": twice, "missing": missing, "failures": failures,
            "study_hashes": hashes,
            "once": hashes == 1 and twice == 0 and missing == 0 and failures == 0
            and rows == reps * len(variants)}


def store_bytes(db: Path) -> int:
    """The store's size on disk once its write-ahead log is folded in (as a closed store is)."""
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return sum(p.stat().st_size for p in db.parent.glob(db.name + "*"))


def check_serial(study, db: Path, reps: int, sample: int) -> dict:
    """Re-run ``sample`` replications of every cell in this process, serially, as the
    study's tasks run them, and compare seeds and metrics with the store, exactly."""
    chosen = sorted(random.Random(26).sample(range(reps), min(sample, reps)))
    differ, compared = [], 0
    with sqlite3.connect(db) as conn:
        for ci, cell in enumerate(study.cells):
            jobs = tuple((rep, replication_seed(study.spec.seed, rep, crn=True,
                                                variant=cell.variant, point=cell.point_json))
                         for rep in chosen)
            task = Task(DEFAULT_BATTLE, ci, cell.recipe(), cell.scenario_hash, jobs)
            for o in run_task(task):
                row = conn.execute("SELECT seed, metrics FROM replications WHERE variant = ? "
                                   "AND point = ? AND rep = ?",
                                   (cell.variant, cell.point_json, o.rep)).fetchone()
                compared += 1
                if row is None or (row[0], json.loads(row[1])) != (o.seed, o.metrics):
                    differ.append((cell.variant, o.rep))
    return {"compared": compared, "differ": differ[:10], "identical": not differ}


def same_stores(a: Path, b: Path, reps: int) -> bool:
    """Whether two stores hold the same rows (variant, point, rep, seed, metrics) for
    the replications below ``reps`` (all of the smaller store's when it is the pool's)."""
    q = ("SELECT variant, point, rep, seed, metrics FROM replications WHERE rep < ? "
         "ORDER BY variant, point, rep")
    with sqlite3.connect(a) as ca, sqlite3.connect(b) as cb:
        return all(x == y for x, y in zip(ca.execute(q, (reps,)), cb.execute(q, (reps,)), strict=True))


class Found(Exception):
    """Raised by ``Probe`` at the moment the study knows what is left to run."""


class Probe:
    """A progress bar for ``run_study`` that stops it once it has found where it was
    (it sets the bar's total and position, then refreshes it, before running anything)."""

    total = n = 0

    def refresh(self):
        raise Found

    def update(self, k):
        pass


def resume_lookup(study, db: Path, reps: int) -> tuple[float, int]:
    """Seconds ``run_study(..., resume=True)`` takes, from opening the store, to know
    what is left; and how many battles are left."""
    probe = Probe()
    t0 = time.perf_counter()
    try:
        with ResultStore(db) as store:
            run_study(study, executor=SerialExecutor(), replications=reps, store=store,
                      resume=True, progress=probe)
    except Found:
        return time.perf_counter() - t0, probe.total - probe.n
    raise Failure("run_study resumed without reporting where it was")


def interrupted_copy(db: Path, out: Path) -> Path:
    """A copy of the store holding only its first half of batches (by insertion)."""
    with sqlite3.connect(db) as src, sqlite3.connect(out) as dst:
        src.backup(dst)
        half = dst.execute("SELECT MAX(rowid) / 2 FROM replications").fetchone()[0]
        dst.execute("DELETE FROM replications WHERE rowid > ?", (half,))
    with sqlite3.connect(out) as dst:
        dst.execute("VACUUM")
    return out


def main(argv: list[str] | None = None) -> dict:
    """Run the benchmark; returns (and prints) its figures."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--battles", type=int, default=1_000_000, help="battles (even; default 1,000,000)")
    p.add_argument("--quick", action="store_true", help="1,000 battles, a kill early on")
    p.add_argument("--pool-battles", type=int, metavar="N",
                   help="battles of the process pool's run it is compared with (default: --battles); "
                        "rates compare at any size, rows on the pool's replications")
    p.add_argument("--sample", type=int, default=150, help="replications a variant rerun serially")
    p.add_argument("--task-size", type=int, help="battles a task (default: the study's own)")
    p.add_argument("--json", metavar="FILE", help="also write the figures (and samples) to FILE")
    args = p.parse_args(argv)
    args.battles, args.kill_at, args.every = ((1000, 0.05, 0.05) if args.quick
                                              else (args.battles, 0.4, 2.0))
    study = load_study(STUDY)
    variants = [c.variant for c in study.cells]
    reps = args.battles // len(variants)
    if reps < 10:
        raise Failure(f"--battles {args.battles}: expected at least {10 * len(variants)}")
    battles = reps * len(variants)
    pool_reps = min(reps, (args.pool_battles or battles) // len(variants))
    if pool_reps < 10:
        raise Failure(f"--pool-battles {args.pool_battles}: expected at least {10 * len(variants)}")
    scratch = Path(tempfile.mkdtemp(prefix="sim-cluster-"))
    env = {**os.environ, **DASK_ENV,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    figures: dict = {"battles": battles, "scratch": str(scratch),
                     "task_size": args.task_size or task_size(battles, 2, DaskExecutor.most_per_task)}
    save = (lambda: Path(args.json).write_text(json.dumps(figures, indent=2))) if args.json else (lambda: None)
    try:
        with Children(scratch, env) as kids:
            db, pool_db = scratch / "cluster.db", scratch / "pool.db"
            figures["cluster"] = c = run_on_cluster(kids, args, db, reps, battles)
            save()  # a long run's first half is kept, whatever happens to the second
            figures["store"] = check_store(db, variants, reps)
            figures["store_bytes"] = store_bytes(db)
            figures["serial"] = check_serial(study, db, reps, args.sample)
            save()
            pool = [*study_command(args, pool_reps), "--workers", "2", "--db", str(pool_db)]
            figures["pool_load_before"] = os.getloadavg()[0]
            figures["pool_seconds"], pool_samples = watch(kids, pool, pool_db, args.every)
            figures["pool_samples"] = pool_samples
            save()
        figures["same_as_pool"] = same_stores(db, pool_db, pool_reps)
        figures["pool_battles"] = pool_battles = pool_reps * len(variants)
        figures["cluster_rate"] = battles / c["seconds"]
        figures["pool_rate"] = pool_battles / figures["pool_seconds"]
        figures["ratio"] = figures["cluster_rate"] / figures["pool_rate"]
        figures["memory"] = {name: trend(c["samples"], name)
                             for name in ("client", "scheduler", "worker-1", "worker-2", "worker-3")}
        figures["memory"]["pool client"] = trend(pool_samples, "client")
        figures["timeline"] = timeline(c["samples"])
        figures["feed"] = feed(c["samples"], figures["task_size"])
        figures["cpu_per_battle_ms"] = {"cluster": cpu_per_battle(c["samples"]),
                                        "pool": cpu_per_battle(pool_samples)}
        finished, left = resume_lookup(study, db, reps)
        half, half_left = resume_lookup(study, interrupted_copy(db, scratch / "half.db"), reps)
        figures["resume"] = {"finished_s": finished, "finished_left": left, "half_s": half,
                             "half_left": half_left}
        save()
        report(figures)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return figures


if __name__ == "__main__":
    try:
        main()
    except Failure as exc:
        print(f"cluster.py: error: {exc}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt as stop:
        print(f"cluster.py: stopped ({stop or 'SIGINT'}); every child process is ended",
              file=sys.stderr)
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - any failed step is one line
        print(f"cluster.py: error: {type(exc).__name__}: {str(exc)[:300]}", file=sys.stderr)
        sys.exit(1)
