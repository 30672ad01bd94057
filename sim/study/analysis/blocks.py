"""A study's outcomes as the statistics read them: one cell at a time, as columns.

The statistics never hold a study's outcomes at once: they ask a ``Rows`` source for one
cell's ``Block`` (its successful replications in order, a column of values per metric)
and let it go, so their memory depends on the cells and on one cell's replications, not
on the study's. ``sim.study.run.rows`` reads blocks from the results store;
``MemoryRows`` from outcomes in memory (a mapping, or stored rows), for tests and
scripts. A value that is missing, not a number's finite value, or of a failed
replication does not count: a block holds NaN there.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

#: Values of one cell's block read at once; more metrics than fit are read in groups.
BUDGET = 1 << 20


@dataclass(frozen=True)
class Block:
    """One cell's successful replications in order and a column per metric (NaN: none)."""

    reps: np.ndarray     # int64, increasing
    values: np.ndarray   # float64, (len(reps), metrics)

    def column(self, j: int) -> np.ndarray:
        """The values of metric ``j`` that count, in replication order."""
        col = self.values[:, j]
        return col[np.isfinite(col)]


class Rows(Protocol):
    """Where the statistics read a study's outcomes, by cell index."""

    def reps(self, ci: int) -> np.ndarray:
        """The successful replications of cell ``ci``, in order."""

    def block(self, ci: int, metrics: Sequence[str], below: int | None = None) -> Block:
        """Cell ``ci``'s successful replications (< ``below``) and their values."""

    def names(self, cells: Iterable[int], below: int | None = None) -> set[str]:
        """Every metric name that a successful replication (< ``below``) of ``cells`` has."""


def number(value: Any) -> float:
    """A metric's value as the statistics count it: a finite float, or NaN."""
    if value is None:
        return math.nan
    x = float(value)
    return x if math.isfinite(x) else math.nan


def groups(metrics: Sequence[str], most: int) -> list[list[str]]:
    """``metrics`` in groups whose block of ``most`` replications fits ``BUDGET``."""
    size = max(1, BUDGET // max(1, most))
    return [list(metrics[i:i + size]) for i in range(0, len(metrics), size)] or [[]]


def values_of(rows: Iterable[Mapping[str, Any] | None], metrics: Sequence[str],
              count: int) -> np.ndarray:
    """The (count × metrics) values of ``count`` metric mappings (None: a failure)."""
    out = np.full((count, len(metrics)), math.nan)
    if metrics:
        for i, row in enumerate(rows):
            if row is not None:
                out[i] = [number(row.get(m)) for m in metrics]
    return out


class MemoryRows:
    """Outcomes in memory, keyed (cell index, replication): metrics, or None (failed)."""

    def __init__(self, rows: Mapping[tuple[int, int], Mapping[str, Any] | None]) -> None:
        self.rows = rows
        self.by_cell: dict[int, list[int]] = {}
        for ci, rep in sorted(rows):
            self.by_cell.setdefault(ci, []).append(rep)

    @classmethod
    def of_stored(cls, stored: Iterable[Any], cells: Sequence[Any]) -> MemoryRows:
        """From stored rows (``variant``, ``point``, ``rep``, ``metrics``) of ``cells``;
        a failure or a row of no cell is left out."""
        index = {(c.variant, c.point_json): i for i, c in enumerate(cells)}
        rows = {}
        for s in stored:
            ci = index.get((s.variant, s.point))
            if ci is not None and s.metrics is not None:
                rows[(ci, s.rep)] = s.metrics
        return cls(rows)

    def most(self) -> int:
        """The most replications any cell has."""
        return max((len(r) for r in self.by_cell.values()), default=0)

    def _kept(self, ci: int, below: int | None) -> list[int]:
        return [r for r in self.by_cell.get(ci, []) if below is None or r < below]

    def reps(self, ci: int) -> np.ndarray:
        """The successful replications of cell ``ci``, in order."""
        return np.array([r for r in self._kept(ci, None) if self.rows[(ci, r)] is not None],
                        dtype=np.int64)

    def block(self, ci: int, metrics: Sequence[str], below: int | None = None) -> Block:
        """Cell ``ci``'s replications (< ``below``) and their values."""
        reps = [r for r in self._kept(ci, below) if self.rows[(ci, r)] is not None]
        return Block(np.array(reps, dtype=np.int64),
                     values_of((self.rows[(ci, r)] for r in reps), metrics, len(reps)))

    def names(self, cells: Iterable[int], below: int | None = None) -> set[str]:
        """Every metric name of the successful replications (< ``below``) of ``cells``."""
        return {m for ci in cells for r in self._kept(ci, below)
                for m in (self.rows[(ci, r)] or {})}
