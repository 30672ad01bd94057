"""Selecting a study's best cell with KN, on battles (``sim select``).

The procedure is ``sim.study.analysis.kn``; here its sampler runs the study's battles.
Replication j of a cell is the very battle ``sim study`` runs as replication j (the same
seed: under common random numbers, the same in every cell), and each one run is stored
in the study's results store under the study's hash, like any of its replications. So
``--resume`` takes what is stored (a selection stopped part-way, or a ``sim study`` run
of the same study) and runs only what is missing; since KN is a function of the values
of (cell, replication), the selection is the same however it was split, batched or
resumed.

A replication that raised, or that gave no finite value of the metric, stops the
selection (``SelectionFailed``): KN needs every value of the replications it uses.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from sim.errors import InputError
from sim.study.analysis.kn import Selection, bonferroni_size, check, kn, zero_one_spread
from sim.study.plan.select_spec import Select
from sim.study.plan.study_file import Study
from sim.study.run.executors import DEFAULT_BATTLE, SerialExecutor
from sim.study.run.runner import StudyRun, open_run, run_jobs
from sim.study.run.store import ResultStore, Stored

#: Where each parameter of a selection came from, named in a message about it: the
#: study file's ``select`` section (its key), or an option or argument (its name).
Places = dict[str, str]


@dataclass(frozen=True)
class SelectSpec:
    """A selection's parameters, checked: the metric, direction, δ, α, n0 and a cap."""

    metric: str
    maximise: bool
    delta: float
    alpha: float
    n0: int = 10
    cap: int | None = None
    places: Places = field(default_factory=dict, compare=False)  # named in a refusal


class SelectionFailed(RuntimeError):
    """A replication the selection needs raised, or gave no finite value of its metric."""

    def __init__(self, record: Stored, why: str):
        super().__init__(why)
        self.record = record


@dataclass
class SelectRun:
    """A finished selection: the study's run (its records), KN's outcome and the cost."""

    run: StudyRun
    spec: SelectSpec
    selection: Selection
    kind: str                       # the metric's kind: binary, count or real
    notes: list[str] = field(default_factory=list)
    from_store: int = 0             # replications it used that the store already held

    @property
    def labels(self) -> list[str]:
        """The cells' labels, in the study's order (KN's system i is cell i)."""
        return [c.label for c in self.run.study.cells]

    @property
    def fixed_size(self) -> int:
        """Replications per cell of a two-stage study of fixed second-stage size with the
        same guarantee, from this first stage (``kn.bonferroni_size`` with n0)."""
        return bonferroni_size(self.selection.variances, self.spec.delta, self.spec.alpha,
                               self.spec.n0)

    @property
    def known_size(self) -> int:
        """Replications per cell of a fixed-size study with the same guarantee that knew
        the variances, taken to be the first stage's (``kn.bonferroni_size``)."""
        return bonferroni_size(self.selection.variances, self.spec.delta, self.spec.alpha)


def select_spec(study: Study, given: dict, places: Places) -> SelectSpec:
    """The selection's parameters: ``given`` (options; None: not given) over the study
    file's ``select`` section; each bad or missing one is an ``InputError`` naming where
    it came from (``places``: parameter → option name)."""
    from sim.metrics import metric_kinds
    from sim.scenario.yamlfile import place_of
    from sim.study.plan.study_file import unknown_metric

    section: Select | None = study.spec.select
    defaults = {"alpha": 0.05, "n0": 10}
    value, where = {}, {}
    for key in ("metric", "direction", "delta", "alpha", "n0", "max_replications"):
        if given.get(key) is not None:
            value[key], where[key] = given[key], places[key]
        elif section is not None and key in section.model_fields_set:
            value[key] = getattr(section, key)
            where[key] = f"{study.path}: {place_of(('select', key), study.lines)}"
        else:
            value[key], where[key] = defaults.get(key), places[key]
    for key in ("metric", "direction", "delta"):
        if value[key] is None:
            raise InputError(f"give {places[key]} or the study file's select.{key} (expected "
                             "the metric, direction and indifference zone of the selection)",
                             place=places[key])
    kinds = metric_kinds(study.scenario)
    if value["metric"] not in kinds:
        raise InputError(unknown_metric(value["metric"], kinds, study.scenario.ruleset),
                         place=where["metric"])
    names = {"k": f"{study.path}: variants", "delta": where["delta"], "alpha": where["alpha"],
             "n0": where["n0"], "cap": where["max_replications"]}
    # A 0/1 metric bounds the first stage's S²: a maximum beyond the limit is refused
    # before the first battle (any other, once the first stage has measured it).
    spread = zero_one_spread(int(value["n0"])) if kinds[value["metric"]] == "binary" else None
    check(len(study.cells), float(value["delta"]), float(value["alpha"]), int(value["n0"]),
          value["max_replications"], names, spread=spread)
    return SelectSpec(value["metric"], value["direction"] == "maximise", float(value["delta"]),
                      float(value["alpha"]), int(value["n0"]), value["max_replications"], names)


