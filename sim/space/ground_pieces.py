"""Where a straight segment p0→p1 meets a feature's outline, exactly, in floats.

A segment is cut at every point where it meets the outline (a polygon's boundary, a
polyline, one edge): where an outline edge crosses it, where a vertex lies on it, and at
both ends of a stretch it runs along an edge. Between two cuts it is all on one side:
inside the polygon, outside it, or along its boundary (``Pieces``). Every cut is a
fraction s of the segment, each the quotient of two products of the coordinates, so
nothing is sampled.

A point within ``TOL`` × the coordinates' scale (at least 1) of the outline is *on* it:
a mover halted at an outline (its point rounded to floats) stands on it, and cuts closer
together than that along the segment are one. Coordinates on a grid of 1/8 (or any
coarser one) up to a few hundred never come that close without touching, so on them the
cuts are the exact ones to rounding (``tests/test_ground_geometry.py`` compares them with
rational arithmetic).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from sim.space.geometry import Point

#: Relative tolerance: a point this close (× the coordinates' scale) to an outline is on it.
TOL = 1e-9
#: What a piece of a segment is, against an area: in its interior, outside it, along its boundary.
INSIDE, OUTSIDE, ON = 1, -1, 0

Interval = tuple[float, float]


class Pieces(NamedTuple):
    """A segment against a polygon: ``parts`` (from s, to s, kind) covering [0, 1] in
    order (none for a segment of no length), ``start`` the kind of p0 itself (``ON``
    when it stands on the boundary), the segment's ``length`` and the tolerance as a
    fraction of it (``tol``) and as a distance (``near``)."""

    parts: tuple[tuple[float, float, int], ...]
    start: int
    length: float
    tol: float
    near: float


def tolerance(p0: Point, p1: Point, bounds: tuple[float, float, float, float]) -> float:
    """The distance within which a point is on an outline of ``bounds`` for the segment p0→p1."""
    return TOL * max(1.0, abs(p0[0]), abs(p0[1]), abs(p1[0]), abs(p1[1]), *(abs(b) for b in bounds))


def _cuts(p0: Point, p1: Point, points: Sequence[Point], closed: bool,
          near: float) -> tuple[list[float], list[Interval]]:
    """The fractions where p0→p1 meets the outline through ``points`` (closed: a polygon),
    not merged, and the stretches it runs along an outline edge. The segment has a length."""
    x0, y0 = p0
    dx, dy = p1[0] - x0, p1[1] - y0
    l2 = dx * dx + dy * dy
    length = math.sqrt(l2)
    tol_s, line = near / length, near * length   # |cross| <= line: on the segment's line
    cuts: list[float] = []
    along: list[Interval] = []
    n = len(points)
    for i in range(n if closed else n - 1):
        ax, ay = points[i]
        bx, by = points[(i + 1) % n]
        ca = (ax - x0) * dy - (ay - y0) * dx
        cb = (bx - x0) * dy - (by - y0) * dx
        on_a, on_b = abs(ca) <= line, abs(cb) <= line
        if on_a and on_b:    # the edge lies on the segment's line: where they overlap
            sa = ((ax - x0) * dx + (ay - y0) * dy) / l2
            sb = ((bx - x0) * dx + (by - y0) * dy) / l2
            lo, hi = (sa, sb) if sa <= sb else (sb, sa)
            if hi < -tol_s or lo > 1.0 + tol_s:
                continue
            lo, hi = max(lo, 0.0), min(hi, 1.0)
            cuts += (lo, hi)
            if hi - lo > tol_s:
                along.append((lo, hi))
            continue
        if on_a or on_b:     # a vertex on the segment's line: the edge meets it there
            qx, qy = (ax, ay) if on_a else (bx, by)
            s = ((qx - x0) * dx + (qy - y0) * dy) / l2
        elif (ca < 0.0) != (cb < 0.0):   # the edge crosses the segment's line
            ex, ey = bx - ax, by - ay
            s = ((ax - x0) * ey - (ay - y0) * ex) / (dx * ey - dy * ex)
        else:
            continue
        if -tol_s <= s <= 1.0 + tol_s:
            cuts.append(min(1.0, max(0.0, s)))
    return cuts, along


def _merged(cuts: list[float], tol_s: float) -> list[float]:
    """0, the cuts, 1, sorted, with those closer than ``tol_s`` one (0 and 1 kept exact)."""
    cuts.sort()
    out = [0.0]
    for c in cuts:
        if c - out[-1] > tol_s:
            out.append(c)
    if 1.0 - out[-1] > tol_s:
        out.append(1.0)
    else:
        out[-1] = 1.0
    return out


def contains(points: Sequence[Point], x: float, y: float) -> bool:
    """Whether (x, y) is inside the polygon (crossing number; a point far from its boundary)."""
    inside = False
    xj, yj = points[-1]
    for xi, yi in points:
        if (yi > y) != (yj > y) and x < xi + (y - yi) * (xj - xi) / (yj - yi):
            inside = not inside
        xj, yj = xi, yi
    return inside


def near_outline(p: Point, points: Sequence[Point], closed: bool, near: float) -> bool:
    """Whether ``p`` is within ``near`` of the outline through ``points``."""
    x, y = p
    n = len(points)
    near2 = near * near
    for i in range(n if closed else n - 1):
        ax, ay = points[i]
        bx, by = points[(i + 1) % n]
        ex, ey = bx - ax, by - ay
        e2 = ex * ex + ey * ey
        t = 0.0 if e2 == 0.0 else min(1.0, max(0.0, ((x - ax) * ex + (y - ay) * ey) / e2))
        fx, fy = ax + t * ex - x, ay + t * ey - y
        if fx * fx + fy * fy <= near2:
            return True
    return False


def area_pieces(p0: Point, p1: Point, points: Sequence[Point],
                bounds: tuple[float, float, float, float]) -> Pieces:
    """The pieces of p0→p1 inside, outside and along the polygon ``points``."""
    near = tolerance(p0, p1, bounds)
    on_start = near_outline(p0, points, True, near)
    length = math.hypot(p1[0] - p0[0], p1[1] - p0[1])
    if length == 0.0:
        start = ON if on_start else INSIDE if contains(points, *p0) else OUTSIDE
        return Pieces((), start, 0.0, 0.0, near)
    tol_s = near / length
    cuts, along = _cuts(p0, p1, points, True, near)
    marks = _merged(cuts, tol_s)
    parts = []
    for lo, hi in zip(marks, marks[1:]):
        if any(a - tol_s <= lo and hi <= b + tol_s for a, b in along):
            kind = ON
        else:
            m = 0.5 * (lo + hi)
            kind = INSIDE if contains(points, p0[0] + (p1[0] - p0[0]) * m, p0[1] + (p1[1] - p0[1]) * m) \
                else OUTSIDE
        parts.append((lo, hi, kind))
    start = ON if on_start else parts[0][2]
    return Pieces(tuple(parts), start, length, tol_s, near)


def entry(pieces: Pieces, from_outside: bool) -> float | None:
    """The first s at which the mover goes from outside into the interior (see
    ``sim.space.ground.first_entry_area``)."""
    side = pieces.start
    if side == ON:
        side = OUTSIDE if from_outside else INSIDE
    for lo, _, kind in pieces.parts:
        if kind == INSIDE:
            if side == OUTSIDE:
                return lo
            side = INSIDE
        elif kind == OUTSIDE:
            side = OUTSIDE
    return None


def inside_after(pieces: Pieces, s: float, was_inside: bool) -> bool:
    """Whether the mover counts as inside having walked p0→p(s): the side of the last
    piece it walked (more than the tolerance) into; along the boundary, as before."""
    inside = was_inside
    for lo, _, kind in pieces.parts:
        if lo >= s - pieces.tol:
            break
        if kind != ON:
            inside = kind == INSIDE
    return inside


def inside_up_to(pieces: Pieces, s: float) -> float:
    """The length of p0→p(s) in the polygon's interior."""
    total = 0.0
    for lo, hi, kind in pieces.parts:
        if lo >= s:
            break
        if kind == INSIDE:
            total += (min(hi, s) - lo) * pieces.length
    return total


