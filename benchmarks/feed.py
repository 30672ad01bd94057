"""How many workers one study client and its SQLite store can feed, from measured rates.

    .venv/bin/python benchmarks/feed.py [--rows N] [--client-rows N] [--task-size B]

In this process, on the cluster benchmark's study (``scenarios/snapfire_vs_zoc.yaml``):

- a battle's CPU time, run as a study's task runs it (``run_task`` of B replications);
- the store's insert rate in CPU time: ``ResultStore.add`` of B-row batches of those battles' rows
  into a fresh store until it holds N rows (default 1,000,000), over its first and its
  last tenth (its unique index grows with the rows);
- the study client's own cost per batch with no Dask: ``run_jobs`` fed by an executor that
  hands back finished batches at once (records, seeds, the store, the progress count);
- the client's and the scheduler's cost per batch with Dask, at full speed: the same
  study into a store on ``dask scheduler`` and two ``dask worker`` processes, its battles
  instant (each returns a real battle's metrics), so that nothing but the client, the
  scheduler and the store limits it, and neither's idle housekeeping counts;

and from them the single-threaded workers each could keep busy: a worker's batch (B
battles) over its cost per batch. Figures to read, never asserted.
"""
from __future__ import annotations

import argparse
import itertools
import os
import tempfile
import time
from pathlib import Path

from cluster import DASK_ENV, ROOT, dask_command
from cluster_procs import Children, cpu_seconds, free_port
from sim.replication import run_battle
from sim.study.plan.seeds import replication_seed
from sim.study.plan.study_file import load_study
from sim.study.run.executors import DEFAULT_BATTLE, DaskExecutor, Outcome, Task, run_task
from sim.study.run.runner import open_run, run_jobs
from sim.study.run.store import ResultStore, Stored

STUDY = ROOT / "scenarios" / "snapfire_vs_zoc.yaml"
_METRICS: dict = {}


def battle_cpu(study, size: int, batches: int = 4) -> tuple[float, list[dict]]:
    """CPU seconds a battle, over ``batches`` tasks of ``size`` (after one to warm up), and their metrics."""
    cell = study.cells[0]
    tasks = [Task(DEFAULT_BATTLE, 0, cell.recipe(), cell.scenario_hash,
                  tuple((rep, replication_seed(study.spec.seed, rep)) for rep in range(k * size, (k + 1) * size)))
             for k in range(batches + 1)]
    run_task(tasks[0])
    t0 = time.process_time()
    metrics = [o.metrics for t in tasks[1:] for o in run_task(t)]
    return (time.process_time() - t0) / (batches * size), metrics


