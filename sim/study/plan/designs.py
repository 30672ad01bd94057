"""Designs: where in factor space a study runs.

Every design is a matrix of rows in the unit cube, one column per factor, mapped to knob
values by ``Factor.value`` (``sim.study.plan.factors``). A *point* is one distinct row of
values; repeated rows (integer and categorical factors make them) become one point, run
once. Designs whose analysis needs the rows themselves (``saltelli``, ``morris``) keep
them, as indices into the points.

| design | rows | size from | library |
|---|---|---|---|
| ``grid`` | every combination of the listed values | the lists | itertools |
| ``factorial`` | every combination of ``levels`` values per factor | ``levels`` (2) | itertools |
| ``fractional`` | a 2^(k-p) fraction from ``generators`` ("a b c abc") | the generators | numpy |
| ``lhs`` | a Latin hypercube | ``samples`` | scipy.stats.qmc |
| ``optimal_lhs`` | a Latin hypercube with low centred discrepancy | ``samples`` | scipy.stats.qmc |
| ``sobol`` / ``halton`` | scrambled low-discrepancy points | ``samples`` | scipy.stats.qmc |
| ``nolh`` | a nearly orthogonal Latin hypercube | factors (``samples``, ``stacks``) | pycubedoe's tables |
| ``saltelli`` | Saltelli's plan for Sobol' indices: N (k + 2) rows | ``samples`` = N | SALib |
| ``morris`` | ``samples`` trajectories of k + 1 rows on a ``levels`` grid | ``samples`` | SALib |

Every random choice is drawn from the study seed (SeedSequence, keyed by the design's
name), so a design is the same on every machine. ``sobol``, ``halton``, ``saltelli`` and
``morris`` are *extendable*: the first rows of a larger design are the rows of a smaller
one, so raising ``samples`` (or ``stacks`` for ``nolh``) keeps every stored point.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from sim.study.plan.factors import Factor, parse_factor
from sim.study.plan.seeds import stable_key

SPACE_FILLING = ("lhs", "optimal_lhs", "sobol", "halton", "nolh")
SENSITIVITY = ("saltelli", "morris")
METHODS = ("grid", "factorial", "fractional", *SPACE_FILLING, *SENSITIVITY)
POWER_OF_TWO = ("sobol", "saltelli")


@dataclass
class Plan:
    """A design's points (distinct value tuples, in design order) and, where the analysis
    needs them, its rows (indices into the points) and their unit coordinates."""

    method: str
    factors: list[Factor]
    points: list[tuple[Any, ...]]
    unit: np.ndarray  # one row per point (or per design row when ``rows`` is set)
    rows: list[int] | None = None
    levels: int = 4  # morris: the grid's levels

    @property
    def keys(self) -> list[str]:
        """The factors' dotted keys, in column order."""
        return [f.key for f in self.factors]


def rng_for(seed: int, method: str) -> np.random.Generator:
    """The design's own random stream, derived from the study seed."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(stable_key(method),)))


def unit_rows(method: str, factors: list[Factor], seed: int, samples: int | None,
              stacks: int, levels: int, generators: list[str] | None) -> np.ndarray:
    """The design's rows in the unit cube (before values are mapped)."""
    from scipy.stats import qmc

    k = len(factors)
    if method in ("lhs", "optimal_lhs"):   # the one Latin hypercube; optimal_lhs optimizes it
        optimization = "random-cd" if method == "optimal_lhs" else None
        return qmc.LatinHypercube(d=k, optimization=optimization, rng=rng_for(seed, method)).random(samples)
    if method == "sobol":
        return qmc.Sobol(d=k, scramble=True, rng=rng_for(seed, method)).random(samples)
    if method == "halton":
        return qmc.Halton(d=k, scramble=True, rng=rng_for(seed, method)).random(samples)
    if method == "nolh":
        from sim.study.plan.nolh import nolh

        return nolh(k, samples, stacks)
    if method == "factorial":
        per = [_spread_units(f, levels) for f in factors]
        return np.array(list(itertools.product(*per)), dtype=float).reshape(-1, k)
    if method == "fractional":
        return (fractional(cast(list[str], generators)) + 1) / 2   # checked: given for fractional
    if method == "saltelli":
        from SALib.sample import sobol as saltelli

        return saltelli.sample(_problem(k), samples, calc_second_order=False, scramble=True,
                               seed=rng_for(seed, method))
    if method == "morris":
        from SALib.sample import morris

        # One trajectory per seed of its own, so more trajectories keep the first ones.
        base = np.random.SeedSequence(seed, spawn_key=(stable_key(method),))
        return np.vstack([morris.sample(_problem(k), 1, num_levels=levels,
                                        seed=int(child.generate_state(1)[0]))
                          for child in base.spawn(cast(int, samples))])   # checked: given
    raise ValueError(f"unknown design {method!r}")


def _problem(k: int) -> dict[str, Any]:
    return {"num_vars": k, "names": [f"x{i}" for i in range(k)], "bounds": [[0.0, 1.0]] * k}


def _spread_units(f: Factor, n: int) -> list[float]:
    """Unit coordinates of a factorial's levels: the middle of each level's share for
    integer and categorical factors with at most n values, else evenly from 0 to 1."""
    if f.count is not None and f.count <= n:
        return [(i + 0.5) / f.count for i in range(f.count)]
    return [i / (n - 1) for i in range(n)]


