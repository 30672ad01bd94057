"""Straight runs: a move's motion as few straight, constant-velocity pieces as it has.

A move's legs end at its waypoints; consecutive legs that go on in the same direction at
the same cost per unit length (the collinear edges of a grid, a road's straight stretch)
are one run, with one scheduled end of motion and one reaction armed on it. Where a
unit is at any instant of its course is worked out on demand, leg by leg, each leg timed
as the walk times it (``place_and_passed``), so nothing about a run is sampled.
"""
from __future__ import annotations

import math

from sim.agents.unit import Leg, Unit
from sim.space.geometry import Point

__all__ = ["place_and_passed", "planned_times", "run_end"]

#: Relative tolerance for "the same direction" and "the same cost per unit length".
_SAME = 1e-12


def _clamped(t0: float, seg_time: float, end: float) -> float:
    """The largest time <= seg_time with t0 + time <= end (float sums drift)."""
    seg_time = max(0.0, end - t0)
    while seg_time > 0.0 and t0 + seg_time > end:
        seg_time = math.nextafter(seg_time, 0.0)
    return seg_time


def planned_times(t: float, legs: list[Leg], speed: float, end: float | None) -> list[float]:
    """When a move reaches each of its waypoints if nothing stops it (the ``move``
    record's ``times``): each leg takes cost / speed, the last never past ``end``."""
    out = []
    for _, _, cost in legs:
        seg_time = cost / speed
        if end is not None and t + seg_time > end:
            seg_time = _clamped(t, seg_time, end)
        t += seg_time
        out.append(t)
    return out


def run_end(start: Point, legs: list[Leg], i: int, merge: bool) -> int:
    """The index of the last leg of the straight run that begins with ``legs[i]`` at
    ``start``: legs go on while each keeps the first one's direction and cost per unit
    length (with ``merge`` false, or a leg of no length, every leg is its own run)."""
    if not merge:
        return i
    (x1, y1), _, cost = legs[i]
    dx, dy = x1 - start[0], y1 - start[1]
    length = math.hypot(dx, dy)
    if length <= 0.0 or cost <= 0.0:
        return i
    j = i
    while j + 1 < len(legs):
        (x2, y2), _, c2 = legs[j + 1]
        ex, ey = x2 - x1, y2 - y1
        l2 = math.hypot(ex, ey)
        if l2 <= 0.0 or c2 <= 0.0:
            break
        if abs(dx * ey - dy * ex) > _SAME * length * l2 or dx * ex + dy * ey <= 0.0:
            break   # it turns (or doubles back)
        if abs(cost * l2 - c2 * length) > _SAME * cost * l2:
            break   # other ground: another speed
        x1, y1, j = x2, y2, j + 1
    return j


def place_and_passed(unit: Unit, now: float) -> tuple[Point, list[str]]:
    """Where ``unit`` is at time ``now``, exactly, and the waypoint nodes it has reached
    since its course began, in order: the course (the move under way: start time and
    point, legs, speed, end of slot) is replayed leg by leg, each timed as the walk
    times it, then start + velocity x elapsed on the leg it is on. Standing still: its
    ``pos`` and no node."""
    course = unit.course
    if course is None:
        return unit.pos, []
    t, p, legs, speed, end = course
    passed: list[str] = []
    for target, node, cost in legs:
        seg_time = cost / speed
        if end is not None and t + seg_time > end:
            seg_time = _clamped(t, seg_time, end)
        if now < t + seg_time:
            f = max(0.0, (now - t) / seg_time)
            return (p[0] + (target[0] - p[0]) * f, p[1] + (target[1] - p[1]) * f), passed
        t, p = t + seg_time, target
        if node is not None:
            passed.append(node)
    return p, passed
