"""Build a tabletop map (cm) from its YAML form.

``kind: table`` with ``width`` and ``height`` (the table spans 0..width, 0..height) and
at least one of:

* ``waypoints``: name -> [x, y], with optional ``edges``: [[a, b], ...] between them;
* ``grid: {spacing: s}``: waypoints ``"gx,gy"`` at (gx·s, gy·s) over the table, each
  joined to its 8 neighbours. Named waypoints are then also joined to their 4 nearest
  grid points.

``areas`` are terrain polygons: ``{name, polygon: [[x, y], ...], terrain, cover,
hindrance, blocks_sight, cost, passable}``. ``terrain`` names a built-in type (open,
woods, building, hedge, rubble, impassable; any other name is an input error), which
gives the values the area leaves out. Without ``terrain`` the ground is labelled with the
area's name, and takes the values of the built-in type of that name if there is one,
else open ground's.

A node takes its ground from the area containing it, boundary included (the one with
the highest cover when several do, the first listed on a tie), or open ground; a node on
the boundary of an impassable area is beside it, not in it. An edge whose segment
passes through the interior of an impassable area is dropped; edges along an impassable
area's boundary are kept.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.strtree import STRtree

from sim.space import checks
from sim.space.checks import Where
from sim.space.features import BUILTIN_BY_NAME, OPEN, TYPE_KEYS, Area, TerrainType, parse_type
from sim.space.los import TableSight
from sim.space.spec import AreaSpec, GridSpec, TableTerrain
from sim.space.terrain import Terrain, graph_of

# The keys the reference documents (``sim.space.spec``).
TABLE_KEYS = tuple(TableTerrain.model_fields)
AREA_KEYS = tuple(AreaSpec.model_fields)
GRID_KEYS = tuple(GridSpec.model_fields)
LINKS_PER_WAYPOINT = 4


class _Table:
    """The table's size, for checking that points lie on it."""

    def __init__(self, width: float, height: float):
        self.width, self.height = width, height

    def point(self, value: Any, where: Where) -> tuple[float, float]:
        x, y = checks.point(value, where)
        if not (0 <= x <= self.width and 0 <= y <= self.height):
            where.fail(f"expected a point on the {self.width:g} x {self.height:g} cm table "
                       f"(0 <= x <= {self.width:g}, 0 <= y <= {self.height:g}), got [{x:g}, {y:g}]")
        return x, y


def _area(value: Any, i: int, table: _Table, where: Where) -> Area:
    entry = checks.mapping(value, where)
    checks.known_keys(entry, AREA_KEYS, where)
    name = checks.text(entry["name"], where.at("name")) if "name" in entry else f"area{i}"
    if "terrain" in entry:
        label = checks.text(entry["terrain"], where.at("terrain"))
        if label not in BUILTIN_BY_NAME:
            where.at("terrain").fail(f"unknown terrain type {label!r}; expected one of: "
                                     f"{', '.join(BUILTIN_BY_NAME)} (set cover, hindrance, "
                                     "blocks_sight, cost, passable on the area for other ground)")
    else:
        label = name
    base = replace(BUILTIN_BY_NAME.get(label, OPEN), name=label)
    kind = parse_type({k: v for k, v in entry.items() if k in TYPE_KEYS and k != "name"},
                      base, where)
    at = where.at("polygon")
    if "polygon" not in entry:
        at.fail("expected a polygon: a list of at least 3 points [x, y]")
    raw = checks.sequence(entry["polygon"], at)
    if len(raw) < 3:
        at.fail(f"expected a polygon of at least 3 points [x, y], got {len(raw)}")
    if len(raw) > checks.MAX_POINTS:
        at.fail(f"expected a polygon of at most {checks.MAX_POINTS} points [x, y], got {len(raw)}")
    poly = Polygon([table.point(p, at.at(j)) for j, p in enumerate(raw)])
    if not poly.is_valid or poly.area <= 0:
        reason = shapely.is_valid_reason(poly) if not poly.is_valid else "zero area"
        at.fail(f"expected a simple polygon (edges that do not cross), got one that is "
                f"invalid: {reason}")
    return Area(name, poly, kind)


def _waypoints(value: Any, table: _Table, where: Where) -> dict[str, tuple[float, float]]:
    out = {}
    value = checks.mapping(value, where)
    if len(value) > checks.MAX_NODES:
        where.fail(f"expected at most {checks.MAX_NODES} waypoints, got {len(value)}")
    for name, p in value.items():
        at = where.at(name)
        if not isinstance(name, str) or not name:
            at.fail(f"expected a waypoint name (a string), got {name!r}")
        out[name] = table.point(p, at)
    return out


