"""The event log: the single source of truth of a battle.

Each record is a dict with the contract fields ``t``, ``turn``, ``side``, ``phase``,
``event`` and ``rule``, plus event-specific fields. Records are appended in time order;
``to_jsonl`` writes them byte-for-byte reproducibly (fixed key order, rounded floats).
"""
from __future__ import annotations

import json
import math
from typing import Any, Iterable

CONTRACT_KEYS = ("t", "turn", "side", "phase", "event", "rule")
LIFECYCLE_EVENTS = frozenset(
    {"move", "halt", "arrive", "activate", "deploy", "withdraw", "to_reserve",
     "eliminate", "hit", "pin", "spot"}
)
ROLL_KEYS = ("dice", "mods", "need", "success")


def _clean(value: Any) -> Any:
    # Round floats so the log does not depend on the last ulp of a platform's libm.
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        r = round(value, 9)
        return 0.0 if r == 0 else r
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if hasattr(value, "item"):  # numpy scalar
        return _clean(value.item())
    return value


class EventLog:
    """An append-only list of records with a clock check."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self):
        return iter(self.records)

    def append(self, record: dict[str, Any]) -> dict[str, Any]:
        if self.records and record["t"] < self.records[-1]["t"] - 1e-12:
            raise RuntimeError(f"time went back: {record['t']} < {self.records[-1]['t']}")
        rec = {k: record.get(k) for k in CONTRACT_KEYS}
        rec.update((k, v) for k, v in record.items() if k not in rec)
        self.records.append(rec)
        return rec

    def where(self, **match: Any) -> list[dict[str, Any]]:
        """Records whose fields equal every given value, e.g. ``where(rule="SF.HALT")``."""
        return [r for r in self.records if all(r.get(k) == v for k, v in match.items())]

    def lines(self) -> Iterable[str]:
        for rec in self.records:
            yield json.dumps(_clean(rec), separators=(",", ":"), ensure_ascii=False)

    def to_jsonl(self, path) -> None:
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            for line in self.lines():
                fh.write(line + "\n")

    def to_frame(self):
        """The log as a pandas DataFrame, one row per record."""
        import pandas as pd

        return pd.DataFrame([_clean(r) for r in self.records])

    @classmethod
    def read_jsonl(cls, path) -> "EventLog":
        log = cls()
        with open(path, encoding="utf-8") as fh:
            log.records = [json.loads(line) for line in fh if line.strip()]
        return log