def run_selection(study: Study, spec: SelectSpec, *, executor=None, crn: bool = True,
                  store: ResultStore | None = None, resume: bool = False, progress=None,
                  batch: int = 1, battle: str = DEFAULT_BATTLE,
                  per_task: int | None = None, allow_changed_code: bool = False) -> SelectRun:
    """Select the study's best cell by ``spec`` with KN, running (and storing) only the
    replications it asks for that ``store`` does not already hold (with ``resume``; rows
    that other code made only with ``allow_changed_code``)."""
    executor = executor or SerialExecutor()
    run = open_run(study, crn, store, resume, allow_changed_code)
    try:
        return _select(run, spec, executor, progress, batch, battle, per_task)
    finally:
        run.finish()


def _select(run: StudyRun, spec: SelectSpec, executor, progress, batch: int, battle: str,
            per_task: int | None) -> SelectRun:
    """KN on the run's cells, its sampler running (and storing) what the store lacks."""
    study = run.study
    run.metrics = [spec.metric]
    metric = spec.metric
    held = {ci: run.reps(ci).copy() for ci in range(len(study.cells))}

    def sample(systems, start: int, stop: int) -> np.ndarray:
        todo = {ci: missing for ci in systems
                if (missing := [rep for rep in range(start, stop) if rep not in run.reps(ci)])}
        count = sum(len(reps) for reps in todo.values())
        if progress is not None:
            progress.total = (progress.total or 0) + count
            progress.refresh()
        run_jobs(run, todo, count, executor, progress, battle, per_task)
        out = np.empty((len(systems), stop - start))
        with run.reader() as rows:
            for a, ci in enumerate(systems):
                for j, record in enumerate(rows.records(ci, start, stop)):
                    out[a, j] = _value(record, metric)
        return out

    selection = kn(sample, len(study.cells), delta=spec.delta, alpha=spec.alpha, n0=spec.n0,
                   maximise=spec.maximise, batch=batch, cap=spec.cap, names=spec.places)
    run.replications = selection.stage
    from_store = sum(held[ci].below(n) for ci, n in enumerate(selection.counts))
    done = SelectRun(run, spec, selection, str(run.kinds.get(metric, "real")), list(run.notes),
                     from_store)
    labels = done.labels
    for i, j in selection.zero_pairs:
        done.notes.append(f"{labels[i]} and {labels[j]} gave the same {metric} in each of the "
                          f"{spec.n0} first-stage replications: KN takes the variance of their "
                          "difference as 0 and compares them by their means alone (a larger "
                          "n0 estimates it better)")
    return done


def _value(record: Stored, metric: str) -> float:
    if record.metrics is None:
        raise SelectionFailed(record, f"replication {record.rep} of {record.variant} raised: "
                                      f"{record.error}")
    value = record.metrics.get(metric)
    if not isinstance(value, (int, float)) or not math.isfinite(value):
        raise SelectionFailed(record, f"replication {record.rep} of {record.variant} gave no "
                                      f"finite {metric} (got {value!r})")
    return float(value)