def store_rate(rows: int, size: int, metrics: list[dict], folder: Path) -> dict:
    """Rows a second that ``ResultStore.add`` stores, in batches of ``size``, early and late."""
    batches = rows // size
    cpu, wall = [], []
    with ResultStore(folder / "feed.db") as store:
        for k in range(batches):
            batch = [Stored("v", "{}", rep, rep, metrics[rep % len(metrics)], "0", "h")
                     for rep in range(k * size, (k + 1) * size)]
            c0, w0 = time.process_time(), time.perf_counter()
            store.add("study", batch, ["null"])
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
    tenth = max(1, batches // 10)
    return {"rows": batches * size, "first_tenth_rows_per_s": size * tenth / sum(cpu[:tenth]),
            "last_tenth_rows_per_s": size * tenth / sum(cpu[-tenth:]),
            "store_ms_per_batch": 1e3 * sum(cpu[-tenth:]) / tenth,
            "store_wall_ms_per_batch": 1e3 * sum(wall[-tenth:]) / tenth}


class Finished:
    """An executor whose every task comes back at once, with the given metrics."""

    workers = 2
    most_per_task = DaskExecutor.most_per_task

    def __init__(self, metrics: list[dict]):
        self.metrics = itertools.cycle(metrics)

    def run(self, tasks):
        for t in tasks:
            yield [Outcome(t.cell, rep, seed, next(self.metrics)) for rep, seed in t.jobs]


def todo(study, reps: int, first: int = 0) -> dict[int, range]:
    """Replications ``first`` .. ``reps - 1`` of every cell, as ``run_jobs`` takes them."""
    return {ci: range(first, reps) for ci in range(len(study.cells))}


def client_cost(study, rows: int, size: int, metrics: list[dict], folder: Path) -> dict:
    """The client's CPU milliseconds a batch with no Dask (records, seeds, its store, which
    every run has: the statistics are read back from it)."""
    reps = rows // len(study.cells)
    with ResultStore(folder / "client.db") as store:
        run = open_run(study, True, store, False)
        t0 = time.process_time()
        run_jobs(run, todo(study, reps), reps * len(study.cells), Finished(metrics), None, per_task=size)
        spent = time.process_time() - t0
    return {"client_ms_per_batch": 1e3 * spent / (reps * len(study.cells) / size)}


def instant(scenario, seed: int) -> dict:
    """A battle that costs nothing: the metrics of this worker's first real battle."""
    if not _METRICS:
        _METRICS.update(run_battle(scenario, seed).metrics)
    return dict(_METRICS)


def dask_cost(study, rows: int, size: int, folder: Path) -> dict:
    """The client's and the scheduler's CPU milliseconds a batch, and batches a second, on
    ``dask scheduler`` and two ``dask worker`` processes running instant battles."""
    env = {**os.environ, **DASK_ENV, "PYTHONPATH": os.pathsep.join([str(ROOT / "benchmarks"), str(ROOT)])}
    dask, port = dask_command(), free_port()
    address = f"tcp://127.0.0.1:{port}"
    reps = rows // len(study.cells)
    warm = min(reps // 2, 4 * size)  # replications a cell: each worker's first task imports sim
    with Children(folder, env) as kids:
        kids.start("scheduler", [dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                 "--no-dashboard", "--no-show"])
        kids.wait_for("scheduler", "Scheduler at:", 60)
        for name in ("worker-1", "worker-2"):
            kids.start(name, [dask, "worker", address, "--nthreads", "1", "--no-nanny", "--host",
                              "127.0.0.1", "--no-dashboard", "--name", name])
        for name in ("worker-1", "worker-2"):
            kids.wait_for(name, "Registered to:", 60)
        scheduler = kids.procs["scheduler"].pid
        with DaskExecutor(1, address=address) as ex, ResultStore(folder / "dask.db") as store:
            run = open_run(study, True, store, False)
            cells = len(study.cells)
            run_jobs(run, todo(study, warm), warm * cells, ex, None, "feed:instant", size)
            c0, s0, w0 = time.process_time(), cpu_seconds(scheduler), time.perf_counter()
            run_jobs(run, todo(study, reps, warm), (reps - warm) * cells, ex, None, "feed:instant", size)
            client, sched, wall = (time.process_time() - c0, cpu_seconds(scheduler) - s0,
                                   time.perf_counter() - w0)
    batches = (reps - warm) * len(study.cells) / size
    return {"dask_client_ms_per_batch": 1e3 * client / batches, "scheduler_ms_per_batch": 1e3 * sched / batches,
            "dask_batches_per_s": batches / wall}


def main(argv: list[str] | None = None) -> dict:
    """Measure and print the rates and the workers they could feed."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rows", type=int, default=1_000_000, help="rows stored (default 1,000,000)")
    p.add_argument("--client-rows", type=int, default=100_000, help="battles through the client (default 100,000)")
    p.add_argument("--task-size", type=int, default=DaskExecutor.most_per_task, help="battles a task (default 250)")
    args = p.parse_args(argv)
    study, size = load_study(STUDY), args.task_size
    cpu, metrics = battle_cpu(study, size)
    with tempfile.TemporaryDirectory(prefix="sim-feed-") as folder:
        store = store_rate(args.rows, size, metrics, Path(folder))
        client = client_cost(study, args.client_rows, size, metrics, Path(folder))
        dask = dask_cost(study, args.client_rows, size, Path(folder))
    batch = size * cpu
    f = {"battle_cpu_ms": cpu * 1e3, "task_size": size, **store, **client, **dask,
         "workers_per_store": batch / (store["store_ms_per_batch"] / 1e3),
         "workers_per_client_without_dask": batch / (client["client_ms_per_batch"] / 1e3),
         "workers_per_client": batch / (dask["dask_client_ms_per_batch"] / 1e3),
         "workers_per_scheduler": batch / (dask["scheduler_ms_per_batch"] / 1e3)}
    print(f"a battle: {f['battle_cpu_ms']:.2f} ms of CPU; a worker's batch of {size}: {batch:.2f} s")
    print(f"store: {store['rows']:,} rows in batches of {size}: {store['first_tenth_rows_per_s']:,.0f} rows/s "
          f"over the first tenth, {store['last_tenth_rows_per_s']:,.0f} over the last "
          f"of CPU ({store['store_ms_per_batch']:.1f} ms a batch, {store['store_wall_ms_per_batch']:.1f} ms "
          f"of wall time here): it keeps {f['workers_per_store']:.0f} workers busy")
    print(f"client, no Dask, {args.client_rows:,} battles: {client['client_ms_per_batch']:.1f} ms "
          f"a batch with its store (the store's share above): it keeps "
          f"{f['workers_per_client_without_dask']:.0f} workers busy (before Dask's own share)")
    print(f"client and store on Dask, instant battles, {args.client_rows:,} battles: the client "
          f"{dask['dask_client_ms_per_batch']:.1f} ms a batch, the scheduler {dask['scheduler_ms_per_batch']:.1f} ms "
          f"({dask['dask_batches_per_s']:.0f} batches/s here): one client keeps {f['workers_per_client']:.0f} "
          f"workers busy, one scheduler {f['workers_per_scheduler']:.0f}")
    return f


if __name__ == "__main__":
    main()
