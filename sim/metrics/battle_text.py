"""Readable summaries of one battle, for ``sim run``."""
from __future__ import annotations

import math
from collections import Counter
from typing import Any

from sim.events import ACTIVATE, DEPLOY, PIN, SPOT, TO_RESERVE, WITHDRAW
from sim.systems.registry import metric_reporters

LIFECYCLE = (ACTIVATE, DEPLOY, WITHDRAW, TO_RESERVE, SPOT, PIN)


def _num(v: float) -> str:
    # a plug-in's metric may be NaN or infinite: shown as such (nan, inf, -inf)
    return f"{v:g}" if not math.isfinite(v) or v != int(v) else str(int(v))


def battle_summary(scenario: Any, seed: int, result: Any) -> str:
    """A few lines: who won and when, what was lost, each reporter's numbers, rule counts."""
    log, m = result.log, result.metrics
    by_rule = Counter(r["rule"] for r in log.records if r["rule"])
    lines = [
        f"{scenario.name} (ruleset {scenario.ruleset}), seed {seed}",
        f"  winner: {result.winner or 'none'} ({result.reason}) at t={m['end_time']:g}, turn {int(m['turns'])}",
        f"  events: {len(log)}; rolls: {int(m['rolls'])}",
        f"  steps lost: attacker {int(m['attacker_steps_lost'])}, defender "
        f"{int(m['defender_steps_lost'])}; units lost: attacker {int(m['attacker_units_lost'])}, "
        f"defender {int(m['defender_units_lost'])}",
    ]
    for reporter in metric_reporters(scenario.composition):
        values = [f"{k} {_num(m[k])}" for k in reporter.kinds if k in m]
        if values:
            lines.append(f"  {reporter.name}: " + ", ".join(values))
    life = Counter(r["event"] for r in log.records if r["event"] in LIFECYCLE)
    if life:
        lines.append("  lifecycle: " + ", ".join(f"{k} {v}" for k, v in sorted(life.items())))
    lines.append("  records by rule: " + ", ".join(f"{k} {v}" for k, v in sorted(by_rule.items())))
    return "\n".join(lines)
