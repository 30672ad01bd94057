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

from sim import arguments

Number: TypeAlias = int | float | Fraction
Law = Literal["linear", "square"]

__all__ = ["end_states", "next_casualty_is_red", "win_probability"]


def _exact(v: Number) -> Number:
    return Fraction(v) if isinstance(v, Rational) else float(v)


def next_casualty_is_red(x: int, y: int, *, law: Law, a: Number | None = None,
                         r: Number | None = None) -> Number:
    """Brown's ``A`` at state (x, y): the probability that the next casualty is red's."""
    arguments.whole(x, "x")
    arguments.whole(y, "y")
    if x == 0 and y == 0:
        raise arguments.fail("x", "force sizes x and y not both 0", (x, y))
    arguments.choice(law, "law", ("linear", "square"))
    if law == "linear":
        arguments.number(a, "a", 0, 1)
    else:
        arguments.number(r, "r", positive=True)
    return _next_red(x, y, law, a, r)


def _next_red(x: int, y: int, law: Law, a: Number | None, r: Number | None) -> Number:
    """``next_casualty_is_red`` with its arguments already checked."""
    if law == "linear":
        return _exact(a)  # type: ignore[arg-type]  # checked: a number
    rx = _exact(r) * x  # type: ignore[arg-type]  # checked: a number
    return rx / (rx + y)


def win_probability(x: int, y: int, *, law: Law, a: Number | None = None,
                    r: Number | None = None) -> Number:
    """The probability that ``x`` blue units defeat ``y`` red ones (Brown's recursion)."""
    next_casualty_is_red(x, y, law=law, a=a, r=r)  # every argument checked, once
    # row[j] = P(i, j) for the current i, built up from i = 0 (P(0, j) = 0, j > 0).
    row: list[Number] = [1, *([0] * y)]
    for i in range(1, x + 1):
        new: list[Number] = [1, *([0] * y)]
        for j in range(1, y + 1):
            A = _next_red(i, j, law, a, r)
            new[j] = A * new[j - 1] + (1 - A) * row[j]
        row = new
    return _exact(row[y]) if x > 0 else _exact(0)


def end_states(x: int, y: int, *, law: Law, a: Number | None = None,
               r: Number | None = None) -> dict[tuple[int, int], Number]:
    """The probability of each way the fight ends: ``{(blue left, red left): p}``.

    Exactly one of the two is 0. Their sum is 1; those with red at 0 sum to
    ``win_probability``.
    """
    next_casualty_is_red(x, y, law=law, a=a, r=r)  # every argument checked, once
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
            A = _next_red(i, j, law, a, r)
            reach[(i, j - 1)] = reach.get((i, j - 1), 0) + A * p
            reach[(i - 1, j)] = reach.get((i - 1, j), 0) + (1 - A) * p
    return dict(sorted(ends.items()))
