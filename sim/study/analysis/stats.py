"""Statistics of a study: means with 95% intervals and paired differences.

- Count and real metrics: the mean with a Student-t interval, mean ± t(0.975, n−1)·s/√n
  (``scipy.stats.t``).
- Binary (yes/no) metrics: the proportion with a Wilson score interval
  (``scipy.stats.binomtest(...).proportion_ci(method="wilson")``), which stays inside
  [0, 1] and is not degenerate at 0 or n successes the way the Wald interval is.
- Paired differences (variant − baseline at the same factor point, paired by replication
  index) of a count or real metric: a t-interval on the per-replication differences.
  Under common random numbers the pairs share dice, so the differences vary far less
  than either side does.
- Paired differences of a binary metric: Newcombe's hybrid score interval, which stays
  inside [−1, 1] (a t-interval on 0/±1 differences does not, and collapses to a point
  when no pair disagrees). With common random numbers the two outcomes of replication i
  are correlated, so the paired form is used (Newcombe 1998, Stat. Med. 17:2635, method
  10): the Wilson intervals of the two proportions are combined with the 2×2 table's
  correlation φ (with Newcombe's n/2 correction), so pairing narrows the interval as it
  does for the t-interval. Without common random numbers (``--no-crn``) replication i of
  two cells is independent, φ is 0 by design, and the interval is Newcombe's hybrid score
  interval for independent proportions (Stat. Med. 17:873, method 10).
- A count or real metric whose values are all equal (0 in every replication, say), or
  such a paired difference, has no spread to measure: its interval is the point itself
  and it is labelled ``constant`` (``method``), never shown as if it were a certain
  result. A binary metric, or a difference of one, keeps its score interval even then
  (Wilson's, Newcombe's need no spread): 0 in 50 still leaves up to 0.071.

Every function takes values in replication order and is a pure function of them, so the
numbers do not depend on which worker finished first. An interval that cannot be computed
(fewer than two values for a t-interval) has NaN bounds.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats as sps

from sim.study.analysis.blocks import Block, MemoryRows, Rows, groups

LEVEL = 0.95
#: How an interval was made: a Student-t interval, a Wilson score interval, Newcombe's
#: hybrid score interval (paired, or for independent samples), or none: every value was
#: the same (``constant``), or there were too few (``none``).
METHODS = ("t", "wilson", "newcombe-paired", "newcombe", "constant", "none")
#: Values in replication order: a list, or a column of a ``Block``.
Values = Sequence[float] | np.ndarray


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its interval, the number of values behind it and the method."""

    mean: float
    ci_low: float
    ci_high: float
    n: int
    method: str = "t"

    @property
    def half_width(self) -> float:
        """Half the interval's width (NaN when there is no interval)."""
        return (self.ci_high - self.ci_low) / 2

    @property
    def constant(self) -> bool:
        """True when every value was the same: the interval is that value, not a result."""
        return self.method == "constant"

    def as_dict(self) -> dict[str, Any]:
        """``{"mean", "ci_low", "ci_high", "n", "method"}``; NaN becomes None (valid JSON)."""
        def num(x: float):
            return None if x is None or not math.isfinite(x) else float(x)
        return {"mean": num(self.mean), "ci_low": num(self.ci_low),
                "ci_high": num(self.ci_high), "n": int(self.n), "method": self.method}


def t_interval(values: Values, level: float = LEVEL) -> Estimate:
    """Mean with a two-sided Student-t interval (sample s.d., n − 1 degrees of freedom).

    All values equal: the point itself, labelled ``constant``.
    """
    x = np.asarray(values, dtype=float)
    n = len(x)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, "none")
    mean = float(x.mean())
    if n < 2:
        return Estimate(mean, math.nan, math.nan, n, "none")
    if np.all(x == x[0]):
        return Estimate(float(x[0]), float(x[0]), float(x[0]), n, "constant")
    low, high = sps.t.interval(level, n - 1, loc=mean, scale=float(x.std(ddof=1)) / math.sqrt(n))
    return Estimate(mean, float(low), float(high), n, "t")


