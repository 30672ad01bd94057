"""A study's headline: what it measured, in measured words.

The headline reads the study's **primary metric**, the first of its ``metrics`` (the one
its author listed first; a study file has no other way to name one), and says so. For
each comparison (*variant − baseline* at a factor point, at most ``HEADLINE_COMPARISONS``)
it first reads the rule counts (``sim.study.reports.mechanisms``: a comparison whose
deciding rules act at very different rates is flagged), then states the difference the
analysis computed (``sim.study.analysis.stats``) with its interval, level, method and n:
a yes/no metric in percentage points (Newcombe's score interval), any other as a
difference of means (a t interval on the per-replication differences). An interval that
contains 0 says the study cannot tell the two apart at that n, never that there is no
effect.
"""
from __future__ import annotations

import math
from collections import Counter
from typing import cast

from sim.study.analysis.stats import LEVEL, Estimate, Summary
from sim.study.reports.mechanisms import RULE_COUNT_REPS, comparisons, mechanism_warning
from sim.study.reports.summary import excludes_zero, number_text
from sim.study.run.runner import StudyRun

HEADLINE_COMPARISONS = 5  # a study of more comparisons gets the first ones' headlines

METHOD_WORDS = {"t": "paired t interval on the per-replication differences",
                "newcombe-paired": "Newcombe's paired score interval",
                "newcombe": "Newcombe's score interval for independent proportions"}


def primary_metric(run: StudyRun) -> str | None:
    """The metric the headline is about: the first the study lists (None: no metrics)."""
    return run.metrics[0] if run.metrics else None


def _signed(x: float) -> str:
    return ("+" if x >= 0 else "-") + number_text(abs(x))


def _how(run: StudyRun, e: Estimate) -> str:
    if run.crn:
        pairs = "pairs on common random numbers"
    elif e.method == "newcombe":
        pairs = "replications a side on independent seeds (--no-crn)"
    else:
        pairs = "replications paired by index on independent seeds (--no-crn)"
    return f"{METHOD_WORDS.get(e.method, e.method)}, n = {e.n} {pairs}"


def measured(run: StudyRun, variant: str, baseline: str, metric: str) -> str:
    """One sentence on the difference ``variant − baseline`` in ``metric``, as measured."""
    s = cast(Summary, run.summary)
    e = s.differences[f"{variant} - {baseline}"][metric]
    level = f"{round(LEVEL * 100)}%"
    if not math.isfinite(e.ci_low):
        return (f"Too few pairs ({e.n}) for an interval: the study cannot yet tell {variant} "
                f"from {baseline} on {metric}.")
    if e.constant:
        if e.mean == 0:
            return (f"{variant}'s {metric} equals {baseline}'s in every one of the {e.n} pairs "
                    "(no spread, so no interval).")
        side = "higher" if e.mean > 0 else "lower"
        return (f"{variant}'s {metric} is exactly {number_text(abs(e.mean))} {side} than {baseline}'s in "
                f"every one of the {e.n} pairs (no spread, so no interval).")
    binary = e.method.startswith("newcombe")
    a, b = s.cells[variant][metric].mean, s.cells[baseline][metric].mean
    if binary:  # proportions and their difference in percentage points
        size, unit = f"{abs(e.mean) * 100:.1f}", " percentage points"
        bounds = f"{e.ci_low * 100:+.1f} to {e.ci_high * 100:+.1f} points"
        what, sides = f"{metric} rate", f"{a * 100:.1f}% against {b * 100:.1f}%"
    else:
        size, unit = number_text(abs(e.mean)), ""
        bounds = f"{_signed(e.ci_low)} to {_signed(e.ci_high)}"
        what, sides = f"mean {metric}", f"{number_text(a)} against {number_text(b)}"
    interval = f"{level} interval of the difference {bounds}"
    if not excludes_zero(e):
        return (f"At n = {e.n} the study cannot tell {variant} from {baseline} on {metric} "
                f"({sides}): the {interval} contains 0 ({_how(run, e)}).")
    side = "higher" if e.mean > 0 else "lower"
    return f"{variant}'s {what} is {size}{unit} {side} than {baseline}'s ({sides}; {interval}; {_how(run, e)})."


def headline(run: StudyRun, counts: dict[str, Counter] | None = None) -> list[tuple[str, str]]:
    """The headline as (kind, sentence) pairs: a ``note`` on which metric it reads and why,
    then per comparison the rule counts' ``flag`` (given ``counts``, as ``rule_counts``
    makes them) before the ``measured`` difference."""
    metric = primary_metric(run)
    pairs = comparisons(run)
    if not pairs or metric is None:
        return [("note", f"{run.study.name}: only one variant, so there is no comparison to report.")]
    out = [("note", f"The headline reads {metric}, the first of the study's metrics; the table "
                    "has every metric's difference.")]
    variant_of = {c.label: c.variant for c in run.study.cells}
    for _, variant, baseline in pairs[:HEADLINE_COMPARISONS]:
        warning = mechanism_warning(variant, baseline, counts or {}, variant_of,
                                    min(RULE_COUNT_REPS, run.replications))
        out += ([("flag", warning)] if warning else []) + [("measured", measured(run, variant, baseline, metric))]
    if len(pairs) > HEADLINE_COMPARISONS:
        out.append(("note", f"The other {len(pairs) - HEADLINE_COMPARISONS} comparisons are in the table."))
    return out
