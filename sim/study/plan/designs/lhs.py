"""``lhs``: a Latin hypercube of ``samples`` points (scipy.stats.qmc).

Its numeric ranges keep the values they always had (stored studies: qmc.scale's
arithmetic, an integer knob rounded); a categorical factor's levels share its ``samples``
strata evenly, stratum j of n taking level floor(j L / n), so each of L levels comes
floor(n / L) or ceil(n / L) times. ``optimal_lhs`` optimises the same hypercube.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from pydantic import Field

from sim.study.plan.factors import Factor
from sim.study.plan.placing import MAX_CELLS, MAX_ROWS, Placed, distinct, parse_all, rng_for
from sim.systems.designs import Analysis, Design, DesignOptions, Fail, StudyFactors

NAME = "lhs"


class LhsOptions(DesignOptions):
    """``lhs``'s size."""

    samples: int = Field(ge=1, le=MAX_ROWS, description="how many points (at most 10,000)")


def hypercube(name: str, factors: Sequence[Factor], seed: int, samples: int,
              optimization: str | None = None) -> np.ndarray:
    """The Latin hypercube of ``samples`` rows, from design ``name``'s random stream."""
    from scipy.stats import qmc

    return qmc.LatinHypercube(d=len(factors), optimization=optimization,
                              rng=rng_for(seed, name)).random(samples)


def vet(f: StudyFactors, fail: Fail) -> None:
    """Its points are drawn before repeated ones merge: at most ``MAX_CELLS``; ranges and levels."""
    if f.options.samples > MAX_CELLS:
        fail(f"at most {MAX_CELLS} samples (got {f.options.samples})", "samples")
    parse_all(f.vary, fail)


def size(f: StudyFactors) -> int:
    """Its samples, or fewer when every factor is an integer range with fewer combinations."""
    per = [fac.count if fac.kind == "integer" else None for fac in parse_all(f.vary)]
    return min(f.options.samples, math.prod(n for n in per if n)) if all(per) else f.options.samples


def place(f: StudyFactors, seed: int) -> Placed:
    """The hypercube's distinct points, each range and level mapped as it always was."""
    factors = parse_all(f.vary)
    samples = f.options.samples
    unit = hypercube(NAME, factors, seed, samples)
    values = [tuple(_value(fac, float(u), samples) for u, fac in zip(row, factors)) for row in unit]
    return Placed([values[r] for r in distinct(values)[1]])


def _value(f: Factor, u: float, samples: int) -> Any:
    if f.kind == "categorical":
        return f.levels[min(int(u * samples), samples - 1) * len(f.levels) // samples]
    v = u * (float(f.high) - float(f.low)) + float(f.low)
    return int(round(v)) if f.kind == "integer" else v


DESIGN = Design(NAME, "a Latin hypercube", LhsOptions, place=place, size=size, vet=vet,
                analyses=frozenset({Analysis.METAMODEL}), library="scipy.stats.qmc")
