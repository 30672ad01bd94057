"""TOO opportunity fire along a segment: where, seen from a firer, a mover comes into
sight, range and arc.

Seen from a point f, whether a point q moving along p0→p1 is in sight (tabletop: the
line f–q crosses no sight-blocking polygon that holds neither end; grazing a corner is
clear), within a range and within an arc can change only at a few fractions of the
segment: where the line f–q passes a polygon vertex, where q crosses a polygon edge, a
range circle or an arc's bounding ray. Between two such fractions nothing changes, so
the first fraction at which a figure may fire is found exactly by testing those
fractions and one point between each pair, never by sampling.

>>> cuts = sight_changes((0, 0), (-10, 5), (10, 5), polygons=[], radii=[], bearings=[90.0])
>>> [round(c, 3) for c in cuts]
[0.5]
"""
from __future__ import annotations

import math


def _cross(ax: float, ay: float, bx: float, by: float) -> float:
    return ax * by - ay * bx


def sight_changes(f, p0, p1, polygons, radii, bearings) -> list[float]:
    """Fractions t in [0, 1] of p0→p1 where sight, range or arc from f may change:
    ``polygons`` are shapely polygons that block sight, ``radii`` ranges around f,
    ``bearings`` directions (degrees, 0 = +x, 90 = +y) of rays from f."""
    fx, fy = f
    x0, y0 = p0
    dx, dy = p1[0] - x0, p1[1] - y0
    ox, oy = x0 - fx, y0 - fy
    out = []

    def through(wx: float, wy: float) -> None:  # the line from f along (wx, wy)
        den = _cross(dx, dy, wx, wy)
        if den != 0.0:
            out.append(-_cross(ox, oy, wx, wy) / den)

    for poly in polygons:
        for ring in (poly.exterior, *poly.interiors):
            pts = list(ring.coords)
            for (ax, ay), (bx, by) in zip(pts, pts[1:]):
                through(ax - fx, ay - fy)
                ex, ey = bx - ax, by - ay
                den = _cross(dx, dy, ex, ey)
                if den != 0.0:
                    u = _cross(ax - x0, ay - y0, dx, dy) / den
                    if -1e-12 <= u <= 1.0 + 1e-12:
                        out.append(_cross(ax - x0, ay - y0, ex, ey) / den)
    a = dx * dx + dy * dy
    if a > 0.0:
        b = 2.0 * (ox * dx + oy * dy)
        for r in radii:
            disc = b * b - 4.0 * a * (ox * ox + oy * oy - r * r)
            if disc >= 0.0:
                root = math.sqrt(disc)
                out += [(-b - root) / (2.0 * a), (-b + root) / (2.0 * a)]
    for deg in bearings:
        th = math.radians(deg)
        through(math.cos(th), math.sin(th))
    return sorted(t for t in out if 0.0 <= t <= 1.0)


def first_true(test, s: float, cuts) -> float | None:
    """The first fraction t >= s (up to 1) with ``test(t)``, given that ``test`` can
    change only at ``cuts``: each cut and one point inside each gap are tested, in
    order. Where a gap holds but its start does not (rounding at a grazing corner), the
    start is closed in on by bisection from inside the gap."""
    if test(s):
        return s
    prev = s
    for c in [c for c in cuts if s < c < 1.0] + [1.0]:
        mid = (prev + c) / 2.0
        if mid > prev and test(mid):
            lo, hi = prev, mid
            for _ in range(50):
                m = (lo + hi) / 2.0
                if m <= lo or m >= hi:
                    break
                lo, hi = (lo, m) if test(m) else (m, hi)
            return hi
        if test(c):
            return c
        prev = c
    return None