def reach(pieces: Pieces, already: float, total: float) -> float | None:
    """The first s at which ``already`` + the length inside up to p(s) reaches ``total``
    (to the tolerance ``near``), or None."""
    need = total - already
    if need <= pieces.near:
        return 0.0
    for lo, hi, kind in pieces.parts:
        if kind == INSIDE:
            run = (hi - lo) * pieces.length
            if need <= run + pieces.near:
                return min(hi, lo + need / pieces.length)
            need -= run
    return None


def line_hits(p0: Point, p1: Point, points: Sequence[Point],
              bounds: tuple[float, float, float, float]) -> tuple[list[Interval], float]:
    """Where p0→p1 is on the polyline ``points``: intervals [lo, hi] of s (a single
    point: lo == hi), merged, in order; and the tolerance as a fraction."""
    near = tolerance(p0, p1, bounds)
    length = math.hypot(p1[0] - p0[0], p1[1] - p0[1])
    if length == 0.0:
        return ([(0.0, 0.0)] if near_outline(p0, points, False, near) else []), 0.0
    tol_s = near / length
    cuts, along = _cuts(p0, p1, points, False, near)
    spans = sorted([(c, c) for c in cuts] + along)
    if near_outline(p0, points, False, near):
        spans.insert(0, (0.0, 0.0))
    out: list[Interval] = []
    for lo, hi in spans:
        if out and lo <= out[-1][1] + tol_s:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out, tol_s


def crossing(hits: list[Interval], tol_s: float) -> float | None:
    """The first s > 0 at which the mover comes onto the line from off it."""
    for lo, _ in hits:
        if lo > tol_s:
            return lo
    return None


def edge_overlap(p0: Point, p1: Point, a: Point, b: Point,
                 bounds: tuple[float, float, float, float]) -> tuple[Interval | None, float]:
    """The stretch [lo, hi] of s (of positive length) along which p0→p1 runs along the
    edge a–b, or None; and the tolerance as a fraction."""
    near = tolerance(p0, p1, bounds)
    length = math.hypot(p1[0] - p0[0], p1[1] - p0[1])
    if length == 0.0:
        return None, 0.0
    tol_s = near / length
    _, along = _cuts(p0, p1, (a, b), False, near)
    return (along[0] if along else None), tol_s


def use_start(overlap: Interval | None, tol_s: float, using: bool) -> float | None:
    """Where the mover starts to run along the edge (see ``sim.space.ground.first_on_edge``)."""
    if overlap is None:
        return None
    if overlap[0] <= tol_s:
        return None if using else 0.0
    return overlap[0]


def using_after(overlap: Interval | None, tol_s: float, s: float, was_using: bool) -> bool:
    """Whether the mover is using the edge having walked p0→p(s): it is while it goes
    along it and stands on it after; it is not once it has gone off it."""
    using = was_using
    lo, hi = overlap if overlap is not None else (2.0, 2.0)
    if s > tol_s and lo > tol_s:   # it walked off the edge first
        using = False
    if s > lo + tol_s:
        using = True
    if s > hi + tol_s:
        using = False
    return using
