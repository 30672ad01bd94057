"""Exact reaction geometry (sim.space.geometry): SF.TRIGGER / SF.HALT's closed forms.

'Within' the radius is inclusive: a segment that just grazes the circle (tangent) comes
within the radius at the tangent point and so triggers; one that misses by 1e-6 does not.
"""
from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sim.space.geometry import dist, first_entry, first_entry_both_moving, lerp, moving_closer

PROPS = settings(max_examples=150, deadline=None, derandomize=True)

coord = st.floats(-100, 100, allow_nan=False, allow_infinity=False)
point = st.tuples(coord, coord)
radius = st.floats(0.5, 50, allow_nan=False)
angle = st.floats(0, 2 * math.pi, allow_nan=False)


def closest_on_segment(p0, p1, c) -> float:
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    a = dx * dx + dy * dy
    s = 0.0 if a == 0 else max(0.0, min(1.0, ((c[0] - p0[0]) * dx + (c[1] - p0[1]) * dy) / a))
    return dist(lerp(p0, p1, s), c)


@PROPS
@given(point, point, point, radius)
def test_sf_halt_point_is_on_the_radius_and_nothing_before_it_is_inside(p0, p1, c, r):
    """SF.HALT: the first-entry point lies on the circle (to 1e-6); SF.TRIGGER: no earlier
    point of the walked path came within the radius (sampled densely)."""
    assume(dist(p0, c) > r + 1e-6 and dist(p0, p1) > 1e-3)
    s = first_entry(p0, p1, c, r)
    if s is None:
        # Never within r anywhere on the segment.
        assert closest_on_segment(p0, p1, c) > r - 1e-9
        return
    assert 0.0 <= s <= 1.0
    halt = lerp(p0, p1, s)
    assert abs(dist(halt, c) - r) <= 1e-6
    n = 400
    for k in range(n):
        q = lerp(p0, p1, s * k / n)  # strictly before the halt point
        assert dist(q, c) > r - 1e-9
    # And the halt is really the first entry: the path does reach the circle there.
    assert closest_on_segment(p0, p1, c) <= r + 1e-9


@PROPS
@given(point, radius, angle, st.floats(1, 80), st.floats(1, 80))
def test_sf_trigger_tangent_segment_grazes_and_triggers(c, r, theta, before, after):
    """SF.TRIGGER: 'within' is inclusive, so a segment tangent to the circle triggers at
    the tangent point (to rounding)."""
    n = (math.cos(theta), math.sin(theta))          # outward normal at the tangent point
    u = (-n[1], n[0])                                # the tangent direction
    tp = (c[0] + r * n[0], c[1] + r * n[1])
    p0 = (tp[0] - before * u[0], tp[1] - before * u[1])
    p1 = (tp[0] + after * u[0], tp[1] + after * u[1])
    s = first_entry(p0, p1, c, r)
    assert s is not None, "a tangent segment touches the circle: within is inclusive"
    hit = lerp(p0, p1, s)
    assert abs(dist(hit, c) - r) <= 1e-6
    assert dist(hit, tp) <= 1e-4          # at the tangent point (ill-conditioned, ~sqrt(eps·r))


@PROPS
@given(point, radius, angle, st.floats(1, 80), st.floats(1, 80))
def test_sf_trigger_segment_missing_by_1e6_does_not_trigger(c, r, theta, before, after):
    """SF.TRIGGER: a segment passing 1e-6 outside the radius never comes within it."""
    n = (math.cos(theta), math.sin(theta))
    u = (-n[1], n[0])
    tp = (c[0] + (r + 1e-6) * n[0], c[1] + (r + 1e-6) * n[1])
    p0 = (tp[0] - before * u[0], tp[1] - before * u[1])
    p1 = (tp[0] + after * u[0], tp[1] + after * u[1])
    assert first_entry(p0, p1, c, r) is None


def test_tangent_axis_aligned_exact():
    # y = 10 grazes the circle of radius 10 about the origin at (0, 10).
    s = first_entry((-30.0, 10.0), (10.0, 10.0), (0.0, 0.0), 10.0)
    assert s == pytest.approx(0.75, abs=1e-6)
    assert first_entry((-30.0, 10.000001), (10.0, 10.000001), (0.0, 0.0), 10.0) is None


def test_first_entry_simple_cases():
    # enters at x = 2 (the module's own example), 10 % of the way along
    assert first_entry((0, 0), (20, 0), (10, 6), 10.0) == pytest.approx(0.1)
    # starts inside: s = 0
    assert first_entry((10, 0), (20, 0), (10, 6), 10.0) == 0.0
    # moving away: never
    assert first_entry((-5, 0), (-40, 0), (10, 6), 10.0) is None
    # stops 1e-6 short of the circle: never on this segment
    assert first_entry((-20, 0), (2 - 1e-6, 0), (10, 6), 10.0) is None
    # ends exactly on the circle: s = 1
    assert first_entry((-20, 0), (2, 0), (10, 6), 10.0) == pytest.approx(1.0)
    # zero-length segment outside: never
    assert first_entry((0, 0), (0, 0), (10, 6), 5.0) is None


