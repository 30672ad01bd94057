"""What a study shows its user: a table and a JSON object (its headline:
``sim.study.reports.headline``; its CSV file: ``sim.study.reports.replications_csv``).

The JSON object is the contract: ``{"study": NAME, "variants": {CELL: {METRIC: {"mean",
"ci_low", "ci_high", "n", "method"}}}, "differences": {"CELL - BASELINE_CELL": {METRIC:
{...}}}}`` (and ``"mixed_code": {"stored": [CODE, ...], "this_run": CODE}`` when a resume
was allowed over rows that other code made), where a CELL is a variant name, or
``variant@knob=value,...`` when the study has factors. ``method`` says how the interval
was made (``sim.study.analysis.stats.METHODS``): an interval that cannot be computed
(n < 2) has null bounds and method ``none``; a metric with the same value in every
replication has method ``constant`` and its bounds are that value (no spread was
measured: the table says so instead of printing an interval).

Factors and metrics never share a name in an output: a factor is its key path
(``turns``, ``rules.snapfire.radius``), a metric, wherever it stands beside factors (a CSV
header, ``sim analyse``'s sentences), is ``metric:NAME`` (``metric_column``), so a factor on
``turns`` and the metric ``turns`` are two columns.
"""
from __future__ import annotations

import json
import math
from typing import Any, cast

from sim.study.analysis.stats import Estimate, Summary
from sim.study.plan.study_file import package_version, value_text
from sim.study.run.runner import StudyRun
from sim.systems.registry import default_design


def metric_column(name: str) -> str:
    """How a metric is named beside factors (a key path never starts with ``metric:``)."""
    return f"metric:{name}"


def as_json(run: StudyRun) -> dict[str, Any]:
    """The contract object of a finished study."""
    s = cast(Summary, run.summary)   # a finished study has its summary
    out: dict[str, Any] = {
        "study": run.study.name,
        "variants": {cell: {m: e.as_dict() for m, e in per.items()} for cell, per in s.cells.items()},
        "differences": {d: {m: e.as_dict() for m, e in per.items()}
                        for d, per in s.differences.items()},
    }
    if run.mixed_code is not None:   # resumed with --allow-changed-code over other code
        out["mixed_code"] = run.mixed_code.as_dict()
    return out


def number_text(x: float | None, signed: bool = False, missing: str = "-") -> str:
    """A number as the study's tables print it: 1 decimal from 100 up, else 3; ``missing`` if none."""
    if x is None or not math.isfinite(x):
        return missing
    spec = "+" if signed else ""
    return f"{x:{spec}.1f}" if abs(x) >= 100 else f"{x:{spec}.3f}"


LABELS = {"wilson": " (Wilson)", "newcombe-paired": " (Newcombe, paired)",
          "newcombe": " (Newcombe)"}


def _ci(e: Estimate, signed: bool = False) -> str:
    if e.constant:
        return f"constant: {number_text(e.mean, signed)} in all"
    if not math.isfinite(e.ci_low):
        return "-"
    return f"[{number_text(e.ci_low, signed)}, {number_text(e.ci_high, signed)}]" + LABELS.get(e.method, "")


def excludes_zero(e: Estimate) -> bool:
    """True when the interval lies wholly on one side of zero."""
    return math.isfinite(e.ci_low) and (e.ci_low > 0 or e.ci_high < 0)


#: A study of more cells than this is summarised (``summary_table``), not listed cell by cell.
FULL_TABLE_CELLS = 40


def _heading(run: StudyRun) -> str:
    mode = "common random numbers" if run.crn else "independent seeds (--no-crn)"
    return (f"Study {run.study.name}: {run.replications} replications per cell, {mode}, "
            f"seed {run.study.spec.seed}")


def table(run: StudyRun, where: str = "") -> str:
    """A readable table: per-cell means with 95% intervals, then paired differences; a study
    of more than ``FULL_TABLE_CELLS`` cells is summarised instead (``where``: where the full
    table went, as ``summary_table`` says it)."""
    if len(run.study.cells) > FULL_TABLE_CELLS:
        return summary_table(run, where)
    s = cast(Summary, run.summary)   # a finished study has its summary
    lines = [_heading(run)]
    wc = max([len("cell")] + [len(c) for c in s.cells])
    wm = max([len("metric")] + [len(m) for m in run.metrics])
    head = f"{'cell':<{wc}}  {'metric':<{wm}}  {'mean':>9}  {'95% CI':<34}  {'n':>5}"
    lines += ["", head, "-" * len(head)]
    for cell, per in s.cells.items():
        for i, (m, e) in enumerate(per.items()):
            lines.append(f"{cell if i == 0 else '':<{wc}}  {m:<{wm}}  {number_text(e.mean):>9}  "
                         f"{_ci(e):<34}  {e.n:>5}")
    if s.differences:
        wd = max([len("difference")] + [len(d) for d in s.differences])
        head = f"{'difference':<{wd}}  {'metric':<{wm}}  {'mean':>9}  {'95% CI':<34}  {'n':>5}  not 0?"
        lines += ["", "Paired differences (variant - baseline, same replication index):",
                  head, "-" * len(head)]
        for d, per in s.differences.items():
            for i, (m, e) in enumerate(per.items()):
                lines.append(f"{d if i == 0 else '':<{wd}}  {m:<{wm}}  {number_text(e.mean, True):>9}  "
                             f"{_ci(e, True):<34}  {e.n:>5}  {'yes' if excludes_zero(e) else 'no'}")
    return "\n".join(lines + _notes(run))


