"""Plots of a finished study, written as PNG files.

- ``means.png``: every cell's mean with its 95% interval, one panel per metric;
- ``differences.png``: every paired difference with its interval and a zero line
  (these two only up to 100 cells or differences: a designed study's many points are
  drawn by ``sim analyse --out``);
- ``response_<knob>.png`` (one per factor): each metric's mean against the factor's
  values, one line per variant. With one factor the points carry their intervals; with
  several, a point is the average of the cell means at that value (a marginal mean),
  drawn without an interval.

With factors, a panel's rows are the factor points (short knob names, wrapped) and the
variants are colours with one legend, so no label runs over a panel. Axes carry units:
yes/no metrics as probabilities, counts per battle, times in simulated time units. A
metric with the same value in every replication is drawn as a hollow point marked
"constant" (no spread was measured). Figures are built with ``matplotlib.figure.Figure``
and saved through the Agg canvas, never through pyplot, so plotting works headless and
leaves no global state behind.
"""
from __future__ import annotations

import math
import os
import textwrap
from collections import defaultdict

from matplotlib.figure import Figure  # never pyplot: saving uses Agg, no backend is changed
from matplotlib.ticker import MaxNLocator

from sim import arguments
from sim.files import write_figure
from sim.viz.farming_plots import factor_label, metric_label

COLOURS = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown",
           "tab:pink", "tab:grey", "tab:olive", "tab:cyan")


def _checked(run, path: str, name: str = "path") -> None:
    """What every study plot takes: a finished study run and a file (or folder) to write."""
    if getattr(run, "summary", None) is None or getattr(run, "study", None) is None:
        raise arguments.fail("run", "a finished study run (what sim.run_study returns)", run)
    arguments.path(path, name)


