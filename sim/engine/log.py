"""The event log: the single source of truth of a battle.

Each record is a dict with the contract fields ``t``, ``turn``, ``side``, ``phase``,
``event`` and ``rule``, plus event-specific fields. Records are appended in time order;
``to_jsonl`` writes them byte-for-byte reproducibly (fixed key order, floats at full precision).
"""
from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator
from typing import Any

from sim.engine import jsonl
from sim.errors import InputError
from sim.events import CONTRACT_KEYS, LIFECYCLE_EVENTS, ROLL_KEYS
from sim.files import read_bytes, write_bytes

__all__ = ["CONTRACT_KEYS", "LIFECYCLE_EVENTS", "MAX_LOG_BYTES", "ROLL_KEYS", "EventLog"]

#: The largest log file ``read_jsonl`` reads (its records take several times this in memory).
MAX_LOG_BYTES = 256_000_000


def _finite_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


class EventLog:
    """An append-only list of records in time order.

    ``add`` is the one path by which a record enters the log: it keeps the time-order
    invariant (``t`` never goes back) and, once the log is ``seal``-ed by the battle's
    ``end`` record, drops whatever processes still due at that instant write.
    """

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []
        self.sealed = False
        self._last_t = -math.inf

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.records)

    def add(self, record: dict[str, Any]) -> dict[str, Any]:
        """Append a record whose contract keys come first, in order; returns it."""
        if self.sealed:
            return record
        t = record["t"]
        if t < self._last_t:
            raise RuntimeError(f"time went back: {t} < {self._last_t}")
        self._last_t = t
        self.records.append(record)
        return record

    def append(self, record: dict[str, Any]) -> dict[str, Any]:
        """Append any record: its contract keys are put first (missing ones as None)."""
        rec = {k: record.get(k) for k in CONTRACT_KEYS}
        rec.update((k, v) for k, v in record.items() if k not in rec)
        return self.add(rec)

    def seal(self) -> None:
        """No record is added after this (the battle's ``end`` record is the last)."""
        self.sealed = True

    def where(self, **match: Any) -> list[dict[str, Any]]:
        """Records whose fields equal every given value, e.g. ``where(event="halt", unit="b1")``."""
        return [r for r in self.records if all(r.get(k) == v for k, v in match.items())]

    def lines(self) -> list[str]:
        """The records as JSON texts, one per record (fixed key order, floats at full precision)."""
        return self.text().decode("utf-8").split("\n")[:-1]

    def text(self) -> bytes:
        """The log's JSON Lines in UTF-8, as ``to_jsonl`` writes them."""
        return jsonl.text(self.records)

    def to_jsonl(self, path: str | os.PathLike[str]) -> None:
        """Write the log as JSON Lines (the ``--log`` format); InputError if it cannot."""
        write_bytes(os.fspath(path), self.text())

    def to_frame(self) -> Any:
        """The log as a pandas DataFrame, one row per record."""
        from sim.extras import require

        require("frames", "EventLog.to_frame")
        import pandas as pd

        return pd.DataFrame([jsonl.clean(r) for r in self.records])

    @classmethod
    def read_jsonl(cls, path: str | os.PathLike[str]) -> EventLog:
        """A log read back from a JSON Lines file of at most ``MAX_LOG_BYTES``.

        A file that is not one (another kind of file, not UTF-8, a line that is not a
        record) is an InputError naming the file and the line.
        """
        where = os.fspath(path)
        data = read_bytes(where, MAX_LOG_BYTES, "a JSON Lines event log, as sim run --log writes")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            at = data[:exc.start].count(b"\n") + 1
            raise InputError("not UTF-8 (expected a JSON Lines event log)", file=where,
                             place=f"line {at}") from None
        log = cls()
        for number, line in enumerate(text.split("\n"), 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"not JSON ({exc.msg}; expected one record a line)", file=where,
                                 place=f"line {number}") from None
            except RecursionError:
                raise InputError("nested too deep (expected one record a line)", file=where,
                                 place=f"line {number}") from None
            if not isinstance(record, dict) or not _finite_number(record.get("t")):
                raise InputError("not an event record (expected an object with a number 't')",
                                 file=where, place=f"line {number}")
            log.records.append(record)
        if log.records:
            log._last_t = log.records[-1]["t"]
        return log
