"""KN's parameters at the ends of their ranges: every value either works or is refused in
one line (``InputError``), never a traceback; and a selection whose own maximum is beyond
the study's limit of replications a cell is refused (the rule, exactly, and where: before
the first replication for a 0/1 metric, after the first stage for any other), never run
for ever. The command line's side is in tests/test_select_study.py."""
from __future__ import annotations

import itertools
import math
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.arguments import MAX_REPLICATIONS
from sim.errors import InputError
from sim.study.analysis import kn as kn_module
from sim.study.analysis.kn import (
    bonferroni_size,
    check,
    h_squared,
    kn,
    own_maximum,
    zero_one_spread,
)


class Enough(Exception):
    """The sampler's budget is spent: the selection was running, within its maximum."""


def sampler(values: np.ndarray, budget: int):
    """Replication j of system i is values[i, j % n] (the first n differ), up to budget."""
    asked: list[int] = []

    def sample(systems, start, stop):
        assert stop - start <= MAX_REPLICATIONS, "more replications at once than a cell may have"
        if stop > budget:
            raise Enough
        asked.append(stop)
        cols = [j % values.shape[1] for j in range(start, stop)]
        return values[np.ix_(list(systems), cols)]
    sample.asked = asked  # type: ignore[attr-defined]
    return sample


ANY_FLOAT = st.floats(allow_nan=True, allow_infinity=True)
POSITIVE = st.floats(min_value=5e-324, max_value=1.7976931348623157e308)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(k=st.integers(2, 5), delta=ANY_FLOAT | POSITIVE, alpha=ANY_FLOAT | st.floats(5e-324, 0.5),
       n0=st.integers(-3, 30) | st.sampled_from([MAX_REPLICATIONS + 1, 2**64]),
       cap=st.none() | st.integers(-3, 60) | st.just(MAX_REPLICATIONS + 1),
       scale=st.floats(0, 1e6), seed=st.integers(0, 2**32 - 1))
def test_kn_on_any_parameters_selects_or_refuses_in_one_line_never_past_the_limit(
        k, delta, alpha, n0, cap, scale, seed):
    values = np.random.default_rng(seed).normal(0, 1, (k, 7)) * scale
    sample = sampler(values, budget=max(n0, 2) + 200)
    try:
        s = kn(sample, k, delta=delta, alpha=alpha, n0=n0, cap=cap)
    except InputError as err:
        assert "\n" not in str(err) and err.place
        return
    except Enough:
        # still running past the first stage: only ever within its own maximum, or a cap
        first = values[:, [j % 7 for j in range(n0)]]
        s2 = (first[:, None, :] - first[None, :, :]).var(axis=2, ddof=1)
        maximum = own_maximum(h_squared(k, n0, alpha), s2, delta)
        assert cap is not None or (maximum is not None and maximum <= MAX_REPLICATIONS)
        return
    assert cap is not None or s.maximum <= MAX_REPLICATIONS
    assert max(s.counts) <= (cap or max(n0, s.maximum))
    assert math.isfinite(s.h2) and math.isfinite(s.eta)
    # the report's fixed sizes, from the same numbers
    assert bonferroni_size(s.variances, delta, alpha, n0) >= n0
    assert bonferroni_size(s.variances, delta, alpha) >= 1


@settings(max_examples=300, deadline=None, derandomize=True)
@given(k=st.integers(2, 6), delta=POSITIVE, alpha=st.floats(5e-324, 0.49), n0=st.integers(2, 100_000))
def test_a_zero_one_metric_is_refused_before_its_first_replication_exactly_when_it_could_pass_the_limit(
        k, delta, alpha, n0):
    refused = True   # alpha/(k − 1) below the normal floats, or h² beyond them
    if alpha / (k - 1) >= sys.float_info.min and math.isfinite(h2 := h_squared(k, n0, alpha)):
        maximum = own_maximum(h2, np.array([zero_one_spread(n0)]), delta)
        refused = maximum is None or maximum > MAX_REPLICATIONS
    try:
        check(k, delta, alpha, n0, spread=zero_one_spread(n0))
    except InputError as err:
        assert "\n" not in str(err) and refused
    else:
        assert not refused


@pytest.mark.parametrize("n0", range(2, 9))
def test_zero_one_spread_is_the_largest_variance_a_first_stage_of_0_1_results_can_give(n0):
    # every first stage of two 0/1 systems: each difference is -1, 0 or 1
    largest = max(np.var(d, ddof=1) for d in itertools.product((-1, 0, 1), repeat=n0))
    assert zero_one_spread(n0) == pytest.approx(largest, rel=1e-12)


def _two_systems(over: float) -> tuple[np.ndarray, float]:
    """Two systems whose first stage (n0 = 2) gives h²S²/δ² = ``over`` with δ = 1, and
    whose later replications screen the second out at once."""
    h2 = h_squared(2, 2, 0.05)                         # 99
    a = math.sqrt(2 * over / h2)                       # S² of (0, a) is a²/2
    return np.array([[0.0, a, 1e9], [0.0, 0.0, 0.0]]), h2


