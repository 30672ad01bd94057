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
    # Each metric counts a kind of record, by its event; where the event is not TOO's own
    # (attack, hit, save, reveal), by its rule too: those TOO's tables wrote.
    m = {k: 0.0 for k in TOO_KINDS}
    snipers = set()
    for r in records:
        ev = r["event"]
        if ev == DEPLOY and r.get("sniper"):
            snipers.add(r["unit"])
        elif ev == ACQUIRE:
            m["too_acq_rolls"] += 1
            m["too_acquired"] += bool(r["success"])
        elif ev == SPOT_CHECK:
            m["too_spot_checks"] += 1
            m["too_spotted"] += bool(r["success"])
        elif ev == STEALTH:
            m["too_stealth_checks"] += bool(r["checked"])
        elif ev == OPP_FIRE:
            m["too_opp_fire"] += 1
        elif ev == TREAT:
            m["too_treated"] += 1
        elif ev == REVEAL and r["rule"] == "TOO.STEALTH":
            m["too_reveals"] += 1
        elif ev == ATTACK and r["rule"] == "BASE.T.RANGE":
            m["too_attacks"] += 1
        elif ev == HIT and r["rule"] == "TOO.DAMAGE":
            m["too_hits"] += 1
        elif ev == SAVE and r["rule"] == "TOO.SAVE":
            m["too_saves"] += bool(r["success"])
        elif ev == ELIMINATE:
            if r["rule"] == "TOO.DAMAGE":   # the damage table's: killed outright, or bled out
                m["too_killed_outright"] += r["reason"] == "killed"
                m["too_bleed_deaths"] += r["reason"] == "bleed_out"
            m["too_snipers_lost"] += r["unit"] in snipers   # a sniper lost, whatever rule took it
    return m


TOO_METRICS = MetricReporter("too", TOO_KINDS, _too)
