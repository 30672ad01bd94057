"""Exact answers for small engagements, after Brown (1963).

Brown, "Theory of Combat: The Probability of Winning", Operations Research 11(3): 418–425.

Two forces of ``x`` (blue) and ``y`` (red) units fight until one is gone; each casualty
is red's with probability ``A`` and blue's with ``1 − A``. Then the probability that blue
wins satisfies

    P(x, y) = A·P(x, y − 1) + (1 − A)·P(x − 1, y),   P(x, 0) = 1,   P(0, y) = 0,

with ``A`` constant for the *linear* law (area fire: each side's kill rate grows with both
forces, so their ratio does not depend on them) and ``A = r·x / (r·x + y)`` for the
*square* law (aimed fire: each side's kill rate is its size times a per-unit rate; ``r`` is
blue's per-unit rate over red's). With exact numbers in (``int`` or ``Fraction``), the
answers are exact ``Fraction``s; with floats, floats.

>>> win_probability(1, 1, law="square", r=1)
Fraction(1, 2)
>>> win_probability(2, 1, law="linear", a=Fraction(1, 2))
Fraction(3, 4)
"""
from __future__ import annotations

from fractions import Fraction
from numbers import Rational
from typing import Literal, TypeAlias

Number: TypeAlias = int | float | Fraction
Law = Literal["linear", "square"]

__all__ = ["end_states", "next_casualty_is_red", "win_probability"]


def _exact(v: Number) -> Number:
    return Fraction(v) if isinstance(v, Rational) else float(v)


def next_casualty_is_red(x: int, y: int, *, law: Law, a: Number | None = None,
                         r: Number | None = None) -> Number:
    """Brown's ``A`` at state (x, y): the probability that the next casualty is red's."""
    if law == "linear":
        if a is None or not 0 <= a <= 1:
            raise ValueError("the linear law needs a in [0, 1] (the chance a casualty is red's)")
        return _exact(a)
    if law == "square":
        if r is None or not r > 0:
            raise ValueError("the square law needs r > 0 (blue's per-unit kill rate over red's)")
        rx = _exact(r) * x
        return rx / (rx + y)
    raise ValueError(f"law must be 'linear' or 'square', got {law!r}")


def _check_sizes(x: int, y: int) -> None:
    if not (isinstance(x, int) and isinstance(y, int)) or x < 0 or y < 0 or (x == 0 and y == 0):
        raise ValueError(f"force sizes must be whole numbers >= 0, not both 0 (got {x}, {y})")


def win_probability(x: int, y: int, *, law: Law, a: Number | None = None,
                    r: Number | None = None) -> Number:
    """The probability that ``x`` blue units defeat ``y`` red ones (Brown's recursion)."""
    _check_sizes(x, y)
    # row[j] = P(i, j) for the current i, built up from i = 0 (P(0, j) = 0, j > 0).
    row: list[Number] = [1, *([0] * y)]
    for i in range(1, x + 1):
        new: list[Number] = [1, *([0] * y)]
        for j in range(1, y + 1):
            A = next_casualty_is_red(i, j, law=law, a=a, r=r)
            new[j] = A * new[j - 1] + (1 - A) * row[j]
        row = new
    return _exact(row[y]) if x > 0 else _exact(0)


def end_states(x: int, y: int, *, law: Law, a: Number | None = None,
               r: Number | None = None) -> dict[tuple[int, int], Number]:
    """The probability of each way the fight ends: ``{(blue left, red left): p}``.

    Exactly one of the two is 0. Their sum is 1; those with red at 0 sum to
    ``win_probability``.
    """
    _check_sizes(x, y)
    # Forward: reach[(i, j)] = probability the fight passes through (i, j).
    reach: dict[tuple[int, int], Number] = {(x, y): _exact(1)}
    ends: dict[tuple[int, int], Number] = {}
    for total in range(x + y, 0, -1):
        for i in range(max(0, total - y), min(x, total) + 1):
            j = total - i
            p = reach.pop((i, j), None)
            if p is None:
                continue
            if i == 0 or j == 0:
                ends[(i, j)] = p
                continue
            A = next_casualty_is_red(i, j, law=law, a=a, r=r)
            reach[(i, j - 1)] = reach.get((i, j - 1), 0) + A * p
            reach[(i - 1, j)] = reach.get((i - 1, j), 0) + (1 - A) * p
    return dict(sorted(ends.items()))
