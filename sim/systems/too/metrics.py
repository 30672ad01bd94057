"""The TOO system's metrics: acquisitions, spotting, stealth, fire, wounds and treatment."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.events import ATTACK, DEPLOY, ELIMINATE, HIT, REVEAL, SAVE
from sim.systems.registry import MetricReporter, Record
from sim.systems.too.events import ACQUIRE, OPP_FIRE, SPOT_CHECK, STEALTH, TREAT

TOO_KINDS: dict[str, Any] = {
    "too_acq_rolls": "count",
    "too_acquired": "count",
    "too_spot_checks": "count",
    "too_spotted": "count",
    "too_stealth_checks": "count",
    "too_reveals": "count",
    "too_opp_fire": "count",
    "too_attacks": "count",
    "too_hits": "count",
    "too_saves": "count",
    "too_killed_outright": "count",
    "too_bleed_deaths": "count",
    "too_treated": "count",
    "too_snipers_lost": "count",
}


def _too(records: Sequence[Record], scenario: Any) -> dict[str, float]:
    m = {k: 0.0 for k in TOO_KINDS}
    snipers = set()
    for r in records:
        rule, ev = r["rule"], r["event"]
        if ev == DEPLOY and r.get("sniper"):
            snipers.add(r["unit"])
        if rule is None or not rule.startswith(("TOO.", "BASE.T.")):
            continue
        if ev == ACQUIRE:
            m["too_acq_rolls"] += 1
            m["too_acquired"] += bool(r["success"])
        elif ev == SPOT_CHECK:
            m["too_spot_checks"] += 1
            m["too_spotted"] += bool(r["success"])
        elif ev == STEALTH and r.get("checked"):
            m["too_stealth_checks"] += 1
        elif ev == REVEAL:
            m["too_reveals"] += 1
        elif ev == OPP_FIRE:
            m["too_opp_fire"] += 1
        elif ev == ATTACK:
            m["too_attacks"] += 1
        elif ev == HIT:
            m["too_hits"] += 1
        elif ev == SAVE:
            m["too_saves"] += bool(r["success"])
        elif ev == ELIMINATE:
            if r.get("reason") == "killed":
                m["too_killed_outright"] += 1
            elif r.get("reason") == "bleed_out":
                m["too_bleed_deaths"] += 1
            if r.get("unit") in snipers:
                m["too_snipers_lost"] += 1
        elif ev == TREAT:
            m["too_treated"] += 1
    return m


TOO_METRICS = MetricReporter("too", TOO_KINDS, _too)
