"""The analysis of a designed study from what its store holds: responses per design
point, sensitivity indices (``sim.study.analysis.sensitivity``) and metamodels
(``sim.study.analysis.metamodel``), per variant and metric.

Nothing is run here: the analysis reads the rows stored under the study's hash, so it
can follow a study that is still being extended (``--resume`` with more points or more
replications) and always uses whatever is stored. A point's response is the metric's
mean over the replication indices that *every* stored point of the variant has, so all
points average the same seeds (common random numbers). The rows are read a point at a
time (``sim.study.analysis.blocks``): only the points' means are held.
"""
from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np

from sim.errors import InputError
from sim.study.analysis.blocks import MemoryRows, Rows, groups
from sim.study.analysis.metamodel import Metamodel, fit
from sim.study.analysis.sensitivity import BOOTSTRAP_SEED, RESAMPLES, Index, indices
from sim.study.plan.factors import Factor, is_number
from sim.study.plan.placing import Plan
from sim.study.plan.quality import Properties, properties

#: The libraries of the ``analysis`` extra (with the ``plots`` and ``frames`` extras' own).
EXTRA = ("SALib", "sklearn", "statsmodels", "matplotlib", "pandas")


def missing_extra() -> list[str]:
    """The analysis libraries that are not installed."""
    return [m for m in EXTRA if importlib.util.find_spec(m) is None]

@dataclass
class MetricAnalysis:
    """One metric of one variant: responses, indices and metamodels."""

    variant: str
    metric: str
    responses: dict[int, float]  # point index -> mean over the common replications
    indices: list[Index] = field(default_factory=list)
    blocks: int = 0  # Saltelli base points or Morris trajectories behind the indices
    model: Metamodel | None = None
    note: str = ""  # why something could not be computed


@dataclass
class Analysis:
    """Everything ``sim analyse`` reports about a stored study."""

    study: Any
    study_hash: str
    plan: Plan
    design: Properties
    replications: dict[str, int]  # variant -> replications averaged at every point
    results: list[MetricAnalysis]
    kinds: dict[str, str]


def plan_of_study(study) -> Plan:
    """The study's design; for a study whose design keeps no plan (a grid, a Latin hypercube)
    one is made from its points (numbers become ranges from the lowest to the highest,
    anything else levels)."""
    if study.plan is not None:
        return study.plan
    if study.spec.factors is None:
        raise InputError("the study has no factors, so there is nothing to analyse "
                         "(`sim study` compares its variants)", file=study.path,
                         place="factors")
    first = study.cells[0].variant
    points = [tuple(v for _, v in c.point) for c in study.cells if c.variant == first]
    keys = [k for k, _ in study.cells[0].point]
    factors = []
    for j, key in enumerate(keys):
        values = [p[j] for p in points]
        if all(is_number(v) for v in values) and min(values) < max(values):
            whole = all(isinstance(v, int) for v in values)
            factors.append(Factor(key, "integer" if whole else "real", min(values), max(values)))
        else:
            levels = list(dict.fromkeys(json.dumps(v, sort_keys=True) for v in values))
            factors.append(Factor(key, "categorical", levels=tuple(json.loads(v) for v in levels)))
    unit = np.array([[_unit(f, v) for f, v in zip(factors, p)] for p in points], dtype=float)
    return Plan(study.spec.factors.design, factors, points, unit)


def _unit(f: Factor, v: Any) -> float:
    if f.kind == "categorical":
        return (f.levels.index(v) + 0.5) / len(f.levels)
    return (float(v) - f.low) / (f.high - f.low)


def analyse(study, stored: Rows | Iterable[Any], kinds: dict[str, str],
            metrics: list[str] | None = None, seed: int = BOOTSTRAP_SEED,
            resamples: int = RESAMPLES, study_hash: str = "") -> Analysis:
    """Analyse the stored replications of this study's hash: a ``Rows`` source (the
    store's, read a design point at a time) or its ``Stored`` rows."""
    source = stored if hasattr(stored, "block") else MemoryRows.of_stored(stored, study.cells)
    rows = cast(Rows, source)
    plan = plan_of_study(study)
    results, reps_used = [], {}
    for variant in study.spec.variants:
        points = [i for i, c in enumerate(study.cells) if c.variant == variant]
        held, common = _common(rows, points)
        reps_used[variant] = len(common)
        names = metrics or study.metrics or sorted(rows.names([points[p] for p in held]))
        means = _means(rows, points, held, common, names)
        for metric in names:
            results.append(_metric(plan, variant, metric, means[metric], len(common) > 0, seed,
                                   resamples))
    return Analysis(study, study_hash, plan, properties(plan.unit), reps_used, results, kinds)


def _common(rows: Rows, points: list[int]) -> tuple[list[int], np.ndarray]:
    """The design points (indices into ``points``) with a stored replication, and the
    replications every one of them has."""
    held: list[int] = []
    common = np.empty(0, dtype=np.int64)
    for p, ci in enumerate(points):
        reps = rows.reps(ci)
        if len(reps):
            common = reps if not held else np.intersect1d(common, reps, assume_unique=True)
            held.append(p)
    return held, common


def _means(rows: Rows, points: list[int], held: list[int], common: np.ndarray,
           names: list[str]) -> dict[str, dict[int, float]]:
    """Each metric's mean at each point over the common replications with a value."""
    means: dict[str, dict[int, float]] = {m: {} for m in names}
    for group in groups(names, len(common)):
        for p in held:
            block = rows.block(points[p], group)
            kept = block.values[np.isin(block.reps, common)]
            for j, m in enumerate(group):
                vals = kept[:, j][np.isfinite(kept[:, j])]
                if len(vals):
                    means[m][p] = float(np.mean(vals))
    return means


def _metric(plan: Plan, variant: str, metric: str, responses: dict[int, float], common: bool,
            seed: int, resamples: int) -> MetricAnalysis:
    out = MetricAnalysis(variant, metric, responses)
    if not common:
        out.note = "no replication index is stored at every point yet"
        return out
    if len(set(responses.values())) < 2:
        out.note = f"{metric} does not vary over the design points"
        return out
    if plan.rows is not None:
        out.indices, out.blocks = indices(plan, responses, seed, resamples)
        if not out.indices:
            out.note = "fewer than two complete Saltelli blocks / Morris trajectories stored"
    stored = sorted(responses)
    if len(stored) >= 4:
        out.model = fit(plan.factors, [plan.points[p] for p in stored],
                        [responses[p] for p in stored], metric, seed)
    return out
