"""``factorial``: every combination of ``levels`` values per factor.

An integer or categorical factor with at most ``levels`` values takes every one (the
middle of each one's share of the unit interval); any other takes ``levels`` values
evenly from its lowest to its highest.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np
from pydantic import Field

from sim.study.plan.factors import Factor
from sim.study.plan.placing import unit_cube
from sim.systems.designs import DesignOptions

NAME = "factorial"


class FactorialOptions(DesignOptions):
    """``factorial``'s values per factor."""

    levels: int = Field(2, ge=2, le=100, description="values per factor")


def _spread_units(f: Factor, n: int) -> list[float]:
    """Unit coordinates of a factorial's levels: the middle of each level's share for
    integer and categorical factors with at most n values, else evenly from 0 to 1."""
    if f.count is not None and f.count <= n:
        return [(i + 0.5) / f.count for i in range(f.count)]
    return [i / (n - 1) for i in range(n)]


def rows(options: FactorialOptions, factors: Sequence[Factor], seed: int) -> np.ndarray:
    """Every combination, the first factor slowest."""
    per = [_spread_units(f, options.levels) for f in factors]
    return np.array(list(itertools.product(*per)), dtype=float).reshape(-1, len(factors))


def count(options: FactorialOptions, factors: Sequence[Factor]) -> int:
    """The product of each factor's values."""
    n = options.levels
    return math.prod(min(n, fac.count) if fac.count else n for fac in factors)


DESIGN = unit_cube(NAME, "every combination of `levels` values per factor (every level of a categorical one)",
                   FactorialOptions, rows, count, library="itertools")
