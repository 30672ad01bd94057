"""Study statistics against scipy's own reference values and known Wilson intervals."""
from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from sim.study.analysis.stats import (
    binary_difference,
    estimate,
    newcombe_phi,
    paired_difference,
    summarize,
    t_interval,
    wilson_interval,
)

samples = st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=2, max_size=60)


@settings(max_examples=60, deadline=None)
@given(samples)
def test_t_interval_matches_scipy(xs):
    e = t_interval(xs)
    x = np.asarray(xs)
    ref = sps.ttest_1samp(x, 0.0).confidence_interval(0.95) if x.std() > 0 else None
    assert e.n == len(xs)
    assert e.mean == pytest.approx(x.mean(), abs=1e-9)
    if ref is not None:
        assert e.ci_low == pytest.approx(ref.low, rel=1e-9, abs=1e-9)
        assert e.ci_high == pytest.approx(ref.high, rel=1e-9, abs=1e-9)
    else:  # no spread: the interval collapses onto the mean
        assert e.ci_low == pytest.approx(e.mean) and e.ci_high == pytest.approx(e.mean)
    assert e.method == ("constant" if len(set(xs)) == 1 else "t")


def test_t_interval_fixed_values_and_scipy_t_interval():
    xs = [3.0, 5.0, 4.0, 8.0, 6.0]
    e = t_interval(xs)
    lo, hi = sps.t.interval(0.95, 4, loc=5.2, scale=sps.sem(xs))
    assert (e.mean, e.n) == (pytest.approx(5.2), 5)
    assert (e.ci_low, e.ci_high) == (pytest.approx(lo, rel=1e-12), pytest.approx(hi, rel=1e-12))
    # by hand: s = 1.923538, t(0.975, 4) = 2.776445 -> half-width 2.388388
    assert e.half_width == pytest.approx(2.388388, abs=1e-6)


def test_t_interval_too_few_values_has_no_interval():
    assert math.isnan(t_interval([1.0]).ci_low) and t_interval([1.0]).mean == 1.0
    assert t_interval([]).n == 0 and math.isnan(t_interval([]).mean)
    assert t_interval([2.0]).as_dict() == {"mean": 2.0, "ci_low": None, "ci_high": None, "n": 1,
                                           "method": "none"}


def test_a_metric_zero_in_every_replication_is_labelled_constant_not_certain():
    e = t_interval([0.0] * 50)
    assert (e.mean, e.ci_low, e.ci_high, e.constant) == (0.0, 0.0, 0.0, True)
    assert e.as_dict()["method"] == "constant"
    assert paired_difference([3.0] * 9, [1.0] * 9).constant
    assert not t_interval([0.0] * 49 + [1.0]).constant
    # A yes/no metric that never happens still has an honest Wilson interval.
    w = estimate([0] * 50, "binary")
    assert w.method == "wilson" and w.ci_low == 0.0 and w.ci_high > 0.05


def test_a_yes_no_difference_the_same_in_every_pair_keeps_its_interval_as_the_docs_say():
    """0 in all 50 pairs: the interval rules of docs/background/intervals.md name the exception (a yes/no metric
    and its difference keep their score intervals, ±0.071 here), as the code computes."""
    from conftest import ROOT

    for paired in (True, False):
        e = binary_difference([0] * 50, [0] * 50, paired=paired)
        assert not e.constant and (e.mean, round(e.ci_low, 3), round(e.ci_high, 3)) == (0.0, -0.071, 0.071)
    assert not binary_difference([1] * 50, [0] * 50).constant
    assert round(estimate([0] * 50, "binary").ci_high, 3) == 0.071
    rules = (ROOT / "docs" / "background" / "intervals.md").read_text(encoding="utf-8")
    rules = " ".join(rules.split())
    assert "a count or real metric (or a difference of one) with the same value in every" in rules
    assert ("no pair disagreeing in 50 a difference of ±0.071 (Newcombe) when neither variant "
            "ever wins, narrower when both win as often (±0.038 when both win in 25 of the 50), "
            "never a point") in rules
    half = [1] * 25 + [0] * 25
    e = binary_difference(half, half, paired=True)
    assert not e.constant and (round(e.ci_low, 3), round(e.ci_high, 3)) == (-0.038, 0.038)


@settings(max_examples=60, deadline=None)
@given(samples.flatmap(lambda a: st.tuples(st.just(a), st.lists(
    st.floats(-1e3, 1e3, allow_nan=False), min_size=len(a), max_size=len(a)))))
def test_paired_difference_matches_scipy_ttest_rel(pair):
    a, b = map(np.asarray, pair)
    e = paired_difference(a, b)
    d = a - b
    assert e.mean == pytest.approx(d.mean(), abs=1e-9)
    if d.std() > 1e-9:
        ref = sps.ttest_rel(a, b).confidence_interval(0.95)
        assert e.ci_low == pytest.approx(ref.low, rel=1e-7, abs=1e-7)
        assert e.ci_high == pytest.approx(ref.high, rel=1e-7, abs=1e-7)


