"""Plots of a data-farming analysis (``sim analyse --out DIR``), one set per metric:

- ``main_effects_M.png``: the metric at every design point against each factor, with the
  mean and 95 % t-interval of the points in each fifth of the factor's range (or at each
  level);
- ``interactions_M.png``: a heat map of the linear model's two-factor interaction effects
  (blank where the model has no such term);
- ``tornado_M.png``: the factors by influence: total and first-order Sobol' indices,
  Morris mu*, or (other designs) the linear model's low-to-high main effects, each with
  its 95 % interval;
- ``tree_M.png``: the regression tree, its thresholds in the knobs' own units.

Axis labels carry units: distances in hexes or cm (from the scenario's map), yes/no
metrics as probabilities, counts per battle. Figures are drawn on the Agg canvas.
"""
from __future__ import annotations

import math
import os
import re
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure  # never pyplot: no backend is changed

from sim.files import write_figure

DISTANCE = re.compile(r"(range|radius|cm|hexes|move|clearance)$")


def metric_label(metric: str, kind: str) -> str:
    """'attacker_won (probability)', 'end_time (time units)', 'pins (per battle)'."""
    unit = {"binary": "probability", "count": "per battle"}.get(kind, "")
    if metric == "end_time":
        unit = "time units"  # a phase lasts rules.base.phase_length of them
    return f"{metric} ({unit})" if unit else metric


def factor_label(key: str, kind: str, terrain: str) -> str:
    """The knob with its unit: distances in hexes (hex maps) or cm (tables)."""
    if kind == "categorical":
        return f"{key} (level)"
    if DISTANCE.search(key):
        return f"{key} ({'hexes' if terrain == 'hex' else 'cm'})"
    return f"{key} ({'whole number' if kind == 'integer' else 'value'})"


def plot_analysis(a, out_dir: str) -> list[str]:
    """Every plot of every analysed metric; returns the paths written."""
    terrain = (getattr(a.study.scenario, "terrain", None) or {}).get("kind", "table")
    several = len(a.study.spec.variants) > 1
    paths = []
    for r in a.results:
        if not r.responses or r.note.endswith("does not vary over the design points"):
            continue
        tag = f"{r.metric}_{r.variant}" if several else r.metric
        ylabel = metric_label(r.metric, a.kinds.get(r.metric, "real"))
        paths.append(main_effects(a, r, terrain, ylabel, os.path.join(out_dir, f"main_effects_{tag}.png")))
        if r.model is not None:
            paths.append(interactions(a, r, ylabel, os.path.join(out_dir, f"interactions_{tag}.png")))
            paths.append(tree(r, ylabel, os.path.join(out_dir, f"tree_{tag}.png")))
        if r.indices or r.model is not None:
            paths.append(tornado(r, ylabel, os.path.join(out_dir, f"tornado_{tag}.png")))
    return paths


def _save(fig: Figure, path: str) -> str:
    write_figure(fig, path, dpi=110)
    return path


def main_effects(a, r, terrain: str, ylabel: str, path: str) -> str:
    """The metric against each factor: points, and bin means with 95 % intervals."""
    from scipy import stats

    factors = a.plan.factors
    cols = min(3, len(factors))
    rows = math.ceil(len(factors) / cols)
    fig = Figure(figsize=(3.8 * cols, 3.2 * rows + 0.6), layout="constrained")  # ≤ 1280 px
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    pts = sorted(r.responses)
    y = np.array([r.responses[p] for p in pts])
    for j, (ax, f) in enumerate(zip(axes, factors)):
        vals = [a.plan.points[p][j] for p in pts]
        if f.kind == "categorical":
            xs = np.array([f.levels.index(v) for v in vals], dtype=float)
            groups = [xs == i for i in range(len(f.levels))]
            centres = list(range(len(f.levels)))
            ax.set_xticks(centres, [str(v) for v in f.levels], rotation=20)
        elif f.kind == "integer" and f.count <= 12:  # one group per whole number
            xs = np.array(vals, dtype=float)
            centres = list(range(int(f.low), int(f.high) + 1))
            groups = [xs == c for c in centres]
        else:
            xs = np.array(vals, dtype=float)
            edges = np.linspace(f.low, f.high, 6)
            bins = np.clip(np.digitize(xs, edges[1:-1]), 0, 4)
            groups = [bins == i for i in range(5)]
            centres = list((edges[:-1] + edges[1:]) / 2)
        ax.plot(xs, y, "o", color="0.6", ms=3, label="design point")
        for c, g in zip(centres, groups):
            if g.sum() >= 2:
                m, s = y[g].mean(), y[g].std(ddof=1) / math.sqrt(g.sum())
                half = float(stats.t.ppf(0.975, g.sum() - 1)) * s
                ax.errorbar(c, m, yerr=half, fmt="s", color="C0", capsize=4)
            elif g.sum() == 1:
                ax.plot(c, y[g][0], "s", color="C0")
        ax.set_xlabel(factor_label(f.key, f.kind, terrain), fontsize=10)
        ax.set_ylabel(ylabel, fontsize=10)
        ax.grid(alpha=0.3)
    for ax in axes[len(factors):]:
        ax.set_visible(False)
    fig.suptitle(f"Main effects on {r.metric} ({r.variant}): design points (grey); means "
                 "over the points in each bin or at each value, 95% t-intervals (blue)",
                 fontsize=10)
    return _save(fig, path)


