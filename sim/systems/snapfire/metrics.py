"""The snap-fire system's metrics: halts, rolls and hits, zone-of-control halts."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.events import HALT
from sim.systems.registry import MetricReporter, Record
from sim.systems.snapfire.events import SNAP_FIRE


def _snap_fire(records: Sequence[Record], scenario: Any) -> dict[str, float]:
    m = {"sf_halts": 0.0, "sf_rolls": 0.0, "sf_hits": 0.0, "zoc_halts": 0.0}
    for r in records:
        event = r["event"]   # the record's kind first: another part may name an SF rule as a cause
        if event == HALT:
            if r["rule"] == "SF.HALT":
                m["sf_halts"] += 1
            elif r["rule"] == "SF.ZOC":
                m["zoc_halts"] += 1
        elif event == SNAP_FIRE:
            m["sf_rolls"] += 1
            m["sf_hits"] += bool(r["success"])
    return m


SNAP_FIRE_METRICS = MetricReporter(
    "snapfire", {"sf_halts": "count", "sf_rolls": "count", "sf_hits": "count", "zoc_halts": "count"},
    _snap_fire)
