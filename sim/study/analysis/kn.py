"""Kim and Nelson's fully sequential ranking-and-selection procedure KN, on its own.

Kim, S.-H. and Nelson, B. L. (2001), "A fully sequential procedure for indifference-zone
selection in simulation", ACM TOMACS 11(3):251-273, procedure KN. Given k systems, an
indifference zone δ > 0, a confidence 1 − α (1/k < 1 − α < 1) and a first-stage size
n0 ≥ 2:

1. η = ½[(2α/(k−1))^(−2/(n0−1)) − 1] and h² = 2η(n0−1);
2. take n0 replications of every system (under common random numbers: replication j of
   every system shares its seed) and, for every pair, S²_il, the sample variance of the
   differences X_ij − X_lj; N_il = ⌊h²S²_il/δ²⌋, N_i = max_l N_il; if n0 > max_i N_i,
   stop: the largest first-stage mean is selected;
3. screening at stage r (r = n0 first): system i leaves when X̄_i(r) < X̄_l(r) − W_il(r)
   for some other survivor l, W_il(r) = max{0, (δ/(2r))(h²S²_il/δ² − r)}; all survivors
   are screened against each other at once;
4. if one survives it is selected; otherwise every survivor gets one more replication,
   r ← r + 1, and when r = max_i N_i + 1 the survivor with the largest mean is selected
   (else back to 3).

Theorem 1 of the paper: if each system's replications are i.i.d. normal (jointly normal
across systems, any covariance: CRN allowed), the procedure selects the best with
probability ≥ 1 − α whenever the best mean exceeds every other by at least δ.

``kn`` takes a sampler callback, ``sample(systems, start, stop)`` → an array of shape
(len(systems), stop − start) of replications start .. stop−1 (0-based) of those systems,
so it runs on numbers as well as on battles. It may ask for a batch of replications of
the survivors at a time; the screening is still done after each replication, in order,
so the selection is the one-at-a-time procedure's (a system that leaves inside a batch
merely leaves its later values unused).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from sim import arguments
from sim.errors import InputError

#: ``sample(systems, start, stop)`` → values, shape (len(systems), stop − start).
Sampler = Callable[[Sequence[int], int, int], np.ndarray]

#: Why the procedure stopped: one survivor; at its own maximum max_i N_i + 1 (or at n0,
#: when n0 > max_i N_i) by the largest mean; at a cap given by the caller, before either.
STOPS = ("one survivor", "maximum", "cap")


def eta(k: int, n0: int, alpha: float) -> float:
    """KN's η = ½[(2α/(k−1))^(−2/(n0−1)) − 1]."""
    return 0.5 * ((2.0 * alpha / (k - 1)) ** (-2.0 / (n0 - 1)) - 1.0)


def h_squared(k: int, n0: int, alpha: float) -> float:
    """KN's h² = 2η(n0 − 1)."""
    return 2.0 * eta(k, n0, alpha) * (n0 - 1)


@dataclass(frozen=True)
class Exit:
    """A system that was not selected: the stage (its replication count) at which it
    left, its mean then, and the survivor that screened it out (``by``; at a stop by
    the largest mean, the selected system)."""

    system: int
    stage: int
    mean: float
    by: int
    screened: bool = True  # False: left at a stop by the largest mean, not by screening


@dataclass
class Selection:
    """The outcome of KN: the selected system and how every other one left."""

    best: int
    stage: int                    # replications of the survivors when it stopped
    stop: str                     # one of STOPS
    exits: list[Exit]             # in the order they left (same stage: system order)
    counts: list[int]             # replications each system used
    means: list[float]            # each system's mean over the replications it used
    variances: np.ndarray         # S²_il of the first stage (k × k, 0 on the diagonal)
    eta: float
    h2: float
    maximum: int                  # max_i N_i + 1: the stage at which it must stop
    drawn: int = 0                # values the sampler gave (batches: a few unused)
    zero_pairs: list[tuple[int, int]] = field(default_factory=list)  # S²_il = 0

    @property
    def used(self) -> int:
        """Replications the one-at-a-time procedure used (every system's count, summed)."""
        return int(sum(self.counts))


def check(k: int, delta: float, alpha: float, n0: int, cap: int | None = None,
          names: dict[str, str] | None = None, batch: int = 1) -> None:
    """Refuse parameters KN is not defined for (an ``InputError`` naming the one)."""
    name = {"k": "variants", "delta": "delta", "alpha": "alpha", "n0": "n0",
            "cap": "replications", "batch": "batch", **(names or {})}
    if arguments.whole(k, name["k"]) < 2:
        raise InputError(f"needs at least 2 to select from, got {k}", place=name["k"])
    arguments.number(delta, name["delta"], positive=True)
    if not (arguments.number(alpha, name["alpha"]) > 0 and alpha < 1 - 1 / k):
        raise InputError(f"expected 0 < alpha < 1 - 1/k = {1 - 1 / k:.4g} (k = {k}), got "
                         f"{alpha!r}", place=name["alpha"])
    arguments.whole(n0, name["n0"], 2)
    arguments.whole(batch, name["batch"], 1)
    if cap is not None and arguments.whole(cap, name["cap"], 2) < n0:
        raise InputError(f"the cap {cap} is below the first stage n0 = {n0} (expected "
                         f">= n0)", place=name["cap"])


