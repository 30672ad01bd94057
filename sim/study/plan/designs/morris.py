"""``morris``: ``samples`` Morris trajectories of k + 1 rows on a grid of ``levels`` (SALib),
analysed for elementary effects (mu*, mu, sigma).

Each trajectory is drawn from a seed of its own, so more trajectories keep the first ones.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from pydantic import Field

from sim.study.plan.designs.saltelli import problem
from sim.study.plan.factors import Factor
from sim.study.plan.placing import MAX_ROWS, unit_cube
from sim.study.plan.seeds import stable_key
from sim.systems.designs import Analysis, DesignOptions, Fail

NAME = "morris"


class MorrisOptions(DesignOptions):
    """``morris``'s trajectories and grid."""

    samples: int = Field(ge=1, le=MAX_ROWS, description="the number of trajectories, each k + 1 rows (extendable)")
    levels: int = Field(4, ge=2, le=100, description="the grid's levels (even)")


def rows(options: MorrisOptions, factors: Sequence[Factor], seed: int) -> np.ndarray:
    """The trajectories, one after another."""
    from SALib.sample import morris

    base = np.random.SeedSequence(seed, spawn_key=(stable_key(NAME),))
    return np.vstack([morris.sample(problem(len(factors)), 1, num_levels=options.levels,
                                    seed=int(child.generate_state(1)[0]))
                      for child in base.spawn(options.samples)])


def count(options: MorrisOptions, factors: Sequence[Factor]) -> int:
    """N (k + 1)."""
    return options.samples * (len(factors) + 1)


def check(options: MorrisOptions, factors: Sequence[Factor], fail: Fail) -> None:
    """An even grid."""
    if options.levels % 2:
        fail(f"Morris grids need an even number of levels (got {options.levels})", "levels")


def grid(options: MorrisOptions) -> int:
    """Every factor moves on the grid's levels."""
    return options.levels


DESIGN = unit_cube(NAME, "Morris trajectories of k + 1 rows", MorrisOptions, rows, count, check=check, grid=grid,
                   analyses=frozenset({Analysis.METAMODEL, Analysis.MORRIS}), library="SALib")
