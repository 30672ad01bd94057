"""Plots of a finished study, written as PNG files.

- ``means.png``: every cell's mean with its 95% interval, one panel per metric;
- ``differences.png``: every paired difference with its interval and a zero line
  (these two only up to 100 cells or differences: a designed study's many points are
  drawn by ``sim analyse --out``);
- ``response_<knob>.png`` (one per factor): each metric's mean against the factor's
  values, one line per variant. With one factor the points carry their intervals; with
  several, a point is the average of the cell means at that value (a marginal mean),
  drawn without an interval.

Figures are built with ``matplotlib.figure.Figure`` and saved through the Agg canvas,
never through pyplot, so plotting works headless and leaves no global state behind.
"""
from __future__ import annotations

import math
import os
from collections import defaultdict

from matplotlib.figure import Figure  # never pyplot: saving uses Agg, no backend is changed


def _panels(n: int, width: float = 5.0, height: float = 0.5):
    cols = min(n, 2)
    rows = math.ceil(n / cols)
    fig = Figure(figsize=(width * cols, max(2.5, height) * rows + 0.6), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    return fig, axes[:n]


def _errorbars(ax, labels, estimates, colour):
    ys = range(len(labels))
    for y, e in zip(ys, estimates):
        if math.isfinite(e.ci_low):
            ax.errorbar(e.mean, y, xerr=[[e.mean - e.ci_low], [e.ci_high - e.mean]],
                        fmt="o", color=colour, capsize=4)
        elif math.isfinite(e.mean):
            ax.plot(e.mean, y, "o", color=colour)
    ax.set_yticks(list(ys), labels)
    ax.invert_yaxis()
    ax.grid(axis="x", alpha=0.3)


def _finite(x: float) -> float:
    return x if math.isfinite(x) else 0.0


def plot_means(run, path: str) -> str:
    s = run.summary
    fig, axes = _panels(len(run.metrics), height=0.35 * len(s.cells) + 1)
    for ax, m in zip(axes, run.metrics):
        _errorbars(ax, list(s.cells), [per[m] for per in s.cells.values()], "tab:blue")
        ax.set_title(m)
    fig.suptitle(f"{run.study.name}: means with 95% intervals (n = {run.replications})")
    fig.savefig(path, dpi=100)
    return path


def plot_differences(run, path: str) -> str:
    s = run.summary
    fig, axes = _panels(len(run.metrics), height=0.35 * len(s.differences) + 1)
    for ax, m in zip(axes, run.metrics):
        _errorbars(ax, list(s.differences), [per[m] for per in s.differences.values()],
                   "tab:red")
        ax.axvline(0, color="black", linewidth=1)
        ax.set_title(m)
    mode = "common random numbers" if run.crn else "independent seeds"
    fig.suptitle(f"{run.study.name}: paired differences, 95% intervals ({mode})")
    fig.savefig(path, dpi=100)
    return path


def plot_response(run, key: str, path: str) -> str:
    cells = run.study.cells
    single = len(cells[0].point) == 1
    fig, axes = _panels(len(run.metrics))
    for ax, m in zip(axes, run.metrics):
        for variant in run.study.spec.variants:
            at = defaultdict(list)
            for c in cells:
                if c.variant == variant:
                    at[dict(c.point)[key]].append(run.summary.cells[c.label][m])
            xs = sorted(at)
            means = [sum(e.mean for e in at[x]) / len(at[x]) for x in xs]
            if single:
                # No interval yet (n < 2) draws as a bare point.
                lo = [_finite(means[i] - at[x][0].ci_low) for i, x in enumerate(xs)]
                hi = [_finite(at[x][0].ci_high - means[i]) for i, x in enumerate(xs)]
                ax.errorbar(xs, means, yerr=[lo, hi], marker="o", capsize=3, label=variant)
            else:
                ax.plot(xs, means, marker="o", label=variant)
        ax.set_title(m)
        ax.set_xlabel(key)
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
    what = "means with 95% intervals" if single else "marginal means"
    fig.suptitle(f"{run.study.name}: response to {key} ({what})")
    fig.savefig(path, dpi=100)
    return path


# One row per cell: beyond this many cells (a designed study's points) the means and
# differences would be an unreadable, and past about 2,000 an impossibly tall, image;
# such a study is plotted by `sim analyse --out`.
MAX_CELL_ROWS = 100


def plot_study(run, out_dir: str) -> list[str]:
    """Write every plot of ``run`` into ``out_dir`` (created if needed); return the paths."""
    os.makedirs(out_dir, exist_ok=True)
    paths = []
    if len(run.summary.cells) <= MAX_CELL_ROWS:
        paths.append(plot_means(run, os.path.join(out_dir, "means.png")))
    if run.summary.differences and len(run.summary.differences) <= MAX_CELL_ROWS:
        paths.append(plot_differences(run, os.path.join(out_dir, "differences.png")))
    if run.study.cells and run.study.cells[0].point:
        for key, _ in run.study.cells[0].point:
            slug = key.replace(".", "_")
            paths.append(plot_response(run, key, os.path.join(out_dir, f"response_{slug}.png")))
    return paths
