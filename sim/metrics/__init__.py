"""Metrics: numbers computed from an event log (the log is the only source).

A battle's metrics are the core ones (``sim.metrics.core``), its base game's and rule
modules' reporters' and those of any metric reporter registered for it
(``sim.plugin.register``).
"""
from __future__ import annotations

from typing import Any

from sim import arguments
from sim.metrics.core import CORE
from sim.systems.composition import Composition
from sim.systems.registry import MetricKind, metric_reporters, origin_of_metric, rule_system

__all__ = ["MetricError", "compute_metrics", "metric_kinds"]


class MetricError(Exception):
    """A metric reporter that raised, or did not report its metrics, on a battle's records.

    Its message names the reporter, its metrics and where it came from. ``log`` is the
    battle's event log when ``run_battle`` raised it: ``sim run`` writes it and exits 1; a
    study counts the replication as raising.
    """

    def __init__(self, message: str, log: Any = None):
        super().__init__(message)
        self.log = log


def _system(scenario_or_system: Any, name: str = "scenario_or_system") -> Composition:
    if isinstance(scenario_or_system, Composition):
        return scenario_or_system
    if isinstance(scenario_or_system, str):
        return rule_system(scenario_or_system, name)
    composition = getattr(scenario_or_system, "composition", None)
    if not isinstance(composition, Composition):
        raise arguments.fail(name, "a sim.Scenario, its composition or a ruleset's name", scenario_or_system)
    return composition


def metric_kinds(scenario_or_system: Any) -> dict[str, MetricKind]:
    """Every metric of a battle under a rule system (a scenario, a system or its name),
    with its kind (``binary``, ``count`` or ``real``), in report order."""
    kinds = dict(CORE.kinds)
    for reporter in metric_reporters(_system(scenario_or_system)):
        kinds.update(reporter.kinds)
    return kinds


def compute_metrics(log: Any, scenario: Any) -> dict[str, float]:
    """The flat metrics of one battle from its event log (or list of records) and scenario."""
    system = _system(scenario, "scenario")
    records = getattr(log, "records", log)
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise arguments.fail("log", "a sim.EventLog or a list of its records (dicts)", log)
    out = dict(CORE.compute(records, scenario))
    for reporter in metric_reporters(system):
        try:
            values = reporter.compute(records, scenario)
            missing = [k for k in reporter.kinds if k not in values]
            got = {k: float(values[k]) for k in reporter.kinds if k in values}
        except Exception as exc:  # noqa: BLE001 - a plug-in's reporter may raise anything
            text = " ".join(f"{type(exc).__name__}: {exc}".split())
            raise MetricError(f"{_named(reporter)} raised {text}") from exc
        if missing:
            raise MetricError(f"{_named(reporter)} did not report {missing}")
        out.update(got)
    return out


def _named(reporter: Any) -> str:
    # Only for the error: a battle that reports cleanly builds no such text.
    return (f"metric reporter '{reporter.name}' ({origin_of_metric(reporter)}; metrics "
            f"{sorted(reporter.kinds)})")
