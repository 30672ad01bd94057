"""Exact geometry for reactions: when does a moving point first come within a radius?

All functions are closed-form (a quadratic), never sampled, so no reaction radius can
be skipped however fast a unit moves.

>>> first_entry((0, 0), (20, 0), (10, 6), 10.0)   # enters the circle at x = 2
0.1
"""
from __future__ import annotations

import math

EPS = 1e-9


def first_entry(p0, p1, c, r: float) -> float | None:
    """Fraction s in [0, 1] of segment p0→p1 where it first reaches distance r of c.

    The segment must start outside the circle (distance > r); returns None when it
    never comes within r. A segment that only grazes the circle (tangent) does come
    within r: "within" is inclusive, so the tangent point counts.
    """
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    fx, fy = p0[0] - c[0], p0[1] - c[1]
    a = dx * dx + dy * dy
    if a == 0.0:
        return None
    b = 2.0 * (fx * dx + fy * dy)
    cc = fx * fx + fy * fy - r * r
    if cc <= 0.0:
        return 0.0
    if b >= 0.0:  # moving away from, or tangentially past, the centre at the start
        return None
    disc = b * b - 4.0 * a * cc
    if disc < 0.0:
        # Tangent within rounding: the closest approach equals r to ~1e-9 relative.
        closest_sq = cc + r * r - (b * b) / (4.0 * a)
        if closest_sq - r * r > EPS * max(1.0, r * r):
            return None
        disc = 0.0
    sq = math.sqrt(disc)
    # Numerically stable smaller root (b < 0 here).
    q = -0.5 * (b - sq)
    s = cc / q
    if s < 0.0 or s > 1.0:
        return None
    return s


def moving_closer(p0, p1, c) -> bool:
    """True when leaving p0 towards p1 reduces the distance to c (SF.INSIDE)."""
    return (p1[0] - p0[0]) * (p0[0] - c[0]) + (p1[1] - p0[1]) * (p0[1] - c[1]) < 0.0


def first_entry_both_moving(p, v, q, w, r: float) -> float | None:
    """Earliest time t >= 0 when |(p + v t) − (q + w t)| <= r (closest-approach quadratic).

    For two movers at once; returns None if they never come within r. As in
    ``first_entry``, "within" is inclusive: a tangential pass (to rounding) counts.
    """
    rx, ry = p[0] - q[0], p[1] - q[1]
    ux, uy = v[0] - w[0], v[1] - w[1]
    a = ux * ux + uy * uy
    c = rx * rx + ry * ry - r * r
    if c <= 0.0:
        return 0.0
    b = 2.0 * (rx * ux + ry * uy)
    if a == 0.0 or b >= 0.0:
        return None
    disc = b * b - 4.0 * a * c
    if disc < 0.0:
        closest_sq = c + r * r - (b * b) / (4.0 * a)
        if closest_sq - r * r > EPS * max(1.0, r * r):
            return None
        disc = 0.0
    return c / (-0.5 * (b - math.sqrt(disc)))


def lerp(p0, p1, s: float) -> tuple[float, float]:
    return (p0[0] + (p1[0] - p0[0]) * s, p0[1] + (p1[1] - p0[1]) * s)


def dist(p, q) -> float:
    return math.hypot(p[0] - q[0], p[1] - q[1])