def _grid(value: Any, table: _Table, taken: Mapping[str, tuple[float, float]],
          where: Where) -> dict[str, tuple[float, float]]:
    spec = checks.mapping(value, where)
    checks.known_keys(spec, GRID_KEYS, where)
    if "spacing" not in spec:
        where.at("spacing").fail("expected the grid spacing in cm, a number > 0")
    s = checks.number(spec["spacing"], where.at("spacing"), positive=True, maximum=checks.MAX_EXTENT)
    fx, fy = table.width / s + 1e-9 + 1, table.height / s + 1e-9 + 1
    if fx * fy + len(taken) > checks.MAX_NODES + 4:   # (+4: float slack; exact check below)
        where.at("spacing").fail(f"expected at most {checks.MAX_NODES} places: a spacing of {s:g} "
                                 f"makes about {fx * fy:.3g} grid points on the table")
    nx_, ny = int(fx), int(fy)
    if nx_ * ny + len(taken) > checks.MAX_NODES:
        where.at("spacing").fail(f"expected at most {checks.MAX_NODES} places (waypoints and grid "
                                 f"points), got {nx_ * ny + len(taken)}")
    out = {}
    for gy in range(ny):
        for gx in range(nx_):
            name = f"{gx},{gy}"
            if name in taken:
                where.fail(f"grid point {name!r} has the name of a waypoint; rename the waypoint")
            out[name] = (gx * s, gy * s)
    return out


def _edges(value: Any, names: Mapping[str, tuple[float, float]], where: Where) -> list[tuple[str, str]]:
    out = []
    pairs = checks.sequence(value, where)
    if len(pairs) > checks.MAX_EDGES:
        where.fail(f"expected at most {checks.MAX_EDGES} edges, got {len(pairs)}")
    for i, pair in enumerate(pairs):
        at = where.at(i)
        if isinstance(pair, (str, bytes)) or not isinstance(pair, (list, tuple)) or len(pair) != 2:
            at.fail(f"expected an edge [a, b] of two waypoint names, got {pair!r}")
        for end in pair:
            if not isinstance(end, str) or end not in names:
                at.fail(f"unknown waypoint {end!r}; known: {', '.join(map(str, names))}")
        if pair[0] == pair[1]:
            at.fail(f"expected two different waypoints, got {pair[0]!r} twice")
        out.append((pair[0], pair[1]))
    return out


def _grounds(places: np.ndarray, areas: list[Area], sight: TableSight) -> list[Area | None]:
    """The area each place (an (n, 2) array) stands in, or None (open ground): of the
    areas containing it, boundary included, the one with the highest cover, the first
    listed on a tie. A point on an impassable area's boundary stands beside it, not in it.
    One vectorised query for all places, not one per place."""
    out: list[Area | None] = [None] * len(places)
    if not areas or not len(places):
        return out
    points = shapely.points(places)
    at, hit = sight.containing_all(points)
    walls = np.array([not areas[i].type.passable for i in hit.tolist()], dtype=bool)
    if walls.any():
        polygons = np.array([areas[i].polygon for i in hit[walls].tolist()], dtype=object)
        inside = shapely.contains(polygons, points[at[walls]])
        keep = np.ones(len(hit), dtype=bool)
        keep[np.flatnonzero(walls)[~inside]] = False
        at, hit = at[keep], hit[keep]
    for i, k in sorted(zip(at.tolist(), hit.tolist())):
        best = out[i]
        if best is None or areas[k].type.cover > best.type.cover:
            out[i] = areas[k]
    return out


def _grid_links(grid: dict[str, tuple[float, float]],
                waypoints: dict[str, tuple[float, float]]) -> list[tuple[str, str]]:
    """8-neighbour grid edges, then each waypoint to its nearest grid points.

    The grid is complete and row by row (``_grid``), so its last point names its size;
    each point's links to (1, 0), (0, 1), (1, 1), (1, -1) come in that order, point by point.
    """
    links: list[tuple[str, str]] = []
    names = list(grid)
    if names:
        last_x, last_y = map(int, names[-1].split(","))
        nx_, ny = last_x + 1, last_y + 1
        gx = np.tile(np.arange(nx_), ny)
        gy = np.repeat(np.arange(ny), nx_)
        here = np.arange(nx_ * ny)
        ends, ok = [], []
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            x, y = gx + dx, gy + dy
            ends.append(y * nx_ + x)
            ok.append((x < nx_) & (y >= 0) & (y < ny))
        other, keep = np.stack(ends, axis=1).ravel(), np.stack(ok, axis=1).ravel()
        first = np.repeat(here, 4)[keep].tolist()
        links = list(zip(map(names.__getitem__, first), map(names.__getitem__, other[keep].tolist())))
    if grid and waypoints:
        from scipy.spatial import cKDTree  # here, not at `import sim`

        names = list(grid)
        tree = cKDTree(np.array([grid[n] for n in names]))
        k = min(LINKS_PER_WAYPOINT, len(names))
        for w, p in waypoints.items():
            _, idx = tree.query(p, k=k)
            links.extend((w, names[int(i)]) for i in np.atleast_1d(idx))
    return links


