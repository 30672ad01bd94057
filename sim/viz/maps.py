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
import re
from typing import Any

from matplotlib.collections import LineCollection, PatchCollection
from matplotlib.legend_handler import HandlerPathCollection
from matplotlib.lines import Line2D
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
from sim.viz.features import draw_features
from sim.viz.labels import CENTRE, annotate_units, placer, points_per_unit
from sim.viz.marks import looks, segments
from sim.viz.states import DEAD, sniper_ids, unit_states
from sim.viz.tracks import GONE, position_on, state_at, unit_tracks

# -- drawing -----------------------------------------------------------------------------
HEX_COLOURS = {"open": "whitesmoke", "woods": "darkolivegreen", "building": "saddlebrown",
               "hedge": "yellowgreen", "rubble": "tan", "impassable": "dimgrey"}
FONT = 10  # points: every word on a map a projector must carry
CROSS = 60           # a fallen unit's cross (points²)
# The first kind of ground of a colour is plain; the next ones of that colour are hatched.
HATCHES = (None, "///", "...", "xxx", "\\\\\\")
COVERED_CROSS = 260  # the cross under a living unit (a dot is 70 points²): its arms show


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


def _kind_name(names: list[str]) -> str:
    """What areas of one type are called: their names without a trailing number
    ("hedge1", "hedge2" -> "hedge"), up to three of them."""
    bare = list(dict.fromkeys(re.sub(r"[\s_-]*\d+$", "", n) or n for n in names))
    return " / ".join(bare[:3]) + (" / ..." if len(bare) > 3 else "")


def _table_ground(ax, terrain, place) -> list:
    """A table's areas, each named; one legend swatch per kind of ground (same colour,
    cover, hindrance, sight and cost), however many areas share it. Kinds of one colour
    (two rubbles of other covers) are told apart by a hatching, on the map and the swatch."""
    x0, y0, x1, y1 = terrain.bounds
    ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, facecolor="oldlace",
                           edgecolor="black", linewidth=1, zorder=0))
    kinds: dict[tuple, list[str]] = {}
    for area in terrain.areas:
        t = area.type
        key = (_area_colour(t), t.passable, t.cover, t.hindrance, t.blocks_sight, t.cost)
        kinds.setdefault(key, []).append(t.name)
    hatch: dict[tuple, str | None] = {}
    of_colour: dict[str, int] = {}   # how many kinds of each colour so far
    for key in kinds:
        n = of_colour.get(key[0], 0)
        of_colour[key[0]] = n + 1
        hatch[key] = HATCHES[n % len(HATCHES)]
    for area in terrain.areas:
        t = area.type
        key = (_area_colour(t), t.passable, t.cover, t.hindrance, t.blocks_sight, t.cost)
        ax.add_patch(Polygon(list(area.polygon.exterior.coords), closed=True, facecolor=key[0],
                             alpha=0.45, edgecolor="black", linewidth=0.5, zorder=0.5,
                             hatch=hatch[key]))
        c = area.polygon.representative_point()
        place.add(area.name, (c.x, c.y), places=CENTRE, zorder=0.6, color="black",
                  fontstyle="italic")
    legend = [Patch(facecolor="oldlace", edgecolor="black", label="open ground")]
    for key, names in kinds.items():
        colour, passable, cover, hindrance, blocks, cost = key
        name = _kind_name(names)
        label = (_ground_key(name, cover, hindrance, blocks, cost) if passable else
                 name if name == "impassable" else f"{name} (impassable)")
        legend.append(Patch(facecolor=colour, alpha=0.45, edgecolor="black", label=label,
                            hatch=hatch[key]))
    return legend


