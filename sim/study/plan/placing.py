"""What every design shares: its factors read from ``vary``, a plan of points, and the
making of a design whose rows lie in the unit cube (``unit_cube``).

A unit-cube design is a matrix of rows in [0, 1]^k, one column per factor, mapped to knob
values by ``Factor.value`` (``sim.study.plan.factors``). A *point* is one distinct row of
values; repeated rows (integer and categorical factors make them) become one point, run
once. A design whose analysis needs the rows themselves (Sobol' indices, Morris effects)
keeps them, as indices into the points. Every random choice is drawn from the study
seed (``rng_for``: a stream keyed by the design's name), so a design is the same on
every machine.
"""
from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np

from sim.study.plan.factors import Factor, parse_factor
from sim.study.plan.seeds import stable_key
from sim.systems.designs import Analysis, Design, DesignOptions, Fail, StudyFactors
from sim.systems.registry import REGISTRY

__all__ = ["MAX_CELLS", "MAX_ROWS", "Given", "Placed", "Plan", "distinct", "make_plan", "parse_all",
           "power_of_two", "rng_for", "unit_cube"]

# Rows before repeated points merge; the cell limit applies to the points after.
MAX_ROWS = 1_000_000
MAX_CELLS = 10_000
#: The analyses that read a design's rows, not only its points.
ON_ROWS = frozenset({Analysis.SOBOL, Analysis.MORRIS})

#: (options, factors, seed) -> the design's rows in the unit cube.
Rows = Callable[[Any, Sequence[Factor], int], np.ndarray]
#: (options, factors) -> how many rows, before repeated points merge.
Count = Callable[[Any, Sequence[Factor]], int]
#: (options, factors, fail) -> refuses what the options' model alone cannot.
Check = Callable[[Any, Sequence[Factor], Fail], None]


@dataclass
class Plan:
    """A design's points (distinct value tuples, in design order) and, where the analysis
    needs them, its rows (indices into the points) and their unit coordinates."""

    method: str
    factors: list[Factor]
    points: list[tuple[Any, ...]]
    unit: np.ndarray  # one row per point (or per design row when ``rows`` is set)
    rows: list[int] | None = None
    levels: int | None = None  # the grid's levels, when the design places points on one (Morris)

    @property
    def keys(self) -> list[str]:
        """The factors' dotted keys, in column order."""
        return [f.key for f in self.factors]


@dataclass(frozen=True)
class Placed:
    """A design's points, and its plan (None: a design whose points are the analysis' own)."""

    points: list[tuple[Any, ...]]
    plan: Plan | None = None


@dataclass(frozen=True)
class Given:
    """A ``factors`` section given in code: ``vary`` and the design's options."""

    vary: Mapping[str, Any]
    options: Any


def rng_for(seed: int, method: str) -> np.random.Generator:
    """The design's own random stream, derived from the study seed."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(stable_key(method),)))


def _unreachable(message: str, *place: str | int) -> NoReturn:
    raise AssertionError(f"factors vetted before: {message} at {place}")


def parse_all(vary: Mapping[str, Any], fail: Fail = _unreachable) -> list[Factor]:
    """The factors of a designed study, in ``vary`` order; a bad one refused at its key."""
    out = []
    for key, raw in vary.items():
        factor = parse_factor(key, raw)
        if isinstance(factor, str):
            fail(factor, "vary", key)
        out.append(factor)
    return out


def power_of_two(name: str, samples: int, fail: Fail) -> None:
    """Refuse a size that is no power of two (a Sobol' sequence's balance holds only then)."""
    if samples & (samples - 1):
        fail(f"design {name} needs a power of two (its balance properties hold only then; "
             f"got {samples})", "samples")


def distinct(values: list[tuple[Any, ...]]) -> tuple[list[int], list[int]]:
    """Each row's point (an index into the distinct values, in order of first appearance)
    and each point's first row: repeated rows (rounded integers, levels) run once."""
    index: dict[tuple[str, ...], int] = {}
    rows = [index.setdefault(tuple(json.dumps(v, sort_keys=True) for v in row), len(index))
            for row in values]
    first: dict[int, int] = {}
    for r, i in enumerate(rows):
        first.setdefault(i, r)
    return rows, [first[i] for i in range(len(index))]


@dataclass(frozen=True)
class _Cube:
    """The hooks of a unit-cube design (``unit_cube``)."""

    name: str
    rows: Rows
    count: Count
    check: Check | None
    grid: Callable[[Any], int] | None
    keeps_rows: bool

    def vet(self, f: StudyFactors, fail: Fail) -> None:
        factors = parse_all(f.vary, fail)
        if self.check is not None:
            self.check(f.options, factors, fail)
        rows = self.count(f.options, factors)
        if rows > MAX_ROWS:
            fail(f"the design has {rows} rows (expected at most {MAX_ROWS})")

    def size(self, f: StudyFactors) -> int:
        # Fewer points than rows when the factors have fewer combinations of values
        # (integer ranges, levels; every factor moves on a grid's levels).
        factors = parse_all(f.vary)
        rows = self.count(f.options, factors)
        grid = self.grid(f.options) if self.grid is not None else None
        per = [fac.count or grid for fac in factors]
        return min(rows, math.prod(n for n in per if n)) if all(per) else rows

    def place(self, f: StudyFactors, seed: int) -> Placed:
        plan = self.plan(f.options, parse_all(f.vary), seed)
        return Placed(plan.points, plan)

    def plan(self, options: Any, factors: list[Factor], seed: int) -> Plan:
        unit = self.rows(options, factors, seed)
        values = [tuple(f.value(u) for f, u in zip(factors, row)) for row in unit]
        rows, first = distinct(values)
        points = [values[r] for r in first]
        levels = self.grid(options) if self.grid is not None else None
        if self.keeps_rows:
            return Plan(self.name, factors, points, unit, rows, levels)
        return Plan(self.name, factors, points, unit[first], None, levels)


def unit_cube(name: str, doc: str, options: type[DesignOptions], rows: Rows, count: Count, *,
              check: Check | None = None, grid: Callable[[Any], int] | None = None,
              analyses: frozenset[Analysis] = frozenset({Analysis.METAMODEL}), library: str = "") -> Design:
    """A design whose ``rows(options, factors, seed)`` lie in the unit cube.

    ``count(options, factors)``: how many rows it makes (at most ``MAX_ROWS``); ``check``
    refuses what ``options`` alone cannot; ``grid(options)``: the levels every factor moves
    on, when it places points on a grid (Morris). A design with Sobol' or Morris analyses
    keeps its rows for them.
    """
    cube = _Cube(name, rows, count, check, grid, keeps_rows=bool(analyses & ON_ROWS))
    return Design(name, doc, options, place=cube.place, size=cube.size, vet=cube.vet, analyses=analyses,
                  library=library)


def make_plan(design: str, factors: list[Factor], seed: int, **options: Any) -> Plan:
    """The plan of the registered design called ``design`` over ``factors`` (``options``: its keys)."""
    declared = REGISTRY.designs.get(design)
    given = Given({f.key: f.written() for f in factors}, declared.options.model_validate(options))
    plan = declared.place(given, seed).plan
    if not isinstance(plan, Plan):
        raise ValueError(f"design {design} keeps no plan of its points")
    return plan
