"""Running a study: plan replications, farm them out, store them, summarize them.

The runner owns the two rules that make results reproducible:

1. a replication's seed depends only on (study seed, replication index) under common
   random numbers, or on (study seed, variant, factor point, index) without;
2. statistics are computed from outcomes keyed by (cell, replication) and read in that
   order, never in arrival order.

Each batch is committed to the run's store as it arrives (the ``--db``, or a temporary
one of the run's own) and no outcome is kept in memory: the statistics read the store
back a cell at a time (``sim.study.run.study_run``), so the client's memory depends on
the study's cells, not on its replications, and tasks are made as the executor asks for
them. ``resume`` records what is stored first and runs only the rest. With a precision
target the study runs the first ``batch`` replications of every cell, checks every
reported interval, and adds ``batch`` more until each half-width is within the target or
the cap is reached; the decision at n looks only at replications 0..n−1, so it is the
same however the work was split or resumed.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
from typing import Any, cast

from sim.study.analysis.stats import Summary, summarize_rows
from sim.study.plan.seeds import replication_seed
from sim.study.plan.study_file import Precision, Study, package_version
from sim.study.run import provenance
from sim.study.run.executors import DEFAULT_BATTLE, SerialExecutor, Task, task_size
from sim.study.run.resume import open_run
from sim.study.run.store import ResultStore, Stored
from sim.study.run.study_run import StudyRun

__all__ = ["PrecisionTarget", "StudyRun", "open_run", "precision_target", "run_jobs", "run_study"]


@dataclass(frozen=True)
class PrecisionTarget:
    """Stop when every reported interval's half-width is <= half_width (or at the cap)."""

    half_width: float
    max_replications: int = 2000
    batch: int = 50
    metrics: tuple[str, ...] | None = None


def precision_target(study: Study, half_width: float | None = None,
                     replications: int | None = None) -> PrecisionTarget | None:
    """The stopping rule of a study run: ``half_width`` (``--precision``) or the file's
    ``precision``, capped at ``replications`` (or the file's ``max_replications``);
    None for a fixed count (the file's, or ``replications`` over a precision file)."""
    p = study.spec.precision
    if half_width is None and (p is None or replications is not None):
        return None
    half = half_width if half_width is not None else cast(Precision, p).half_width  # p is set: above
    cap = replications or (p.max_replications if p else 2000)
    batch = p.batch if p else 50
    metrics = tuple(p.metrics) if p and p.metrics else None
    return PrecisionTarget(half, cap, min(batch, cap), metrics)


def run_study(study: Study, *, executor=None, replications: int | None = None,
              precision: PrecisionTarget | None = None, crn: bool = True,
              store: ResultStore | None = None, resume: bool = False, progress=None,
              battle: str = DEFAULT_BATTLE, per_task: int | None = None,
              allow_changed_code: bool = False) -> StudyRun:
    """Run (or finish) a study and summarize it.

    ``replications`` overrides the study file's count; ``precision`` replaces it with a
    stopping rule. Without ``resume``, a store that already holds rows of this study is an
    ``InputError`` (so two runs never silently mix); with it, so is a store whose rows other
    code made, unless ``allow_changed_code``. ``progress`` is tqdm-like (``total``,
    ``update``, ``refresh``) or None. ``per_task`` fixes the batch size of a task.
    """
    executor = executor or SerialExecutor()
    if study.battle is not None and battle == DEFAULT_BATTLE:
        battle = study.battle   # a study of branches: each replication a branch (sim.decide)
    run = open_run(study, crn, store, resume, allow_changed_code)
    try:
        _run(run, executor, replications, precision, progress, battle, per_task)
    finally:
        run.finish()
    return run


