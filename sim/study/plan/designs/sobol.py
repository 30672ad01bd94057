"""``sobol``: ``samples`` scrambled Sobol' points (scipy.stats.qmc), a power of two.

Extendable: the first rows of a larger design are the rows of a smaller one, so raising
``samples`` keeps every stored point.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from pydantic import Field

from sim.study.plan.factors import Factor
from sim.study.plan.placing import MAX_ROWS, power_of_two, rng_for, unit_cube
from sim.systems.designs import DesignOptions, Fail

NAME = "sobol"


class SobolOptions(DesignOptions):
    """``sobol``'s size."""

    samples: int = Field(ge=1, le=MAX_ROWS, description="how many points, a power of two (extendable)")


def rows(options: SobolOptions, factors: Sequence[Factor], seed: int) -> np.ndarray:
    """The scrambled sequence's first ``samples`` points."""
    from scipy.stats import qmc

    return qmc.Sobol(d=len(factors), scramble=True, rng=rng_for(seed, NAME)).random(options.samples)


def count(options: SobolOptions, factors: Sequence[Factor]) -> int:
    """Its samples."""
    return options.samples


def check(options: SobolOptions, factors: Sequence[Factor], fail: Fail) -> None:
    """A power of two."""
    power_of_two(NAME, options.samples, fail)


DESIGN = unit_cube(NAME, "scrambled Sobol' points", SobolOptions, rows, count, check=check,
                   library="scipy.stats.qmc")
