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
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy import special, stats

from sim import arguments
from sim.errors import InputError

#: ``sample(systems, start, stop)`` → values, shape (len(systems), stop − start).
Sampler = Callable[[Sequence[int], int, int], np.ndarray]

#: Why the procedure stopped: one survivor; at its own maximum max_i N_i + 1 (or at n0,
#: when n0 > max_i N_i) by the largest mean; at a cap given by the caller, before either.
STOPS = ("one survivor", "maximum", "cap")


def eta(k: int, n0: int, alpha: float) -> float:
    """KN's η = ½[(2α/(k−1))^(−2/(n0−1)) − 1] (inf beyond the largest float)."""
    base, power = 2.0 * alpha / (k - 1), -2.0 / (n0 - 1)
    try:
        value = 0.5 * (base**power - 1.0)
    except OverflowError:
        return math.inf
    if value < 1e-6:  # alpha next to 1 − 1/k: base**power − 1 has lost its digits
        value = 0.5 * math.expm1(power * math.log(base))
    return value


def h_squared(k: int, n0: int, alpha: float) -> float:
    """KN's h² = 2η(n0 − 1)."""
    return 2.0 * eta(k, n0, alpha) * (n0 - 1)


def zero_one_spread(n0: int) -> float:
    """The largest S²_il a first stage of n0 can give for a 0/1 metric: each difference is
    −1, 0 or 1, and the sample variance is largest with half of them −1 and half 1,
    4⌊n0/2⌋⌈n0/2⌉/(n0(n0 − 1)) (n0/(n0 − 1) for an even n0, (n0 + 1)/n0 for an odd one)."""
    return 4 * (n0 // 2) * ((n0 + 1) // 2) / (n0 * (n0 - 1))


def over_delta_squared(c: float, s2: np.ndarray, delta: float) -> np.ndarray:
    """c·S²/δ² for each S² (c > 0): where a step of the computation leaves the floats
    (δ² or c·S² beyond the largest, δ² below the smallest), the same in logarithms; inf
    when the result itself is beyond the largest float."""
    s2 = np.asarray(s2, dtype=float)
    if c == 0:  # h² (or q²) rounded to 0, alpha next to 1 − 1/k: 0 whatever S²
        return np.zeros_like(s2)
    try:
        d2 = delta**2
    except OverflowError:
        d2 = math.inf
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        out = np.asarray(c * s2 / d2, dtype=float)
        odd = ~np.isfinite(out)
        if odd.any():
            out[odd] = np.exp(math.log(c) + np.log(s2[odd]) - 2.0 * math.log(delta))
    return out


def own_maximum(h2: float, s2: np.ndarray, delta: float) -> int | None:
    """KN's maximum stage, max_il ⌊h²S²_il/δ²⌋ + 1 (None beyond the largest float)."""
    top = float(over_delta_squared(h2, s2, delta).max())
    return math.floor(top) + 1 if math.isfinite(top) else None


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
          names: dict[str, str] | None = None, batch: int = 1,
          spread: float | None = None) -> None:
    """Refuse parameters KN is not defined for (an ``InputError`` naming the one), and,
    with no cap, when ``spread`` bounds every S²_il a first stage can give
    (``zero_one_spread``), a maximum beyond the limit, before the first replication
    (``check_maximum``)."""
    name = _names(names)
    if arguments.whole(k, name["k"]) < 2:
        raise InputError(f"needs at least 2 to select from, got {k}", place=name["k"])
    arguments.number(delta, name["delta"], positive=True)
    if not (arguments.number(alpha, name["alpha"]) > 0 and alpha < 1 - 1 / k):
        raise InputError(f"expected 0 < alpha < 1 - 1/k = {1 - 1 / k:.4g} (k = {k}), got "
                         f"{alpha!r}", place=name["alpha"])
    if alpha / (k - 1) < sys.float_info.min:  # below, KN's and Bonferroni's constants lose their digits
        raise InputError(f"expected alpha >= (k - 1) x {sys.float_info.min:.4g} = "
                         f"{(k - 1) * sys.float_info.min:.4g} (k = {k}: alpha/(k - 1) a normal "
                         f"float), got {alpha!r}", place=name["alpha"])
    delta, alpha = float(delta), float(alpha)  # an int or a Fraction is taken too
    most = arguments.MAX_REPLICATIONS  # a study's limit on a cell's replications
    arguments.whole(n0, name["n0"], 2, most)
    arguments.whole(batch, name["batch"], 1)
    if cap is not None and arguments.whole(cap, name["cap"], 2, most) < n0:
        raise InputError(f"the cap {cap} is below the first stage n0 = {n0} (expected "
                         f">= n0)", place=name["cap"])
    if not math.isfinite(h_squared(k, n0, alpha)):
        raise InputError(f"KN's h² = 2η(n0 − 1) is beyond the largest float for alpha "
                         f"{alpha:g}, n0 {n0} and {k} cells (expected a larger alpha or n0)",
                         place=_places(name["alpha"], name["n0"]))
    if spread is not None and cap is None:
        check_maximum(k, delta, alpha, n0, np.array([spread]), cap, names,
                      "the most a 0/1 metric's first stage can give")


