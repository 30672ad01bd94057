"""The SQLite results store: every finished replication, committed as it arrives.

Tables:
- ``studies``: one row per study hash with the full resolved config (study + scenario)
  as JSON, so a stored result always says how it was made.
- ``replications``: one row per finished replication: study hash, variant, factor point
  (canonical JSON), replication index, seed, metrics (JSON), package version and the
  cell's scenario hash. UNIQUE (study_hash, variant, point, rep): a batch that is run
  twice (a resume after a crash between "computed" and "committed") adds nothing.
- ``failures``: replications that raised, with seed and traceback, same key.
- ``provenance``: per study hash, each code that made some of its rows (``sim`` and its
  plug-ins, by version and fingerprint: ``sim.study.run.provenance``), stored with the
  batch; a store written before this table has rows and no code (unrecorded).

The database runs in WAL mode and each batch is one transaction, so a process killed at
any instant (even by SIGKILL) leaves every committed batch intact and no half batch.
"""
from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sim.errors import InputError
from sim.files import read_only

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
CREATE TABLE IF NOT EXISTS provenance (
    study_hash TEXT NOT NULL,
    code TEXT NOT NULL,
    created TEXT NOT NULL,
    UNIQUE (study_hash, code)
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


# The columns of each table, in order: a file whose tables differ is not a results store.
COLUMNS = {
    "studies": ("study_hash", "name", "config", "created"),
    "replications": ("study_hash", "variant", "point", "rep", "seed", "metrics", "version",
                     "scenario_hash"),
    "failures": ("study_hash", "variant", "point", "rep", "seed", "error", "traceback",
                 "version", "scenario_hash"),
    "provenance": ("study_hash", "code", "created"),
}


@contextmanager
def guard(path: str, doing: str, after: str = "", place: str = "--db") -> Iterator[None]:
    """SQLite's errors (a damaged file, a full disk, a read-only file) as one line.

    A damaged schema may be reported in text that is not UTF-8 (the names of its
    tables): Python then fails to decode SQLite's own message, which is damage too.
    """
    try:
        yield
    except sqlite3.Error as exc:
        raise InputError(f"cannot {doing} ({exc}){after}", file=path, place=place) from None
    except UnicodeDecodeError:
        raise InputError(f"cannot {doing} (the database is damaged: SQLite reports it in "
                         f"text that is not UTF-8){after}; give another --db",
                         file=path, place=place) from None


def parse_json(path: str, text: Any, table: str, column: str) -> Any:
    """A JSON column's value; an ``InputError`` naming the store when it is not JSON."""
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise InputError(f"a row of table {table} holds a {column} that is not JSON "
                         f"(got {str(text)[:40]!r}); give another --db", file=path,
                         place="--db") from None


def check_row(path: str, table: str, texts: tuple, whole: tuple, metrics: Any) -> None:
    """Refuse a row that this store could not have written (an ``InputError``)."""
    fine = (all(isinstance(t, str) for t in texts)
            and all(isinstance(n, int) and n >= 0 for n in whole)
            and isinstance(metrics, dict)
            and all(isinstance(k, str) and isinstance(x, (int, float)) and not isinstance(x, bool)
                    for k, x in metrics.items()))
    if not fine:
        raise InputError(f"a row of table {table} is not one this store writes (replication "
                         f"{whole[0]!r}: expected text keys, whole-number rep and seed, "
                         "metrics a JSON object of numbers); give another --db",
                         file=path, place="--db")


def stored_rows(conn: sqlite3.Connection, path: str, study_hash: str) -> Iterator[Stored]:
    """Every row stored for a study, checked, one at a time: replications, then failures."""
    with guard(path, "read it"):
        ok = conn.execute(
            "SELECT variant, point, rep, seed, metrics, version, scenario_hash "
            "FROM replications WHERE study_hash = ?", (study_hash,))
        for v, p, r, s, m, ver, sh in ok:
            metrics = parse_json(path, m, "replications", "metrics")
            check_row(path, "replications", (v, p, ver, sh), (r, s), metrics)
            yield Stored(v, p, r, s, metrics, ver, sh)
        bad = conn.execute(
            "SELECT variant, point, rep, seed, error, traceback, version, scenario_hash "
            "FROM failures WHERE study_hash = ?", (study_hash,))
        for v, p, r, s, e, tb, ver, sh in bad:
            check_row(path, "failures", (v, p, ver, sh, e, tb), (r, s), {})
            yield Stored(v, p, r, s, None, ver, sh, e, tb)


class ResultStore:
    """A results database file; bad files are ``InputError`` naming the file.

    An existing file is checked before anything is written to it: it must be a regular
    file, an undamaged SQLite database holding only this store's tables with their
    columns, and writable. So another program's database, a damaged or read-only store,
    or ``/dev/null`` is refused as it was found (no table added, no journal mode changed).
    A ``temporary`` store (a study's without ``--db``, in ``TMPDIR``) says so in its errors.
    """

    def __init__(self, path: str | os.PathLike, *, temporary: bool = False):
        self.path = str(path)
        self.temporary = temporary
        # Where a fault is: the --db a user gave, or the folder Python's tempfile chose.
        self.place = "the study's temporary store (TMPDIR; --db FILE stores it elsewhere)" if temporary else "--db"
        if not self.path:
            raise InputError("empty path (expected a results database to create or resume)",
                             place="--db")
        parent = os.path.dirname(os.path.abspath(self.path))
        if not os.path.isdir(parent):
            raise InputError("its directory does not exist (expected a writable path)", file=self.path)
        if os.path.exists(self.path) and not os.path.isfile(self.path):
            raise InputError("is not a regular file (expected a results database to create "
                             "or resume)", file=self.path)
        # By permission bits too, which root's writes ignore: a read-only store is refused for root too.
        exists = os.path.exists(self.path)
        if not os.access(parent, os.W_OK) or read_only(parent) or (exists and (
                not os.access(self.path, os.W_OK) or read_only(self.path))):
            raise InputError("is read-only, or in a read-only directory (expected a results "
                             "database that can be written: SQLite also writes beside it)",
                             file=self.path, place=self.place)
        self._conn: sqlite3.Connection | None = None
        try:
            self._open()
        except InputError:
            self.close()
            raise

    def _open(self) -> None:
        """Connect, check the tables, and set the store up (WAL, its tables, writable?)."""
        with self._guard("open it as a results database"):
            self._conn = sqlite3.connect(self.path, timeout=30)
            self._check_tables()
            self.conn.execute("PRAGMA journal_mode=WAL")
            # NORMAL is durable against a killed process (the WAL is in the OS); a power
            # cut may roll back the last batches, which --resume then re-runs.
            self.conn.execute("PRAGMA synchronous=NORMAL")
            with self.conn:
                self.conn.executescript(SCHEMA)
            # Writable? (A read-only file reads fine until the first batch would be stored.)
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.execute("DELETE FROM studies WHERE 0")
            self.conn.execute("ROLLBACK")

    def _check_tables(self) -> None:
        """Refuse, before writing, a file that is not (the start of) a results store."""
        names = [n for (n,) in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")]
        foreign = [n for n in names if n not in COLUMNS]
        if foreign:
            raise InputError(f"holds {', '.join(foreign[:5])}, which a results database does not "
                             f"(expected a sim results database or a new file)", file=self.path,
                             place="--db")
        for name in names:
            cols = tuple(r[1] for r in self.conn.execute(f"PRAGMA table_info({name})"))
            if cols != COLUMNS[name]:
                raise InputError(f"table {name} has columns ({', '.join(cols)}) (expected "
                                 f"{', '.join(COLUMNS[name])})", file=self.path, place="--db")
        if names:
            problems = [r[0] for r in self.conn.execute("PRAGMA quick_check(3)")]
            if problems != ["ok"]:
                raise InputError(f"the database is damaged ({problems[0]}); give another --db",
                                 file=self.path, place="--db")

    @property
    def conn(self) -> sqlite3.Connection:
        """The open connection (the store is used only between opening and ``close``)."""
        if self._conn is None:
            raise RuntimeError(f"the results store {self.path} is closed")
        return self._conn

    def _guard(self, doing: str, after: str = ""):
        return guard(self.path, doing, after, self.place)

    def close(self) -> None:
        """Close the connection (committed batches are already on disk)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def counts(self, study_hash: str) -> tuple[int, int]:
        """(stored replications, stored failures) of a study."""
        q = "SELECT COUNT(*) FROM {} WHERE study_hash = ?"
        with self._guard("read it"):
            rows = self.conn.execute(q.format("replications"), (study_hash,)).fetchone()[0]
            fails = self.conn.execute(q.format("failures"), (study_hash,)).fetchone()[0]
        return rows, fails

    def register(self, study_hash: str, name: str, config: dict[str, Any]) -> None:
        """Record the resolved config of a study (first writer wins)."""
        with self._guard("register the study"), self.conn:
            self.conn.execute(
                "INSERT OR IGNORE INTO studies VALUES (?, ?, ?, ?)",
                (study_hash, name, json.dumps(config, sort_keys=True),
                 datetime.now(UTC).isoformat(timespec="seconds")))

    def other_hashes(self, name: str, study_hash: str) -> list[str]:
        """Hashes of other studies stored under the same name (an edited study file)."""
        with self._guard("read it"):
            return [h for (h,) in self.conn.execute(
                "SELECT study_hash FROM studies WHERE name = ? AND study_hash != ? ORDER BY created",
                (name, study_hash))]

    def config(self, study_hash: str) -> dict[str, Any] | None:
        """The resolved config a study was registered with, or None."""
        with self._guard("read it"):
            row = self.conn.execute("SELECT config FROM studies WHERE study_hash = ?",
                                    (study_hash,)).fetchone()
        return self._json(row[0], "studies", "config") if row else None

    def _json(self, text: Any, table: str, column: str) -> Any:
        return parse_json(self.path, text, table, column)

    def codes(self, study_hashes: Iterable[str]) -> list[Any]:
        """The codes (parsed JSON) that made the rows of these studies, each once, oldest
        first; None for a study whose rows were stored before stores recorded their code."""
        out: list[Any] = []
        for study_hash in study_hashes:
            with self._guard("read it"):
                texts = [t for (t,) in self.conn.execute(
                    "SELECT code FROM provenance WHERE study_hash = ? ORDER BY created, rowid",
                    (study_hash,))]
            found = [self._json(t, "provenance", "code") for t in texts]
            if not found and any(self.counts(study_hash)):
                found = [None]
            out += [c for c in found if c not in out]
        return out

    def add(self, study_hash: str, items: Iterable[Stored], codes: Iterable[str] = ()) -> None:
        """Store one batch in one transaction (committed on return), with the code that
        made it (``codes``: as ``provenance.dumps`` writes it, or ``null``)."""
        made = [(study_hash, c, datetime.now(UTC).isoformat(timespec="seconds")) for c in codes]
        ok, bad = [], []
        for s in items:
            if s.metrics is not None:
                ok.append((study_hash, s.variant, s.point, s.rep, s.seed,
                           json.dumps(s.metrics, sort_keys=True), s.version, s.scenario_hash))
            else:
                bad.append((study_hash, s.variant, s.point, s.rep, s.seed, s.error or "",
                            s.traceback or "", s.version, s.scenario_hash))
        kept = ("" if self.temporary else
                "; the batches stored before are kept: rerun with --resume once it is fixed")
        with self._guard("store a finished batch", kept), self.conn:
            self.conn.executemany(
                "INSERT OR IGNORE INTO replications VALUES (?, ?, ?, ?, ?, ?, ?, ?)", ok)
            self.conn.executemany(
                "INSERT OR IGNORE INTO failures VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", bad)
            self.conn.executemany("INSERT OR IGNORE INTO provenance VALUES (?, ?, ?)", made)

    def load(self, study_hash: str) -> list[Stored]:
        """Everything stored for a study: replications, then failures; a row that this
        store could not have written is an ``InputError`` (``rows``: one at a time)."""
        return list(self.rows(study_hash))

    def rows(self, study_hash: str) -> Iterator[Stored]:
        """``load``'s rows one at a time (a cursor of its own, so rows may be added
        while it reads)."""
        return stored_rows(self.conn, self.path, study_hash)
