"""Factors of a designed study: continuous, integer or categorical, and how a design's
unit-cube coordinate becomes a knob value.

In ``factors.vary`` a factor is written as

- ``[low, high]``: two numbers, a range; integer when both are whole numbers (an integer
  knob such as ``rules.h17.ap_range``), continuous otherwise;
- ``[a, b, ...]`` with any non-number among them (``[snap_fire, zoc]``, a policy name, a
  route), or ``{levels: [...]}`` for any list of values: categorical levels.

A coordinate u in [0, 1] maps to a continuous value ``low + u (high - low)``, to the
integer ``low + floor(u (high - low + 1))`` (each whole number gets an equal share of the
unit interval; u = 1 is the top one) and to level ``floor(u L)`` of L levels likewise.
(The older ``lhs`` design keeps its own rounding of ranges, so its points are unchanged;
its strata share a categorical factor's levels evenly, ``sim.study.plan.designs.lhs``.)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal, cast


def is_number(v: Any) -> bool:
    """A JSON number that is not a boolean."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


@dataclass(frozen=True)
class Factor:
    """One varied knob: its dotted key, kind and range or levels."""

    key: str
    kind: Literal["real", "integer", "categorical"]
    low: float = 0.0
    high: float = 1.0
    levels: tuple[Any, ...] = ()

    @property
    def count(self) -> int | None:
        """How many distinct values the factor has (None for a continuous range)."""
        if self.kind == "categorical":
            return len(self.levels)
        if self.kind == "integer":
            return int(self.high - self.low) + 1
        return None

    def value(self, u: float) -> Any:
        """The knob value at unit coordinate ``u`` (clipped to [0, 1])."""
        u = min(max(float(u), 0.0), 1.0)
        if self.kind == "real":
            return float(self.low + u * (self.high - self.low))
        n = cast(int, self.count)   # integer and categorical factors have a count
        i = min(int(math.floor(u * n)), n - 1)
        return int(self.low) + i if self.kind == "integer" else self.levels[i]

    def spread(self, n: int) -> list[Any]:
        """``n`` values spread evenly from the lowest to the highest (a factorial's levels);
        every level when the factor has at most ``n`` distinct values."""
        if self.count is not None and self.count <= n:
            return [self.value((i + 0.5) / self.count) for i in range(self.count)]
        return [self.value(i / (n - 1)) for i in range(n)]

    def written(self) -> Any:
        """The factor as ``factors.vary`` writes it (``parse_factor`` reads it back)."""
        if self.kind == "categorical":
            return {"levels": list(self.levels)}
        if self.kind == "integer":
            return [int(self.low), int(self.high)]
        return [float(self.low), float(self.high)]

    def describe(self) -> str:
        """'[2, 9] (integer)' or "levels ['snap_fire', 'zoc']"."""
        if self.kind == "categorical":
            return f"levels {list(self.levels)}"
        return f"[{self.low:g}, {self.high:g}] ({self.kind})"


def parse_factor(key: str, raw: Any) -> Factor | str:
    """A ``Factor`` from its ``vary`` entry, or a sentence saying what was expected."""
    if isinstance(raw, dict):
        if set(raw) != {"levels"}:
            return f"expected {{levels: [...]}} (got keys {sorted(raw)})"
        return _levels(key, raw["levels"])
    if not isinstance(raw, list):
        return "expected [low, high], a list of levels, or {levels: [...]}"
    if len(raw) == 2 and all(is_number(v) for v in raw):
        low, high = raw
        if not all(math.isfinite(v) for v in raw) or not low < high:
            return f"expected [low, high] finite numbers with low < high (got {raw!r})"
        whole = all(isinstance(v, int) for v in raw)
        return Factor(key, "integer" if whole else "real", low, high)
    if all(is_number(v) for v in raw):
        return (f"expected [low, high] (two numbers) or categorical levels (got {raw!r}; "
                "numeric levels are written {levels: [...]})")
    return _levels(key, raw)


def _levels(key: str, levels: Any) -> Factor | str:
    import json

    if not isinstance(levels, list) or len(levels) < 2:
        return f"expected at least two levels (got {levels!r})"
    if len({json.dumps(v, sort_keys=True) for v in levels}) != len(levels):
        return "a level is listed twice"
    return Factor(key, "categorical", levels=tuple(levels))