def wilson_bounds(successes: int, n: int, level: float = LEVEL) -> tuple[float, float]:
    """The Wilson score interval of successes/n (scipy's), exactly 0 or 1 at the ends."""
    ci = sps.binomtest(successes, n).proportion_ci(level, method="wilson")
    low = 0.0 if successes == 0 else max(0.0, float(ci.low))
    high = 1.0 if successes == n else min(1.0, float(ci.high))
    return low, high


def wilson_interval(successes: int, n: int, level: float = LEVEL) -> Estimate:
    """Proportion successes/n with the Wilson score interval."""
    if not 0 <= successes <= n:
        raise ValueError(f"successes {successes} not within 0..{n}")
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, "none")
    low, high = wilson_bounds(successes, n, level)
    return Estimate(successes / n, low, high, n, "wilson")


def _binary(values: Values, what: str) -> np.ndarray:
    x = np.asarray(values, dtype=float)
    bad = x[(x != 0) & (x != 1)]
    if len(bad):
        raise ValueError(f"{what} has a value {bad[0]!r} (expected 0 or 1)")
    return x


def estimate(values: Values, kind: str, level: float = LEVEL) -> Estimate:
    """The right interval for a metric kind: Wilson for "binary", Student-t otherwise."""
    if kind == "binary":
        x = _binary(values, "binary metric")
        return wilson_interval(int(x.sum()), len(x), level)
    return t_interval(values, level)


def paired_difference(a: Values, b: Values, level: float = LEVEL) -> Estimate:
    """Mean of a[i] − b[i] with a t-interval on the differences (a paired t-interval)."""
    if len(a) != len(b):
        raise ValueError("paired samples must have the same length")
    return t_interval(np.asarray(a, dtype=float) - np.asarray(b, dtype=float), level)


def newcombe_phi(both: int, only_a: int, only_b: int, neither: int) -> float:
    """Newcombe's estimate of the correlation of a paired 2×2 table (n/2 correction).

    0 when a margin is empty or the table's ad − bc lies in [0, n/2].
    """
    n = both + only_a + only_b + neither
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    if margins == 0:
        return 0.0
    cross = float(both * neither - only_a * only_b)
    if cross > n / 2:
        cross -= n / 2
    elif cross >= 0:
        return 0.0
    return cross / math.sqrt(margins)


def binary_difference(a: Values, b: Values, paired: bool = True,
                      level: float = LEVEL) -> Estimate:
    """Proportion of a minus proportion of b (0/1 values) with Newcombe's hybrid score
    interval, inside [−1, 1].

    ``paired``: a[i] and b[i] come from the same replication (common random numbers), and
    the table's correlation is used (Newcombe 1998, paired, method 10). Otherwise the two
    samples are independent (Newcombe 1998, independent proportions, method 10).
    """
    x, y = _binary(a, "binary metric"), _binary(b, "binary metric")
    if len(x) != len(y):
        raise ValueError("paired samples must have the same length")
    n = len(x)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, "none")
    both, only_a = int(np.sum((x == 1) & (y == 1))), int(np.sum((x == 1) & (y == 0)))
    only_b, neither = int(np.sum((x == 0) & (y == 1))), int(np.sum((x == 0) & (y == 0)))
    p1, p2 = (both + only_a) / n, (both + only_b) / n
    l1, u1 = wilson_bounds(both + only_a, n, level)
    l2, u2 = wilson_bounds(both + only_b, n, level)
    phi = newcombe_phi(both, only_a, only_b, neither) if paired else 0.0
    d = (only_a - only_b) / n
    down = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    up = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return Estimate(d, max(-1.0, d - down), min(1.0, d + up), n,
                    "newcombe-paired" if paired else "newcombe")


