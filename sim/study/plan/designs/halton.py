"""``halton``: ``samples`` scrambled Halton points (scipy.stats.qmc).

Extendable: the first rows of a larger design are the rows of a smaller one, so raising
``samples`` keeps every stored point.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from pydantic import Field

from sim.study.plan.factors import Factor
from sim.study.plan.placing import MAX_ROWS, rng_for, unit_cube
from sim.systems.designs import DesignOptions

NAME = "halton"


class HaltonOptions(DesignOptions):
    """``halton``'s size."""

    samples: int = Field(ge=1, le=MAX_ROWS, description="how many points (extendable)")


def rows(options: HaltonOptions, factors: Sequence[Factor], seed: int) -> np.ndarray:
    """The scrambled sequence's first ``samples`` points."""
    from scipy.stats import qmc

    return qmc.Halton(d=len(factors), scramble=True, rng=rng_for(seed, NAME)).random(options.samples)


def count(options: HaltonOptions, factors: Sequence[Factor]) -> int:
    """Its samples."""
    return options.samples


DESIGN = unit_cube(NAME, "scrambled Halton points", HaltonOptions, rows, count, library="scipy.stats.qmc")