def _notes(run: StudyRun) -> list[str]:
    """The closing line of notes (none: no line)."""
    s = cast(Summary, run.summary)
    notes = list(run.notes)
    if run.stop == "precision":
        notes.append("precision target met")
    elif run.stop == "cap":
        notes.append("precision target NOT met: stopped at the replication cap")
    if run.resumed:
        notes.append(f"{run.resumed} replications resumed from the store")
    if run.other_versions:
        notes.append(f"some stored replications were made by sim {', '.join(run.other_versions)}, "
                     f"not {package_version()}")
    if run.failures:
        notes.append(f"{len(run.failures)} replications FAILED (see the failures table)")
    if any(e.constant for e in s.intervals()):
        notes.append("'constant: X in all': the count or real metric (or difference) was X in every "
                     "replication, so there is no spread to make an interval from")
    return ["", "; ".join(notes) + "."] if notes else []


def summary_table(run: StudyRun, where: str = "") -> str:
    """A designed study in a screenful: its factors' ranges, then per variant and metric the
    cells of the lowest and highest mean, and per paired difference how many cells' intervals
    exclude zero and the largest; ``where`` says where the full table went."""
    s = cast(Summary, run.summary)
    cells = run.study.cells
    variants = list(dict.fromkeys(c.variant for c in cells))
    points = len(cells) // max(1, len(variants))
    design = run.study.spec.factors.design if run.study.spec.factors else default_design()
    lines = [_heading(run), "",
             f"Design {design}: {points} points x {len(variants)} variant(s) = {len(cells)} "
             "cells, too many to list here", f"Every cell: {where or full_table_hint()}", "",
             "Factors:"]
    keys = [k for k, _ in cells[0].point] if cells else []
    wk = max([len(k) for k in keys] + [6])
    for j, key in enumerate(keys):
        values = [c.point[j][1] for c in cells]
        lines.append(f"  {key:<{wk}}  {_spread(values)}")
    wm = max([len("metric")] + [len(m) for m in run.metrics])
    for variant in variants:
        labels = [c.label for c in cells if c.variant == variant]
        lines += ["", f"Variant {variant}, over its {len(labels)} cells (lowest and highest mean):"]
        for m in run.metrics:
            means = [(s.cells[c][m].mean, c) for c in labels
                     if m in s.cells[c] and math.isfinite(s.cells[c][m].mean)]
            if not means:
                lines.append(f"  {m:<{wm}}  no mean")
                continue
            # Ties go to the first cell in design order.
            lo = min(means, key=lambda t: t[0])
            hi = max(means, key=lambda t: t[0])
            if lo[0] == hi[0]:
                lines.append(f"  {m:<{wm}}  {number_text(lo[0])} in every cell")
                continue
            lines.append(f"  {m:<{wm}}  lowest {number_text(lo[0])} at {lo[1]} {_ci(s.cells[lo[1]][m])}; "
                         f"highest {number_text(hi[0])} at {hi[1]} {_ci(s.cells[hi[1]][m])}")
    if s.differences:
        lines += ["", "Paired differences (variant - baseline at the same point):"]
        for m in run.metrics:
            diffs = [(d, per[m]) for d, per in s.differences.items() if m in per]
            real = [d for d, e in diffs if excludes_zero(e)]
            finite = [(abs(e.mean), d, e) for d, e in diffs if math.isfinite(e.mean)]
            if not finite:
                continue
            _, d, e = max(finite, key=lambda t: t[0])
            lines.append(f"  {m:<{wm}}  {len(real)} of {len(diffs)} intervals exclude 0; "
                         f"largest: {d} {number_text(e.mean, True)} {_ci(e, True)}")
    return "\n".join(lines + _notes(run))


def full_table_hint(csv: str | None = None, db: str | None = None) -> str:
    """Where the full table of a summarised study is, given the outputs asked for."""
    return "; ".join(p for p in (
        "--json prints every cell's means and paired differences",
        f"every replication is in {csv}" if csv else "--csv FILE writes every replication",
        f"the rows are stored in {db}" if db else "") if p)


def _spread(values: list[Any]) -> str:
    """A factor's values in a few words: a numeric range, or its levels."""
    numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if len(numbers) == len(values) and values:
        return (f"{value_text(min(numbers))} .. {value_text(max(numbers))} "
                f"({len(set(numbers))} distinct values)")
    levels = list(dict.fromkeys(json.dumps(v, sort_keys=True) for v in values))
    return f"levels {', '.join(levels)}"
