"""A study's stored rows read back a cell at a time: what its statistics, reports and
files are computed from, so that the client never holds the study's outcomes at once.

``StoreRows`` is the ``sim.study.analysis.blocks.Rows`` source of a results store (a
connection of its own, opened for one reading and closed after it). A replication that
is stored as a failure counts as failed even if a row of it is stored too.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from sim.study.analysis.blocks import Block, values_of
from sim.study.run.store import Stored, guard, parse_json, stored_rows

_CELL = "study_hash = ? AND variant = ? AND point = ?"
_OK = (f"FROM replications r WHERE r.{_CELL.replace(' AND ', ' AND r.')} {{}} AND NOT EXISTS "
       "(SELECT 1 FROM failures f WHERE f.study_hash = r.study_hash AND f.variant = r.variant "
       "AND f.point = r.point AND f.rep = r.rep)")


class StoreRows:
    """The rows a results store holds of one study, by cell index of ``cells``."""

    def __init__(self, path: str, study_hash: str, cells: Sequence[Any]) -> None:
        self.path, self.study_hash, self.cells = path, study_hash, cells
        with guard(path, "read it"):
            self.conn = sqlite3.connect(path, timeout=30)

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def __enter__(self) -> StoreRows:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _key(self, ci: int) -> tuple[str, str, str]:
        cell = self.cells[ci]
        return self.study_hash, cell.variant, cell.point_json

    def _ok(self, columns: str, ci: int, below: int | None, tail: str = "") -> Iterator[tuple]:
        limit = "" if below is None else "AND r.rep < ?"
        args = self._key(ci) + (() if below is None else (below,))
        with guard(self.path, "read it"):
            yield from self.conn.execute(f"SELECT {columns} {_OK.format(limit)} {tail}", args)

    def reps(self, ci: int) -> np.ndarray:
        """The successful replications of cell ``ci``, in order."""
        return np.array([r for (r,) in self._ok("r.rep", ci, None, "ORDER BY r.rep")],
                        dtype=np.int64)

    def block(self, ci: int, metrics: Sequence[str], below: int | None = None) -> Block:
        """Cell ``ci``'s successful replications (< ``below``) and their values."""
        ((count,),) = self._ok("COUNT(*)", ci, below)
        reps = np.empty(count, dtype=np.int64)
        rows = self._ok("r.rep, r.metrics", ci, below, "ORDER BY r.rep")

        def parsed() -> Iterator[dict[str, Any]]:
            for i, (rep, text) in enumerate(rows):
                reps[i] = rep
                yield parse_json(self.path, text, "replications", "metrics") if metrics else {}

        values = values_of(parsed(), metrics, count)
        if not metrics:   # the reps are still to be read
            for _ in parsed():
                pass
        return Block(reps, values)

    def names(self, cells: Iterable[int], below: int | None = None) -> set[str]:
        """Every metric name that a successful replication (< ``below``) of ``cells`` has."""
        found: set[str] = set()
        for ci in cells:
            for (text,) in self._ok("r.metrics", ci, below):
                found.update(parse_json(self.path, text, "replications", "metrics"))
        return found

    def records(self, ci: int, start: int = 0, stop: int | None = None) -> Iterator[Stored]:
        """Cell ``ci``'s stored replications and failures, start <= rep < stop, in order."""
        key = self._key(ci)
        limit = "" if stop is None else "AND rep < ?"
        args = (*key, start, *(() if stop is None else (stop,)))
        where = f"{_CELL} AND rep >= ? {limit}"
        with guard(self.path, "read it"):
            found = self.conn.execute(
                f"SELECT rep, seed, metrics, NULL, NULL, version, scenario_hash, 0 FROM "
                f"replications WHERE {where} UNION ALL SELECT rep, seed, NULL, error, "
                f"traceback, version, scenario_hash, 1 FROM failures WHERE {where} "
                "ORDER BY rep, 8 DESC", args + args)
            last = None
            for rep, seed, metrics, error, trace, version, scenario_hash, _ in found:
                if rep == last:
                    continue   # a failure stored beside a row: the failure counts
                last = rep
                m = None if metrics is None else parse_json(self.path, metrics, "replications",
                                                            "metrics")
                yield Stored(key[1], key[2], rep, seed, m, version, scenario_hash, error, trace)

    def failures(self) -> list[tuple[int, Stored]]:
        """Every stored failure of the study's cells, as (cell index, row), in order."""
        index = {(c.variant, c.point_json): i for i, c in enumerate(self.cells)}
        with guard(self.path, "read it"):
            found = self.conn.execute(
                "SELECT variant, point, rep, seed, error, traceback, version, scenario_hash "
                "FROM failures WHERE study_hash = ?", (self.study_hash,)).fetchall()
        out = [(index[(v, p)], Stored(v, p, r, s, None, ver, sh, e, tb))
               for v, p, r, s, e, tb, ver, sh in found if (v, p) in index]
        return sorted(out, key=lambda f: (f[0], f[1].rep))

    def check(self) -> int:
        """Read every row of the study, refusing one this store could not have written
        (as ``ResultStore.load`` does); returns how many there are."""
        return sum(1 for _ in stored_rows(self.conn, self.path, self.study_hash))
