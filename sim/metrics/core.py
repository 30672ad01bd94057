"""The metrics of every battle, whatever its rule system: who won, when, what was lost.

Every metric is a number; ``CORE.kinds`` says which are yes/no (``binary``: studies give
them Wilson intervals), counts, or real values. A rule system adds its own reporters.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.events import ARRIVE, ELIMINATE, END, HIT
from sim.systems.registry import MetricReporter, Record


def _core(records: Sequence[Record], scenario: Any) -> dict[str, float]:
    side_of = {u.id: side for side, u in scenario.units()}
    attacker = scenario.victory.attacker
    m = {k: 0.0 for k in CORE_KINDS}
    arrived = set()
    for r in records:
        ev = r["event"]
        if "dice" in r:
            m["rolls"] += 1
        if ev == HIT:
            who = "attacker" if side_of.get(r["unit"]) == attacker else "defender"
            m[f"{who}_steps_lost"] += r.get("steps_lost", 0)
        elif ev == ELIMINATE:
            who = "attacker" if side_of.get(r["unit"]) == attacker else "defender"
            m[f"{who}_units_lost"] += 1
        elif ev == ARRIVE and side_of.get(r["unit"]) == attacker:
            arrived.add(r["unit"])
        elif ev == END:
            m["attacker_won"] = float(r.get("winner") == attacker)
            m["defender_won"] = float(r.get("winner") not in (None, attacker))
            m["end_time"] = float(r["t"])
            m["turns"] = float(r["turn"])
    m["arrived"] = float(len(arrived))
    return m


CORE_KINDS: dict[str, Any] = {
    "attacker_won": "binary",
    "defender_won": "binary",
    "end_time": "real",
    "turns": "count",
    "attacker_steps_lost": "count",
    "defender_steps_lost": "count",
    "attacker_units_lost": "count",
    "defender_units_lost": "count",
    "arrived": "count",
    "rolls": "count",
}

CORE = MetricReporter("core", CORE_KINDS, _core)
