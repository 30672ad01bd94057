"""Exact geometry for reactions: when does a moving point first come within a radius?

All functions are closed-form (a quadratic), never sampled, so no reaction radius can
be skipped however fast a unit moves.

>>> first_entry((0, 0), (20, 0), (10, 6), 10.0)   # enters the circle at x = 2
0.1
"""
from __future__ import annotations

import math

from sim import arguments

EPS = 1e-9

#: A point of the map (x, y), in the terrain's units.
Point = tuple[float, float]


def first_root(rx: float, ry: float, ux: float, uy: float, r: float) -> float | None:
    """Smallest t >= 0 with |(rx, ry) + (ux, uy)·t| <= r, or None: the one quadratic
    behind both entry functions. A tangent (to ~1e-9 relative) counts as coming within r.
    """
    a = ux * ux + uy * uy
    c = rx * rx + ry * ry - r * r
    if c <= 0.0:
        return 0.0
    b = 2.0 * (rx * ux + ry * uy)
    if a == 0.0 or b >= 0.0:  # standing still, moving away, or tangentially past at t=0
        return None
    disc = b * b - 4.0 * a * c
    if disc < 0.0:
        closest_sq = c + r * r - (b * b) / (4.0 * a)
        if closest_sq - r * r > EPS * max(1.0, r * r):
            return None
        disc = 0.0
    # Numerically stable smaller root (b < 0 here).
    return c / (-0.5 * (b - math.sqrt(disc)))


def reach(r: float) -> float:
    """A distance beyond which nothing comes within ``r`` even by ``first_root``'s
    tangent tolerance (closest² <= r² + EPS·max(1, r²)), with room to spare: broad
    phases and candidate tests refuse only what lies farther than this."""
    return math.sqrt(r * r * (1.0 + 1e-6) + 1e-6)


def tolerance(r: float) -> float:
    """The referee's tolerance at radius ``r``: two entries closer than this (along a
    segment) are the same instant, and a point this close to the circle is *on* it."""
    return reach(r) - r


def first_entry(p0: Point, p1: Point, c: Point, r: float) -> float | None:
    """Fraction s in [0, 1] of segment p0→p1 where it first reaches distance r of c.

    The segment must start outside the circle (distance > r); returns None when it
    never comes within r. A segment that only grazes the circle (tangent) does come
    within r: "within" is inclusive, so the tangent point counts.
    """
    p0, p1, c = (arguments.point(p, name) for p, name in ((p0, "p0"), (p1, "p1"), (c, "c")))
    arguments.number(r, "r", 0)
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    if dx == 0.0 and dy == 0.0:
        return None
    s = first_root(p0[0] - c[0], p0[1] - c[1], dx, dy, r)
    return None if s is None or s > 1.0 else s


def moving_closer(p0: Point, p1: Point, c: Point) -> bool:
    """True when leaving p0 towards p1 reduces the distance to c.

    Along the circle about c, to ~1e-9 relative, is not closer: the sign of a product
    that small is the rounding's, and a unit on a circle's edge moving along it (or
    outward) does not come within it.
    """
    ux, uy, rx, ry = p1[0] - p0[0], p1[1] - p0[1], p0[0] - c[0], p0[1] - c[1]
    dot = ux * rx + uy * ry
    return dot < 0.0 and dot * dot > EPS * EPS * (ux * ux + uy * uy) * (rx * rx + ry * ry)


def first_entry_both_moving(p: Point, v: Point, q: Point, w: Point, r: float) -> float | None:
    """Earliest time t >= 0 when |(p + v t) − (q + w t)| <= r (closest-approach quadratic).

    For two movers at once; returns None if they never come within r. As in
    ``first_entry``, "within" is inclusive: a tangential pass (to rounding) counts.
    """
    return first_root(p[0] - q[0], p[1] - q[1], v[0] - w[0], v[1] - w[1], r)


def lerp(p0: Point, p1: Point, s: float) -> Point:
    """The point a fraction ``s`` of the way from p0 to p1."""
    return (p0[0] + (p1[0] - p0[0]) * s, p0[1] + (p1[1] - p0[1]) * s)


def dist(p: Point, q: Point) -> float:
    """The straight-line distance between two points."""
    return math.hypot(p[0] - q[0], p[1] - q[1])
