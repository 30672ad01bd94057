"""Animated replays of one replication, from its event log.

``animate(scenario, log)`` is a ``matplotlib.animation.FuncAnimation`` over evenly spaced
instants of the battle (or the instants you give as ``frames``). Each frame puts every
unit where its track says (``unit_tracks``: linear along the logged
waypoints, so at constant speed within a move, and exactly at each record's ``pos`` at
its time), draws the paths walked so far, the halt points reached so far and the
reaction radii of the reacting side. The offline HTML player is ``sim.viz.replay``.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from matplotlib.animation import FuncAnimation
from matplotlib.figure import Figure
from matplotlib.patches import Circle

from sim import arguments
from sim.events import HALT
from sim.files import write_figure
from sim.viz.labels import MARKER, placer, points_per_unit
from sim.viz.maps import draw_terrain
from sim.viz.states import DEAD
from sim.viz.tracks import GONE, Battle, position_at, state_at


class Replay(FuncAnimation):
    """The replay's FuncAnimation, with its frames' instants and its frame function."""

    times: list[float]                      # the instant of each frame
    update_frame: Callable[[int], list[Any]]  # draws frame i; returns what it changed


def animate(scenario, log, fps: int = 8, frames=60, *, figsize=(11, 5.5), dpi: int = 72,
            trails: bool = True, labels: bool = True):
    """A FuncAnimation of the battle; ``frames`` is a count or a list of times.

    Units on one spot share a label, placed clear of the others at every frame; the
    legend stands beside the map."""
    arguments.count(fps, "fps")
    arguments.count(dpi, "dpi")
    b = Battle(scenario, log, frames)
    scenario, recs, terrain, times = b.scenario, b.records, b.terrain, b.times
    tracks, spans, colours, side_of, snipers = b.tracks, b.spans, b.colours, b.side_of, b.snipers
    attacker, radius, rlabel = b.attacker, b.radius, b.radius_label
    halts = [r for r in recs if r.get("event") == HALT and r.get("pos") is not None]

    fig = Figure(figsize=figsize, dpi=dpi, layout="constrained")
    ax = fig.add_subplot()
    units = [u for u in tracks if tracks[u]]
    shown: dict[str, tuple[float, float]] = {}   # where each unit drawn stands this frame
    ground = draw_terrain(ax, terrain, obstacles=lambda: [*shown.values(), *fallen])
    trail = {u: ax.plot([], [], "-", color=colours.get(side_of.get(u), "black"), alpha=0.45,
                        linewidth=1.1, zorder=2)[0] for u in units} if trails else {}
    dots = ax.scatter([math.nan] * len(units), [math.nan] * len(units), s=60, zorder=5,
                      facecolors=[colours.get(side_of.get(u), "black") for u in units],
                      edgecolors=[colours.get(side_of.get(u), "black") for u in units],
                      linewidths=1.5)
    place = placer(ax, lambda: [*shown.values(), *fallen])
    spot = 2 * MARKER / points_per_unit(ax)   # closer than this: one spot, one label
    fallen: list[tuple[float, float]] = []
    dead_dots = ax.scatter([math.nan], [math.nan], marker="x", s=60, color="black",
                           linewidths=1.8, zorder=5, label="eliminated (where it fell)")
    names = [place.add(u, (math.nan, math.nan), rank=0, zorder=7,
                       bbox={"boxstyle": "round,pad=0.1", "facecolor": "white", "alpha": 0.7,
                             "edgecolor": "none"}) for u in units] if labels else []
    circles = {}
    if radius:
        for u in units:
            if side_of.get(u) is not None and side_of.get(u) != attacker:
                c = Circle((math.nan, math.nan), radius, fill=False, linestyle="--",
                           linewidth=0.8, edgecolor=colours.get(side_of[u], "black"), zorder=3)
                ax.add_patch(c)
                circles[u] = c
        ax.plot([], [], "--", color="grey", label=rlabel)
    halt_dots = ax.scatter([math.nan], [math.nan], marker="X", s=60, color="gold",
                           edgecolors="black", zorder=6, label="halt")
    clock = ax.set_title("", fontsize=12)
    ax.legend(handles=[*ax.get_legend_handles_labels()[0], *ground], loc="upper left",
              bbox_to_anchor=(1.01, 1), fontsize=10, framealpha=0.9)

    def update(k):
        t = times[k]
        state = state_at(spans, t)
        xs, ys, faces, edges = [], [], [], []
        shown.clear()
        fallen.clear()
        for j, u in enumerate(units):
            p = position_at(tracks[u], t)
            s = state.get(u)
            colour = colours.get(side_of.get(u), "black")
            if s in DEAD:
                fallen.append(p)
            if s in GONE:
                p = (math.nan, math.nan)
            xs.append(p[0]), ys.append(p[1])
            faces.append("none" if s == "hidden" or (u in snipers and s is None) else colour)
            edges.append(colour)
            if labels:   # one label a spot: the first unit's names them all
                names[j].xy = p
                names[j].set_text("")
                if not math.isnan(p[0]):
                    near = [v for v, q in shown.items() if math.dist(p, q) < spot]
                    if near:
                        lead = names[units.index(near[0])]
                        lead.set_text(f"{lead.get_text()}, {u}")
                    else:
                        names[j].set_text(u)
                    shown.setdefault(u, p)
            if u in circles:
                circles[u].center = p
                circles[u].set_visible(not math.isnan(p[0]))
            if trails:
                pts = [(x, y) for tt, x, y in tracks[u] if tt <= t]
                pts.append(position_at(tracks[u], t))
                trail[u].set_data([q[0] for q in pts], [q[1] for q in pts])
        dots.set_offsets(list(zip(xs, ys)))
        dead_dots.set_offsets(fallen or [[math.nan, math.nan]])
        dots.set_facecolors(faces)
        dots.set_edgecolors(edges)
        reached = [h["pos"] for h in halts if h["t"] <= t] or [[math.nan, math.nan]]
        halt_dots.set_offsets(reached)
        now = b.clock(t)
        clock.set_text(f"{getattr(scenario, 'name', '')}  t = {t:.2f}  "
                       f"turn {now[0]} ({now[1]}, {now[2]})")
        return [dots, dead_dots, halt_dots, clock, *trail.values(), *circles.values(), *names]

    anim = Replay(fig, update, frames=len(times), interval=1000 / fps, blit=False,
                         repeat=False)
    anim.times = times
    anim.update_frame = update
    return anim


def save_frame(scenario, log, t: float, path, **kw):
    """Render the replay's frame at time t to a PNG (at 100 dpi, like sim's other pictures); returns the Figure."""
    arguments.number(t, "t")
    arguments.path(path)
    anim = animate(scenario, log, frames=[t], **kw)
    anim.update_frame(0)
    anim._draw_was_started = True  # rendered by hand: no "deleted without rendering" warning
    write_figure(anim._fig, path, dpi=100)
    return anim._fig
