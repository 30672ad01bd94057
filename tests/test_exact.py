"""sim.exact: Brown's (1963) win probabilities, against an independent brute force and
hand-computed values."""
from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from sim.errors import InputError
from sim.exact import end_states, next_casualty_is_red, win_probability


def brute_force(x, y, A):
    """Sum over every sequence of casualties: an independent route to P(blue wins)."""
    @cache
    def p(i, j):
        if j == 0:
            return Fraction(1)
        if i == 0:
            return Fraction(0)
        a = A(i, j)
        return a * p(i, j - 1) + (1 - a) * p(i - 1, j)
    return p(x, y)


def paths(x, y, A):
    """P(blue wins) by enumerating casualty orders of fixed length (no recursion shared
    with the solver): every word over {R, B} is a history; stop at the first zero."""
    total = Fraction(0)
    for n in range(1, x + y):
        for word in product("RB", repeat=n):
            i, j, prob = x, y, Fraction(1)
            for who in word:
                if i == 0 or j == 0:
                    prob = Fraction(0)
                    break
                a = A(i, j)
                prob *= a if who == "R" else 1 - a
                i, j = (i, j - 1) if who == "R" else (i - 1, j)
            if prob and j == 0 and i > 0 and len(word) == (y + (x - i)):
                total += prob
    return total


def test_hand_values():
    # One against one: the first casualty decides.
    assert win_probability(1, 1, law="linear", a=Fraction(1, 3)) == Fraction(1, 3)
    assert win_probability(1, 1, law="square", r=2) == Fraction(2, 3)
    # 2 v 1, linear, a = 1/2: red dies first (1/2), or blue loses one then wins (1/4).
    assert win_probability(2, 1, law="linear", a=Fraction(1, 2)) == Fraction(3, 4)
    # 2 v 1, square, r = 1: A(2,1) = 2/3; else A(1,1) = 1/2: 2/3 + 1/3 * 1/2 = 5/6.
    assert win_probability(2, 1, law="square", r=1) == Fraction(5, 6)
    # Boundaries: P(x, 0) = 1, P(0, y) = 0.
    assert win_probability(3, 0, law="square", r=1) == 1
    assert win_probability(0, 4, law="square", r=1) == 0


@pytest.mark.parametrize("x,y", [(1, 4), (3, 3), (4, 2), (5, 5)])
@pytest.mark.parametrize("law,param", [("linear", Fraction(2, 5)), ("square", Fraction(3, 2))])
def test_recursion_matches_an_enumeration_of_histories(x, y, law, param):
    kw = {"a": param} if law == "linear" else {"r": param}

    def A(i, j):
        return next_casualty_is_red(i, j, law=law, **kw)

    exact = win_probability(x, y, law=law, **kw)
    assert exact == brute_force(x, y, A)
    if x + y <= 8:
        assert exact == paths(x, y, A)


@pytest.mark.parametrize("x,y", [(2, 3), (4, 4), (6, 1)])
def test_end_states_sum_to_one_and_give_the_win_probability(x, y):
    for law, kw in (("linear", {"a": Fraction(1, 3)}), ("square", {"r": Fraction(1, 2)})):
        ends = end_states(x, y, law=law, **kw)
        assert sum(ends.values()) == 1
        assert all((i == 0) != (j == 0) for i, j in ends)
        assert sum(p for (i, j), p in ends.items() if j == 0) == win_probability(x, y, law=law, **kw)


def test_linear_symmetry_and_square_monotonicity():
    # Linear law: swapping the sides swaps a and 1 - a.
    for x, y in [(2, 5), (4, 3)]:
        a = Fraction(3, 7)
        assert win_probability(x, y, law="linear", a=a) == 1 - win_probability(y, x, law="linear", a=1 - a)
    # Square law: a better kill rate, or one more unit, never lowers the chance.
    ps = [win_probability(3, 4, law="square", r=Fraction(k, 4)) for k in range(1, 12)]
    assert ps == sorted(ps) and ps[0] < ps[-1]
    assert win_probability(4, 4, law="square", r=1) == Fraction(1, 2)
    assert win_probability(5, 4, law="square", r=1) > Fraction(1, 2)


def test_floats_in_floats_out_and_bad_input_refused():
    assert isinstance(win_probability(3, 2, law="square", r=1.5), float)
    assert abs(win_probability(3, 2, law="square", r=1.5)
               - float(win_probability(3, 2, law="square", r=Fraction(3, 2)))) < 1e-12
    for bad in ({"law": "linear"}, {"law": "linear", "a": 2}, {"law": "square", "r": 0},
                {"law": "cubic", "r": 1}):
        with pytest.raises(InputError):
            win_probability(2, 2, **bad)
    with pytest.raises(InputError):
        win_probability(0, 0, law="square", r=1)
    with pytest.raises(InputError):
        win_probability(-1, 2, law="square", r=1)
