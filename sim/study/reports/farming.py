"""What ``sim analyse`` shows: the text, the JSON object, the CSV files and the plots.

Files written by ``write_files(analysis, DIR)``:

- ``indices.csv``: variant, metric, factor, index (S1, ST, mu_star, mu, sigma), value,
  ci_low, ci_high;
- ``effects.csv``: the linear model's terms (low-to-high effect, 95 % interval, p-value);
- ``splits.csv``: the tree's splits (depth, rule, the mean and point count each side);
- ``responses.csv``: every design point's factor values and mean per metric (a column
  ``metric:NAME``, as in every output where metrics stand beside factors);
- ``analysis.json``: all of it (the same object as ``--json``);
- plots (``sim.viz.farming_plots``): ``main_effects_M.png``, ``interactions_M.png``,
  ``tornado_M.png``, ``tree_M.png`` per metric M (with the variant's name added when the
  study has more than one).
"""
from __future__ import annotations

import csv
import json
import math
import os
from typing import Any

from sim.study.analysis.responses import Analysis, MetricAnalysis
from sim.study.analysis.sensitivity import ranking
from sim.study.reports.summary import metric_column

SHOWN_EFFECTS = 6
SHOWN_SPLITS = 3


def _num(x: float | None) -> Any:
    return None if x is None or not math.isfinite(x) else round(float(x), 6)


def as_dict(a: Analysis) -> dict[str, Any]:
    """The analysis as one JSON-ready object."""
    d = a.design
    return {
        "study": a.study.name, "study_hash": a.study_hash, "design": a.plan.method,
        "factors": [{"key": f.key, "kind": f.kind, "range": f.describe()} for f in a.plan.factors],
        "design_properties": {"points": d.points, "max_abs_correlation": _num(d.max_abs_correlation),
                              "condition_number": _num(d.condition_number),
                              "maximin": _num(d.maximin),
                              "centred_discrepancy": _num(d.centred_discrepancy)},
        "replications": a.replications,
        "results": [_result(r) for r in a.results],
    }


def _result(r: MetricAnalysis) -> dict[str, Any]:
    m = r.model
    return {
        "variant": r.variant, "metric": r.metric, "note": r.note or None,
        "points": len(r.responses), "blocks": r.blocks,
        "indices": [i.as_dict() for i in r.indices],
        "ranking": ranking(r.indices) if r.indices else [],
        "tree": None if m is None else {
            "r2_out_of_sample": _num(m.tree_r2),
            "splits": [{"depth": s.depth, "rule": s.rule, "left_mean": _num(s.left_mean),
                        "left_n": s.left_n, "right_mean": _num(s.right_mean),
                        "right_n": s.right_n, "share_of_variance": _num(s.gain),
                        "words": s.words(metric_column(r.metric))} for s in m.splits]},
        "linear": None if m is None else {
            "r2_out_of_sample": _num(m.linear_r2), "r2_in_sample": _num(m.linear_fit_r2),
            "effects": [{"term": e.term, "effect": _num(e.effect), "ci_low": _num(e.ci_low),
                         "ci_high": _num(e.ci_high), "p_value": _num(e.p_value),
                         "words": e.words(metric_column(r.metric))} for e in m.effects]},
    }


def text(a: Analysis, db: str) -> str:
    """The readable report."""
    reps = ", ".join(f"{v}: {n}" for v, n in a.replications.items())
    lines = [f"Analysis of study {a.study.name} (hash {a.study_hash}) from {db}",
             f"Design {a.plan.method} over {len(a.plan.factors)} factors: {a.design.describe()}",
             f"Replications averaged at every point: {reps}"]
    for f in a.plan.factors:
        lines.append(f"  {f.key}: {f.describe()}")
    for r in a.results:
        lines += ["", f"{metric_column(r.metric)} ({r.variant}, {len(r.responses)} points)"]
        if r.note:
            lines.append(f"  {r.note}")
        if r.indices:
            lines += _indices_text(r)
        m = r.model
        if m is None:
            continue
        lines.append(f"  Regression tree: out-of-sample R^2 {_r2(m.tree_r2)} "
                     f"({m.points} points, 5-fold cross-validation). Top splits:")
        lines += [f"    - {s.words(metric_column(r.metric))} [{s.gain:.0%} of the variance]"
                  for s in m.splits[:SHOWN_SPLITS]]
        lines.append(f"  Linear model with interactions: out-of-sample R^2 {_r2(m.linear_r2)}, "
                     f"in-sample {_r2(m.linear_fit_r2)}. Strongest effects:")
        lines += [f"    - {e.words(metric_column(r.metric))}" for e in m.effects[:SHOWN_EFFECTS]]
    return "\n".join(lines)


