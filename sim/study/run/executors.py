"""Where replications run: one core, a local process pool, or a Dask cluster.

Work is shipped as *tasks*, each a batch of replications of one cell (one scenario),
because a task has a fixed cost (pickling, scheduling: about 1.6 ms on Dask) that a
single battle would not pay back. ``run_task`` runs a batch and never raises for a
failing replication: it returns the error and traceback in that replication's place.

Every executor yields the same outcomes, only in a different order; the runner sorts
them by (cell, replication) before any statistic is computed, which is why results are
identical for every executor and worker count.
"""
from __future__ import annotations

import importlib
import logging
import math
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from multiprocessing import get_context
from typing import TYPE_CHECKING, Any, cast

from sim.errors import InputError
from sim.study.plan.cells import resolved
from sim.study.run import lifetime, mainscript

if TYPE_CHECKING:
    from distributed import Client, LocalCluster

DEFAULT_BATTLE = "sim.replication:run_battle"


@dataclass(frozen=True)
class Task:
    """A batch of replications of one cell: ``jobs`` are (replication index, seed)."""

    battle: str
    cell: int
    scenario: Any
    scenario_hash: str
    jobs: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Outcome:
    """One replication's result: metrics, or an error with its traceback."""

    cell: int
    rep: int
    seed: int
    metrics: dict[str, float | int] | None
    error: str | None = None
    traceback: str | None = None


# Per worker process: one scenario object per scenario hash, so it is checked and its
# terrain (and the terrain's sight-line caches) built once per worker, not once per task.
_SCENARIOS: dict[str, Any] = {}


def _scenario(task: Task) -> Any:
    cached = _SCENARIOS.get(task.scenario_hash)
    if cached is None:
        if len(_SCENARIOS) >= 64:
            _SCENARIOS.clear()
        # A cell's scenario may come as a recipe, built here once (sim.study.plan.cells).
        cached = _SCENARIOS[task.scenario_hash] = resolved(task.scenario)
    return cached


@lru_cache(maxsize=8)
def resolve(battle: str) -> Callable[[Any, int], Any]:
    """'module:function' -> the function (imported once per process)."""
    module, _, name = battle.partition(":")
    return getattr(importlib.import_module(module), name)


def _plain(metrics: Any) -> dict[str, float | int]:
    # numpy scalars and bools become plain numbers so they pickle small and store as JSON.
    out = {}
    for k, v in dict(metrics).items():
        if hasattr(v, "item"):
            v = v.item()
        out[str(k)] = int(v) if isinstance(v, bool) else v
    return out


def run_task(task: Task) -> list[Outcome]:
    """Run every replication of a task; a replication that raises is reported, not fatal."""
    fn = resolve(task.battle)
    scenario = _scenario(task)
    out = []
    for rep, seed in task.jobs:
        try:
            result = fn(scenario, seed)
            out.append(Outcome(task.cell, rep, seed, _plain(getattr(result, "metrics", result))))
        except Exception as exc:  # noqa: BLE001 - any failure of one battle is data
            out.append(Outcome(task.cell, rep, seed, None, f"{type(exc).__name__}: {exc}",
                               traceback.format_exc()))
    return out


def _warm_up(battle: str) -> None:
    try:
        resolve(battle)
    except ImportError:
        pass
    time.sleep(0.05)  # hold this worker so the next warm-up goes to another one


def task_size(todo: int, workers: int, most: int = 50) -> int:
    """Replications per task: about six tasks per worker, between 5 and ``most`` each."""
    return max(1, min(most, max(5, math.ceil(todo / (6 * max(1, workers))))))


class SerialExecutor:
    """Runs tasks one after another in this process."""

    name = "serial"

    def __init__(self, workers: int = 1):
        self.workers = 1

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    def run(self, tasks: Iterable[Task]) -> Iterator[list[Outcome]]:
        for task in tasks:
            yield run_task(task)


class WorkersLost(RuntimeError):
    """Dask gave up on a task whose workers kept dying: the study cannot finish."""


