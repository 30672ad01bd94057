"""A Dask study's in-flight bound follows the workers present now (it was fixed by the
workers present when the study joined): a study started on one ``dask worker`` gives work
to two that join part-way, loses nothing when one of them is retired, and stores exactly
the rows of a serial run. Batches are counted per worker, never timed."""
from __future__ import annotations

import importlib.util
import os
import sqlite3
import sys
import time
from collections import Counter
from pathlib import Path

from distributed import get_task_stream

from conftest import ROOT, SCENARIOS
from sim.study.plan.study_file import load_study
from sim.study.run.executors import DaskExecutor, in_flight
from sim.study.run.runner import run_study
from sim.study.run.store import ResultStore

STUDY = SCENARIOS / "march_halt.yaml"
REPS, PER_TASK = 300, 15          # 600 battles, 40 batches
JOIN_AT, RETIRE_AT = 2, 14        # batches stored when two workers are added / one retired
ROWS = "SELECT variant, point, rep, seed, metrics FROM replications ORDER BY variant, point, rep"


def _children():
    """benchmarks/cluster_procs.py: children in their own process groups, dying with us."""
    spec = importlib.util.spec_from_file_location("cluster_procs", ROOT / "benchmarks" / "cluster_procs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Conductor:
    """``run_study``'s progress bar: after each stored batch (the study waits meanwhile),
    adds two workers, then watches the tasks in flight, then retires one worker."""

    total = n = 0

    def __init__(self, kids, worker: list[str]):
        self.kids, self.worker = kids, worker
        self.client = None
        self.batches = 0
        self.unfinished: list[int] = []   # tasks at the scheduler not yet done, after the join
        self.names: dict[str, str] = {}   # worker address -> name

    def refresh(self):
        pass

    def update(self, k):
        self.batches += 1
        client = self.client
        if self.batches == JOIN_AT:
            for name in ("worker-2", "worker-3"):
                self.kids.start(name, [*self.worker, "--name", name])
            client.wait_for_workers(3, timeout=60)
            self.names.update({a: w["name"] for a, w in client.scheduler_info()["workers"].items()})
        elif JOIN_AT < self.batches < RETIRE_AT:
            self.unfinished.append(client.run_on_scheduler(lambda dask_scheduler: sum(
                ts.state in ("processing", "queued", "no-worker") for ts in dask_scheduler.tasks.values())))
        elif self.batches == RETIRE_AT:
            # Once both have run a batch (their first imports sim): then worker-2 leaves.
            deadline = time.monotonic() + 60
            while not {"worker-2", "worker-3"} <= self.ran(client.get_task_stream()).keys():
                assert time.monotonic() < deadline, "the workers that joined ran no batch"
                time.sleep(0.1)
            retiring = next(a for a, name in self.names.items() if name == "worker-2")
            client.retire_workers([retiring])

    def ran(self, stream: list[dict]) -> Counter:
        """Batches finished per worker name, from Dask's task stream."""
        return Counter(self.names.get(t["worker"]) for t in stream if t["status"] == "OK")


def test_workers_that_join_get_work_and_one_that_leaves_costs_nothing(tmp_path):
    procs = _children()
    study = load_study(STUDY)
    dask = str(Path(sys.executable).with_name("dask"))
    port = procs.free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = dict(os.environ, DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED="False")
    kids = procs.Children(tmp_path, env)
    worker = [dask, "worker", address, "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1",
              "--no-dashboard"]
    conductor = Conductor(kids, worker)
    try:
        kids.start("scheduler", [dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                 "--no-dashboard", "--no-show"])
        kids.wait_for("scheduler", "Scheduler at:", 60)
        kids.start("worker-1", [*worker, "--name", "worker-1"])
        kids.wait_for("worker-1", "Registered to:", 60)
        with DaskExecutor(1, address=address) as ex, ResultStore(tmp_path / "dask.db") as store, \
                get_task_stream(ex.client) as stream:
            assert ex.workers == 1
            conductor.client = ex.client
            run = run_study(study, executor=ex, replications=REPS, store=store,
                            progress=conductor, per_task=PER_TASK)
            left = {w["name"] for w in ex.client.scheduler_info()["workers"].values()}
        retired = kids.procs["worker-2"]
        assert retired.wait(30) == 0   # retired, it closed itself
    finally:
        kids.kill_all()
    assert run.ran == 2 * REPS and conductor.batches >= 2 * REPS // PER_TASK
    assert left == {"worker-1", "worker-3"}
    # The two workers that joined ran batches; before, the study kept in flight only what
    # one worker could take (in_flight(1) tasks), now what three can.
    ran = conductor.ran(stream.data)
    assert ran["worker-2"] >= 1 and ran["worker-3"] >= 1 and ran["worker-1"] >= 1
    assert max(conductor.unfinished) > in_flight(1)
    # Every battle stored once, as a serial run stores it (a retired worker's unfinished
    # batch ran again elsewhere; its finished ones were kept).
    with ResultStore(tmp_path / "serial.db") as serial:
        run_study(study, replications=REPS, store=serial, per_task=PER_TASK)
    with sqlite3.connect(tmp_path / "dask.db") as a, sqlite3.connect(tmp_path / "serial.db") as b:
        assert a.execute(ROWS).fetchall() == b.execute(ROWS).fetchall()
        assert a.execute("SELECT COUNT(*) FROM replications").fetchone()[0] == 2 * REPS
