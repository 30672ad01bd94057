"""The SQLite results store: every finished replication, committed as it arrives.

Tables:
- ``studies``: one row per study hash with the full resolved config (study + scenario)
  as JSON, so a stored result always says how it was made.
- ``replications``: one row per finished replication: study hash, variant, factor point
  (canonical JSON), replication index, seed, metrics (JSON), package version and the
  cell's scenario hash. UNIQUE (study_hash, variant, point, rep): a batch that is run
  twice (a resume after a crash between "computed" and "committed") adds nothing.
- ``failures``: replications that raised, with seed and traceback, same key.

The database runs in WAL mode and each batch is one transaction, so a process killed at
any instant (even by SIGKILL) leaves every committed batch intact and no half batch.
"""
from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sim.errors import InputError

SCHEMA = """
CREATE TABLE IF NOT EXISTS studies (
    study_hash TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    config TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS replications (
    study_hash TEXT NOT NULL,
    variant TEXT NOT NULL,
    point TEXT NOT NULL,
    rep INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    metrics TEXT NOT NULL,
    version TEXT NOT NULL,
    scenario_hash TEXT NOT NULL,
    UNIQUE (study_hash, variant, point, rep)
);
CREATE TABLE IF NOT EXISTS failures (
    study_hash TEXT NOT NULL,
    variant TEXT NOT NULL,
    point TEXT NOT NULL,
    rep INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    error TEXT NOT NULL,
    traceback TEXT NOT NULL,
    version TEXT NOT NULL,
    scenario_hash TEXT NOT NULL,
    UNIQUE (study_hash, variant, point, rep)
);
"""


@dataclass(frozen=True)
class Stored:
    """One stored replication (or failure, when ``metrics`` is None)."""

    variant: str
    point: str
    rep: int
    seed: int
    metrics: dict[str, Any] | None
    version: str
    scenario_hash: str
    error: str | None = None
    traceback: str | None = None


class ResultStore:
    """A results database file; bad files are ``InputError`` naming the file."""

    def __init__(self, path: str | os.PathLike):
        self.path = str(path)
        parent = os.path.dirname(os.path.abspath(self.path))
        if not os.path.isdir(parent):
            raise InputError("its directory does not exist (expected a writable path)", file=self.path)
        try:
            self.conn = sqlite3.connect(self.path, timeout=30)
            self.conn.execute("PRAGMA journal_mode=WAL")
            # NORMAL is durable against a killed process (the WAL is in the OS); a power
            # cut may roll back the last batches, which --resume then re-runs.
            self.conn.execute("PRAGMA synchronous=NORMAL")
            with self.conn:
                self.conn.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise InputError(f"not a usable results database ({exc})", file=self.path) from None

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def counts(self, study_hash: str) -> tuple[int, int]:
        """(stored replications, stored failures) of a study."""
        q = "SELECT COUNT(*) FROM {} WHERE study_hash = ?"
        rows = self.conn.execute(q.format("replications"), (study_hash,)).fetchone()[0]
        fails = self.conn.execute(q.format("failures"), (study_hash,)).fetchone()[0]
        return rows, fails

    def register(self, study_hash: str, name: str, config: dict[str, Any]) -> None:
        """Record the resolved config of a study (first writer wins)."""
        with self.conn:
            self.conn.execute(
                "INSERT OR IGNORE INTO studies VALUES (?, ?, ?, ?)",
                (study_hash, name, json.dumps(config, sort_keys=True),
                 datetime.now(UTC).isoformat(timespec="seconds")))

    def other_hashes(self, name: str, study_hash: str) -> list[str]:
        """Hashes of other studies stored under the same name (an edited study file)."""
        return [h for (h,) in self.conn.execute(
            "SELECT study_hash FROM studies WHERE name = ? AND study_hash != ? ORDER BY created",
            (name, study_hash))]

    def config(self, study_hash: str) -> dict[str, Any] | None:
        row = self.conn.execute("SELECT config FROM studies WHERE study_hash = ?",
                                (study_hash,)).fetchone()
        return json.loads(row[0]) if row else None

    def add(self, study_hash: str, items: Iterable[Stored]) -> None:
        """Store one batch in one transaction (committed on return)."""
        ok, bad = [], []
        for s in items:
            if s.metrics is not None:
                ok.append((study_hash, s.variant, s.point, s.rep, s.seed,
                           json.dumps(s.metrics, sort_keys=True), s.version, s.scenario_hash))
            else:
                bad.append((study_hash, s.variant, s.point, s.rep, s.seed, s.error or "",
                            s.traceback or "", s.version, s.scenario_hash))
        with self.conn:
            self.conn.executemany(
                "INSERT OR IGNORE INTO replications VALUES (?, ?, ?, ?, ?, ?, ?, ?)", ok)
            self.conn.executemany(
                "INSERT OR IGNORE INTO failures VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", bad)

    def load(self, study_hash: str) -> list[Stored]:
        """Everything stored for a study: replications, then failures."""
        out = [Stored(v, p, r, s, json.loads(m), ver, sh) for v, p, r, s, m, ver, sh in
               self.conn.execute(
                   "SELECT variant, point, rep, seed, metrics, version, scenario_hash "
                   "FROM replications WHERE study_hash = ?", (study_hash,))]
        out += [Stored(v, p, r, s, None, ver, sh, e, tb) for v, p, r, s, e, tb, ver, sh in
                self.conn.execute(
                    "SELECT variant, point, rep, seed, error, traceback, version, scenario_hash "
                    "FROM failures WHERE study_hash = ?", (study_hash,))]
        return out
