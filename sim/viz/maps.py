"""Maps of a battle, drawn from its event log and its scenario.

``plot_map(scenario, log, t)`` draws the ground (tabletop areas as polygons, or hex cells),
the waypoint graph faintly, the units of each side where they stand at time ``t`` (or at
their start), the reaction radii around the reacting side, the paths walked, the halt
points (each joined to its firer by a thin line: its length is the radius), and, if asked,
the lines of sight between enemies.

Where a unit stands between two records is ``sim.viz.tracks.unit_tracks``.

Figures are ``matplotlib.figure.Figure`` objects, never pyplot ones: this works headless
(saving goes through the Agg canvas) and leaves no global state behind; in Jupyter a
figure displays itself when it is a cell's last value.
"""
from __future__ import annotations

import math
from typing import Any

from matplotlib.collections import LineCollection, PatchCollection
from matplotlib.patches import Circle, Patch, Polygon, Rectangle, RegularPolygon

from sim import arguments
from sim.events import ACTIVATE, DEPLOY, ELIMINATE, HALT, MOVE
from sim.viz.common import (
    HEX_RADIUS,
    new_axes,
    reaction_radius,
    records_of,
    save,
    scenario_of,
    side_colours,
    terrain_from,
    unit_info,
)
from sim.viz.labels import annotate_units
from sim.viz.states import unit_states
from sim.viz.tracks import position_on, unit_tracks

# -- drawing -----------------------------------------------------------------------------
HEX_COLOURS = {"open": "whitesmoke", "woods": "darkolivegreen", "building": "saddlebrown",
               "hedge": "yellowgreen", "rubble": "tan", "impassable": "dimgrey"}
HEX_LABELS = 400  # a hex map of at most this many hexes gets each hex's "q,r" written in it


def _area_colour(kind) -> str:
    if not kind.passable:
        return "dimgrey"
    if kind.blocks_sight:
        return "darkolivegreen" if kind.hindrance else "saddlebrown"
    if kind.cover or kind.hindrance:
        return "yellowgreen"
    return "khaki"


def _hex_colour(d) -> str:
    return HEX_COLOURS.get(d.get("terrain"), "lightsteelblue" if d.get("cover") else "whitesmoke")


def _ground_key(name: str, cover, hindrance, blocks: bool, cost) -> str:
    sight = ", blocks sight" if blocks else ""
    return f"{name} (cover {cover}, hindrance {hindrance}{sight}, cost {cost:g})"


