"""The ground as a reactor: terrain features that rules watch, and where a straight move meets them.

A feature is an ``Area`` (a simple polygon, closed implicitly), a ``Line`` (a polyline)
or an ``Edge`` (one edge of the map, between two nodes' positions: ``edge``). A rule
watches one with a ``sim.plugin.GroundWatch``; the referee then computes, for each straight
segment p0→p1 a mover walks, the fraction s in [0, 1] at which it reacts, exactly (the
cuts of ``sim.space.ground_pieces``), as it does for a unit's radius. The readings:

- *enters an area* (``first_entry_area``): where the mover passes from outside the
  polygon into its interior. A point on the boundary is not inside; touching a vertex or
  an edge, or going along an edge, and coming away does not enter. A segment that starts
  inside does not enter there, nor does one that starts on the boundary (the mover was
  halted there by its entry, or set up there), unless ``from_outside``: it reached the
  boundary from outside on its previous segment and has not gone in yet (the referee
  remembers it, so a route through a node on the boundary enters at that node). A
  segment that ends exactly on the boundary coming from outside has not entered yet.
- *crosses a line* (``first_crossing_line``): where the mover comes onto the line from
  off it: crossing it, touching it (ending on it included: a route through a node on the
  line crosses it there), or reaching a stretch it then runs along (the stretch's first
  point). A segment that starts on the line does not cross it there (it was halted there
  by its crossing, or set up there); it crosses it again only where it comes back onto it.
- *uses an edge* (``first_on_edge``): where the mover starts to run along the edge
  (either way, for more than the tolerance): a unit on a bridge, in a gap in the wire.
  Crossing the edge, or touching it, is not using it. A segment that starts on the edge
  and runs along it uses it from s = 0, unless ``using``: it was using it already (the
  referee remembers it: it was halted where it got onto it, or came along it).
- *inside length* (``inside_length``, ``reach_inside``): the length of the segment in
  the polygon's interior; along the boundary is not inside.

A point within ``sim.space.ground_pieces.TOL`` × the coordinates' scale of an outline is
on it. Every function refuses, as an ``InputError``, what is not a point or a feature.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from sim import arguments
from sim.errors import InputError
from sim.space import ground_pieces as cut
from sim.space.geometry import Point
from sim.space.terrain import Terrain

__all__ = ["Area", "Edge", "Feature", "FeatureError", "Line", "edge", "first_crossing_line", "first_entry_area",
           "first_on_edge", "inside_length", "reach_inside"]

Bounds = tuple[float, float, float, float]


class FeatureError(InputError, ValueError):
    """A feature that is no shape (an ``InputError``, so one line; and a ``ValueError``)."""


def _points(kind: str, fid: Any, points: Any, least: int) -> tuple[Point, ...]:
    """The feature's points as float pairs: a sequence of at least ``least`` finite pairs."""
    place = f"{kind} {fid!r} points"
    if isinstance(points, (str, bytes)) or not isinstance(points, Sequence) or len(points) < least:
        raise FeatureError(f"expected a sequence of at least {least} points (x, y), got {points!r:.60}",
                           place=place)
    try:
        pairs = [arguments.point(p, f"{place}[{i}]") for i, p in enumerate(points)]
    except InputError as err:
        raise FeatureError(err.detail, place=err.place) from None
    return tuple((float(x), float(y)) for x, y in pairs)


def _bounds(points: Sequence[Point]) -> Bounds:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _orient(a: Point, b: Point, c: Point) -> int:
    """The sign of the turn a→b→c, exactly (rational arithmetic on the floats)."""
    ax, ay = Fraction(a[0]), Fraction(a[1])
    v = (Fraction(b[0]) - ax) * (Fraction(c[1]) - ay) - (Fraction(b[1]) - ay) * (Fraction(c[0]) - ax)
    return (v > 0) - (v < 0)