class ProcessExecutor:
    """A local pool of ``workers`` processes, started with 'spawn' (safe with threads,
    and the same on every platform). Its workers ignore Ctrl-C and exit when this
    process is gone (``sim.study.run.lifetime``)."""

    name = "processes"

    def __init__(self, workers: int):
        self.workers = max(1, int(workers))
        self.pool: ProcessPoolExecutor | None = None

    def __enter__(self):
        self.pool = ProcessPoolExecutor(self.workers, mp_context=get_context("spawn"),
                                        initializer=lifetime.worker_started)
        try:
            # Start every worker and import the engine now, not inside the first tasks, so
            # start-up is paid here (as Dask pays it when its cluster starts).
            with mainscript.workers_without_script(), lifetime.workers_starting():
                warm = [self.pool.submit(_warm_up, DEFAULT_BATTLE) for _ in range(self.workers)]
            for fut in warm:
                fut.result()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc):
        pool, self.pool = self.pool, None
        if pool is not None:
            with lifetime.signals_deferred():
                pool.shutdown(wait=True, cancel_futures=True)

    def run(self, tasks: Iterable[Task]) -> Iterator[list[Outcome]]:
        pool = cast(ProcessPoolExecutor, self.pool)   # started by __enter__
        futures = [pool.submit(run_task, t) for t in tasks]
        try:
            for fut in as_completed(futures):
                yield fut.result()
        finally:
            for fut in futures:
                fut.cancel()


class DaskExecutor:
    """Dask distributed: a LocalCluster on 127.0.0.1 of ``workers`` single-threaded
    worker processes, or an existing scheduler at ``address`` (whose workers must have
    ``sim`` installed)."""

    name = "dask"
    # A Dask task costs the client and scheduler a few milliseconds of CPU (in this
    # process, on the cores the workers use): fewer, larger tasks than a process pool.
    most_per_task = 250

    def __init__(self, workers: int, address: str | None = None, processes: bool = True):
        self.workers = max(1, int(workers))
        self.address = address
        self.processes = processes
        self.cluster: LocalCluster | None = None
        self.client: Client | None = None

    def __enter__(self):
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise InputError("the dask executor needs dask[distributed] "
                             "(pip install 'sim[dask]')", place="--executor") from None
        try:
            # A signal while it starts is acted on once it has: stopped half-way, the
            # cluster's own clean-up at exit would fail with a traceback.
            if self.address is not None:
                with lifetime.signals_deferred():
                    self._join()
            else:
                with mainscript.workers_without_script(), lifetime.workers_starting():
                    self._start_cluster(Client, LocalCluster)
        except BaseException:
            self.__exit__()
            raise
        return self

    def _join(self) -> None:
        from distributed import Client

        from sim.study.run.scheduler import check_scheduler

        address = cast(str, self.address)   # _join is called only with an address
        check_scheduler(address)  # refuses, within its timeouts, what is not Dask
        try:
            self.client = Client(address, timeout="10s")
            self.workers = threads_now(self.client)
        except Exception as exc:  # noqa: BLE001 - whatever Dask raises, one line
            raise InputError(f"cannot join the Dask scheduler there ({type(exc).__name__}: "
                             f"{str(exc)[:200]})", place=f"--address {self.address}") from None

    def _start_cluster(self, Client, LocalCluster) -> None:
        import dask

        # Dask's statistical profiler samples the busy thread's stack every 10 ms,
        # which costs a few percent on pure-Python battles: off for our own cluster.
        # Its housekeeping timers (an event-loop tick every 20 ms, system and memory
        # monitors) run on the cores the battles use: slowed, an idle cluster takes
        # about 1 % of a core instead of 5 %. The preload makes each worker process
        # ignore Ctrl-C (it starts with it blocked) and exit with this one. Its logs are
        # silenced below CRITICAL: what stops a study is said in one line by the command
        # (a KilledWorker too).
        with dask.config.set({"distributed.worker.profile.enabled": False,
                              "distributed.admin.tick.interval": "500ms",
                              "distributed.admin.tick.limit": "30s",
                              "distributed.admin.system-monitor.interval": "5s",
                              "distributed.worker.memory.monitor-interval": "1s",
                              "distributed.worker.preload": [lifetime.__name__]}):
            self.cluster = LocalCluster(
                n_workers=self.workers, threads_per_worker=1, processes=self.processes,
                host="127.0.0.1", dashboard_address="127.0.0.1:0",
                silence_logs=logging.CRITICAL)
        # (Each battle keeps the worker's long-lived objects, distributed's and
        # tornado's among them, out of the garbage collector's view while it runs:
        # sim.engine.battle.Battle.run. A freeze here would stop it doing so.)
        self.client = Client(self.cluster)

    def __exit__(self, *exc):
        client, cluster = self.client, self.cluster
        self.client = self.cluster = None
        with lifetime.signals_deferred():
            if client is not None:
                client.close()
            if cluster is not None:
                cluster.close()

    @property
    def _client(self) -> Client:
        return cast("Client", self.client)   # started by __enter__

    def run(self, tasks: Iterable[Task]) -> Iterator[list[Outcome]]:
        from distributed import as_completed as dask_completed
        from distributed.scheduler import KilledWorker

        # A bounded number of tasks in flight, each released once its result is here: so
        # the scheduler holds a few tasks, not the whole study, and a worker that dies
        # takes only its running task with it (held results would be recomputed). The
        # bound follows the workers present now: a worker that joins takes the tasks
        # queued at the scheduler at once, and raises the bound at the next top-up.
        client = self._client
        todo = iter(tasks)
        window = Window(client)
        live = {client.submit(run_task, t, pure=False) for t in islice(todo, window.size())}
        # On our client's loop: by default as_completed tracks futures on the default
        # client's loop, and when that is another client in this process (a notebook's
        # own Client), a result lost with a dead worker and waited for again here
        # fails with "bound to a different event loop" instead of being recomputed.
        done = dask_completed(list(live), loop=client.loop)
        try:
            for fut in done:
                try:
                    outcomes = fut.result()
                except KilledWorker as exc:
                    raise WorkersLost(f"Dask gave up on a task whose workers kept dying "
                                      f"(KilledWorker: {str(exc)[:200]})") from None
                live.discard(fut)
                fut.release()
                for task in islice(todo, max(0, window.size() - len(live))):
                    nxt = client.submit(run_task, task, pure=False)
                    live.add(nxt)
                    done.add(nxt)
                yield outcomes
        finally:
            client.cancel(list(live))


