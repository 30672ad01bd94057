"""The flat metrics of one battle, computed from its event log and scenario alone.

Every metric is a number. ``METRIC_KINDS`` says which are yes/no (``binary``: studies
give them Wilson intervals), counts, or real values.
"""
from __future__ import annotations

METRIC_KINDS: dict[str, str] = {
    "attacker_won": "binary",
    "defender_won": "binary",
    "end_time": "real",
    "turns": "count",
    "sf_halts": "count",
    "sf_rolls": "count",
    "sf_hits": "count",
    "zoc_halts": "count",
    "attacker_steps_lost": "count",
    "defender_steps_lost": "count",
    "attacker_units_lost": "count",
    "defender_units_lost": "count",
    "arrived": "count",
    "rolls": "count",
}


def compute_metrics(log, scenario) -> dict[str, float]:
    side_of = {u.id: side for side, u in scenario.units()}
    attacker = scenario.victory.attacker
    m = {k: 0.0 for k in METRIC_KINDS}
    arrived = set()
    for r in log.records:
        ev, rule = r["event"], r["rule"]
        if "dice" in r:
            m["rolls"] += 1
        if rule == "SF.HALT":
            m["sf_halts"] += 1
        elif rule == "SF.ROLL":
            m["sf_rolls"] += 1
            m["sf_hits"] += bool(r["success"])
        elif rule == "SF.ZOC" and ev == "halt":
            m["zoc_halts"] += 1
        if ev == "hit":
            who = "attacker" if side_of.get(r["unit"]) == attacker else "defender"
            m[f"{who}_steps_lost"] += r.get("steps_lost", 0)
        elif ev == "eliminate":
            who = "attacker" if side_of.get(r["unit"]) == attacker else "defender"
            m[f"{who}_units_lost"] += 1
        elif ev == "arrive" and side_of.get(r["unit"]) == attacker:
            arrived.add(r["unit"])
        elif ev == "end":
            m["attacker_won"] = float(r.get("winner") == attacker)
            m["defender_won"] = float(r.get("winner") not in (None, attacker))
            m["end_time"] = float(r["t"])
            m["turns"] = float(r["turn"])
    m["arrived"] = float(len(arrived))
    return m