def interactions(a, r, ylabel: str, path: str) -> str:
    """Heat map of two-factor interaction effects from the linear model."""
    from sim.study.analysis.metamodel import short_name

    short = [short_name(f.key) for f in a.plan.factors]
    k = len(short)
    grid = np.full((k, k), np.nan)
    for e in r.model.effects:
        if " x " not in e.term:
            continue
        i, j = (short.index(t.split("=")[0]) for t in e.term.split(" x "))
        for u, v in ((i, j), (j, i)):
            if math.isnan(grid[u, v]) or abs(e.effect) > abs(grid[u, v]):
                grid[u, v] = e.effect
    fig = Figure(figsize=(0.8 * k + 4.5, 0.7 * k + 2.6), layout="constrained")
    ax = fig.subplots()
    lim = np.nanmax(np.abs(grid)) if np.isfinite(grid).any() else 1.0
    im = ax.imshow(grid, cmap="RdBu_r", vmin=-lim, vmax=lim)
    for u in range(k):
        for v in range(k):
            if np.isfinite(grid[u, v]):
                dark = abs(grid[u, v]) > 0.6 * lim
                ax.text(v, u, f"{grid[u, v]:+.2g}", ha="center", va="center", fontsize=10,
                        color="white" if dark else "black")
    ax.set_xticks(range(k), short, rotation=90, fontsize=10)  # upright boxes: none overlaps
    ax.set_yticks(range(k), short, fontsize=10)
    ax.set_xlabel("factor")
    ax.set_ylabel("factor")
    fig.colorbar(im, ax=ax, label=f"change of one factor's effect\non {ylabel}")
    fitted = int(np.isfinite(grid).sum() // 2)
    ax.set_title(f"Interactions in the linear model of {r.metric} ({r.variant})\n"
                 f"{fitted} fitted; blank: not in the model", fontsize=10)
    return _save(fig, path)


def tornado(r, ylabel: str, path: str) -> str:
    """Factors by influence, with 95 % intervals."""
    by: dict[str, Any] = {}
    if any(i.name == "ST" for i in r.indices):
        for i in r.indices:
            by.setdefault(i.factor, {})[i.name] = i
        order = sorted(by, key=lambda f: by[f]["ST"].value)
        bars = [("ST", "total Sobol' index", "C0"), ("S1", "first-order Sobol' index", "C1")]
        xlabel = f"share of the variance of {ylabel}"
    elif r.indices:
        for i in r.indices:
            by.setdefault(i.factor, {})[i.name] = i
        order = sorted(by, key=lambda f: by[f]["mu_star"].value)
        bars = [("mu_star", "Morris mu* (mean |elementary effect|)", "C0")]
        xlabel = f"change in {ylabel} over a factor's whole range"
    else:
        mains = [e for e in r.model.effects if " x " not in e.term]
        by = {e.term: {"effect": e} for e in mains}
        order = sorted(by, key=lambda f: abs(by[f]["effect"].effect))
        bars = [("effect", "linear model: low-to-high effect", "C0")]
        xlabel = f"change in {ylabel}"
    fig = Figure(figsize=(8, 0.45 * len(order) + 1.8), layout="constrained")
    ax = fig.subplots()
    height = 0.8 / len(bars)
    for b, (name, label, colour) in enumerate(bars):
        ys = np.arange(len(order)) + (b - (len(bars) - 1) / 2) * height
        items = [by[f][name] for f in order]
        vals = [getattr(x, "value", getattr(x, "effect", math.nan)) for x in items]
        err = np.array([[max(0.0, v - x.ci_low) for v, x in zip(vals, items)],
                        [max(0.0, x.ci_high - v) for v, x in zip(vals, items)]])
        ax.barh(ys, vals, height=height, color=colour, label=label, xerr=err, capsize=3)
    ax.set_yticks(range(len(order)), order, fontsize=10)
    ax.axvline(0, color="0.3", lw=0.8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("factor")
    ax.legend(fontsize=10, loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(f"What drives {r.metric} ({r.variant}): 95% intervals", fontsize=10)
    return _save(fig, path)


def tree(r, ylabel: str, path: str) -> str:
    """The regression tree, with thresholds in the knobs' units."""
    from sklearn.tree import plot_tree

    m = r.model
    leaves = int(m.tree.get_n_leaves())
    fig = Figure(figsize=(min(11.6, max(8, 2.3 * leaves)), 5.5), layout="constrained")  # ≤ 1280 px
    FigureCanvasAgg(fig)  # plot_tree measures text, which needs a renderer
    ax = fig.subplots()
    plot_tree(m.tree, feature_names=m.names, filled=True, impurity=False, precision=3,
              rounded=True, fontsize=10, ax=ax)
    ax.set_title(f"Regression tree of {ylabel} ({r.variant}), out-of-sample R^2 "
                 f"{m.tree_r2:.2f}\nvalue: the mean over the design points in the node; "
                 "'level=x <= 0.5' reads 'not level x'; thresholds in the knobs' units",
                 fontsize=10)
    return _save(fig, path)