@dataclass
class Summary:
    """Estimates per cell label and metric, and paired differences per comparison."""

    cells: dict[str, dict[str, Estimate]]
    differences: dict[str, dict[str, Estimate]]

    def intervals(self, metrics: Iterable[str] | None = None) -> list[Estimate]:
        """Every reported interval (optionally only for some metrics)."""
        keep = None if metrics is None else set(metrics)
        out = []
        for table in (self.cells, self.differences):
            for per_metric in table.values():
                out += [e for m, e in per_metric.items() if keep is None or m in keep]
        return out

    def precise(self, half_width: float, metrics: Iterable[str] | None = None) -> bool:
        """True when every reported interval has a half-width <= ``half_width``.

        An interval that cannot be computed yet (NaN) is never precise enough.
        """
        return all(math.isfinite(e.half_width) and e.half_width <= half_width
                   for e in self.intervals(metrics))


def summarize(cells: Sequence[Any], baseline: str, rows: Mapping[tuple[int, int], Mapping],
              metrics: Sequence[str], kinds: Mapping[str, str], reps: int | None = None,
              paired: bool = True) -> Summary:
    """Estimates from ``rows`` keyed by (cell index, replication) -> metrics.

    ``paired``: replication i of two cells shares its dice (common random numbers), so a
    binary metric's difference uses the paired Newcombe interval (independent otherwise).

    Only replications ``< reps`` count when ``reps`` is given (so a precision run that
    stops at n uses exactly the first n, whatever else a resumed store holds). Values are
    taken in replication order. A replication that failed, or lacks a metric, is left out
    of that metric (and out of any pair it belongs to).
    """
    source = MemoryRows(rows)
    return summarize_rows(cells, baseline, source, metrics, kinds, reps, paired, source.most())


def summarize_rows(cells: Sequence[Any], baseline: str, source: Rows, metrics: Sequence[str],
                   kinds: Mapping[str, str], reps: int | None = None, paired: bool = True,
                   most: int = 0) -> Summary:
    """``summarize`` on outcomes read a cell at a time from ``source``: each cell's block
    once, beside its factor point's baseline block (``most``: the most replications a
    cell has, which sizes the groups of metrics read at once)."""
    est: dict[str, dict[str, Estimate]] = {cell.label: {} for cell in cells}
    base_at = {c.point: i for i, c in enumerate(cells) if c.variant == baseline}
    against = {ci: base_at[c.point] for ci, c in enumerate(cells)
               if c.variant != baseline and c.point in base_at}
    diffs: dict[str, dict[str, Estimate]] = {
        f"{cells[ci].label} - {cells[bi].label}": {} for ci, bi in against.items()}
    at_point: dict[Any, list[int]] = {}
    for ci, c in enumerate(cells):
        at_point.setdefault(c.point, []).append(ci)
    for group in groups(metrics, most or reps or 1):
        for point, members in at_point.items():
            bi = base_at.get(point)
            base = source.block(bi, group, reps) if bi is not None else None
            for ci in members:
                block = base if ci == bi and base is not None else source.block(ci, group, reps)
                for j, m in enumerate(group):
                    est[cells[ci].label][m] = estimate(block.column(j), kinds.get(m, "real"))
                if ci in against and base is not None:
                    _differences(diffs[f"{cells[ci].label} - {cells[against[ci]].label}"], block,
                                 base, group, kinds, paired)
    return Summary(est, diffs)


def _differences(table: dict[str, Estimate], block: Block, base: Block, metrics: Sequence[str],
                 kinds: Mapping[str, str], paired: bool) -> None:
    """Each metric's difference of ``block`` from ``base`` over the replications both have
    a value of, in replication order."""
    # Both are increasing: where each of the cell's replications would sit in the base's.
    at = np.searchsorted(base.reps, block.reps)
    hit = at < len(base.reps)
    hit[hit] = base.reps[at[hit]] == block.reps[hit]
    mine, theirs = np.nonzero(hit)[0], at[hit]
    for j, m in enumerate(metrics):
        a, b = block.values[mine, j], base.values[theirs, j]
        both = np.isfinite(a) & np.isfinite(b)
        if kinds.get(m, "real") == "binary":
            table[m] = binary_difference(a[both], b[both], paired=paired)
        else:
            table[m] = paired_difference(a[both], b[both])