def fractional(generators: list[str]) -> np.ndarray:
    """A two-level fractional factorial in -1/+1: the single letters are the base factors
    of a full 2^p design (standard order, first letter fastest), every other word is the
    product of its letters' columns ("a b c abc" is the 2^(4-1) design with D = ABC)."""
    base = sorted({w for w in generators if len(w) == 1})
    full = np.array(list(itertools.product([-1, 1], repeat=len(base))))[:, ::-1]
    col = {letter: full[:, i] for i, letter in enumerate(base)}
    return np.column_stack([np.prod([col[c] for c in w], axis=0) for w in generators])


def fractional_problem(generators: list[str]) -> str | None:
    """Why a generator list cannot make a design, or None when it can."""
    if any(not w.isalpha() or not w.islower() or len(set(w)) != len(w) for w in generators):
        return "each generator is lower-case letters, each at most once (e.g. 'a b c abc')"
    base = {w for w in generators if len(w) == 1}
    if not base:
        return "at least one generator must be a single letter (a base factor)"
    unknown = sorted(set("".join(generators)) - base)
    if unknown:
        return f"letter '{unknown[0]}' is not a base factor (no single-letter generator '{unknown[0]}')"
    if len(set(map(frozenset, generators))) != len(generators):
        return "two generators are the same product (their factors would be aliased fully)"
    return None


def make_plan(method: str, factors: list[Factor], seed: int, samples: int | None = None,
              stacks: int = 1, levels: int | None = None,
              generators: list[str] | None = None) -> Plan:
    """The design's distinct points (and rows, for the sensitivity designs)."""
    grid_levels = levels or (4 if method == "morris" else 2)
    unit = unit_rows(method, factors, seed, samples, stacks, grid_levels, generators)
    values = [tuple(f.value(u) for f, u in zip(factors, row)) for row in unit]
    rows, first = _distinct(values)
    points = [values[r] for r in first]
    if method in SENSITIVITY:
        return Plan(method, factors, points, unit, rows, grid_levels)
    return Plan(method, factors, points, unit[first], None, grid_levels)


def _distinct(values: list[tuple]) -> tuple[list[int], list[int]]:
    """Each row's point (an index into the distinct values, in order of first appearance)
    and each point's first row: repeated rows (rounded integers, levels) run once."""
    index: dict[tuple, int] = {}
    rows = [index.setdefault(_identity(v), len(index)) for v in values]
    first: dict[int, int] = {}
    for r, i in enumerate(rows):
        first.setdefault(i, r)
    return rows, [first[i] for i in range(len(index))]


def original_lhs(vary: dict[str, Any], keys: list[str], seed: int, samples: int) -> list[tuple]:
    """The ``lhs`` design's distinct points: the Latin hypercube of ``unit_rows``, whose
    numeric ranges keep the values they always had (stored studies: qmc.scale's arithmetic,
    an integer knob rounded); a categorical factor's levels share its ``samples`` strata
    evenly, stratum j of n taking level floor(j L / n), so each of L levels comes
    floor(n / L) or ceil(n / L) times."""
    factors = [cast(Factor, parse_factor(k, vary[k])) for k in keys]   # checked: factors
    unit = unit_rows("lhs", factors, seed, samples, 1, 2, None)
    values = [tuple(_original_value(f, float(u), samples) for u, f in zip(row, factors))
              for row in unit]
    return [values[r] for r in _distinct(values)[1]]


def _original_value(f: Factor, u: float, samples: int) -> Any:
    if f.kind == "categorical":
        return f.levels[min(int(u * samples), samples - 1) * len(f.levels) // samples]
    v = u * (float(f.high) - float(f.low)) + float(f.low)
    return int(round(v)) if f.kind == "integer" else v


def _identity(values: tuple) -> tuple:
    import json

    return tuple(json.dumps(v, sort_keys=True) for v in values)


@dataclass(frozen=True)
class Properties:
    """How good a design is: orthogonality and space filling of its distinct points."""

    points: int
    max_abs_correlation: float  # over pairs of factor columns (Pearson)
    condition_number: float  # of the columns' correlation matrix
    maximin: float  # the smallest distance between two points, unit cube
    centred_discrepancy: float  # scipy.stats.qmc.discrepancy, method "CD"

    def describe(self) -> str:
        """One line for people."""
        return (f"{self.points} distinct rows, max |pairwise correlation| {self.max_abs_correlation:.4f}, "
                f"condition number {self.condition_number:.3f}, maximin distance "
                f"{self.maximin:.3f}, centred L2 discrepancy {self.centred_discrepancy:.4g}")


def properties(unit: np.ndarray) -> Properties:
    """Correlation and space-filling measures of a unit-cube design (its distinct rows)."""
    from scipy.spatial.distance import pdist
    from scipy.stats import qmc

    x = np.unique(np.asarray(unit, dtype=float), axis=0)
    n, k = x.shape
    if k > 1 and n > 2 and np.all(x.std(axis=0) > 0):
        corr = np.corrcoef(x, rowvar=False)
        rho = float(np.max(np.abs(corr - np.eye(k))))
        cond = float(np.linalg.cond(corr))
    else:
        rho, cond = 0.0 if k == 1 else math.nan, 1.0 if k == 1 else math.nan
    maximin = float(pdist(x).min()) if n > 1 else math.nan
    cd = float(qmc.discrepancy(np.clip(x, 0, 1), method="CD"))
    return Properties(n, rho, cond, maximin, cd)
