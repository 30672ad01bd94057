"""Systems whose answer is known, to check a selection procedure without battles.

- ``NormalSystems``: replication j of the k systems is one draw of a multivariate normal
  with the given means and covariance (a positive covariance is what common random
  numbers give);
- ``BernoulliSystems``: system i succeeds with probability p_i; with probability
  ``share`` a replication's systems read one uniform number (X_i = 1{U < p_i}: the
  0/1 outcomes common random numbers give), otherwise each its own.

Each gives a ``sampler(rng)``, a ``sim.study.analysis.kn.Sampler`` that draws lazily and
remembers what it drew (replication j is the same whoever asks for it), and the
covariance of its systems, from which ``fixed_size`` gives the smallest fixed number of
replications per system that meets the same guarantee as KN when the covariance is
known: the single-stage procedure of Bechhofer (1954, Ann. Math. Statist. 25:16-39),
sized for the least favourable (slippage) configuration, with the normal distribution
of the means (for 0/1 systems, the central limit approximation).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from sim.study.analysis.kn import Sampler, Selection, kn

BLOCK = 256  # replications drawn at a time


def _lazy(draw) -> Sampler:
    """A sampler that calls ``draw(n)`` (→ k × n values) as replications are asked for."""
    drawn: list[np.ndarray] = []
    have = 0

    def sample(systems, start, stop):
        nonlocal have
        while have < stop:
            drawn.append(draw(BLOCK))
            have += BLOCK
        return np.hstack(drawn)[:, start:stop][list(systems)]
    return sample


@dataclass(frozen=True)
class NormalSystems:
    """k jointly normal systems: ``means`` and ``cov`` (k × k)."""

    means: tuple[float, ...]
    cov: np.ndarray

    @property
    def values(self) -> np.ndarray:
        """The systems' true means."""
        return np.asarray(self.means, dtype=float)

    def sampler(self, rng: np.random.Generator) -> Sampler:
        """Draws replications of every system as they are asked for."""
        root = np.linalg.cholesky(self.cov)
        mu = np.asarray(self.means, dtype=float)[:, None]
        return _lazy(lambda n: mu + root @ rng.standard_normal((len(mu), n)))


@dataclass(frozen=True)
class BernoulliSystems:
    """k 0/1 systems with success probabilities ``p``, sharing one uniform number in a
    replication with probability ``share``."""

    p: tuple[float, ...]
    share: float = 0.0

    @property
    def values(self) -> np.ndarray:
        """The systems' true means (their success probabilities)."""
        return np.asarray(self.p, dtype=float)

    @property
    def cov(self) -> np.ndarray:
        """Covariance of the outcomes: p_i(1 − p_i) on the diagonal, share × (min − p_i p_l) off it."""
        p = np.asarray(self.p, dtype=float)
        cov = self.share * (np.minimum.outer(p, p) - np.outer(p, p))
        np.fill_diagonal(cov, p * (1 - p))
        return cov

    def sampler(self, rng: np.random.Generator) -> Sampler:
        """Draws replications of every system as they are asked for."""
        p = np.asarray(self.p, dtype=float)[:, None]

        def draw(n: int) -> np.ndarray:
            common, own = rng.random(n), rng.random((len(p), n))
            u = np.where(rng.random(n) < self.share, common, own)
            return (u < p).astype(float)
        return _lazy(draw)


def replicate(systems: NormalSystems | BernoulliSystems, m: int, *, delta: float,
              alpha: float, n0: int = 10, maximise: bool = True,
              seed: int = 2026) -> tuple[int, list[Selection]]:
    """KN on ``systems`` ``m`` times with fresh draws (macro-replications): the index of
    the best system and every selection."""
    values = systems.values
    best = int(np.argmax(values) if maximise else np.argmin(values))
    rng = np.random.default_rng(seed)
    return best, [kn(systems.sampler(rng), len(values), delta=delta, alpha=alpha, n0=n0,
                     maximise=maximise) for _ in range(m)]


def difference_variances(cov: np.ndarray) -> np.ndarray:
    """Var(X_i − X_l) for every pair (k × k)."""
    d = np.diag(cov)
    return d[:, None] + d[None, :] - 2 * cov


def fixed_size(cov: np.ndarray, delta: float, alpha: float) -> int:
    """Bechhofer's single-stage size with a known covariance: the smallest n such that,
    whichever system is best by δ and the others all exactly δ worse (the least
    favourable configuration), the largest of the k means of n replications is the
    best one with probability ≥ 1 − α."""
    k = len(cov)

    def enough(n: int) -> bool:
        for b in range(k):
            rest = [i for i in range(k) if i != b]
            a = np.zeros((k - 1, k))
            a[:, b] = 1.0
            a[np.arange(k - 1), rest] = -1.0
            # P(every X̄_b − X̄_i > 0) with mean δ each and covariance a Σ aᵀ / n
            cdf = stats.multivariate_normal(np.zeros(k - 1), a @ cov @ a.T / n,
                                            allow_singular=True).cdf
            if cdf(np.full(k - 1, delta), rng=np.random.default_rng(0)) < 1 - alpha:
                return False
        return True

    low, high = 1, 2
    while not enough(high):
        low, high = high, 2 * high
    while low < high:               # the smallest n that is enough
        mid = (low + high) // 2
        low, high = (low, mid) if enough(mid) else (mid + 1, high)
    return low
