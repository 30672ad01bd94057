"""Timelines: each unit's activity and each sniper's lifecycle as lanes over time
(``plot_timeline``), from the spans of ``sim.viz.states``."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from matplotlib.figure import Figure

from sim.events import ARRIVE, HIT, MOVE, STOP
from sim.viz.common import new_axes, records_of, save, scenario_of, side_colours
from sim.viz.states import sniper_ids, subject, unit_states

if TYPE_CHECKING:
    from matplotlib.artist import Artist

# One colour per state, distinct across both lanes (a sniper's thin activity bar lies on
# its thick lifecycle bar) and told apart with the common colour-vision deficiencies: the
# activities in Okabe and Ito's saturated palette, the lifecycle in Tol's light one.
ACTIVITY_COLOURS = {"moving": "#0072B2", "halted": "#E69F00", "gone_to_ground": "#CC79A7",
                    "pinned": "#D55E00", "wounded": "#882255", "eliminated": "#000000"}
LIFECYCLE_COLOURS = {"off_board": "#DDDDDD", "reserve": "#99DDFF", "hidden": "#44BB99",
                     "revealed": "#EEDD88", "withdrawn": "#BBCC33", "eliminated": "#000000",
                     "killed": "#777777"}


def plot_timeline(log: Any, ax: Any = None, path: Any = None, *, scenario: Any = None,
                  units: list[str] | None = None, ticks: bool = True,
                  title: str | None = None) -> Figure:
    """One lane per unit: activity bars (thin) and, for snipers, lifecycle bars (thick).

    Returns the Figure (saved as a PNG with ``path``). ``units`` picks and orders the lanes.
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    recs = records_of(log)
    scenario = scenario_of(scenario)
    spans = unit_states(recs, scenario)
    snipers = sniper_ids(recs, scenario)
    if units is None:
        seen: list[str] = []
        if scenario is not None and hasattr(scenario, "units"):
            seen = [s.id for _, s in scenario.units()]
        for r in recs:
            u = subject(r)
            if u is not None and u not in seen:
                seen.append(u)
        units = sorted(seen, key=lambda u: (u not in snipers, seen.index(u)))
    lane = {u: i for i, u in enumerate(units)}
    ours = ax is None   # a figure of the caller's keeps its size
    fig, ax = new_axes(ax, figsize=(12, 0.45 * len(units) + 2.2))
    with_life = {s.unit for s in spans if s.lane == "lifecycle"}
    for s in spans:
        if s.unit not in lane or (s.state == "eliminated" and s.lane == "activity"
                                  and s.unit in with_life):
            continue   # a sniper's end is its lifecycle bar's, not a second black bar
        y = lane[s.unit]
        if s.lane == "lifecycle":
            ax.broken_barh([(s.start, s.end - s.start)], (y - 0.4, 0.8),
                           facecolors=LIFECYCLE_COLOURS.get(s.state, "white"), alpha=0.85,
                           edgecolor="none", zorder=1)
        else:
            ax.broken_barh([(s.start, s.end - s.start)], (y - 0.17, 0.34),
                           facecolors=ACTIVITY_COLOURS.get(s.state, "grey"), edgecolor="none",
                           zorder=2)
    turns: dict[int | None, float] = {}
    for r in recs:
        turns.setdefault(r.get("turn"), r["t"])
    for k, t0 in turns.items():
        if k is not None:
            ax.axvline(t0, color="grey", linewidth=0.4, alpha=0.5, zorder=0)
    if ticks:
        hx, hy, ox, oy = [], [], [], []
        for r in recs:
            u = subject(r)
            if u not in lane or r.get("event") in (MOVE, STOP, ARRIVE):
                continue
            if r.get("event") == HIT:
                hx.append(r["t"])
                hy.append(lane[u] + 0.3)
            else:
                ox.append(r["t"])
                oy.append(lane[u] - 0.3)
        ax.scatter(ox, oy, marker="|", s=30, color="dimgrey", zorder=3)
        ax.scatter(hx, hy, marker="v", s=28, color="crimson", zorder=3)
    colours = side_colours(scenario, recs)
    side_of = {}
    if scenario is not None and hasattr(scenario, "units"):
        side_of = {s.id: side for side, s in scenario.units()}
    ax.set_yticks(range(len(units)), units)
    for lab, u in zip(ax.get_yticklabels(), units):
        lab.set_color(colours.get(side_of.get(u), "black"))
    ax.set_ylim(len(units) - 0.5, -0.5)
    phase = getattr(getattr(getattr(scenario, "rules", None), "base", None), "phase_length", None)
    per_phase = f"; a phase lasts {phase:g}" if phase else ""
    ax.set_xlabel(f"simulated time (grey lines: the start of each player-turn{per_phase})")
    drawn = {(s.lane, s.state) for s in spans if s.unit in lane}
    # one entry per state drawn (eliminated once, whichever lane shows it)
    handles: list[Artist] = [Patch(color=c, label=k.replace("_", " "))
                             for k, c in ACTIVITY_COLOURS.items() if ("activity", k) in drawn]
    shown = {h.get_label() for h in handles}
    handles += [Patch(color=c, alpha=0.85, label=f"sniper: {k.replace('_', ' ')}")
                for k, c in LIFECYCLE_COLOURS.items() if ("lifecycle", k) in drawn
                and not (k == "eliminated" and "eliminated" in shown)]
    if ticks:
        handles += [Line2D([], [], marker="v", color="crimson", linestyle="", label="hit"),
                    Line2D([], [], marker="|", color="dimgrey", linestyle="",
                           label="other event")]
    both = any(lane_ == "lifecycle" for lane_, _ in drawn)
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=10,
              title="thin bars: activity; thick: a sniper's state" if both else None,
              title_fontsize=10)
    ax.set_title(title or f"{getattr(scenario, 'name', 'battle')}: timeline", fontsize=12)
    return save(fig, path, ours=ours)
