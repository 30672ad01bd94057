"""``fractional``: a two-level 2^(k-p) fractional factorial from ``generators``.

One word per factor: the single letters are the base factors of a full 2^p design
(standard order, first letter fastest), every other word is the product of its letters'
columns (``a b c abc`` is the 2^(4-1) design with D = ABC).
"""
from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
from pydantic import Field

from sim.study.plan.factors import Factor
from sim.study.plan.placing import unit_cube
from sim.systems.designs import DesignOptions, Fail

NAME = "fractional"


class FractionalOptions(DesignOptions):
    """``fractional``'s generators."""

    generators: str = Field(description="one word per factor, e.g. `a b c abc` (D = ABC)")


def fractional(generators: list[str]) -> np.ndarray:
    """A two-level fractional factorial in -1/+1 (module doc)."""
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


def check(options: FractionalOptions, factors: Sequence[Factor], fail: Fail) -> None:
    """One generator a factor, a design they can make, two levels to a categorical factor."""
    words = options.generators.split()
    if len(words) != len(factors):
        fail(f"{len(words)} generators for {len(factors)} factors (expected one each)", "generators")
    why = fractional_problem(words)
    if why:
        fail(why, "generators")
    for factor in factors:
        if factor.kind == "categorical" and len(factor.levels) != 2:
            fail("a two-level fractional factorial needs two levels here "
                 f"(got {len(factor.levels)})", "vary", factor.key)


def rows(options: FractionalOptions, factors: Sequence[Factor], seed: int) -> np.ndarray:
    """The fraction, -1/+1 mapped to 0/1."""
    return (fractional(options.generators.split()) + 1) / 2


def count(options: FractionalOptions, factors: Sequence[Factor]) -> int:
    """2 to the number of base factors."""
    return 2 ** sum(1 for w in options.generators.split() if len(w) == 1)


DESIGN = unit_cube(NAME, "a two-level 2^(k−p) fraction: one word per factor, `a b c abc` is D = ABC",
                   FractionalOptions, rows, count, check=check, library="numpy")
