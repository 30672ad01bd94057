"""One replication: a battle of a scenario at a seed, and the metrics of its log.

``run_battle(scenario, seed)`` is what ``sim run``, studies and ``sim.run`` call; the same
scenario and seed always give the same log, byte for byte. A metric reporter that raises
is a ``MetricError`` that carries the battle's log.
"""
from __future__ import annotations

from dataclasses import dataclass

from sim.engine.battle import Battle
from sim.engine.collector import resting
from sim.engine.log import EventLog
from sim.metrics import MetricError, compute_metrics
from sim.scenario.schema import Scenario

__all__ = ["BattleResult", "run_battle"]


@dataclass
class BattleResult:
    """What one battle gave: its event log, its metrics, the winner and why."""

    log: EventLog
    metrics: dict[str, float]
    winner: str | None
    reason: str


def run_battle(scenario: Scenario, seed: int) -> BattleResult:
    """One replication: the same scenario and seed always give the same log."""
    # The collector rests from the battle's making to its letting go: its garbage is then
    # all young, and the first collection after frees it at a battle's cost (sim.engine.collector).
    with resting():
        battle = Battle(scenario, seed).run()
        try:
            metrics = compute_metrics(battle.log, scenario)
        except MetricError as err:   # with the log, which the caller may still keep
            raise MetricError(str(err), battle.log) from err.__cause__
        result = BattleResult(battle.log, metrics, battle.winner, battle.reason)
        del battle
    return result