def test_paired_interval_is_narrower_than_unpaired_for_correlated_pairs():
    rng = np.random.default_rng(1)
    shared = rng.normal(0, 10, 200)
    a, b = shared + 1.0 + rng.normal(0, 1, 200), shared + rng.normal(0, 1, 200)
    paired = paired_difference(a, b)
    unpaired = sps.ttest_ind(a, b).confidence_interval(0.95)
    assert paired.half_width * 5 < (unpaired.high - unpaired.low) / 2
    assert paired.ci_low > 0  # the +1 shift is detected only when pairing


@pytest.mark.parametrize("k,n,low,high", [
    # Textbook values (Newcombe 1998, table I; Agresti & Coull 1998).
    (0, 10, 0.0, 0.2775), (1, 10, 0.0179, 0.4042), (8, 10, 0.4902, 0.9433),
    (10, 10, 0.7225, 1.0), (81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605),
])
def test_wilson_known_values(k, n, low, high):
    e = wilson_interval(k, n)
    assert e.mean == pytest.approx(k / n)
    assert e.ci_low == pytest.approx(low, abs=5e-5)
    assert e.ci_high == pytest.approx(high, abs=5e-5)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 2000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_matches_scipy_binomtest(kn):
    k, n = kn
    e = wilson_interval(k, n)
    ref = sps.binomtest(k, n).proportion_ci(0.95, method="wilson")
    assert e.ci_low == pytest.approx(ref.low, abs=1e-12)
    assert e.ci_high == pytest.approx(ref.high, abs=1e-12)
    assert 0.0 <= e.ci_low <= e.mean <= e.ci_high <= 1.0


def test_estimate_uses_wilson_for_binary_and_rejects_non_binary_values():
    xs = [1, 0, 1, 1, 0, 1, 1, 1]
    assert estimate(xs, "binary") == wilson_interval(6, 8)
    assert estimate(xs, "count") == t_interval(xs)
    with pytest.raises(ValueError, match="0 or 1"):
        estimate([1, 2], "binary")


def _cells(*specs):
    return [SimpleNamespace(variant=v, point=p, label=lab) for v, p, lab in specs]


def test_summarize_pairs_by_replication_and_skips_failures():
    cells = _cells(("base", (), "base"), ("alt", (), "alt"))
    rows = {(0, r): {"x": float(r), "won": r % 2} for r in range(6)}
    rows.update({(1, r): {"x": float(r) + 2 + (r == 3), "won": 1} for r in range(6) if r != 4})
    s = summarize(cells, "base", rows, ["x", "won"], {"won": "binary"})
    assert s.cells["base"]["x"] == t_interval([0, 1, 2, 3, 4, 5])
    assert s.cells["alt"]["won"] == wilson_interval(5, 5)
    d = s.differences["alt - base"]["x"]
    # rep 4 failed in 'alt', so pairs are reps 0,1,2,3,5 with differences 2,2,2,3,2
    assert d == paired_difference([2, 3, 4, 6, 7], [0, 1, 2, 3, 5])
    assert d.n == 5 and d.mean == pytest.approx(2.2)
    limited = summarize(cells, "base", rows, ["x"], {}, reps=3)
    assert limited.cells["base"]["x"] == t_interval([0, 1, 2])
    assert limited.differences["alt - base"]["x"].n == 3


def test_summarize_pairs_cells_at_the_same_factor_point():
    p5, p10 = (("r", 5),), (("r", 10),)
    cells = _cells(("b", p5, "b@r=5"), ("b", p10, "b@r=10"), ("z", p5, "z@r=5"),
                   ("z", p10, "z@r=10"))
    rows = {(ci, r): {"x": float(10 * ci + r)} for ci in range(4) for r in range(4)}
    s = summarize(cells, "b", rows, ["x"], {})
    assert list(s.differences) == ["z@r=5 - b@r=5", "z@r=10 - b@r=10"]
    assert s.differences["z@r=5 - b@r=5"]["x"].mean == pytest.approx(20.0)
    assert s.differences["z@r=10 - b@r=10"]["x"].mean == pytest.approx(20.0)


def test_precise_requires_every_interval_and_never_accepts_nan():
    cells = _cells(("b", (), "b"), ("z", (), "z"))
    rows = {(0, r): {"x": float(r % 2), "y": 0.0} for r in range(10)}
    rows.update({(1, r): {"x": float(r % 2), "y": float(r)} for r in range(10)})
    s = summarize(cells, "b", rows, ["x", "y"], {})
    widest = max(e.half_width for e in s.intervals())
    assert widest == s.cells["z"]["y"].half_width
    assert s.precise(widest) and not s.precise(widest * 0.999)
    assert s.precise(s.cells["b"]["x"].half_width, metrics=["x"])  # y left out
    one = summarize(cells, "b", {(0, 0): {"x": 1.0}, (1, 0): {"x": 1.0}}, ["x"], {})
    assert not one.precise(1e9)