def _hex_ground(ax, terrain, coords: bool) -> list:
    """Hex cells, row 0 at the top; columns and rows on the axes (``coords``: each hex's
    "q,r" written in it too, for a zoomed view)."""
    g = terrain.graph
    legend: dict[str, Patch] = {}
    cells = []
    for n in terrain.nodes:
        d = g.nodes[n]
        colour = _hex_colour(d)
        alpha = 0.6 if colour != "whitesmoke" else 1.0
        cells.append(RegularPolygon(d["pos"], 6, radius=HEX_RADIUS, orientation=0,
                                    facecolor=colour, edgecolor="gainsboro", linewidth=0.5,
                                    alpha=alpha))
        label = _ground_key(f"{d.get('letter', '?')} {d.get('terrain')}", d.get("cover", 0),
                            d.get("hindrance", 0), d.get("blocks_sight", False), d.get("cost", 1))
        if not d.get("passable", True):
            label = f"{d.get('letter', '?')} {d.get('terrain')} (impassable, blocks sight)"
        legend.setdefault(label, Patch(facecolor=colour, edgecolor="silver", alpha=alpha,
                                       label=label))
    ax.add_collection(PatchCollection(cells, match_original=True, zorder=0))
    if coords:
        for n in terrain.nodes:
            x, y = g.nodes[n]["pos"]
            ax.text(x, y - 0.3, n, ha="center", va="center", fontsize=FONT, color="dimgrey",
                    zorder=0.4)
    rows: dict[int, float] = {}
    cols: dict[int, float] = {}
    for n in terrain.nodes:
        d = g.nodes[n]
        col, row = d["offset"]
        rows.setdefault(row, d["pos"][1])
        if row == 0:
            cols.setdefault(col, d["pos"][0])
    step = max(1, math.ceil(2.2 * FONT / max(points_per_unit(ax), 1e-9)))  # "19" fits
    ax.set_xticks([cols[c] for c in sorted(cols)][::step], [str(c) for c in sorted(cols)][::step])
    ax.set_yticks([rows[r] for r in sorted(rows)][::step], [str(r) for r in sorted(rows)][::step])
    ax.xaxis.tick_top()
    ax.tick_params(length=0)
    ax.set_xlabel('columns (top) and rows r (left): a hex is "q,r" with q = column − ⌊r/2⌋; '
                  "1 hex = 1 unit of range")
    return list(legend.values())


def draw_terrain(ax, terrain, graph: bool = False, coords: bool = False,
                 obstacles=None) -> list:
    """Ground (areas or hex cells), named; returns the legend handles of the ground types.

    A hex map is drawn as its rows are written, row 0 at the top, its columns and rows on
    the axes (``coords``: each hex's ``"q,r"`` in it too). A table is drawn in cm, y up,
    its named waypoints marked (each name where it fits). ``graph`` adds the waypoint
    graph, faintly. ``obstacles()``: the data points of markers no name may cover.
    """
    g = terrain.graph
    x0, y0, x1, y1 = terrain.bounds
    pad = HEX_RADIUS if terrain.kind == "hex" else 0.02 * max(x1 - x0, y1 - y0, 1)
    ax.set_xlim(x0 - pad, x1 + pad)
    ax.set_aspect("equal")
    if terrain.kind == "hex":
        ax.set_ylim(y1 + pad, y0 - pad)   # row 0 at the top, as the rows are written
    else:
        ax.set_ylim(y0 - pad, y1 + pad)
        ax.set_xlabel("x (cm)")
        ax.set_ylabel("y (cm)")
    place = placer(ax, obstacles or list)
    legend = (_hex_ground(ax, terrain, coords) if terrain.kind == "hex"
              else _table_ground(ax, terrain, place))
    if graph and g.number_of_edges():
        segs = [(g.nodes[a]["pos"], g.nodes[b]["pos"]) for a, b in g.edges]
        ax.add_collection(LineCollection(segs, colors="grey", linewidths=0.4, alpha=0.25,
                                         zorder=0.7))
    if terrain.kind == "table":  # named waypoints (not grid points): a mark, and a name
        for n in terrain.nodes:
            if isinstance(n, str) and "," not in n:
                x, y = terrain.pos(n)
                ax.plot(x, y, "+", color="black", markersize=6, alpha=0.6, zorder=0.8)
                place.add(n, (x, y), optional=True, rank=2, color="dimgrey", zorder=0.8)
                place.avoid.append((x, y))
    return legend


