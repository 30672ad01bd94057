"""Metrics: numbers computed from an event log (the log is the only source)."""
from sim.metrics.summary import METRIC_KINDS, compute_metrics

__all__ = ["METRIC_KINDS", "compute_metrics"]