def _pairs(both, only_a, only_b, neither):
    a = [1] * both + [1] * only_a + [0] * only_b + [0] * neither
    b = [1] * both + [0] * only_a + [1] * only_b + [0] * neither
    return a, b


def test_newcombe_paired_interval_published_value():
    # Cavo et al. (2012), in Fagerland, Lydersen & Laake, "Statistical Analysis of Contingency
    # Tables" (2017), ch. 8: the square-and-add (Newcombe) interval is -0.1186 to -0.0046.
    e = binary_difference(*_pairs(59, 6, 16, 80))
    assert e.method == "newcombe-paired" and e.n == 161
    assert e.mean == pytest.approx(-10 / 161)
    assert (e.ci_low, e.ci_high) == (pytest.approx(-0.1186, abs=5e-5), pytest.approx(-0.0046, abs=5e-5))
    # phi with Newcombe's n/2 correction: (59*80 - 6*16 - 161/2) / sqrt(65*96*75*86)
    assert newcombe_phi(59, 6, 16, 80) == pytest.approx((59 * 80 - 96 - 80.5) / math.sqrt(65 * 96 * 75 * 86))
    assert newcombe_phi(1, 1, 1, 1) == 0.0 and newcombe_phi(0, 0, 3, 4) == 0.0


def test_binary_difference_stays_within_minus_one_one_for_every_small_table():
    for n in range(1, 13):
        for both in range(n + 1):
            for only_a in range(n + 1 - both):
                for only_b in range(n + 1 - both - only_a):
                    a, b = _pairs(both, only_a, only_b, n - both - only_a - only_b)
                    for paired in (True, False):
                        e = binary_difference(a, b, paired=paired)
                        assert -1.0 <= e.ci_low <= e.mean <= e.ci_high <= 1.0, (a, b, paired)
                        assert e.ci_high - e.ci_low > 0  # never a point, even with no discordant pair


def test_the_reported_example_stays_inside_and_the_t_interval_did_not():
    # 49 of 50 pairs discordant in the variant's favour: the old paired t-interval of the
    # 0/1 differences reached past +1.
    a, b = _pairs(0, 49, 0, 1)
    assert paired_difference(a, b).ci_high > 1.0
    e = binary_difference(a, b)
    assert e.mean == pytest.approx(0.98) and e.ci_high <= 1.0 and e.ci_low > 0.8


def test_independent_newcombe_matches_statsmodels():
    sm = pytest.importorskip("statsmodels.stats.proportion")
    for k1, k2, n in [(7, 1, 34), (0, 15, 30), (12, 12, 40), (30, 2, 30), (3, 0, 10)]:
        a, b = [1] * k1 + [0] * (n - k1), [1] * k2 + [0] * (n - k2)
        e = binary_difference(a, b, paired=False)
        low, high = sm.confint_proportions_2indep(k1, n, k2, n, method="newcomb", compare="diff")
        assert e.method == "newcombe"
        assert (e.ci_low, e.ci_high) == (pytest.approx(low, abs=1e-9), pytest.approx(high, abs=1e-9))


def _exact_coverage(n, probs, interval):
    """P(interval covers p1 - p2) over every paired 2x2 table of n pairs (exact)."""
    theta = probs[1] - probs[2]
    covered = 0.0
    for both in range(n + 1):
        for only_a in range(n + 1 - both):
            for only_b in range(n + 1 - both - only_a):
                t = (both, only_a, only_b, n - both - only_a - only_b)
                e = interval(*_pairs(*t))
                if e.ci_low <= theta <= e.ci_high:
                    covered += sps.multinomial.pmf(t, n, probs)
    return covered


def test_paired_newcombe_covers_rare_events_where_the_t_interval_fails():
    # Exact coverage (every table enumerated, no simulation): 20 pairs, a rare event.
    probs = (0.05, 0.05, 0.02, 0.88)
    newcombe = _exact_coverage(20, probs, binary_difference)
    t = _exact_coverage(20, probs, paired_difference)
    assert newcombe >= 0.95 and t < 0.85
    assert _exact_coverage(20, (0.4, 0.3, 0.1, 0.2), binary_difference) >= 0.94


def test_summarize_uses_newcombe_for_binary_differences_paired_only_under_crn():
    cells = _cells(("base", (), "base"), ("alt", (), "alt"))
    rows = {(0, r): {"won": float(r % 3 == 0)} for r in range(30)}
    rows.update({(1, r): {"won": float(r % 3 != 1)} for r in range(30)})
    a = [rows[(1, r)]["won"] for r in range(30)]
    b = [rows[(0, r)]["won"] for r in range(30)]
    crn = summarize(cells, "base", rows, ["won"], {"won": "binary"})
    assert crn.differences["alt - base"]["won"] == binary_difference(a, b, paired=True)
    indep = summarize(cells, "base", rows, ["won"], {"won": "binary"}, paired=False)
    assert indep.differences["alt - base"]["won"] == binary_difference(a, b, paired=False)
