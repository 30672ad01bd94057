"""``optimal_lhs``: a Latin hypercube of ``samples`` points with a low centred discrepancy
(scipy.stats.qmc's ``random-cd`` optimisation of ``lhs``'s hypercube)."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from pydantic import Field

from sim.study.plan.designs.lhs import hypercube
from sim.study.plan.factors import Factor
from sim.study.plan.placing import MAX_ROWS, unit_cube
from sim.systems.designs import DesignOptions

NAME = "optimal_lhs"


class OptimalLhsOptions(DesignOptions):
    """``optimal_lhs``'s size."""

    samples: int = Field(ge=1, le=MAX_ROWS, description="how many points")


def rows(options: OptimalLhsOptions, factors: Sequence[Factor], seed: int) -> np.ndarray:
    """The optimised hypercube."""
    return hypercube(NAME, factors, seed, options.samples, optimization="random-cd")


def count(options: OptimalLhsOptions, factors: Sequence[Factor]) -> int:
    """Its samples."""
    return options.samples


DESIGN = unit_cube(NAME, "a Latin hypercube optimised for centred discrepancy", OptimalLhsOptions, rows, count,
                   library="scipy.stats.qmc")
