"""Kim and Nelson's KN on systems whose answer is known (no battles).

Coverage: over M macro-replications of a selection among systems whose best is known
(normal, with and without common-random-number correlation; 0/1), the number of correct
selections is tested against Binomial(M, 1 − α): the test fails only if
P(Binomial(M, 1 − α) ≤ observed) < 1e-6, so a procedure whose probability of correct
selection is at least 1 − α fails it with probability below 1e-6.

Cost: the mean number of replications KN used is compared with what a fixed-size study
with the same guarantee needs, k × n with n = ⌈z²(1 − α/(k−1)) max Var(X_i − X_l)/δ²⌉
(Bonferroni, normal means, the true variances: a study that knows them, which KN does
not), the one-sided bound mean + z(1 − 1e-6)·sd/√M must lie below it.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from sim.errors import InputError
from sim.study.analysis import kn as kn_module
from sim.study.analysis.kn import bonferroni_size, eta, h_squared, kn
from sim.study.analysis.known_systems import (
    BernoulliSystems,
    NormalSystems,
    difference_variances,
    fixed_size,
    replicate,
)

FALSE_ALARM = 1e-6
ALPHA = 0.05


def equicorrelated(k: int, rho: float, sd: float = 1.0) -> np.ndarray:
    return sd * sd * (np.full((k, k), rho) + (1 - rho) * np.eye(k))


def unequal() -> np.ndarray:
    """Four systems, standard deviations 0.5 .. 2, correlations 0.3 .. 0.8 (CRN-like)."""
    sd = np.array([0.5, 1.0, 1.5, 2.0])
    corr = np.array([[1, .8, .6, .3], [.8, 1, .7, .5], [.6, .7, 1, .4], [.3, .5, .4, 1]])
    return corr * np.outer(sd, sd)


# (id, systems, delta, n0, maximise, macro-replications). The best is never the first
# system, so that a tie broken by order counts against the procedure.
CASES = [
    ("normal slippage, independent", NormalSystems((0, 0, 0, 0, .5), equicorrelated(5, 0)),
     .5, 10, True, 1000),
    ("normal slippage, CRN rho 0.6", NormalSystems((0, 0, 0, 0, .5), equicorrelated(5, .6)),
     .5, 10, True, 1000),
    ("normal spread, independent", NormalSystems((-2, -1.5, -1, -.5, 0), equicorrelated(5, 0)),
     .5, 10, True, 1000),
    ("normal unequal variances, CRN, minimise", NormalSystems((1, .5, 0, .5), unequal()),
     .5, 10, False, 1000),
    ("0/1 slippage, independent", BernoulliSystems((.5, .5, .5, .6)), .1, 10, True, 400),
    ("0/1 slippage, CRN share 0.5, n0 30", BernoulliSystems((.5, .5, .5, .6), .5),
     .1, 30, True, 500),
]


def macro(systems, delta, n0, maximise, m):
    """(correct selections, replications used in each) over m macro-replications."""
    best, runs = replicate(systems, m, delta=delta, alpha=ALPHA, n0=n0, maximise=maximise)
    return sum(s.best == best for s in runs), np.array([s.used for s in runs], dtype=float)


def covered(correct: int, m: int, alpha: float = ALPHA) -> bool:
    """Whether ``correct`` of ``m`` is consistent with a probability ≥ 1 − alpha."""
    return stats.binom.cdf(correct, m, 1 - alpha) >= FALSE_ALARM


@pytest.mark.parametrize("name, systems, delta, n0, maximise, m", CASES, ids=[c[0] for c in CASES])
def test_correct_selections_are_at_least_one_minus_alpha_and_cost_less_than_fixed(
        name, systems, delta, n0, maximise, m):
    correct, used = macro(systems, delta, n0, maximise, m)
    assert covered(correct, m), (name, correct / m)
    k = len(systems.cov)
    fixed = k * bonferroni_size(difference_variances(systems.cov), delta, ALPHA)
    bound = used.mean() + stats.norm.isf(FALSE_ALARM) * used.std(ddof=1) / np.sqrt(m)
    assert bound < fixed, (name, used.mean(), fixed)


def test_the_coverage_test_fails_a_procedure_with_too_small_a_continuation_region(monkeypatch):
    # h² a quarter of KN's: the same test must reject it, or it could not tell a wrong
    # procedure from a right one.
    right = h_squared
    monkeypatch.setattr(kn_module, "h_squared", lambda k, n0, a: right(k, n0, a) / 4)
    name, systems, delta, n0, maximise, m = CASES[0]
    correct, _ = macro(systems, delta, n0, maximise, m)
    assert not covered(correct, m), correct / m


def test_eta_and_h_squared_against_hand_computed_values():
    # k = 2, n0 = 2, alpha = 0.05: (2·0.05/1)^(-2/1) = 100, eta = (100 - 1)/2, h² = 2·49.5·1
    assert eta(2, 2, 0.05) == pytest.approx(49.5, rel=1e-12)
    assert h_squared(2, 2, 0.05) == pytest.approx(99.0, rel=1e-12)
    # k = 3, n0 = 3, alpha = 0.1: (0.2/2)^(-2/2) = 10, eta = 4.5, h² = 2·4.5·2 = 18
    assert eta(3, 3, 0.1) == pytest.approx(4.5, rel=1e-12)
    assert h_squared(3, 3, 0.1) == pytest.approx(18.0, rel=1e-12)
    # k = 5, n0 = 10, alpha = 0.05: 0.025^(-2/9) = 40^(2/9) = exp(2/9 · 3.688879) = 2.269935,
    # eta = 0.634967, h² = 18·eta = 11.42941
    assert eta(5, 10, 0.05) == pytest.approx(0.634967, abs=1e-6)
    assert h_squared(5, 10, 0.05) == pytest.approx(11.42941, abs=1e-5)


def scripted(columns):
    """A sampler of fixed values: ``columns[j]`` is replication j of every system."""
    table = np.array(columns, dtype=float).T
    asked = []

    def sample(systems, start, stop):
        asked.append((list(systems), start, stop))
        return table[list(systems), start:stop]
    sample.asked = asked
    return sample


# k = 3, n0 = 3, alpha = 0.1, delta = 1: h² = 18. First stage: X0 = 1, 2, 3; X1 = 0, 0, 0;
# X2 = 0, 1, 2, so S²_01 = S²_12 = 1, S²_02 = 0 and the maximum is 18 + 1 = 19. At r = 3 the
# means are 2, 0, 1; W_02 = 0, so 2 leaves (1 < 2 - 0); W_01 = (1/6)(18 - 3) = 2.5, so 1
# stays (0 > 2 - 2.5). Then X0 = 0.5, X1 = 0: at r = 4, X̄0 = 1.625 < W = 14/8 = 1.75 (1
# stays); at r = 5, X̄0 = 1.4 > W = 13/10 = 1.3: 1 leaves, 0 is selected.
ORDER = [[1, 0, 0], [2, 0, 1], [3, 0, 2]] + [[0.5, 0, 0]] * 30


@pytest.mark.parametrize("batch", [1, 2, 4, 100])
def test_elimination_order_and_stages_by_hand_whatever_the_batch(batch):
    sample = scripted(ORDER)
    s = kn(sample, 3, delta=1, alpha=0.1, n0=3, batch=batch)
    assert s.best == 0 and s.stop == "one survivor" and s.stage == 5
    assert [(e.system, e.stage, e.by, e.screened) for e in s.exits] == [(2, 3, 0, True),
                                                                        (1, 5, 0, True)]
    assert [e.mean for e in s.exits] == pytest.approx([1.0, 0.0])
    assert s.counts == [5, 5, 3] and s.used == 13 and s.maximum == 19
    assert s.h2 == pytest.approx(18) and s.zero_pairs == [(0, 2)]
    # survivors only after the first stage; a batch runs a few in vain
    assert sample.asked[0] == ([0, 1, 2], 0, 3)
    assert all(systems == [0, 1] for systems, _, _ in sample.asked[1:])
    assert s.drawn == 9 + 2 * max(2, min(batch, 16))   # two stages after the first, at least


def test_minimising_is_maximising_the_negated_values():
    s = kn(scripted([[-x for x in col] for col in ORDER]), 3, delta=1, alpha=0.1, n0=3,
           maximise=False)
    assert s.best == 0 and [(e.system, e.stage) for e in s.exits] == [(2, 3), (1, 5)]
    assert s.means[0] == pytest.approx(-(6 + 1) / 5) and s.exits[0].mean == pytest.approx(-1)


# k = 2, n0 = 3, alpha = 0.1: h² = 2·2·2 = 8 ((0.2)^(-1) = 5, eta = 2). X0 = 1, -1, 0, 0, ...
# and X1 = 0: S² = 1, the maximum is 9, and the means stay equal, so nobody is screened out.
EQUAL = [[1, 0], [-1, 0]] + [[0, 0]] * 20


def test_equal_means_stop_at_the_maximum_and_take_the_first_of_the_best():
    s = kn(scripted(EQUAL), 2, delta=1, alpha=0.1, n0=3)
    assert (s.best, s.stop, s.stage, s.maximum, s.used) == (0, "maximum", 9, 9, 18)
    assert [(e.system, e.stage, e.screened) for e in s.exits] == [(1, 9, False)]


def test_a_cap_below_the_maximum_stops_there():
    s = kn(scripted(EQUAL), 2, delta=1, alpha=0.1, n0=3, cap=5)
    assert (s.best, s.stop, s.stage, s.used) == (0, "cap", 5, 10)


def test_no_variance_in_the_first_stage_stops_at_once():
    # n0 > max N_il = 0: the largest first-stage mean, here the second system
    s = kn(scripted([[0, 1], [0, 1]]), 2, delta=1, alpha=0.1, n0=2)
    assert (s.best, s.stop, s.stage, s.maximum, s.used) == (1, "maximum", 2, 1, 4)


@pytest.mark.parametrize("k, kw, place", [
    (1, {}, "variants"), (2, {"delta": 0.0}, "delta"), (2, {"delta": float("nan")}, "delta"),
    (2, {"alpha": 0.5}, "alpha"), (3, {"alpha": 0.7}, "alpha"), (2, {"alpha": 0.0}, "alpha"),
    (2, {"n0": 1}, "n0"), (2, {"n0": 5.0}, "n0"), (2, {"alpha": "0.05"}, "alpha"),
    (2, {"cap": 5}, "replications"), (2, {"batch": 0}, "batch")])
def test_parameters_kn_is_not_defined_for_are_refused(k, kw, place):
    args = {"delta": 1.0, "alpha": 0.05, "n0": 10, **kw}
    with pytest.raises(InputError) as err:
        kn(scripted([[0] * k] * 20), k, **args)
    assert err.value.place == place and "\n" not in str(err.value)


def test_a_sampler_that_gives_the_wrong_shape_or_a_nan_is_an_error():
    with pytest.raises(ValueError, match="expected"):
        kn(lambda systems, a, b: np.zeros((len(systems), b - a + 1)), 2, delta=1, alpha=.05)
    with pytest.raises(ValueError, match="non-finite"):
        kn(lambda systems, a, b: np.full((len(systems), b - a), np.nan), 2, delta=1, alpha=.05)


def test_fixed_sizes_against_known_values():
    # k = 2, unit variances, independent: one normal difference, n = ⌈2(z_.95/δ)²⌉ = ⌈21.6⌉
    assert fixed_size(np.eye(2), 0.5, 0.05) == 22
    assert bonferroni_size(difference_variances(np.eye(2)), 0.5, 0.05) == 22
    # k = 5: Bechhofer's (1954) constant for P* = 0.95 is 3.0552, n = ⌈(3.0552/0.5)²⌉ = 38;
    # Bonferroni: ⌈2 z²(1 - 0.0125)/0.25⌉ = ⌈40.19⌉ = 41
    assert fixed_size(np.eye(5), 0.5, 0.05) == 38
    assert bonferroni_size(difference_variances(np.eye(5)), 0.5, 0.05) == 41
    # the two-stage form: t(1 - 0.05; 9)² · 2 / 0.25 = 1.8331² · 8 = 26.9 -> 27 (and >= n0)
    assert bonferroni_size(difference_variances(np.eye(2)), 0.5, 0.05, n0=10) == 27
    assert bonferroni_size(difference_variances(np.eye(2)), 5.0, 0.05, n0=10) == 10


def test_known_systems_draw_what_they_say():
    rng = np.random.default_rng(7)
    values = BernoulliSystems((.2, .7), share=1.0).sampler(rng)([0, 1], 0, 4000)
    # one shared uniform: a success of the 0.2 system is always one of the 0.7 system too
    assert np.all(values[0] <= values[1])
    normal = NormalSystems((0, 1), equicorrelated(2, .6)).sampler(rng)
    first = normal([0, 1], 0, 3)
    assert np.array_equal(normal([1], 1, 3), first[[1], 1:3])   # replication j stays j


def test_the_benchmark_script_runs_and_prints_every_configuration():
    import subprocess
    import sys

    from conftest import ROOT

    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "selection.py"), "--macro", "5"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    for name in ("normal, slippage, CRN rho 0.6", "0/1, slippage, CRN share 1, n0 40"):
        assert name in out.stdout