def check_maximum(k: int, delta: float, alpha: float, n0: int, s2: np.ndarray,
                  cap: int | None = None, names: dict[str, str] | None = None,
                  source: str = "the first stage's largest") -> None:
    """Refuse a selection whose own maximum, ⌊h²S²_il/δ²⌋ + 1 replications of a system
    at the largest S²_il, is beyond ``arguments.MAX_REPLICATIONS`` with no cap (it would
    run for ever), or beyond the largest float with one (it cannot be computed)."""
    h2 = h_squared(k, n0, alpha)
    maximum = own_maximum(h2, s2, delta)
    if maximum is not None and (cap is not None or maximum <= arguments.MAX_REPLICATIONS):
        return
    name = _names(names)
    most = "beyond the largest float" if maximum is None else f"{maximum:,}" \
        if maximum < 10**15 else f"about {float(maximum):.3g}"
    fix = ("expected a larger delta, alpha or n0" if cap is not None else
           f"expected at most {arguments.MAX_REPLICATIONS:,}: a larger delta, alpha or n0, or "
           f"a cap on replications, {name['cap']}, which leaves a selection it stops "
           "without its guarantee")
    raise InputError(f"KN's own maximum, ⌊h²S²/δ²⌋ + 1 replications a cell, is {most}: h² = "
                     f"{h2:.4g} (alpha {alpha:g}, n0 {n0}, {k} cells), S² = "
                     f"{float(np.max(s2)):.4g} ({source}), δ = {delta:g} ({fix})",
                     place=_places(name["delta"], name["alpha"], name["n0"]))


def _places(*places: str) -> str:
    """Places joined, a file named once for the places in it that follow one another
    ("f.yaml: line 3, key select.alpha, line 3, key select.n0")."""
    said, last = [], ""
    for place in dict.fromkeys(places):
        file, _, where = place.rpartition(": ")
        said.append(where if file and file == last else place)
        last = file
    return ", ".join(said)


def _names(names: dict[str, str] | None) -> dict[str, str]:
    return {"k": "variants", "delta": "delta", "alpha": "alpha", "n0": "n0",
            "cap": "replications", "batch": "batch", **(names or {})}


def kn(sample: Sampler, k: int, *, delta: float, alpha: float, n0: int = 10,
       maximise: bool = True, batch: int = 1, cap: int | None = None,
       names: dict[str, str] | None = None) -> Selection:
    """Run KN on ``k`` systems drawn from ``sample``; ``batch`` replications of the
    survivors are asked for at a time (the result does not depend on it); ``cap`` stops
    it at that many replications per system, before its own maximum if need be (the
    guarantee then no longer holds). Without a cap, a first stage that makes its maximum
    more than ``arguments.MAX_REPLICATIONS`` is an ``InputError`` (``names``: where each
    parameter came from, as ``check``'s), raised before any further replication."""
    check(k, delta, alpha, n0, cap, names, batch=batch)
    delta, alpha = float(delta), float(alpha)
    sign = 1.0 if maximise else -1.0
    first = _draw(sample, list(range(k)), 0, n0)
    counts = [n0] * k
    with np.errstate(over="ignore", invalid="ignore"):  # values near the largest float
        diffs = first[:, None, :] - first[None, :, :]
        s2 = diffs.var(axis=2, ddof=1)  # S²_il; the sign of X does not change it
    s2[np.isnan(s2)] = np.inf       # differences beyond the largest float
    check_maximum(k, delta, alpha, n0, s2, cap, names)
    h2 = h_squared(k, n0, alpha)
    over = over_delta_squared(h2, s2, delta)  # h²S²_il/δ²: W_il(r) is 0 from r >= this on
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
        with np.errstate(over="ignore"):  # a δ or an h²S²/δ² near the largest float
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
    tail = alpha / (k - 1)
    q = float(stats.norm.isf(tail)) if n0 is None else _t_upper(tail, n0 - 1)
    worst = float(np.max(variances[~np.eye(k, dtype=bool)]))
    return max(n0 or 1, math.ceil(over_delta_squared(q * q, np.array([worst]), delta)[0]))


def _t_upper(tail: float, df: int) -> float:
    """Student's t quantile at 1 − tail: SciPy's down to a tail of 1e-100; below, where
    SciPy's is wrong (even −inf), from t² = df(1 − x)/x, x = I⁻¹(df/2, ½; 2·tail) (the
    inverse regularised incomplete beta); and where x is below the normal floats (t beyond
    1e153), from the tail P(T > t) = K t^(−df)/df, K = Γ((df+1)/2) df^((df+1)/2)/(√(df π)
    Γ(df/2)), exact there to within df²/t² (inf beyond the largest float)."""
    if tail >= 1e-100:
        return float(stats.t.isf(tail, df))
    x = float(special.betaincinv(df / 2, 0.5, 2.0 * tail))
    if x >= sys.float_info.min:
        return math.sqrt(df * (1.0 - x) / x)
    log_k = (math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
             + (df + 1) / 2 * math.log(df))
    try:
        return math.exp((log_k - math.log(df) - math.log(tail)) / df)
    except OverflowError:
        return math.inf


def _draw(sample: Sampler, systems: list[int], start: int, stop: int) -> np.ndarray:
    got = np.asarray(sample(systems, start, stop), dtype=float)
    if got.shape != (len(systems), stop - start) or not np.all(np.isfinite(got)):
        raise ValueError(f"the sampler gave {got.shape} values, or a non-finite one, for "
                         f"replications {start}..{stop - 1} (expected "
                         f"{(len(systems), stop - start)} finite values)")
    return got
