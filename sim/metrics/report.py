"""Readable summaries of one battle, for ``sim run``."""
from __future__ import annotations

from collections import Counter


def battle_summary(scenario, seed: int, result) -> str:
    log, m = result.log, result.metrics
    by_rule = Counter(r["rule"] for r in log.records if r["rule"])
    lines = [
        f"{scenario.name} (ruleset {scenario.ruleset}), seed {seed}",
        f"  winner: {result.winner or 'none'} ({result.reason}) at t={m['end_time']:g}, turn {int(m['turns'])}",
        f"  events: {len(log)}; rolls: {int(m['rolls'])}",
    ]
    if m["sf_halts"] or m["sf_rolls"] or m["zoc_halts"]:
        lines.append(f"  snap fire: {int(m['sf_halts'])} halts, {int(m['sf_rolls'])} rolls, "
                     f"{int(m['sf_hits'])} hits; zone-of-control halts: {int(m['zoc_halts'])}")
    lines.append(f"  steps lost: attacker {int(m['attacker_steps_lost'])}, defender "
                 f"{int(m['defender_steps_lost'])}; units lost: attacker {int(m['attacker_units_lost'])}, "
                 f"defender {int(m['defender_units_lost'])}")
    life = Counter(r["event"] for r in log.records
                   if r["event"] in ("activate", "deploy", "withdraw", "to_reserve", "spot", "pin"))
    if life:
        lines.append("  lifecycle: " + ", ".join(f"{k} {v}" for k, v in sorted(life.items())))
    lines.append("  records by rule: " + ", ".join(f"{k} {v}" for k, v in sorted(by_rule.items())))
    return "\n".join(lines)