@pytest.mark.parametrize("over, maximum", [(999_999.9, 1_000_000), (1_000_000.1, 1_000_001)])
def test_the_limit_is_exact_and_checked_before_any_replication_after_the_first_stage(
        over, maximum):
    values, _ = _two_systems(over)
    asked: list[tuple[int, int]] = []

    def sample(systems, start, stop):
        asked.append((start, stop))
        return values[np.ix_(list(systems), [min(j, 2) for j in range(start, stop)])]
    names = {"delta": "--delta", "alpha": "--alpha", "n0": "--n0", "cap": "--replications"}
    if maximum <= MAX_REPLICATIONS:
        s = kn(sample, 2, delta=1.0, alpha=0.05, n0=2, names=names)
        assert s.maximum == maximum and s.best == 0 and s.stop == "one survivor"
        return
    with pytest.raises(InputError) as err:
        kn(sample, 2, delta=1.0, alpha=0.05, n0=2, names=names)
    assert asked == [(0, 2)]   # the first stage, and not one replication more
    assert str(err.value).startswith(
        "--delta, --alpha, --n0: KN's own maximum, ⌊h²S²/δ²⌋ + 1 replications a cell, is "
        "1,000,001: h² = 99 (alpha 0.05, n0 2, 2 cells)")
    assert "expected at most 1,000,000" in str(err.value) and "--replications" in str(err.value)
    # with a cap it runs, and stops there
    s = kn(sample, 2, delta=1.0, alpha=0.05, n0=2, cap=10)
    assert s.maximum == maximum and s.stage <= 10


@pytest.mark.parametrize("k, n0, alpha", [(2, 2, 1e-300), (3, 2, 1e-160), (2, 2, 1e-155)])
def test_an_h_squared_beyond_the_floats_is_refused_naming_alpha_and_n0(k, n0, alpha):
    assert h_squared(k, n0, alpha) == math.inf
    with pytest.raises(InputError, match=r"^alpha, n0: KN's h² = 2η\(n0 − 1\) is beyond"):
        check(k, 1.0, alpha, n0, cap=10)


@pytest.mark.parametrize("k, alpha", [(2, 1e-310), (100, 5e-324), (3, 4.4e-308)])
def test_an_alpha_whose_share_is_below_the_normal_floats_is_refused(k, alpha):
    # 2α/(k−1) at 0 raised ZeroDivisionError; just above it, KN's and the t quantile's
    # constants have lost their digits
    with pytest.raises(InputError, match=r"^alpha: expected alpha >= \(k - 1\) x 2\.225e-308"):
        check(k, 1.0, alpha, 10)


def test_the_t_quantile_in_the_far_tail_is_right_where_scipy_gives_up():
    # SciPy's t.isf(1e-200, 3) is 2.4e66 (its tail is 8e-200) and t.isf(1e-300, 3) is -inf.
    # Far out, P(T > t) = K t^(-df)/df to within O(1/t²), K = Γ((df+1)/2) df^((df+1)/2) / (√(df π) Γ(df/2))
    for tail, df in [(1e-200, 3), (1e-300, 3), (1e-300, 5), (1e-250, 1), (1e-307, 2)]:
        log_k = (math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
                 + (df + 1) / 2 * math.log(df))
        far = math.exp((log_k - math.log(df) - math.log(tail)) / df)
        assert kn_module._t_upper(tail, df) == pytest.approx(far, rel=1e-9)
    variances = np.array([[0.0, 1.0], [1.0, 0.0]])
    # (q²·1/δ² with δ = 1e66: the size is q²/1e132, about 23 for q = 4.8e66)
    assert bonferroni_size(variances, 1e66, 1e-200, n0=4) == math.ceil(
        kn_module._t_upper(1e-200, 3) ** 2 / 1e132)


@pytest.mark.parametrize("delta", [1e200, 1e-200, 5e-324, 1.7976931348623157e308])
def test_a_delta_at_either_end_of_the_floats_is_computed_not_a_traceback(delta):
    values = np.array([[0.0, 1.0, 2.0], [0.0, 0.0, 5.0], [1.0, 1.0, 1.0]])

    def sample(systems, start, stop):
        return values[np.ix_(list(systems), [j % 3 for j in range(start, stop)])]
    try:
        s = kn(sample, 3, delta=delta, alpha=0.05, n0=3, cap=50)
    except InputError as err:   # a δ so small that h²S²/δ² is beyond the floats
        assert delta < 1e-100 and "is beyond the largest float" in str(err)
        return
    assert delta > 1 and s.stop == "maximum" and s.stage == 3   # every triangle is closed
    assert bonferroni_size(s.variances, delta, 0.05, 3) == 3
    assert bonferroni_size(s.variances, delta, 0.05) == 1


@pytest.mark.parametrize("delta", [10**400, -(10**400)], ids=["1e400", "-1e400"])
def test_an_int_delta_beyond_the_floats_is_refused_naming_it(delta):
    # math.isfinite raised OverflowError on an int that no float holds
    with pytest.raises(InputError, match=r"^delta: expected a finite number > 0, got -?1000"):
        check(2, delta, 0.05, 10)
