"""Statistics of a study: means with 95% intervals and paired differences.

- Count and real metrics: the mean with a Student-t interval, mean ± t(0.975, n−1)·s/√n.
- Binary (yes/no) metrics: the proportion with a Wilson score interval, which stays inside
  [0, 1] and is not degenerate at 0 or 1 successes the way the Wald interval is.
- Paired differences (variant − baseline at the same factor point), paired by replication
  index: a t-interval on the per-replication differences. Under common random numbers the
  pairs share dice, so the differences vary far less than either side does.

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

LEVEL = 0.95


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its interval and the number of values behind it."""

    mean: float
    ci_low: float
    ci_high: float
    n: int

    @property
    def half_width(self) -> float:
        """Half the interval's width (NaN when there is no interval)."""
        return (self.ci_high - self.ci_low) / 2

    def as_dict(self) -> dict[str, Any]:
        """``{"mean", "ci_low", "ci_high", "n"}``; NaN becomes None so the JSON is valid."""
        def num(x: float):
            return None if x is None or not math.isfinite(x) else float(x)
        return {"mean": num(self.mean), "ci_low": num(self.ci_low),
                "ci_high": num(self.ci_high), "n": int(self.n)}


def t_interval(values: Sequence[float], level: float = LEVEL) -> Estimate:
    """Mean with a two-sided Student-t interval (sample s.d., n − 1 degrees of freedom)."""
    x = np.asarray(values, dtype=float)
    n = len(x)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = float(x.mean())
    if n < 2:
        return Estimate(mean, math.nan, math.nan, n)
    sd = float(x.std(ddof=1))
    half = float(sps.t.ppf(0.5 + level / 2, n - 1)) * sd / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n)


def wilson_interval(successes: int, n: int, level: float = LEVEL) -> Estimate:
    """Proportion successes/n with the Wilson score interval.

    centre = (p + z²/2n) / (1 + z²/n),  half = z/(1 + z²/n) · √(p(1−p)/n + z²/4n²).
    """
    if not 0 <= successes <= n:
        raise ValueError(f"successes {successes} not within 0..{n}")
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    z = float(sps.norm.ppf(0.5 + level / 2))
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # At 0 or n successes the bound is exactly 0 or 1; rounding would leave an ulp off.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Estimate(p, low, high, n)


def estimate(values: Sequence[float], kind: str, level: float = LEVEL) -> Estimate:
    """The right interval for a metric kind: Wilson for "binary", Student-t otherwise."""
    if kind == "binary":
        x = np.asarray(values, dtype=float)
        bad = x[(x != 0) & (x != 1)]
        if len(bad):
            raise ValueError(f"binary metric has a value {bad[0]!r} (expected 0 or 1)")
        return wilson_interval(int(x.sum()), len(x), level)
    return t_interval(values, level)


def paired_difference(a: Sequence[float], b: Sequence[float], level: float = LEVEL) -> Estimate:
    """Mean of a[i] − b[i] with a t-interval on the differences (a paired t-interval)."""
    if len(a) != len(b):
        raise ValueError("paired samples must have the same length")
    return t_interval(np.asarray(a, dtype=float) - np.asarray(b, dtype=float), level)


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


def _value(row: Mapping[str, Any] | None, metric: str) -> float | None:
    if row is None:
        return None
    v = row.get(metric)
    if v is None:
        return None
    v = float(v)
    return v if math.isfinite(v) else None


def summarize(cells: Sequence[Any], baseline: str, rows: Mapping[tuple[int, int], Mapping],
              metrics: Sequence[str], kinds: Mapping[str, str], reps: int | None = None) -> Summary:
    """Estimates from ``rows`` keyed by (cell index, replication) -> metrics.

    Only replications ``< reps`` count when ``reps`` is given (so a precision run that
    stops at n uses exactly the first n, whatever else a resumed store holds). Values are
    taken in replication order. A replication that failed, or lacks a metric, is left out
    of that metric (and out of any pair it belongs to).
    """
    by_cell: dict[int, list[int]] = {}
    for (ci, rep) in sorted(rows):
        if reps is None or rep < reps:
            by_cell.setdefault(ci, []).append(rep)
    est: dict[str, dict[str, Estimate]] = {}
    for ci, cell in enumerate(cells):
        table = est[cell.label] = {}
        for m in metrics:
            vals = [v for r in by_cell.get(ci, []) if (v := _value(rows[(ci, r)], m)) is not None]
            table[m] = estimate(vals, kinds.get(m, "real"))
    diffs: dict[str, dict[str, Estimate]] = {}
    base_at = {c.point: i for i, c in enumerate(cells) if c.variant == baseline}
    for ci, cell in enumerate(cells):
        bi = base_at.get(cell.point)
        if cell.variant == baseline or bi is None:
            continue
        common = sorted(set(by_cell.get(ci, [])) & set(by_cell.get(bi, [])))
        table = diffs[f"{cell.label} - {cells[bi].label}"] = {}
        for m in metrics:
            pairs = [(a, b) for r in common
                     if (a := _value(rows[(ci, r)], m)) is not None
                     and (b := _value(rows[(bi, r)], m)) is not None]
            table[m] = paired_difference([p[0] for p in pairs], [p[1] for p in pairs])
    return Summary(est, diffs)
