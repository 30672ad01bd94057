"""``saltelli``: Saltelli's plan for Sobol' indices (SALib): ``samples`` = N base points, a
power of two, and N (k + 2) rows, analysed for first-order and total indices.

Extendable: the first rows of a larger design are the rows of a smaller one, so raising
``samples`` keeps every stored point.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from pydantic import Field

from sim.study.plan.factors import Factor
from sim.study.plan.placing import MAX_ROWS, power_of_two, rng_for, unit_cube
from sim.systems.designs import Analysis, DesignOptions, Fail

NAME = "saltelli"


class SaltelliOptions(DesignOptions):
    """``saltelli``'s base points."""

    samples: int = Field(ge=1, le=MAX_ROWS, description=(
        "N base points, a power of two; the plan runs N (k + 2) rows (extendable)"))


def problem(k: int) -> dict[str, object]:
    """SALib's problem of ``k`` factors in the unit cube."""
    return {"num_vars": k, "names": [f"x{i}" for i in range(k)], "bounds": [[0.0, 1.0]] * k}


def rows(options: SaltelliOptions, factors: Sequence[Factor], seed: int) -> np.ndarray:
    """The plan's blocks of k + 2 rows, without the second-order ones."""
    from SALib.sample import sobol as saltelli

    return saltelli.sample(problem(len(factors)), options.samples, calc_second_order=False, scramble=True,
                           seed=rng_for(seed, NAME))


def count(options: SaltelliOptions, factors: Sequence[Factor]) -> int:
    """N (k + 2)."""
    return options.samples * (len(factors) + 2)


def check(options: SaltelliOptions, factors: Sequence[Factor], fail: Fail) -> None:
    """A power of two."""
    power_of_two(NAME, options.samples, fail)


DESIGN = unit_cube(NAME, "Saltelli's plan for Sobol' indices: N (k + 2) rows", SaltelliOptions, rows, count,
                   check=check, analyses=frozenset({Analysis.METAMODEL, Analysis.SOBOL}), library="SALib")
