"""Issue 26, item 2: on Dask a study keeps a bounded number of tasks in flight and
releases each task once its result is back, so the scheduler's memory does not grow with
the number of batches, and a worker that dies takes only its running task with it.

Before, every task was submitted at once and every future held to the end of the study:
the scheduler held the whole study, and a dead worker's finished results, already stored,
were computed again."""
from __future__ import annotations

import os
import signal
import threading
import time

from distributed import LocalCluster

from sim.study.run.executors import DaskExecutor, Task, in_flight

TASKS = 40
_lock = threading.Lock()
_calls: list[int] = []


def battle(scenario, seed):
    """A battle that records that it ran: its metrics are its seed."""
    with _lock:
        _calls.append(seed)
    return {"seed": seed}


def test_tasks_in_flight_are_bounded_and_released():
    tasks = [Task(f"{__name__}:battle", 0, None, "h", ((i, 1000 + i),)) for i in range(TASKS)]
    held = []
    _calls.clear()
    # Threads, not processes: the scheduler is in this process, where it can be counted.
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp://",
                      host="127.0.0.1", dashboard_address=None) as cluster, \
            DaskExecutor(1, address=cluster.scheduler_address) as ex:
        scheduler = cluster.scheduler
        assert ex.workers == 2
        got = []
        for outcomes in ex.run(tasks):
            got += outcomes
            held.append(len(scheduler.tasks))
    assert sorted((o.rep, o.metrics) for o in got) == [(i, {"seed": 1000 + i}) for i in range(TASKS)]
    assert sorted(_calls) == [1000 + i for i in range(TASKS)]  # each battle ran once
    # The scheduler never held more than the window (and released tasks not yet forgotten
    # by it: its release is asynchronous), far below the study's 40 tasks.
    assert in_flight(2) == 6
    assert max(held) <= 2 * in_flight(2) < TASKS


def logged_battle(scenario, seed):
    """A battle that takes a moment and appends its seed to the file $SIM_RUN_LOG."""
    time.sleep(0.1)
    with open(os.environ["SIM_RUN_LOG"], "a") as log:
        log.write(f"{seed}\n")
    return {"seed": seed}


def test_a_dead_worker_does_not_make_stored_batches_run_again(tmp_path, monkeypatch):
    """SIGKILL a worker part-way: the batches the study already had are not computed again
    (before, their results were still held on the dead worker, so Dask recomputed them)."""
    runs = tmp_path / "runs"
    monkeypatch.setenv("SIM_RUN_LOG", str(runs))
    tasks = [Task(f"{__name__}:logged_battle", 0, None, "h", ((i, 1000 + i),)) for i in range(TASKS)]
    got = []
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, \
            DaskExecutor(1, address=cluster.scheduler_address) as ex:
        for outcomes in ex.run(tasks):
            got += outcomes
            if len(got) == TASKS // 4:
                before = {o.seed for o in got}
                time.sleep(0.5)  # the released tasks reach the scheduler
                victim = next(iter(ex.client.run(os.getpid).values()))
                os.kill(victim, signal.SIGKILL)
    assert sorted(o.seed for o in got) == [1000 + i for i in range(TASKS)]
    ran = runs.read_text().split()
    # Only the task the dead worker was running (and one queued on it) may run twice.
    assert all(ran.count(str(seed)) == 1 for seed in before)
    assert len(ran) <= TASKS + in_flight(2)