# (shapely ships no types, so a list of its polygons is a list of Any to mypy)
def _open_links(links: list[tuple[str, str]], pos: Mapping[str, tuple[float, float]],  # type: ignore[no-any-unimported]
                walls: list[Polygon]) -> list[bool]:
    """For each link, whether it stays out of every impassable area's interior (running
    along a boundary is fine; a link between two places on one spot always is)."""
    ok = [True] * len(links)
    if not walls or not links:
        return ok
    moving = [i for i, (u, v) in enumerate(links) if pos[u] != pos[v]]
    coords = np.array([(pos[links[i][0]], pos[links[i][1]]) for i in moving], dtype=float)
    lines = shapely.linestrings(coords.reshape(-1, 2, 2)) if moving else np.array([])
    geoms = np.array(walls, dtype=object)
    line, wall = STRtree(geoms).query(lines, predicate="intersects")
    through = ~shapely.touches(geoms[wall], lines[line])
    for i in line[through].tolist():
        ok[moving[i]] = False
    return ok


def build_table(spec: Mapping[Any, Any], where: Where) -> Terrain:
    """Check a ``kind: table`` spec and build its ``Terrain``; ``InputError`` on bad input."""
    checks.known_keys(spec, TABLE_KEYS, where)
    for key in ("width", "height"):
        if key not in spec:
            where.at(key).fail(f"expected the table's {key} in cm, a number > 0")
    table = _Table(checks.number(spec["width"], where.at("width"), positive=True,
                                 maximum=checks.MAX_EXTENT),
                   checks.number(spec["height"], where.at("height"), positive=True,
                                 maximum=checks.MAX_EXTENT))
    raw_areas = checks.sequence(spec.get("areas") or [], where.at("areas"))
    if len(raw_areas) > checks.MAX_AREAS:
        where.at("areas").fail(f"expected at most {checks.MAX_AREAS} areas, got {len(raw_areas)}")
    areas = [_area(a, i, table, where.at("areas").at(i)) for i, a in enumerate(raw_areas)]
    waypoints = _waypoints(spec.get("waypoints") or {}, table, where.at("waypoints"))
    grid = _grid(spec["grid"], table, waypoints, where.at("grid")) if spec.get("grid") else {}
    if not waypoints and not grid:
        where.fail("expected 'waypoints' or 'grid' (or both): the places units can stand")
    if "edges" in spec and spec["edges"]:
        explicit = _edges(spec["edges"], waypoints, where.at("edges"))
    else:
        explicit = []

    sight = TableSight(areas)
    places = {**waypoints, **grid}
    grounds = _grounds(np.array(list(places.values()), dtype=float).reshape(-1, 2), areas, sight)
    nodes = []
    costs: dict[str, float] = {}
    for (name, p), area in zip(places.items(), grounds):
        t: TerrainType = area.type if area else OPEN
        costs[name] = t.cost
        nodes.append((name, {"pos": p, "terrain": t.name, "cover": t.cover,
                             "hindrance": t.hindrance, "blocks_sight": t.blocks_sight,
                             "cost": t.cost, "passable": t.passable,
                             "area": area.name if area else None}))
    links = explicit + _grid_links(grid, waypoints)
    walls = [a.polygon for a in areas if not a.type.passable]
    edges = []
    # The route planner's edge list, as it would read it back from the graph: each edge
    # once, from the node built first to the other, with its last cost.
    index = {name: i for i, name in enumerate(places)}
    ends_u, ends_v, cost_list = [], [], []
    for (u, v), ok in zip(links, _open_links(links, places, walls)):
        if ok:
            length = math.dist(places[u], places[v])
            cost = length * (costs[u] + costs[v]) / 2.0
            edges.append((u, v, {"length": length, "cost": cost}))
            ends_u.append(index[u])
            ends_v.append(index[v])
            cost_list.append(cost)
    g = graph_of(nodes, edges)
    a, b = np.array(ends_u, dtype=np.int64), np.array(ends_v, dtype=np.int64)
    first, second, cost_of = np.minimum(a, b), np.maximum(a, b), np.array(cost_list, dtype=float)
    if explicit:   # a link given twice is one edge (its cost is the same both times)
        _, last = np.unique((first * len(places) + second)[::-1], return_index=True)
        keep = len(first) - 1 - last
        first, second, cost_of = first[keep], second[keep], cost_of[keep]
    return Terrain(g, "table", areas=areas, bounds=(0.0, 0.0, table.width, table.height),
                   edges=(first, second, cost_of))
