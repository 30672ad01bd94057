"""Sensitivity indices of a designed study, computed by SALib, as its design's declared
analyses say (``Design.analyses``):

- ``Analysis.SOBOL`` (the ``saltelli`` design): first-order (S1) and total (ST) Sobol'
  indices (``SALib.analyze.sobol``: Saltelli 2010 / Jansen estimators);
- ``Analysis.MORRIS`` (the ``morris`` design): elementary effects, mu* (mean absolute
  effect), mu and sigma (``SALib.analyze.morris``).

Both come with bootstrap intervals (SALib's resampling of the design's blocks or
trajectories; 95 %, a fixed seed). The response at a design point is the mean of a metric
over the replications that every point of the design has stored, so all points average
the same replication indices: under common random numbers (the default) those share
their dice, and the noise that is common to two points cancels in the differences the
estimators are built on. A design that is only partly stored is analysed on its complete
prefix: the first Saltelli blocks or Morris trajectories whose every row is stored.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from sim.systems.designs import Analysis
from sim.systems.registry import REGISTRY

LEVEL = 0.95
RESAMPLES = 1000
# The bootstrap's seed. Not 0: SALib's Sobol' analysis reads a seed of 0 as "no seed"
# and would draw different intervals on every run.
BOOTSTRAP_SEED = 2007


@dataclass(frozen=True)
class Index:
    """One sensitivity index of one factor with its bootstrap interval."""

    factor: str
    name: str  # S1, ST, mu_star, mu, sigma
    value: float
    ci_low: float
    ci_high: float

    def as_dict(self) -> dict[str, Any]:
        """Plain numbers for CSV and JSON (NaN as None)."""
        return {k: (None if isinstance(v, float) and not np.isfinite(v) else v)
                for k, v in asdict(self).items()}


def problem(names: Sequence[str]) -> dict[str, Any]:
    """The SALib problem of a design in unit coordinates."""
    return {"num_vars": len(names), "names": list(names), "bounds": [[0.0, 1.0]] * len(names)}


def sobol_indices(names: Sequence[str], y: np.ndarray, seed: int = BOOTSTRAP_SEED,
                  resamples: int = RESAMPLES) -> list[Index]:
    """First-order and total Sobol' indices from Saltelli-plan responses ``y``
    (N (k + 2) values in the plan's row order)."""
    from SALib.analyze import sobol

    if not seed:
        raise ValueError("a bootstrap seed of 0 is no seed to SALib: give another")
    res = sobol.analyze(problem(names), np.asarray(y, dtype=float), calc_second_order=False,
                        num_resamples=resamples, conf_level=LEVEL, seed=seed)
    out = []
    for i, name in enumerate(names):
        for kind in ("S1", "ST"):
            v, half = float(res[kind][i]), float(res[f"{kind}_conf"][i])
            out.append(Index(name, kind, v, v - half, v + half))
    return out


def morris_indices(names: Sequence[str], x: np.ndarray, y: np.ndarray, levels: int,
                   seed: int = BOOTSTRAP_SEED, resamples: int = RESAMPLES) -> list[Index]:
    """Morris elementary effects: mu* with its bootstrap interval, mu and sigma, from
    trajectories ``x`` (unit coordinates, k + 1 rows each) and their responses ``y``."""
    from SALib.analyze import morris

    res = morris.analyze(problem(names), np.asarray(x, dtype=float), np.asarray(y, dtype=float),
                         num_resamples=resamples, conf_level=LEVEL, num_levels=levels,
                         seed=seed)
    out = []
    for i, name in enumerate(names):
        mu_star, half = float(res["mu_star"][i]), float(res["mu_star_conf"][i])
        out.append(Index(name, "mu_star", mu_star, mu_star - half, mu_star + half))
        out.append(Index(name, "mu", float(res["mu"][i]), np.nan, np.nan))
        out.append(Index(name, "sigma", float(res["sigma"][i]), np.nan, np.nan))
    return out


def complete_prefix(rows: Sequence[int], have: set[int], block: int) -> int:
    """How many whole blocks of ``block`` rows, from the start, have every row's point in
    ``have`` (a Saltelli block is k + 2 rows, a Morris trajectory k + 1)."""
    n = 0
    while (n + 1) * block <= len(rows) and all(p in have for p in rows[n * block:(n + 1) * block]):
        n += 1
    return n


def _sobol(plan: Any, upto: int, y: np.ndarray, seed: int, resamples: int) -> list[Index]:
    return sobol_indices(plan.keys, y, seed, resamples)


def _morris(plan: Any, upto: int, y: np.ndarray, seed: int, resamples: int) -> list[Index]:
    return morris_indices(plan.keys, plan.unit[:upto], y, plan.levels, seed, resamples)


#: The analyses made from a design's rows: the rows a block has beyond its k factors, and
#: how the indices are made from the first ``upto`` rows' responses.
ON_ROWS: dict[Analysis, tuple[int, Callable[[Any, int, np.ndarray, int, int], list[Index]]]] = {
    Analysis.SOBOL: (2, _sobol), Analysis.MORRIS: (1, _morris)}


def indices(plan, responses: Mapping[int, float], seed: int = BOOTSTRAP_SEED,
            resamples: int = RESAMPLES) -> tuple[list[Index], int]:
    """The plan's indices from per-point responses (point index -> mean), as its design's
    analyses say; returns them and how many blocks (Saltelli base points, Morris
    trajectories) they rest on (0: none yet, or none its design supports)."""
    found = [a for a in ON_ROWS if a in REGISTRY.designs.get(plan.method).analyses]
    if not found or plan.rows is None:
        return [], 0
    extra, compute = ON_ROWS[found[0]]
    block = len(plan.keys) + extra
    n = complete_prefix(plan.rows, set(responses), block)
    if n < 2:
        return [], n
    y = np.array([responses[p] for p in plan.rows[:n * block]], dtype=float)
    return compute(plan, n * block, y, seed, resamples), n


def ranking(found: list[Index]) -> list[str]:
    """Factors from most to least influential: by total index (Sobol') or mu* (Morris)."""
    key = "ST" if any(i.name == "ST" for i in found) else "mu_star"
    return [i.factor for i in sorted((i for i in found if i.name == key),
                                     key=lambda i: -i.value)]