def plot_map(scenario, log=None, t: float | None = None, ax=None, path=None, *,
             los: bool = False, radii: bool = True, paths: bool = True, halts: bool = True,
             graph: bool = False, labels: bool = True, title: str | None = None,
             coords: bool = False, legend: bool = True):
    """Terrain, units (at time ``t``, or at their start), radii, paths and halt points.

    Returns the Figure (12 in wide: legible at 1280 px); with ``path`` it is also saved as
    a PNG. The halt points are one scatter labelled ``"halt"`` (one point per ``halt``
    record up to ``t``), each joined to where its firer stood, and that firer's radius is
    drawn there from the record when the firer has since moved or fallen. The units are
    one scatter per side labelled with the side's name (a hidden unit hollow, with its
    own legend entry); an eliminated unit is a cross where it fell, under any unit standing
    there now. A trail is drawn only while its unit is on the table. The legend (beside
    the map) names the sides, the marks and each kind of ground once; units on one spot
    share one label, and no label covers another or a mark.
    ``coords`` writes each hex's ``"q,r"``; ``graph`` draws the waypoint graph.
    """
    if scenario is None:
        raise arguments.fail("scenario", "a sim.Scenario, its terrain or a scenario file", scenario)
    scenario = scenario_of(scenario)
    recs = records_of(log)
    if t is not None:
        arguments.number(t, "t")
    terrain = terrain_from(scenario)
    x0, y0, x1, y1 = terrain.bounds
    # The map about 7.5 in wide, the legend beside it; its height follows the map's shape.
    aspect = (y1 - y0 + 1) / (x1 - x0 + 1)
    ours = ax is None   # a figure of the caller's keeps its size
    fig, ax = new_axes(ax, figsize=(12, min(9.0, max(4.5, 7.5 * aspect + 1.6))))
    marks_at: list[tuple[float, float]] = []    # markers no label may cover
    ground = draw_terrain(ax, terrain, graph=graph, coords=coords, obstacles=lambda: marks_at)
    ground += draw_features(ax, scenario)   # what the scenario's rule modules put on the map
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
    spans = unit_states(recs, scenario) if recs else []
    state: dict[str, str] = state_at(spans, t) if recs and t is not None else {}
    if paths and recs:
        _trails(ax, tracks, spans, sniper_ids(recs, scenario), recs[-1]["t"], t,
                {u: colours.get(side_of.get(u), "black") for u in tracks})
    attacker = getattr(getattr(scenario, "victory", None), "attacker", None)
    radius, rlabel = reaction_radius(scenario)
    marks: list = []
    circled: set[tuple[float, float]] = set()
    if radii and radius:
        first = True
        for u, i in info.items():
            if i["side"] == attacker or u not in where or state.get(u) in GONE:
                continue
            circle = ax.add_patch(Circle(where[u], radius, fill=False, linestyle="--",
                                         linewidth=0.9, edgecolor=colours.get(i["side"], "black"),
                                         alpha=0.8, zorder=3, label=rlabel if first else None))
            circled.add((round(where[u][0], 9), round(where[u][1], 9)))
            if first:
                marks.append(circle)
            first = False
    if halts:
        marks += _halts(ax, [r for r in upto if r.get("event") == HALT and r.get("pos") is not None],
                        circled if radii else None, marks_at)
    dead = _fallen(recs, where, state, t)
    living: list[tuple[str, tuple[float, float]]] = []
    sides: list = []
    any_hidden = False
    for side in colours:
        # at t, the fallen are only their crosses; the whole battle starts every unit
        us = [u for u in where if side_of.get(u) == side and state.get(u) not in GONE
              and (t is None or u not in dead)]
        pts = [where[u] for u in us]
        if not pts:
            continue
        hidden = [state.get(u) == "hidden" for u in us]
        any_hidden = any_hidden or any(hidden)
        sides.append(ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=70, zorder=5,
                                label=str(side),
                                facecolors=["none" if h else colours[side] for h in hidden],
                                edgecolors=colours[side], linewidths=1.5))
        living += list(zip(us, pts))
    if any_hidden:   # a hollow marker says so on the map, not only in the lesson
        sides.append(Line2D([], [], linestyle="none", marker="o", markersize=8.4,
                            markerfacecolor="none", markeredgecolor="dimgrey",
                            markeredgewidth=1.5, label="hidden (hollow: not yet seen)"))
    marks_at += [p for _, p in living]
    keys: dict = {}
    if dead:
        fell = list(dead.values())
        marks_at += fell
        # Under the living: where one stands on a fallen unit's spot, its dot stays on top
        # and the cross is drawn larger behind it, its arms showing around the dot.
        stood = [any(math.dist(p, q) < 1e-6 for _, q in living) for p in fell]
        arm = math.sqrt(COVERED_CROSS) / 2 / max(points_per_unit(ax), 1e-9)
        marks_at += [(x + dx * arm, y + dy * arm) for (x, y), k in zip(fell, stood) if k
                     for dx in (-1, 1) for dy in (-1, 1)]   # its arms' tips: no label on them
        cross = ax.scatter([p[0] for p in fell], [p[1] for p in fell], marker="x",
                           s=[COVERED_CROSS if k else CROSS for k in stood], color="black",
                           linewidths=1.8, zorder=4.5, label="eliminated (where it fell)")
        marks.append(cross)
        keys[cross] = HandlerPathCollection(sizes=[CROSS])   # its key: the plain cross
    if labels:
        annotate_units(ax, [u for u, _ in living], [p for _, p in living],
                       obstacles=lambda: marks_at)
    if los:
        segs = []
        for k, (u, p) in enumerate(living):
            for v, q in living[k + 1:]:
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
    ax.set_title(title if title is not None else f"{name} ({when})", fontsize=12)
    if legend:
        ax.legend(handles=[*sides, *marks, *ground], handler_map=keys, loc="upper left",
                  bbox_to_anchor=(1.01, 1), fontsize=FONT, framealpha=0.9, title="units, marks, ground",
                  title_fontsize=FONT)
    return save(fig, path, ours=ours)