class Window:
    """How many Dask tasks to keep in flight, for the workers the scheduler has now:
    re-read at most every ``every`` seconds (one round trip to the scheduler)."""

    def __init__(self, client: Client, every: float = 1.0):
        self.client, self.every = client, every
        self.read_at = -math.inf
        self.cap = 0

    def size(self) -> int:
        """``in_flight`` of the threads present now (as of at most ``every`` s ago)."""
        if time.monotonic() - self.read_at >= self.every:
            self.cap = in_flight(threads_now(self.client))
            self.read_at = time.monotonic()
        return self.cap


def threads_now(client: Client) -> int:
    """Worker threads the scheduler has now (at least 1: a task waits for a worker)."""
    info = client.scheduler_info(n_workers=0)
    total = info.get("total_threads")
    if total is None:  # distributed before 2025 has no totals: count the workers' threads
        total = sum(w.get("nthreads", 1) for w in info.get("workers", {}).values())
    return max(1, int(total))


def in_flight(threads: int) -> int:
    """Dask tasks submitted at once: two per worker thread (one running, one queued
    behind it, so no thread waits for the round trip) and two more for the tail."""
    return 2 * max(1, threads) + 2


def make_executor(kind: str | None, workers: int = 1, address: str | None = None):
    """The executor for ``--executor``/``--workers``/``--address``. ``--address`` implies
    Dask; ``--workers`` > 1 with no ``--executor`` means the process pool."""
    if address is not None and kind not in (None, "dask"):
        raise InputError(f"joins a Dask scheduler; it cannot be used with "
                         f"--executor {kind}", place="--address")
    if address is not None:
        from sim.study.run.scheduler import parse_address

        parse_address(address)  # a malformed address is refused before anything starts
        return DaskExecutor(workers, address)
    if kind is None:
        kind = "processes" if workers > 1 else "serial"
    if kind == "serial":
        return SerialExecutor()
    if kind == "processes":
        return ProcessExecutor(workers)
    if kind == "dask":
        return DaskExecutor(workers)
    raise InputError(f"unknown executor '{kind}' (expected serial, processes or dask)",
                     place="--executor")