def draw_terrain(ax, terrain, graph: bool = True, coords: bool | None = None) -> list:
    """Ground (areas or hex cells) and, faintly, the waypoint graph; returns the legend
    handles of the ground types drawn.

    A hex map is drawn as its rows are written, row 0 at the top, and (``coords``, by
    default when it has at most ``HEX_LABELS`` hexes) each hex carries its ``"q,r"``, the
    name every scenario key uses. A table is drawn in cm, y up.
    """
    g = terrain.graph
    legend: dict[str, Patch] = {}
    if terrain.kind == "hex":
        cells = []
        for n in terrain.nodes:
            d = g.nodes[n]
            colour = _hex_colour(d)
            alpha = 0.6 if colour != "whitesmoke" else 1.0
            cells.append(RegularPolygon(d["pos"], 6, radius=HEX_RADIUS, orientation=0,
                                        facecolor=colour, edgecolor="silver", linewidth=0.5,
                                        alpha=alpha))
            label = _ground_key(f"{d.get('letter', '?')} {d.get('terrain')}", d.get("cover", 0),
                                d.get("hindrance", 0), d.get("blocks_sight", False), d.get("cost", 1))
            if not d.get("passable", True):
                label = f"{d.get('letter', '?')} {d.get('terrain')} (impassable, blocks sight)"
            legend.setdefault(label, Patch(facecolor=colour, edgecolor="silver", alpha=alpha,
                                           label=label))
        ax.add_collection(PatchCollection(cells, match_original=True, zorder=0))
        if coords if coords is not None else len(terrain.nodes) <= HEX_LABELS:
            for n in terrain.nodes:
                x, y = g.nodes[n]["pos"]
                ax.text(x, y - 0.3, n, ha="center", va="center", fontsize=4.5, color="dimgrey",
                        alpha=0.8, zorder=0.4)
    else:
        x0, y0, x1, y1 = terrain.bounds
        ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, facecolor="oldlace",
                               edgecolor="black", linewidth=1, zorder=0))
        legend["open"] = Patch(facecolor="oldlace", edgecolor="black", label="open ground")
        for area in terrain.areas:
            xy = list(area.polygon.exterior.coords)
            colour = _area_colour(area.type)
            ax.add_patch(Polygon(xy, closed=True, facecolor=colour, alpha=0.45,
                                 edgecolor="black", linewidth=0.5, zorder=0.5))
            c = area.polygon.representative_point()
            ax.annotate(area.name, (c.x, c.y), ha="center", va="center", fontsize=7,
                        color="black", alpha=0.7, zorder=0.6)
            t = area.type
            if t.passable:
                label = _ground_key(t.name, t.cover, t.hindrance, t.blocks_sight, t.cost)
            else:
                label = t.name if t.name == "impassable" else f"{t.name} (impassable)"
            legend.setdefault(label, Patch(facecolor=colour, alpha=0.45, edgecolor="black",
                                           label=label))
    if graph and g.number_of_edges():
        segs = [(g.nodes[a]["pos"], g.nodes[b]["pos"]) for a, b in g.edges]
        ax.add_collection(LineCollection(segs, colors="grey", linewidths=0.4, alpha=0.25,
                                         zorder=0.7))
    if terrain.kind == "table":  # named waypoints (not grid points) get their names
        for n in terrain.nodes:
            if isinstance(n, str) and "," not in n:
                x, y = terrain.pos(n)
                ax.plot(x, y, "+", color="black", markersize=4, alpha=0.5, zorder=0.8)
                ax.annotate(n, (x, y), textcoords="offset points", xytext=(3, 3), fontsize=6,
                            alpha=0.6)
    x0, y0, x1, y1 = terrain.bounds
    pad = HEX_RADIUS if terrain.kind == "hex" else 0.02 * max(x1 - x0, y1 - y0, 1)
    ax.set_xlim(x0 - pad, x1 + pad)
    ax.set_aspect("equal")
    if terrain.kind == "hex":
        ax.set_ylim(y1 + pad, y0 - pad)   # row 0 at the top, as the rows are written
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_xlabel('hexes "q,r": r the row (0 at the top), q = column − ⌊r/2⌋; '
                      "1 hex = 1 unit of range", fontsize=8)
    else:
        ax.set_ylim(y0 - pad, y1 + pad)
        ax.set_xlabel("x (cm)")
        ax.set_ylabel("y (cm)")
    return list(legend.values())