def _panels(n: int, rows_per_panel: int, width: float = 5.2):
    cols = min(n, 2)
    rows = math.ceil(n / cols)
    height = max(2.4, 0.32 * rows_per_panel + 1.3)
    fig = Figure(figsize=(width * cols + 1.6, height * rows + 1.0), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    return fig, axes[:n]


def short_point(point) -> str:
    """A factor point as ``knob=value, ...`` with each knob's last name (wrapped)."""
    text = ", ".join(f"{key.rsplit('.', 1)[-1]}={value}" for key, value in point)
    return textwrap.fill(text, 28)


def _rows(run, pairs):
    """(row label, colour label) of each cell or difference: with factors, rows are the
    factor points and colours the variants; without, rows are the variants."""
    factors = bool(run.study.cells and run.study.cells[0].point)
    out = []
    for label, cell in pairs:
        out.append((short_point(cell.point), cell_variant_label(label, cell)) if factors
                   else (textwrap.fill(label, 28), ""))
    return out


def cell_variant_label(label: str, cell) -> str:
    """The variant part of a cell's (or difference's) label."""
    if " - " in label:
        a, _, b = label.partition(" - ")
        return f"{a.split('@')[0]} − {b.split('@')[0]}"
    return cell.variant


def _draw(ax, rows, estimates, zero: bool = False):
    """One panel: each estimate on its row, coloured by its group; returns the legend."""
    names = list(dict.fromkeys(r for r, _ in rows))
    groups = list(dict.fromkeys(g for _, g in rows))
    step = 0.8 / max(1, len(groups))
    handles: dict[str, object] = {}
    for (row, group), e in zip(rows, estimates):
        y = names.index(row) + (groups.index(group) - (len(groups) - 1) / 2) * step
        colour = COLOURS[groups.index(group) % len(COLOURS)] if group else "tab:blue"
        if e.constant:
            h = ax.plot(e.mean, y, "o", mfc="white", color=colour)[0]
            ax.annotate("constant", (e.mean, y), textcoords="offset points", xytext=(6, -3), fontsize=10)
        elif math.isfinite(e.ci_low):
            h = ax.errorbar(e.mean, y, xerr=[[e.mean - e.ci_low], [e.ci_high - e.mean]], fmt="o",
                            color=colour, capsize=4)
        elif math.isfinite(e.mean):
            h = ax.plot(e.mean, y, "o", color=colour)[0]
        else:
            continue
        handles.setdefault(group, h)
    ax.set_yticks(range(len(names)), names, fontsize=10)
    ax.set_ylim(len(names) - 0.5, -0.5)
    ax.grid(axis="x", alpha=0.3)
    # At most 6 ticks: a panel 5 in wide holds 6 labels like "-0.0025" apart, not 9.
    ax.xaxis.set_major_locator(MaxNLocator(nbins=6, steps=[1, 2, 2.5, 5, 10]))
    if zero:
        ax.axvline(0, color="black", linewidth=1)
    return handles


def _legend(fig, handles, title):
    if any(handles):
        fig.legend([handles[g] for g in handles], list(handles), loc="outside right upper",
                   title=title, fontsize=10, title_fontsize=10)


def plot_means(run, path: str) -> str:
    """Every cell's mean with its 95% interval, a panel per metric."""
    _checked(run, path)
    s = run.summary
    cells = run.study.cells
    rows = _rows(run, [(c.label, c) for c in cells])
    fig, axes = _panels(len(run.metrics), len({r for r, _ in rows}) * max(1, len({g for _, g in rows})) // 2 + 2)
    handles = {}
    for ax, m in zip(axes, run.metrics):
        handles.update(_draw(ax, rows, [s.cells[c.label][m] for c in cells]))
        ax.set_title(m, fontsize=10)
        ax.set_xlabel(metric_label(m, run.kinds.get(m, "real")).removeprefix(f"{m} ").strip("()")
                      or "value")
    _legend(fig, handles, "variant")
    fig.suptitle(f"{run.study.name}: means with 95% intervals (n = {run.replications} a cell)")
    write_figure(fig, path, dpi=100)
    return path


def plot_differences(run, path: str) -> str:
    """Every paired difference (variant − baseline) with its 95% interval and a zero line."""
    _checked(run, path)
    s = run.summary
    by_label = {c.label: c for c in run.study.cells}
    pairs = [(d, by_label[d.partition(" - ")[0]]) for d in s.differences]
    rows = _rows(run, pairs)
    fig, axes = _panels(len(run.metrics), len({r for r, _ in rows}) * max(1, len({g for _, g in rows})) // 2 + 2)
    handles = {}
    for ax, m in zip(axes, run.metrics):
        handles.update(_draw(ax, rows, [s.differences[d][m] for d in s.differences], zero=True))
        ax.set_title(m, fontsize=10)
        unit = metric_label(m, run.kinds.get(m, "real")).removeprefix(f"{m} ").strip("()")
        ax.set_xlabel(f"difference ({unit})" if unit else "difference")
    _legend(fig, handles, "variant − baseline")
    mode = "common random numbers" if run.crn else "independent seeds"
    fig.suptitle(f"{run.study.name}: paired differences, 95% intervals ({mode})")
    write_figure(fig, path, dpi=100)
    return path


def plot_response(run, key: str, path: str) -> str:
    """Each metric against one factor's values, a line (or, for levels, dots) per variant."""
    _checked(run, path)
    cells = run.study.cells
    arguments.choice(key, "key", {k for c in cells for k, _ in c.point})
    single = len(cells[0].point) == 1
    values = sorted({dict(c.point)[key] for c in cells}, key=lambda v: (isinstance(v, str), v))
    categorical = any(isinstance(v, str) for v in values)
    terrain = getattr(getattr(run.study.scenario, "terrain", {}), "get", lambda *_: "")("kind", "")
    fig, axes = _panels(len(run.metrics), 6)
    handles = {}
    variants = list(run.study.spec.variants)
    for ax, m in zip(axes, run.metrics):
        for j, variant in enumerate(variants):
            at = defaultdict(list)
            for c in cells:
                if c.variant == variant:
                    at[dict(c.point)[key]].append(run.summary.cells[c.label][m])
            xs = [x for x in values if x in at]
            means = [sum(e.mean for e in at[x]) / len(at[x]) for x in xs]
            shift = (j - (len(variants) - 1) / 2) * 0.08 if categorical else 0.0
            pos = [values.index(x) + shift for x in xs] if categorical else xs
            style = {"marker": "o", "capsize": 3, "color": COLOURS[j % len(COLOURS)],
                     "linestyle": "none" if categorical else "-"}
            if single:
                lo = [max(0.0, means[i] - at[x][0].ci_low) if math.isfinite(at[x][0].ci_low) else 0.0
                      for i, x in enumerate(xs)]
                hi = [max(0.0, at[x][0].ci_high - means[i]) if math.isfinite(at[x][0].ci_high) else 0.0
                      for i, x in enumerate(xs)]
                handles[variant] = ax.errorbar(pos, means, yerr=[lo, hi], **style)
            else:
                style.pop("capsize")
                handles[variant] = ax.plot(pos, means, **style)[0]
        if categorical:
            ax.set_xticks(range(len(values)), [textwrap.fill(str(v), 14) for v in values], fontsize=10)
            ax.set_xlim(-0.5, len(values) - 0.5)
        ax.set_title(m, fontsize=10)
        ax.set_ylabel(metric_label(m, run.kinds.get(m, "real")).removeprefix(f"{m} ").strip("()") or "value")
        ax.set_xlabel(factor_label(key, "categorical" if categorical else "real", terrain))
        ax.grid(alpha=0.3)
    _legend(fig, handles, "variant")
    what = "means with 95% intervals" if single else "marginal means (averaged over the other factors)"
    fig.suptitle(f"{run.study.name}: response to {key} ({what})")
    write_figure(fig, path, dpi=100)
    return path


# One row per cell: beyond this many cells (a designed study's points) the means and
# differences would be an unreadable, and past about 2,000 an impossibly tall, image;
# such a study is plotted by `sim analyse --out`.
MAX_CELL_ROWS = 100


def plot_study(run, out_dir: str) -> list[str]:
    """Write every plot of ``run`` into ``out_dir`` (created if needed); return the paths."""
    _checked(run, out_dir, "out_dir")
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