@PROPS
@given(point, point, point)
def test_sf_inside_moving_closer_is_the_sign_of_the_distance_derivative(p0, p1, c):
    """SF.INSIDE's test: leaving p0 towards p1 reduces the distance to c."""
    d = (p1[0] - p0[0], p1[1] - p0[1])
    f = (p0[0] - c[0], p0[1] - c[1])
    dot = d[0] * f[0] + d[1] * f[1]
    assume(abs(dot) > 1e-3 * max(1.0, math.hypot(*d) * math.hypot(*f)))
    eps = 1e-7
    step = lerp(p0, p1, eps)
    assert moving_closer(p0, p1, c) == (dist(step, c) < dist(p0, c))


def test_moving_closer_examples():
    assert moving_closer((0, 0), (1, 0), (5, 0))
    assert not moving_closer((0, 0), (-1, 0), (5, 0))
    assert not moving_closer((0, 0), (0, 1), (5, 0))      # tangential: not closer
    assert not moving_closer((0, 0), (0, 0), (5, 0))      # standing still: not closer
    # along the circle to rounding (exactly, this one is a hair outward): not closer
    assert not moving_closer((2.2927452698427317, 12.058435564147242), (19.07427553616845, 20.181396911923077),
                             (0.11431784483568741, 16.55893042071326))
    assert moving_closer((0, 0), (1e-6, -1), (5, 0))      # a hair inward, well past rounding


vel = st.tuples(st.floats(-30, 30), st.floats(-30, 30))


@PROPS
@given(point, vel, point, vel, radius)
def test_first_entry_both_moving_is_exact_and_first(p, v, q, w, r):
    """Two movers: the earliest time their distance is r, exactly, and never before."""
    def gap(t):
        return math.hypot(p[0] + v[0] * t - q[0] - w[0] * t, p[1] + v[1] * t - q[1] - w[1] * t)

    assume(gap(0) > r + 1e-6)
    t = first_entry_both_moving(p, v, q, w, r)
    ux, uy = v[0] - w[0], v[1] - w[1]
    rx, ry = p[0] - q[0], p[1] - q[1]
    a = ux * ux + uy * uy
    # A relative speed of ~1e-20 puts the meeting ~1e20 time units away, where the test's
    # own gap() has no significant digits left: not a case the engine ever meets.
    assume(a == 0 or a > 1e-12)
    t_star = 0.0 if a == 0 else max(0.0, -(rx * ux + ry * uy) / a)   # closest approach
    if t is None:
        assert gap(t_star) > r - 1e-9
        return
    assert t >= 0
    assert abs(gap(t) - r) <= 1e-6
    for k in range(200):
        assert gap(t * k / 200) > r - 1e-9
    assert gap(t_star) <= r + 1e-9


@PROPS
@given(point, point, point, radius, st.floats(0.1, 10))
def test_first_entry_both_moving_agrees_with_segment_when_one_stands(p0, p1, c, r, T):
    """With the second mover standing still, the time is the segment fraction × duration."""
    assume(dist(p0, c) > r + 1e-6 and dist(p0, p1) > 1e-2)
    v = ((p1[0] - p0[0]) / T, (p1[1] - p0[1]) / T)
    t = first_entry_both_moving(p0, v, c, (0.0, 0.0), r)
    s = first_entry(p0, p1, c, r)
    if s is not None:
        assert t is not None and t == pytest.approx(s * T, rel=1e-6, abs=1e-6)
    elif t is not None:
        assert t > T - 1e-6          # the entry lies beyond this segment's end


def test_first_entry_both_moving_examples():
    # head-on at closing speed 2 from 20 apart, radius 10: t = 5
    assert first_entry_both_moving((0, 0), (1, 0), (20, 0), (-1, 0), 10.0) == pytest.approx(5.0)
    # same velocity: never closer
    assert first_entry_both_moving((0, 0), (1, 0), (20, 0), (1, 0), 10.0) is None
    # already within: 0
    assert first_entry_both_moving((0, 0), (1, 0), (5, 0), (0, 0), 10.0) == 0.0
    # diverging
    assert first_entry_both_moving((0, 0), (-1, 0), (20, 0), (1, 0), 10.0) is None


@PROPS
@given(point, radius, angle, st.floats(1, 80), vel)
def test_first_entry_both_moving_tangent_pass_counts(c, r, theta, before, w):
    """'Within' is inclusive for two movers too: a relative path tangent to the circle
    comes within r at the tangent instant; missing by 1e-6 does not."""
    n = (math.cos(theta), math.sin(theta))
    u = (-n[1], n[0])
    for off, expect in ((0.0, True), (1e-6, False)):
        tp = (c[0] + (r + off) * n[0], c[1] + (r + off) * n[1])
        p = (tp[0] - before * u[0], tp[1] - before * u[1])
        v = (u[0] + w[0], u[1] + w[1])           # relative velocity u, the other moves with w
        t = first_entry_both_moving(p, v, c, w, r)
        assert (t is not None) == expect
        if expect:
            assert t == pytest.approx(before, abs=1e-3)