def _between(a: Point, b: Point, c: Point) -> bool:
    """Whether c, on the line a–b, lies on the closed segment a–b."""
    return min(a[0], b[0]) <= c[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= c[1] <= max(a[1], b[1])


def _meet(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether the closed segments a–b and c–d share a point (exactly)."""
    if max(a[0], b[0]) < min(c[0], d[0]) or max(c[0], d[0]) < min(a[0], b[0]) \
            or max(a[1], b[1]) < min(c[1], d[1]) or max(c[1], d[1]) < min(a[1], b[1]):
        return False
    o1, o2, o3, o4 = _orient(a, b, c), _orient(a, b, d), _orient(c, d, a), _orient(c, d, b)
    if o1 * o2 < 0 and o3 * o4 < 0:
        return True
    return (o1 == 0 and _between(a, b, c)) or (o2 == 0 and _between(a, b, d)) \
        or (o3 == 0 and _between(c, d, a)) or (o4 == 0 and _between(c, d, b))


def _check_simple(fid: str, points: tuple[Point, ...]) -> None:
    """Refuse a polygon that repeats a point, crosses or touches itself, or has no area."""
    place = f"Area {fid!r} points"
    seen: dict[Point, int] = {}
    for i, p in enumerate(points):
        if p in seen:
            closing = " (an area is closed implicitly: do not repeat the first point)" if seen[p] == 0 \
                and i == len(points) - 1 else ""
            raise FeatureError(f"point {i} repeats point {seen[p]}{closing}", place=place)
        seen[p] = i
    n = len(points)
    for i in range(n):
        a, b = points[i], points[(i + 1) % n]
        for j in range(i + 1, n):
            c, d = points[j], points[(j + 1) % n]
            if j == i + 1 or (i == 0 and j == n - 1):   # neighbours share a vertex: they may not fold
                shared, far, other = (b, a, d) if j == i + 1 else (a, b, c)
                ahead = (far[0] - shared[0]) * (other[0] - shared[0]) + (far[1] - shared[1]) * (other[1] - shared[1])
                if _orient(far, shared, other) == 0 and ahead > 0:
                    raise FeatureError(f"edges {i} and {j} fold back on each other (expected a simple polygon)",
                                       place=place)
            elif _meet(a, b, c, d):
                raise FeatureError(f"edges {i} and {j} cross or touch (expected a simple polygon)", place=place)
    twice = sum(Fraction(points[i][0]) * Fraction(points[(i + 1) % n][1])
                - Fraction(points[(i + 1) % n][0]) * Fraction(points[i][1]) for i in range(n))
    if twice == 0:
        raise FeatureError("its points enclose no area (expected a simple polygon)", place=place)


def _id(kind: str, fid: Any) -> str:
    if not isinstance(fid, str) or not fid:
        raise FeatureError(f"expected a non-empty string, got {fid!r:.60}", place=f"{kind} id")
    return fid


@dataclass(frozen=True)
class Area:
    """A simple polygon (closed implicitly) that movers enter and walk in."""

    id: str
    points: tuple[Point, ...]
    #: (x0, y0, x1, y1): the smallest box holding it.
    bounds: tuple[float, float, float, float] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        fid = _id("Area", self.id)
        points = _points("Area", fid, self.points, 3)
        _check_simple(fid, points)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "bounds", _bounds(points))


@dataclass(frozen=True)
class Line:
    """A polyline of at least two points (a stream, a wire, a phase line) that movers cross."""

    id: str
    points: tuple[Point, ...]
    #: (x0, y0, x1, y1): the smallest box holding it.
    bounds: tuple[float, float, float, float] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        fid = _id("Line", self.id)
        points = _points("Line", fid, self.points, 2)
        for i in range(1, len(points)):
            if points[i] == points[i - 1]:
                raise FeatureError(f"point {i} repeats point {i - 1} (expected a piece of some length)",
                                   place=f"Line {fid!r} points")
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "bounds", _bounds(points))


@dataclass(frozen=True)
class Edge:
    """One edge of the map, from ``a`` to ``b`` (two nodes' positions), that movers use."""

    id: str
    a: Point
    b: Point
    #: (x0, y0, x1, y1): the smallest box holding it.
    bounds: tuple[float, float, float, float] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        fid = _id("Edge", self.id)
        a, b = _points("Edge", fid, (self.a, self.b), 2)
        if a == b:
            raise FeatureError(f"its ends are the same point {a} (expected an edge of some length)",
                               place=f"Edge {fid!r}")
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)
        object.__setattr__(self, "bounds", _bounds((a, b)))


#: What a ground watch holds.
Feature = Area | Line | Edge


def edge(terrain: Terrain, u: str, v: str, id: str | None = None) -> Edge:  # noqa: A002 - the feature's id
    """The ``Edge`` of ``terrain``'s edge u–v (its id ``u-v`` unless given)."""
    arguments.instance(terrain, "terrain", Terrain, "a sim.plugin.Terrain")
    for name, node in (("u", u), ("v", v)):
        if not isinstance(node, str) or not terrain.has_node(node):
            raise InputError(f"expected a node of the map, got {node!r:.60}", place=name)
    if v not in terrain.graph._adj[u]:
        raise InputError(f"the map has no edge {u}–{v} (expected two neighbouring nodes)", place="v")
    if terrain.pos(u) == terrain.pos(v):
        raise InputError(f"the map's edge {u}–{v} has no length (both nodes stand at {terrain.pos(u)}): "
                         "no mover runs along it", place="v")
    return Edge(f"{u}-{v}" if id is None else id, terrain.pos(u), terrain.pos(v))


def _segment(p0: Any, p1: Any) -> tuple[Point, Point]:
    return arguments.point(p0, "p0"), arguments.point(p1, "p1")


def _feature(value: Any, name: str, kind: type) -> Any:
    return arguments.instance(value, name, kind, f"a sim.plugin.{kind.__name__}")


def first_entry_area(p0: Point, p1: Point, area: Area, *, from_outside: bool = False) -> float | None:
    """The first s in [0, 1] at which p0→p1 passes from outside ``area`` into its interior, or None.

    s = 0 only for a segment that starts on the boundary ``from_outside`` and goes in.

    >>> first_entry_area((0, 5), (20, 5), Area("field", ((10, 0), (30, 0), (30, 10), (10, 10))))
    0.5
    """
    p0, p1 = _segment(p0, p1)
    _feature(area, "area", Area)
    arguments.flag(from_outside, "from_outside")
    return cut.entry(cut.area_pieces(p0, p1, area.points, area.bounds), from_outside)


def first_crossing_line(p0: Point, p1: Point, line: Line) -> float | None:
    """The first s in (0, 1] at which p0→p1 comes onto ``line`` from off it, or None.

    >>> first_crossing_line((0, 0), (10, 0), Line("stream", ((4, -5), (4, 5))))
    0.4
    """
    p0, p1 = _segment(p0, p1)
    _feature(line, "line", Line)
    return cut.crossing(*cut.line_hits(p0, p1, line.points, line.bounds))


def first_on_edge(p0: Point, p1: Point, edge: Edge, *, using: bool = False) -> float | None:
    """The first s in [0, 1) at which p0→p1 starts to run along ``edge``, or None.

    >>> first_on_edge((0, 0), (10, 0), Edge("bridge", (5, 0), (20, 0)))
    0.5
    """
    p0, p1 = _segment(p0, p1)
    _feature(edge, "edge", Edge)
    arguments.flag(using, "using")
    return cut.use_start(*cut.edge_overlap(p0, p1, edge.a, edge.b, edge.bounds), using)


def inside_length(p0: Point, p1: Point, area: Area, s: float) -> float:
    """The length of p0→p(s) in ``area``'s interior (along its boundary is not in it).

    >>> inside_length((0, 5), (20, 5), Area("field", ((10, 0), (30, 0), (30, 10), (10, 10))), 0.75)
    5.0
    """
    p0, p1 = _segment(p0, p1)
    _feature(area, "area", Area)
    s = arguments.number(s, "s", 0.0, 1.0)
    return cut.inside_up_to(cut.area_pieces(p0, p1, area.points, area.bounds), s)


def reach_inside(p0: Point, p1: Point, area: Area, already: float, total: float) -> float | None:
    """The first s at which ``already`` + ``inside_length(p0, p1, area, s)`` reaches ``total``, or None.

    >>> reach_inside((0, 5), (20, 5), Area("field", ((10, 0), (30, 0), (30, 10), (10, 10))), 2.0, 5.0)
    0.65
    """
    p0, p1 = _segment(p0, p1)
    _feature(area, "area", Area)
    already = arguments.number(already, "already", 0.0)
    total = arguments.number(total, "total", 0.0)
    return cut.reach(cut.area_pieces(p0, p1, area.points, area.bounds), already, total)