def _run(run: StudyRun, executor, replications: int | None, precision: PrecisionTarget | None,
         progress, battle: str, per_task: int | None) -> None:
    """Run to the count, or to the precision target; the summary of where it stopped."""
    if precision is None:
        # None (a TypeError in _ensure) if a study with a precision target in its file is
        # run with neither replications nor a PrecisionTarget (as sim.run_study does).
        n = cast(int, replications if replications is not None else run.study.spec.replications)
        _ensure(run, n, executor, progress, battle, per_task)
        run.replications = n
        run.summary = _summarize(run, n)
        return
    n = min(precision.batch, precision.max_replications)
    while True:
        _ensure(run, n, executor, progress, battle, per_task)
        run.replications = n
        run.summary = _summarize(run, n)
        if run.summary.precise(precision.half_width, precision.metrics):
            run.stop = "precision"
            return
        if n >= precision.max_replications:
            run.stop = "cap"
            return
        n = min(n + precision.batch, precision.max_replications)


def _ensure(run: StudyRun, n: int, executor, progress, battle: str,
            per_task: int | None) -> None:
    """Run every replication < n of every cell that is not yet recorded."""
    cells = run.study.cells
    todo = {ci: run.reps(ci).missing(n) for ci in range(len(cells))}
    count = sum(n - run.reps(ci).below(n) for ci in range(len(cells)))
    if progress is not None:
        progress.total = len(cells) * n
        progress.n = len(cells) * n - count
        progress.refresh()
    run_jobs(run, todo, count, executor, progress, battle, per_task)


def run_jobs(run: StudyRun, todo: Mapping[int, Iterable[int]], count: int, executor, progress,
             battle: str = DEFAULT_BATTLE, per_task: int | None = None) -> None:
    """Run the replications ``todo`` (cell -> its replications, in order; ``count`` of
    them in all), storing each batch as it arrives and recording it; ``progress``
    (tqdm-like) is updated as they finish."""
    if not count:
        return
    cells = run.study.cells
    size = per_task or task_size(count, getattr(executor, "workers", 1),
                                 getattr(executor, "most_per_task", 50))
    version = package_version()
    made = [provenance.dumps(run.made_by)]
    store = cast(ResultStore, run.store)   # every run has one (open_run)
    for outcomes in executor.run(_tasks(run, todo, size, battle)):
        batch = []
        for o in outcomes:
            cell = cells[o.cell]
            batch.append(Stored(cell.variant, cell.point_json, o.rep, o.seed, o.metrics, version,
                                cell.scenario_hash, o.error, o.traceback))
        store.add(run.study_hash, batch, made)
        for o in outcomes:
            run.reps(o.cell).add(o.rep)
        run.ran += len(batch)
        if progress is not None:
            progress.update(len(batch))


def _tasks(run: StudyRun, todo: Mapping[int, Iterable[int]], size: int,
           battle: str) -> Iterator[Task]:
    """The tasks of ``todo``, made as the executor asks for them: each cell's replications
    in batches of ``size``, the cells interleaved so every variant advances together (and
    a killed run has some of each)."""
    study = run.study
    chunks = {ci: _batches(iter(todo[ci]), size) for ci in sorted(todo)}
    # Recipes, not scenarios: a worker builds each cell's scenario once (sim.study.plan.cells).
    shipped: dict[int, Any] = {}
    while chunks:
        for ci in list(chunks):
            reps = next(chunks[ci], None)
            if reps is None:
                del chunks[ci]
                continue
            cell = study.cells[ci]
            if ci not in shipped:
                shipped[ci] = cell.recipe()
            jobs = tuple((rep, replication_seed(study.spec.seed, rep, crn=run.crn,
                                                variant=cell.variant, point=cell.point_json))
                         for rep in reps)
            yield Task(battle, ci, shipped[ci], cell.scenario_hash, jobs)


def _batches(reps: Iterator[int], size: int) -> Iterator[list[int]]:
    while batch := list(islice(reps, size)):
        yield batch


def _summarize(run: StudyRun, n: int) -> Summary:
    """The summary of the replications < n, read from the store a cell at a time."""
    cells = run.study.cells
    with run.reader() as rows:
        if not run.metrics:
            # No metric list in the study: report every metric the battles produced.
            run.metrics = sorted(rows.names(range(len(cells)), n))
        return summarize_rows(cells, run.study.baseline, rows, run.metrics, run.kinds, n,
                              paired=run.crn, most=n)