def plot_map(scenario, log=None, t: float | None = None, ax=None, path=None, *,
             los: bool = False, radii: bool = True, paths: bool = True, halts: bool = True,
             graph: bool = True, labels: bool = True, title: str | None = None,
             coords: bool | None = None, legend: bool = True):
    """Terrain, units (at time ``t``, or at their start), radii, paths and halt points.

    Returns the Figure. With ``path`` it is also saved as a PNG. The halt points are one
    scatter labelled ``"halt"`` (one point per ``halt`` record up to ``t``), the units one
    scatter per side labelled with the side's name. The legend (beside the map) names the
    sides, the marks and every ground type drawn; units on one spot share one label.
    ``coords`` writes each hex's ``"q,r"`` (default: maps of at most 400 hexes).
    """
    if scenario is None:
        raise arguments.fail("scenario", "a sim.Scenario, its terrain or a scenario file", scenario)
    scenario = scenario_of(scenario)
    recs = records_of(log)
    if t is not None:
        arguments.number(t, "t")
    terrain = terrain_from(scenario)
    x0, y0, x1, y1 = terrain.bounds
    # The map 6.5 in wide, the legend beside it; its height follows the map's shape.
    aspect = (y1 - y0 + 1) / (x1 - x0 + 1)
    fig, ax = new_axes(ax, figsize=(9.5, min(9.0, max(3.5, 6.5 * aspect + 1.4))))
    ground = draw_terrain(ax, terrain, graph=graph, coords=coords)
    info = unit_info(scenario)
    colours = side_colours(scenario, recs)
    side_of = {u: i["side"] for u, i in info.items()}
    for r in recs:
        if r.get("unit") and r["unit"] not in side_of and r.get("event") in (MOVE, DEPLOY, ACTIVATE):
            side_of[r["unit"]] = r.get("side")
    upto = [r for r in recs if t is None or r["t"] <= t]
    tracks = unit_tracks(recs, scenario)
    t_units = 0.0 if t is None else t
    where = {u: position_on(tr, t_units) for u, tr in tracks.items() if tr}
    state: dict[str, str] = {}
    if recs and t is not None:
        for s in unit_states(recs, scenario):
            if s.start <= t < s.end or (t >= s.end and s.state in ("eliminated", "killed")):
                if s.lane == "lifecycle" or s.unit not in state:
                    state[s.unit] = s.state
    if paths and recs:
        for u, tr in tracks.items():
            pts = [(x, y) for tt, x, y in tr if t is None or tt <= t]
            if t is not None and pts:   # so the track has an entry
                pts.append(position_on(tr, t))
            if len(pts) > 1:
                xs, ys = zip(*pts)
                ax.plot(xs, ys, "-", color=colours.get(side_of.get(u), "black"), alpha=0.45,
                        linewidth=1.2, zorder=2)
    attacker = getattr(getattr(scenario, "victory", None), "attacker", None)
    radius, rlabel = reaction_radius(scenario)
    gone = {"eliminated", "killed", "reserve", "withdrawn", "off_board"}
    marks: list = []
    if radii and radius:
        first = True
        for u, i in info.items():
            if i["side"] == attacker or u not in where or state.get(u) in gone:
                continue
            circle = ax.add_patch(Circle(where[u], radius, fill=False, linestyle="--",
                                         linewidth=0.9, edgecolor=colours.get(i["side"], "black"),
                                         alpha=0.8, zorder=3, label=rlabel if first else None))
            if first:
                marks.append(circle)
            first = False
    if halts:
        hs = [r for r in upto if r.get("event") == HALT and r.get("pos") is not None]
        for r in hs:
            if r.get("firer_pos") is not None:
                (x0, y0), (x1, y1) = r["pos"], r["firer_pos"]
                ax.plot([x0, x1], [y0, y1], ":", color="black", linewidth=0.7, alpha=0.6,
                        zorder=3)
        xy = [r["pos"] for r in hs] or [[math.nan, math.nan]]
        halt_marks = ax.scatter([p[0] for p in xy], [p[1] for p in xy], marker="X", s=60,
                                color="gold", edgecolors="black", linewidths=0.8, zorder=6,
                                label="halt")
        if hs:
            marks.append(halt_marks)
    alive_pos = {}
    sides: list = []
    label_ids: list[str] = []
    label_pts: list[tuple[float, float]] = []
    for side in colours:
        us = [u for u in where if side_of.get(u) == side and state.get(u) not in gone]
        pts = [where[u] for u in us]
        if not pts:
            continue
        hidden = [state.get(u) == "hidden" for u in us]
        sides.append(ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=70, zorder=5,
                                label=str(side),
                                facecolors=["none" if h else colours[side] for h in hidden],
                                edgecolors=colours[side], linewidths=1.5))
        for u, p in zip(us, pts):
            alive_pos[u] = p
            label_ids.append(u)
            label_pts.append(p)
    if labels:
        annotate_units(ax, label_ids, label_pts, y_down=terrain.kind == "hex")
    dead = [where[u] for u in where if state.get(u) in ("eliminated", "killed")]
    if t is None:
        dead = [r["pos"] for r in recs if r.get("event") == ELIMINATE and r.get("pos")]
    if dead:
        marks.append(ax.scatter([p[0] for p in dead], [p[1] for p in dead], marker="x", s=50,
                                color="black", zorder=5, label="eliminated"))
    if los:
        segs = []
        items = list(alive_pos.items())
        for k, (u, p) in enumerate(items):
            for v, q in items[k + 1:]:
                if side_of.get(u) != side_of.get(v) and terrain.los_xy(p, q):
                    segs.append((p, q))
        if segs:
            marks.append(ax.add_collection(LineCollection(
                segs[:400], colors="green", linewidths=0.6, alpha=0.5, linestyles="dashed",
                zorder=1, label="line of sight")))
    name = getattr(scenario, "name", "")
    # Without t, units stand where they started and the log's whole story is drawn over them.
    when = (f"t = {t:g}" if t is not None else
            "units at start, whole battle drawn" if recs else "start")
    ax.set_title(title if title is not None else f"{name} ({when})", fontsize=10)
    if legend:
        ax.legend(handles=[*sides, *marks, *ground], loc="upper left", bbox_to_anchor=(1.01, 1),
                  fontsize=7, framealpha=0.7, title="units, marks, ground", title_fontsize=7)
    return save(fig, path)


def halt_table(log) -> list[dict[str, Any]]:
    """The halt records as rows: who, when, where, by whom, how far, which rule."""
    keys = ("t", "turn", "unit", "rule", "firer", "dist", "radius", "inside", "pos", "firer_pos")
    return [{k: r.get(k) for k in keys} for r in records_of(log) if r.get("event") == HALT]


__all__ = ["draw_terrain", "halt_table", "plot_map"]