def _trails(ax, tracks, spans, snipers, end, t, colour) -> None:
    """Each unit's trail up to ``t`` (all of it without ``t``), one line per stretch on
    the table: none runs from where it left the table to where it came back."""
    look = looks(spans, list(tracks), set(snipers))
    for u, tr in tracks.items():
        if not tr:
            continue
        for seg in segments(tr, look[u], end):
            pts = [(x, y) for tt, x, y in seg if t is None or tt <= t]
            if t is not None and seg[0][0] <= t < seg[-1][0]:   # the stretch walked by t
                pts.append(position_on(seg, t))
            if len(pts) > 1:
                xs, ys = zip(*pts)
                ax.plot(xs, ys, "-", color=colour[u], alpha=0.45, linewidth=1.2, zorder=2)


def _halts(ax, hs, circled, marks_at) -> list:
    """Each halt point, joined to where its firer stood; where no radius is drawn around
    that spot now (the firer moved, or fell), the record's radius is drawn there."""
    out = []
    firers: dict[tuple[float, float], float] = {}
    for r in hs:
        if r.get("firer_pos") is not None:
            (hx, hy), (fx, fy) = r["pos"], r["firer_pos"]
            ax.plot([hx, fx], [hy, fy], ":", color="black", linewidth=0.8, alpha=0.7, zorder=3)
            spot = (round(fx, 9), round(fy, 9))
            if circled is not None and spot not in circled and r.get("radius"):
                firers.setdefault(spot, r["radius"])
    for (fx, fy), rad in firers.items():
        ax.add_patch(Circle((fx, fy), rad, fill=False, linestyle=":", linewidth=1.0,
                            edgecolor="dimgrey", zorder=3))
    if firers:
        out.append(ax.scatter([p[0] for p in firers], [p[1] for p in firers], marker="o", s=40,
                              facecolors="none", edgecolors="dimgrey", linewidths=1.2, zorder=4,
                              label="a halt's firer and radius, where it stood (since moved or fallen)"))
        marks_at += list(firers)
    xy = [r["pos"] for r in hs] or [[math.nan, math.nan]]
    halt_marks = ax.scatter([p[0] for p in xy], [p[1] for p in xy], marker="X", s=60,
                            color="gold", edgecolors="black", linewidths=0.8, zorder=6,
                            label="halt")
    if hs:
        out.insert(0, halt_marks)
        marks_at += [tuple(p) for p in xy]
    return out


def _fallen(recs, where, state, t) -> dict[str, tuple[float, float]]:
    """unit -> where it was eliminated (its record's position, else its track's), by ``t``."""
    out = {}
    for r in recs:
        if r.get("event") == ELIMINATE and r.get("unit") and (t is None or r["t"] <= t):
            p = r.get("pos") or where.get(r["unit"])
            if p is not None:
                out[r["unit"]] = (float(p[0]), float(p[1]))
    if t is not None:
        for u, s in state.items():
            if s in DEAD and u not in out and u in where:
                out[u] = where[u]
    return out


def halt_table(log) -> list[dict[str, Any]]:
    """The halt records as rows: who, when, where, by whom, how far, which rule."""
    keys = ("t", "turn", "unit", "rule", "firer", "dist", "radius", "inside", "pos", "firer_pos")
    return [{k: r.get(k) for k in keys} for r in records_of(log) if r.get("event") == HALT]


__all__ = ["draw_terrain", "halt_table", "plot_map"]
