"""What ``sim select`` shows: the selected cell, how the others left, the battles it
spent, and its guarantee in words (``text``, and ``as_json`` for ``--json``)."""
from __future__ import annotations

from typing import Any

from sim.study.reports.summary import number_text
from sim.study.run.selection import SelectRun

__all__ = ["as_json", "guarantee", "text"]

#: The fixed-size studies a selection is compared with (``sim.study.analysis.kn.bonferroni_size``).
TWO_STAGE = "two-stage Bonferroni-t after Clark and Yang 1986, sized from this first stage"
KNOWN = "Bonferroni-normal, the first stage's variances taken as the true ones"

#: Why KN stopped, in words (``sim.study.analysis.kn.STOPS``).
STOPPED = {"one survivor": "one cell left",
           "maximum": "at the procedure's own maximum, by the best mean",
           "cap": "at the cap on replications, by the best mean"}


def guarantee(done: SelectRun) -> list[str]:
    """The guarantee of this selection, and its limits, one sentence each."""
    spec, metric = done.spec, done.spec.metric
    lines = [
        f"If the best cell's true mean {metric} is {'larger' if spec.maximise else 'smaller'} "
        f"than every other cell's by at least {spec.delta:g} (the indifference zone), KN "
        f"selects it with probability at least {1 - spec.alpha:.4g} (Kim and Nelson 2001, "
        "Theorem 1), when each cell's results are normally distributed; common random "
        "numbers are allowed (the cells' results may be correlated in any way).",
        f"It promises nothing when another cell is within {spec.delta:g} of the best: any of "
        "those may be selected. The probability is over repetitions of the whole selection "
        "with fresh seeds; this one selection is right or wrong. It is about the scenario "
        "as simulated, not the world.",
    ]
    if done.kind == "binary":
        lines.append(f"{metric} is 0 or 1, not normal: the guarantee holds only approximately "
                     "(in the limit of a small indifference zone: Kim and Nelson 2006), and "
                     f"only if the first stage (n0 = {spec.n0}) is large enough to see how "
                     "often the cells disagree.")
    if done.selection.stop == "cap":
        lines.append(f"It was stopped by the cap of {spec.cap} replications before its own "
                     "end: this selection has no guarantee.")
    return lines


def as_json(done: SelectRun) -> dict[str, Any]:
    """The selection as one JSON-ready object (``sim select --json``)."""
    s, spec, labels = done.selection, done.spec, done.labels
    run = done.run
    mixed = {} if run.mixed_code is None else {"mixed_code": run.mixed_code.as_dict()}
    return {
        "study": run.study.name, "metric": spec.metric,
        "direction": "maximise" if spec.maximise else "minimise",
        "delta": spec.delta, "alpha": spec.alpha, "n0": spec.n0, "cap": spec.cap,
        "crn": run.crn, "seed": run.study.spec.seed, "cells": len(labels),
        "eta": s.eta, "h2": s.h2, "maximum": s.maximum,
        "selected": {"cell": labels[s.best], "mean": s.means[s.best],
                     "replications": s.counts[s.best]},
        "stop": s.stop, "stage": s.stage,
        "left": [{"cell": labels[e.system], "stage": e.stage, "mean": e.mean,
                  "by": labels[e.by], "screened": e.screened} for e in s.exits],
        "battles": {"used": s.used, "run": run.ran, "from_store": done.from_store},
        "fixed_size": {"per_cell": done.fixed_size, "total": done.fixed_size * len(labels),
                       "rule": TWO_STAGE},
        "known_variances_size": {"per_cell": done.known_size,
                                 "total": done.known_size * len(labels), "rule": KNOWN},
        "guarantee": guarantee(done), "notes": done.notes, **mixed,
    }


def text(done: SelectRun) -> str:
    """The readable report: heading, selected cell, the others, battles, guarantee."""
    s, spec, labels = done.selection, done.spec, done.labels
    run = done.run
    crn = "common random numbers" if run.crn else "independent seeds"
    way = "largest" if spec.maximise else "smallest"
    out = [f"Selection {run.study.name}: the {way} mean {spec.metric} (KN: indifference zone "
           f"{spec.delta:g}, confidence {1 - spec.alpha:.4g}, first stage {spec.n0}), "
           f"{len(labels)} cells, {crn}, seed {run.study.spec.seed}", "",
           f"selected: {labels[s.best]}, mean {number_text(s.means[s.best])} over "
           f"{s.counts[s.best]} replications (stopped {STOPPED[s.stop]}, at stage {s.stage})",
           ""]
    width = max(len("cell"), *(len(x) for x in labels))
    head = f"{'cell':<{width}}  {'left at':>7}  {'mean':>8}  how"
    out += [head, "-" * (len(head) + 24)]
    for e in s.exits:
        how = f"screened out by {labels[e.by]}" if e.screened else \
            f"at the stop, {labels[e.by]}'s mean is better" if e.mean != s.means[e.by] else \
            f"at the stop, {labels[e.by]}'s mean is the same and comes first"
        out.append(f"{labels[e.system]:<{width}}  {e.stage:>7}  {number_text(e.mean):>8}  {how}")
    stored = f", {done.from_store} of them from the store" if done.from_store else ""
    k = len(labels)
    out += ["", f"battles: {s.used} used by the procedure{stored}; {run.ran} run now "
            f"(the procedure's own maximum: {max(s.maximum, spec.n0)} per cell)",
            f"a study of fixed size with the same guarantee: {k} x {done.fixed_size} = "
            f"{k * done.fixed_size} ({TWO_STAGE}); {k} x {done.known_size} = "
            f"{k * done.known_size} if it knew the variances ({KNOWN})", ""]
    out += [f"guarantee: {line}" for line in guarantee(done)]
    out += [f"note: {n}" for n in done.notes]
    return "\n".join(out)