def _r2(x: float) -> str:
    return "-" if not math.isfinite(x) else f"{x:.2f}"


def _indices_text(r: MetricAnalysis) -> list[str]:
    names = [i for i in ("S1", "ST", "mu_star", "sigma") if any(x.name == i for x in r.indices)]
    what = ("Sobol' indices" if "ST" in names else "Morris elementary effects") + \
        f" ({r.blocks} {'base points' if 'ST' in names else 'trajectories'}, " \
        "95% bootstrap intervals), most influential first:"
    width = max(len(i.factor) for i in r.indices)
    out = [f"  {what}", "    " + f"{'factor':<{width}}  " + "  ".join(f"{n:<24}" for n in names)]
    by = {(i.factor, i.name): i for i in r.indices}
    for factor in ranking(r.indices):
        cells = []
        for n in names:
            i = by[(factor, n)]
            ci = f" [{i.ci_low:.3f}, {i.ci_high:.3f}]" if math.isfinite(i.ci_low) else ""
            cells.append(f"{i.value:.3f}{ci}".ljust(24))
        out.append(f"    {factor:<{width}}  " + "  ".join(cells))
    return out


def write_files(a: Analysis, out_dir: str) -> list[str]:
    """CSV, JSON and PNG files into ``out_dir`` (created); returns the paths."""
    from sim.viz.farming_plots import plot_analysis

    os.makedirs(out_dir, exist_ok=True)
    data = as_dict(a)
    paths = [os.path.join(out_dir, n) for n in
             ("analysis.json", "indices.csv", "effects.csv", "splits.csv", "responses.csv")]
    with open(paths[0], "w") as fh:
        json.dump(data, fh, indent=1, allow_nan=False)
    _csv(paths[1], ["variant", "metric", "factor", "name", "value", "ci_low", "ci_high"],
         [{"variant": r["variant"], "metric": r["metric"], **i}
          for r in data["results"] for i in r["indices"]])
    _csv(paths[2], ["variant", "metric", "term", "effect", "ci_low", "ci_high", "p_value", "words"],
         [{"variant": r["variant"], "metric": r["metric"], **e}
          for r in data["results"] if r["linear"] for e in r["linear"]["effects"]])
    _csv(paths[3], ["variant", "metric", "depth", "rule", "left_mean", "left_n", "right_mean",
                    "right_n", "share_of_variance", "words"],
         [{"variant": r["variant"], "metric": r["metric"], **s}
          for r in data["results"] if r["tree"] for s in r["tree"]["splits"]])
    _csv(paths[4], *responses(a))
    return paths + plot_analysis(a, out_dir)


def responses(a: Analysis) -> tuple[list[str], list[dict[str, Any]]]:
    """``responses.csv``'s columns and rows: per (variant, point) the factors' values (by key
    path) and each metric's mean response (``metric:NAME``)."""
    keys = [f.key for f in a.plan.factors]
    rows: dict[tuple, dict] = {}
    for r in a.results:
        for p, mean in r.responses.items():
            row = rows.setdefault((r.variant, p), {"variant": r.variant, "point": p,
                                                   **dict(zip(keys, a.plan.points[p]))})
            row[metric_column(r.metric)] = mean
    metrics = list(dict.fromkeys(metric_column(r.metric) for r in a.results))
    return ["variant", "point", *keys, *metrics], [rows[k] for k in sorted(rows)]


def _csv(path: str, columns: list[str], rows: list[dict]) -> None:
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, columns, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