def kn(sample: Sampler, k: int, *, delta: float, alpha: float, n0: int = 10,
       maximise: bool = True, batch: int = 1, cap: int | None = None) -> Selection:
    """Run KN on ``k`` systems drawn from ``sample``; ``batch`` replications of the
    survivors are asked for at a time (the result does not depend on it); ``cap`` stops
    it at that many replications per system, before its own maximum if need be (the
    guarantee then no longer holds)."""
    check(k, delta, alpha, n0, cap, batch=batch)
    sign = 1.0 if maximise else -1.0
    first = _draw(sample, list(range(k)), 0, n0)
    counts = [n0] * k
    diffs = first[:, None, :] - first[None, :, :]
    s2 = diffs.var(axis=2, ddof=1)  # S²_il; the sign of X does not change it
    h2 = h_squared(k, n0, alpha)
    over = h2 * s2 / delta**2       # h²S²_il/δ²: W_il(r) is 0 from r >= this on
    maximum = int(np.floor(over).max()) + 1
    zero = [(i, j) for i in range(k) for j in range(i + 1, k) if s2[i, j] == 0]
    sums = sign * first.sum(axis=1)
    alive = list(range(k))
    exits: list[Exit] = []
    drawn, r = k * n0, n0
    limit = maximum if cap is None else min(maximum, cap)

    def result(best: int, stop: str) -> Selection:
        return Selection(best, r, stop, exits, list(counts),
                         [sign * sums[i] / counts[i] for i in range(k)], s2,
                         eta(k, n0, alpha), h2, maximum, drawn, zero)

    def pick(stop: str) -> Selection:
        # the largest mean among the survivors (ties: the first); the others leave here
        best = max(alive, key=lambda i: (sums[i] / r, -i))
        exits.extend(Exit(i, r, sign * sums[i] / r, best, screened=False)
                     for i in alive if i != best)
        return result(best, stop)

    if n0 >= maximum:               # n0 > max_i N_i: stop at once (step 2)
        return pick("maximum")
    ahead: dict[int, list[float]] = {}  # values of replications r, r+1, ... fetched in a batch
    while True:
        means = sums[alive] / r
        wide = np.maximum(0.0, delta / (2 * r) * (over[np.ix_(alive, alive)] - r))
        margin = means[None, :] - wide - means[:, None]   # [i, l]: X̄_l − W_il − X̄_i
        np.fill_diagonal(margin, -np.inf)
        out = [a for a in range(len(alive)) if margin[a].max() > 0]
        exits.extend(Exit(alive[a], r, sign * means[a], alive[int(np.argmax(margin[a]))])
                     for a in out)
        alive = [s for a, s in enumerate(alive) if a not in out]
        if len(alive) == 1:
            return result(alive[0], "one survivor")
        if r >= limit:              # reached only through a cap below the maximum
            return pick("cap")
        if not ahead.get(alive[0]):
            more = min(batch, limit - r)
            got = _draw(sample, alive, r, r + more)
            drawn += got.size
            ahead = {s: list(sign * got[a]) for a, s in enumerate(alive)}
        r += 1                      # one more replication of every survivor, in order
        for s in alive:
            sums[s] += ahead[s].pop(0)
            counts[s] += 1
        if r >= maximum:
            return pick("maximum")


def bonferroni_size(variances: np.ndarray, delta: float, alpha: float,
                    n0: int | None = None) -> int:
    """The fixed size per system with the same guarantee, from the variances of the
    differences (k × k): whichever system is best by δ, each of the k − 1 others then has
    a mean above the best's with probability ≤ α/(k−1), so all together with probability
    ≤ α (Bonferroni's inequality).

    Without ``n0``, the variances are taken as known and the means as normal:
    n = ⌈z²(1 − α/(k−1)) max_{i≠l} Var(X_i − X_l)/δ²⌉. With ``n0``, they are the sample
    variances of a first stage of n0 and n = max(n0, ⌈t²(1 − α/(k−1); n0 − 1) max S²_il/δ²⌉):
    a two-stage procedure after Clark and Yang (1986, Proc. Winter Simulation Conference):
    Stein's two-stage t argument for each pair, valid with common random numbers."""
    k = len(variances)
    level = 1 - alpha / (k - 1)
    q = float(stats.norm.ppf(level) if n0 is None else stats.t.ppf(level, n0 - 1))
    worst = float(np.max(variances[~np.eye(k, dtype=bool)]))
    return max(n0 or 1, math.ceil(q * q * worst / delta**2))


def _draw(sample: Sampler, systems: list[int], start: int, stop: int) -> np.ndarray:
    got = np.asarray(sample(systems, start, stop), dtype=float)
    if got.shape != (len(systems), stop - start) or not np.all(np.isfinite(got)):
        raise ValueError(f"the sampler gave {got.shape} values, or a non-finite one, for "
                         f"replications {start}..{stop - 1} (expected "
                         f"{(len(systems), stop - start)} finite values)")
    return got
