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
    # H17 / FOW snipers (sim.agents.sniper)
    "activations": "count",
    "sniper_attacks": "count",
    "sniper_hits": "count",
    "sniper_returns": "count",
    "sniper_withdrawals": "count",
    "sniper_to_reserve": "count",
    "sniper_eliminated": "binary",
    "pins": "count",
}
SNIPER_ATTACK_RULES = ("H17.5", "FOW.MARKSMAN")

#: TOO (seed 002) metrics; zero for battles of other rulesets.
TOO_METRICS: dict[str, str] = {
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
METRIC_KINDS.update(TOO_METRICS)


def _too_metrics(r: dict, m: dict, snipers: set) -> None:
    rule, ev = r["rule"], r["event"]
    if ev == "deploy" and r.get("sniper"):
        snipers.add(r["unit"])
    if rule is None or not rule.startswith(("TOO.", "BASE.T.")):
        return
    if ev == "acquire":
        m["too_acq_rolls"] += 1
        m["too_acquired"] += bool(r["success"])
    elif ev == "spot_check":
        m["too_spot_checks"] += 1
        m["too_spotted"] += bool(r["success"])
    elif ev == "stealth" and r.get("checked"):
        m["too_stealth_checks"] += 1
    elif ev == "reveal":
        m["too_reveals"] += 1
    elif ev == "opp_fire":
        m["too_opp_fire"] += 1
    elif ev == "attack":
        m["too_attacks"] += 1
    elif ev == "hit":
        m["too_hits"] += 1
    elif ev == "save":
        m["too_saves"] += bool(r["success"])
    elif ev == "eliminate":
        if r.get("reason") == "killed":
            m["too_killed_outright"] += 1
        elif r.get("reason") == "bleed_out":
            m["too_bleed_deaths"] += 1
        if r.get("unit") in snipers:
            m["too_snipers_lost"] += 1
    elif ev == "treat":
        m["too_treated"] += 1


def compute_metrics(log, scenario) -> dict[str, float]:
    side_of = {u.id: side for side, u in scenario.units()}
    attacker = scenario.victory.attacker
    m = {k: 0.0 for k in METRIC_KINDS}
    arrived = set()
    too_snipers: set = set()
    for r in log.records:
        ev, rule = r["event"], r["rule"]
        _too_metrics(r, m, too_snipers)
        if "dice" in r:
            m["rolls"] += 1
        if rule == "SF.HALT":
            m["sf_halts"] += 1
        elif rule == "SF.ROLL":
            m["sf_rolls"] += 1
            m["sf_hits"] += bool(r["success"])
        elif rule == "SF.ZOC" and ev == "halt":
            m["zoc_halts"] += 1
        if rule in SNIPER_ATTACK_RULES and "dice" in r:
            m["sniper_attacks"] += 1
            m["sniper_hits"] += bool(r["success"])
        if ev == "activate":
            m["activations"] += 1
        elif ev == "deploy" and r.get("is_return"):
            m["sniper_returns"] += 1
        elif ev == "withdraw":
            m["sniper_withdrawals"] += 1
        elif ev == "to_reserve":
            m["sniper_to_reserve"] += 1
        elif ev == "pin":
            m["pins"] += 1
        elif ev == "eliminate" and r.get("state") in ("eliminated", "killed"):
            m["sniper_eliminated"] = 1.0
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
