"""Running a study: plan replications, farm them out, store them, summarize them.

The runner owns the two rules that make results reproducible:

1. a replication's seed depends only on (study seed, replication index) under common
   random numbers, or on (study seed, variant, factor point, index) without;
2. statistics are computed from outcomes keyed by (cell, replication) and read in that
   order, never in arrival order.

With a store, each batch is committed as it arrives, and ``resume`` loads what is stored
first and runs only the rest. With a precision target the study runs the first ``batch``
replications of every cell, checks every reported interval, and adds ``batch`` more until
each half-width is within the target or the cap is reached; the decision at n looks only
at replications 0..n−1, so it is the same however the work was split or resumed.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, cast

from sim.errors import InputError
from sim.metrics import metric_kinds
from sim.study.analysis.stats import Summary, summarize
from sim.study.plan.seeds import replication_seed
from sim.study.plan.study_file import Precision, Study, package_version
from sim.study.run import provenance
from sim.study.run.executors import DEFAULT_BATTLE, SerialExecutor, Task, task_size
from sim.study.run.provenance import Made, Mixed
from sim.study.run.store import ResultStore, Stored
from sim.systems.registry import MetricKind


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


@dataclass
class StudyRun:
    """What a finished study produced: its outcomes in (cell, rep) order and a summary."""

    study: Study
    crn: bool
    study_hash: str
    replications: int  # the N per cell that the summary is computed from
    metrics: list[str]
    kinds: dict[str, MetricKind]
    records: dict[tuple[int, int], Stored] = field(default_factory=dict)
    summary: Summary | None = None
    resumed: int = 0  # replications loaded from the store rather than run
    other_versions: list[str] = field(default_factory=list)  # of resumed rows, if not ours
    notes: list[str] = field(default_factory=list)  # things the user should know
    ran: int = 0
    stop: str = "replications"  # or "precision" (target met) or "cap" (target not met)
    made_by: Made = ()  # the code this run's battles run
    mixed_code: Mixed | None = None  # resumed rows that other code made (--allow-changed-code)

    @cached_property
    def index(self) -> dict[tuple[str, str], int]:
        """Each cell's index by (variant, factor point's canonical JSON)."""
        return {(c.variant, c.point_json): i for i, c in enumerate(self.study.cells)}

    @property
    def failures(self) -> list[Stored]:
        return [self.records[k] for k in sorted(self.records) if self.records[k].metrics is None]

    def rows(self) -> dict[tuple[int, int], dict[str, Any]]:
        """Metrics of the successful replications < N, keyed (cell, rep), in that order."""
        return {k: m for k in sorted(self.records)
                if (m := self.records[k].metrics) is not None and k[1] < self.replications}


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
    if precision is None:
        # None (a TypeError in _ensure) if a study with a precision target in its file is
        # run with neither replications nor a PrecisionTarget (as sim.run_study does).
        n = cast(int, replications if replications is not None else study.spec.replications)
        _ensure(run, n, executor, store, progress, battle, per_task)
        run.replications = n
        run.summary = _summarize(run, n)
        return run
    n = min(precision.batch, precision.max_replications)
    while True:
        _ensure(run, n, executor, store, progress, battle, per_task)
        run.replications = n
        run.summary = _summarize(run, n)
        if run.summary.precise(precision.half_width, precision.metrics):
            run.stop = "precision"
            return run
        if n >= precision.max_replications:
            run.stop = "cap"
            return run
        n = min(n + precision.batch, precision.max_replications)


def open_run(study: Study, crn: bool, store: ResultStore | None, resume: bool,
             allow_changed_code: bool = False) -> StudyRun:
    """A study's run before any battle: registered in ``store`` and, with ``resume``, holding
    what it stores (and the rows it adopts from earlier configurations of the study).
    Without ``resume``, a store that already holds rows of this study is an
    ``InputError``; so is, with it, one whose rows other code made
    (``sim.study.run.provenance``), unless ``allow_changed_code``."""
    key = study.key(crn)
    run = StudyRun(study, crn, key, 0, list(study.metrics or []), metric_kinds(study.scenario),
                   made_by=provenance.made_by(study))
    if store is None:
        return run
    rows, fails = store.counts(key)
    if (rows or fails) and not resume:
        raise InputError(f"already holds {rows + fails} replications of study "
                         f"'{study.name}' (hash {key}); add --resume to continue it, "
                         f"or give another --db", file=store.path, place="--db")
    others = store.other_hashes(study.name, key)
    adopted: list[Stored] = []
    codes: list[str] = []
    if resume:
        _load(run, store)
        adopted, sources = _adoptable(run, store, others)
        stored = store.codes([key, *sources])
        made = [provenance.loads(c, store.path) for c in stored]
        versions = sorted({s.version for s in [*run.records.values(), *adopted]})
        run.mixed_code = provenance.check(made, run.made_by, study.name, store.path,
                                          allow_changed_code, versions)
        codes = [json.dumps(c, sort_keys=True, separators=(",", ":")) for c in stored]
    store.register(key, study.name, study.config(crn))
    if resume:
        # The adopted rows under this study's hash, and every code its rows were made by.
        store.add(key, adopted, codes)
        for s in adopted:
            run.records[(run.index[(s.variant, s.point)], s.rep)] = s
        run.resumed = len(run.records)
        run.other_versions = sorted({s.version for s in run.records.values()} - {package_version()})
        if run.mixed_code is not None:
            run.notes.append(f"the results mix code (resumed with {provenance.OPTION}): "
                             f"{run.mixed_code.changes}")
        if adopted:
            run.notes.append(
                f"{len(adopted)} replications of the same cells reused from an earlier "
                f"configuration of '{study.name}' in {store.path} (a design with fewer "
                "points), not run again")
        elif not run.resumed and others:
            run.notes.append(
                f"nothing to resume: {store.path} holds '{study.name}' only as another "
                f"configuration (hash {others[-1]}: a changed seed, CRN mode, scenario or "
                "variant), so every replication runs afresh")
    return run


def _load(run: StudyRun, store: ResultStore) -> None:
    for s in store.load(run.study_hash):
        ci = run.index.get((s.variant, s.point))
        if ci is not None:
            run.records[(ci, s.rep)] = s


def _adoptable(run: StudyRun, store: ResultStore, others: list[str]) -> tuple[list[Stored], list[str]]:
    """The rows stored under earlier hashes of this study for cells it still has, and those
    hashes: the same variant and point, the same resolved scenario (hash) and the seed this
    study would give the replication, so they are the very battles it would run. A design
    extended with more points (or stacks) thereby reruns nothing. ``open_run`` stores them
    under the new hash too, so the store alone says what the study holds."""
    study = run.study
    taken: dict[tuple[int, int], Stored] = {}
    sources = []
    for other in reversed(others):  # the newest first
        before = len(taken)
        for s in store.load(other):
            ci = run.index.get((s.variant, s.point))
            if ci is None or (ci, s.rep) in run.records or (ci, s.rep) in taken:
                continue
            cell = study.cells[ci]
            seed = replication_seed(study.spec.seed, s.rep, crn=run.crn, variant=cell.variant,
                                    point=cell.point_json)
            if s.scenario_hash == cell.scenario_hash and s.seed == seed:
                taken[(ci, s.rep)] = s
        if len(taken) > before:
            sources.append(other)
    return list(taken.values()), sources


def _ensure(run: StudyRun, n: int, executor, store, progress, battle: str,
            per_task: int | None) -> None:
    """Run every replication < n of every cell that is not yet recorded."""
    cells = run.study.cells
    todo = [(ci, rep) for rep in range(n) for ci in range(len(cells))
            if (ci, rep) not in run.records]
    if progress is not None:
        progress.total = len(cells) * n
        progress.n = len(cells) * n - len(todo)
        progress.refresh()
    run_jobs(run, todo, executor, store, progress, battle, per_task)


def run_jobs(run: StudyRun, todo: list[tuple[int, int]], executor, store, progress,
             battle: str = DEFAULT_BATTLE, per_task: int | None = None) -> None:
    """Run the replications ``todo`` ((cell, rep) pairs), record and store each batch as
    it arrives; ``progress`` (tqdm-like) is updated as they finish."""
    if not todo:
        return
    study = run.study
    cells = study.cells
    size = per_task or task_size(len(todo), getattr(executor, "workers", 1),
                                 getattr(executor, "most_per_task", 50))
    per_cell: dict[int, list[int]] = {}
    for ci, rep in todo:
        per_cell.setdefault(ci, []).append(rep)
    chunks = {ci: [reps[i:i + size] for i in range(0, len(reps), size)]
              for ci, reps in per_cell.items()}
    # Recipes, not scenarios: a worker builds each cell's scenario once (sim.study.plan.cells).
    shipped = {ci: cells[ci].recipe() for ci in chunks}
    tasks = []
    # Interleave cells so every variant advances together (and a killed run has some of each).
    for k in range(max(len(c) for c in chunks.values())):
        for ci in sorted(chunks):
            if k < len(chunks[ci]):
                cell = cells[ci]
                jobs = tuple((rep, replication_seed(study.spec.seed, rep, crn=run.crn,
                                                    variant=cell.variant, point=cell.point_json))
                             for rep in chunks[ci][k])
                tasks.append(Task(battle, ci, shipped[ci], cell.scenario_hash, jobs))
    version = package_version()
    made = [provenance.dumps(run.made_by)]
    for outcomes in executor.run(tasks):
        batch = []
        for o in outcomes:
            cell = cells[o.cell]
            s = Stored(cell.variant, cell.point_json, o.rep, o.seed, o.metrics, version,
                       cell.scenario_hash, o.error, o.traceback)
            run.records[(o.cell, o.rep)] = s
            batch.append(s)
        if store is not None:
            store.add(run.study_hash, batch, made)
        run.ran += len(batch)
        if progress is not None:
            progress.update(len(batch))


def _summarize(run: StudyRun, n: int) -> Summary:
    rows = run.rows()
    if not run.metrics:
        # No metric list in the study: report every metric the battles produced.
        run.metrics = sorted({m for r in rows.values() for m in r})
    return summarize(run.study.cells, run.study.baseline, rows, run.metrics, run.kinds, reps=n,
                     paired=run.crn)
