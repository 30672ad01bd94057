"""KN on systems whose answer is known: how often it is right, and what it costs.

    .venv/bin/python benchmarks/selection.py [--macro M] [--seed S]

For each configuration (normal systems, with and without the positive correlation common
random numbers give; 0/1 systems, independent and sharing their uniforms), ``M``
macro-replications of Kim and Nelson's KN (``sim.study.analysis.kn``) at α = 0.05 give:

- PCS: the fraction of selections that picked the best (the guarantee: ≥ 0.95), and
  P(Binomial(M, 0.95) ≤ observed), the exact binomial tail (below 1e-6: refuted);
- KN: the mean replications used, over every system;
- fixed-size studies with the same guarantee, all k systems: two-stage Bonferroni-t
  (after Clark and Yang 1986, sized from KN's own first stage; its mean), Bonferroni-normal
  with the true variances, and Bechhofer's (1954) single stage with the true covariance
  at the least favourable configuration (the smallest fixed size that knows it).

A script, not a test: tests/test_select_kn.py asserts the coverage and the cost of a
subset at false-alarm ≤ 1e-6. Every figure here is a function of the seed.
"""
from __future__ import annotations

import argparse

import numpy as np
from scipy import stats

from sim.study.analysis.kn import bonferroni_size
from sim.study.analysis.known_systems import (
    BernoulliSystems,
    NormalSystems,
    difference_variances,
    fixed_size,
    replicate,
)

ALPHA = 0.05


def _cov(k: int, rho: float) -> np.ndarray:
    return np.full((k, k), rho) + (1 - rho) * np.eye(k)


SLIP, SPREAD = (0, 0, 0, 0, .5), (-2, -1.5, -1, -.5, 0)
CASES = [  # (name, systems, delta, n0)
    ("normal, slippage, independent", NormalSystems(SLIP, _cov(5, 0)), .5, 10),
    ("normal, slippage, CRN rho 0.6", NormalSystems(SLIP, _cov(5, .6)), .5, 10),
    ("normal, spread, independent", NormalSystems(SPREAD, _cov(5, 0)), .5, 10),
    ("normal, spread, CRN rho 0.6", NormalSystems(SPREAD, _cov(5, .6)), .5, 10),
    ("0/1, slippage, independent", BernoulliSystems((.5, .5, .5, .6)), .1, 10),
    ("0/1, slippage, CRN share 0.5, n0 10", BernoulliSystems((.5, .5, .5, .6), .5), .1, 10),
    ("0/1, slippage, CRN share 0.5, n0 30", BernoulliSystems((.5, .5, .5, .6), .5), .1, 30),
    ("0/1, slippage, CRN share 1, n0 20", BernoulliSystems((.5, .5, .5, .6), 1.), .1, 20),
    ("0/1, slippage, CRN share 1, n0 40", BernoulliSystems((.5, .5, .5, .6), 1.), .1, 40),
]


def main() -> None:
    """Print one row per configuration."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--macro", type=int, default=1000, help="macro-replications per row")
    p.add_argument("--seed", type=int, default=2026)
    args = p.parse_args()
    head = (f"{'configuration':<38}{'PCS':>7}{'P(tail)':>10}{'KN':>8}{'2-stage':>9}"
            f"{'Bonf.':>7}{'Bech.':>7}")
    print(f"{args.macro} macro-replications per row, alpha {ALPHA}, seed {args.seed}")
    print(head)
    print("-" * len(head))
    for name, systems, delta, n0 in CASES:
        best, runs = replicate(systems, args.macro, delta=delta, alpha=ALPHA, n0=n0,
                               seed=args.seed)
        correct = sum(s.best == best for s in runs)
        k = len(systems.cov)
        two_stage = np.mean([bonferroni_size(s.variances, delta, ALPHA, n0) for s in runs])
        known = bonferroni_size(difference_variances(systems.cov), delta, ALPHA)
        print(f"{name:<38}{correct / args.macro:>7.3f}"
              f"{stats.binom.cdf(correct, args.macro, 1 - ALPHA):>10.2g}"
              f"{np.mean([s.used for s in runs]):>8.1f}{k * two_stage:>9.1f}{k * known:>7}"
              f"{k * fixed_size(systems.cov, delta, ALPHA):>7}")


if __name__ == "__main__":
    main()
