"""The ground's exact geometry (sim.space.ground) against a reference in rational arithmetic.

The reference below cuts the segment where it meets the outline, exactly
(``fractions.Fraction``; a square root, for a length, to 50 digits), classifies each
piece by its midpoint, and reads each event off the pieces as ``sim.space.ground``'s
docstring says. Coordinates are on a grid of 1/4, so every float input is the rational
it stands for, and every cut the code computes is one quotient of exact products,
rounded once: the code must agree to 1e-12 (a fraction s of the segment, or a length
relative to the larger of 1 and itself): a thousand times the rounding of a few
operations, and far below the ground's tolerance (1e-9 of the coordinates' scale), which
no two distinct cuts on such a grid come within.
"""
from __future__ import annotations

import doctest
import math
from decimal import Decimal, localcontext
from fractions import Fraction as F

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import sim
from conftest import build, scenario, table, unit
from sim.space import ground
from sim.space.ground import (
    Area,
    Edge,
    FeatureError,
    Line,
    edge,
    first_crossing_line,
    first_entry_area,
    first_on_edge,
    inside_length,
    reach_inside,
)

PROPS = settings(max_examples=400, deadline=None, derandomize=True)
CLOSE = 1e-12
IN, OUT, ON = 1, -1, 0


# -- the exact reference --------------------------------------------------------------
def _q(p):
    return F(p[0]), F(p[1])


def _cross(ax, ay, bx, by):
    return ax * by - ay * bx


def _on_piece(p, a, b):
    """p on the closed segment a-b, exactly."""
    if _cross(b[0] - a[0], b[1] - a[1], p[0] - a[0], p[1] - a[1]) != 0:
        return False
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def _edges(pts, closed):
    n = len(pts)
    return [(pts[i], pts[(i + 1) % n]) for i in range(n if closed else n - 1)]


def _contains(pts, p):
    """Crossing number, exactly (p off the boundary)."""
    inside = False
    for a, b in _edges(pts, True):
        if (a[1] > p[1]) != (b[1] > p[1]):
            x = a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
            if p[0] < x:
                inside = not inside
    return inside


def _meetings(p0, p1, pts, closed):
    """Every s in [0, 1] where p0→p1 meets the outline, and the stretches it runs along it."""
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    dd = dx * dx + dy * dy
    cuts, along = set(), []
    for a, b in _edges(pts, closed):
        ex, ey = b[0] - a[0], b[1] - a[1]
        den = _cross(dx, dy, ex, ey)
        rx, ry = a[0] - p0[0], a[1] - p0[1]
        if den != 0:
            s, t = _cross(rx, ry, ex, ey) / den, _cross(rx, ry, dx, dy) / den
            if 0 <= s <= 1 and 0 <= t <= 1:
                cuts.add(s)
        elif _cross(rx, ry, dx, dy) == 0:   # on one line
            sa = (rx * dx + ry * dy) / dd
            sb = ((b[0] - p0[0]) * dx + (b[1] - p0[1]) * dy) / dd
            lo, hi = max(min(sa, sb), F(0)), min(max(sa, sb), F(1))
            if lo <= hi:
                cuts |= {lo, hi}
                if lo < hi:
                    along.append((lo, hi))
    return cuts, along


def _at(p0, p1, s):
    return p0[0] + (p1[0] - p0[0]) * s, p0[1] + (p1[1] - p0[1]) * s


def _kind(pts, p):
    if any(_on_piece(p, a, b) for a, b in _edges(pts, True)):
        return ON
    return IN if _contains(pts, p) else OUT


def ref_pieces(p0, p1, area):
    """(start kind, [(lo, hi, kind)]) of p0→p1 against the area, exactly."""
    p0, p1, pts = _q(p0), _q(p1), [_q(p) for p in area.points]
    if p0 == p1:
        return _kind(pts, p0), []
    cuts, _ = _meetings(p0, p1, pts, True)
    marks = sorted(cuts | {F(0), F(1)})
    return _kind(pts, p0), [(lo, hi, _kind(pts, _at(p0, p1, (lo + hi) / 2))) for lo, hi in zip(marks, marks[1:])]


def ref_entry(p0, p1, area, from_outside=False):
    start, pieces = ref_pieces(p0, p1, area)
    side = (OUT if from_outside else IN) if start == ON else start
    for lo, _, kind in pieces:
        if kind == IN and side == OUT:
            return lo
        if kind != ON:
            side = kind
    return None


def _length(p0, p1):
    with localcontext() as ctx:
        ctx.prec = 50
        dd = (F(p1[0]) - F(p0[0])) ** 2 + (F(p1[1]) - F(p0[1])) ** 2
        return F((Decimal(dd.numerator) / Decimal(dd.denominator)).sqrt())


def ref_inside(p0, p1, area, s):
    s = F(s)
    return sum((min(hi, s) - lo for lo, hi, kind in ref_pieces(p0, p1, area)[1] if kind == IN and lo < s),
               F(0)) * _length(p0, p1)


def ref_reach(p0, p1, area, already, total):
    need = F(total) - F(already)
    if need <= 0:
        return F(0)
    length = _length(p0, p1)
    for lo, hi, kind in ref_pieces(p0, p1, area)[1]:
        if kind == IN:
            if need <= (hi - lo) * length:
                return lo + need / length
            need -= (hi - lo) * length
    return None


def ref_crossing(p0, p1, line):
    """The first s > 0 at which p0→p1 comes onto the line from off it."""
    p0, p1, pts = _q(p0), _q(p1), [_q(p) for p in line.points]
    if p0 == p1:
        return None
    cuts, along = _meetings(p0, p1, pts, False)
    for s in sorted(cuts):
        if s == 0:
            continue
        # off the line just before s: not within a stretch along it that began earlier
        if not any(lo < s <= hi for lo, hi in along):
            return s
    return None


def ref_use(p0, p1, e, using=False):
    p0, p1 = _q(p0), _q(p1)
    if p0 == p1:
        return None
    _, along = _meetings(p0, p1, [_q(e.a), _q(e.b)], False)
    if not along:
        return None
    lo = along[0][0]
    return None if lo == 0 and using else lo


def _agree(got, exact, scale=1.0):
    if exact is None:
        return got is None
    return got is not None and abs(got - float(exact)) <= CLOSE * max(1.0, scale)


# -- generated cases ------------------------------------------------------------------
coord = st.integers(-40, 40).map(lambda k: k / 4)
point = st.tuples(coord, coord)


def _hull(points):
    """The convex hull (no collinear vertices), counter-clockwise, exactly."""
    pts = sorted(set(points))

    def half(seq):
        out = []
        for p in seq:
            while len(out) >= 2 and _cross(out[-1][0] - out[-2][0], out[-1][1] - out[-2][1],
                                           p[0] - out[-2][0], p[1] - out[-2][1]) <= 0:
                out.pop()
            out.append(p)
        return out

    lower, upper = half(pts), half(reversed(pts))
    return lower[:-1] + upper[:-1]


@st.composite
def polygons(draw):
    """A simple polygon: a convex hull, or a star (points sorted by angle about their mean)."""
    pts = draw(st.lists(point, min_size=3, max_size=9, unique=True))
    if draw(st.booleans()):
        pts = _hull(pts)
    else:
        cx, cy = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
        pts.sort(key=lambda p: (math.atan2(p[1] - cy, p[0] - cx), math.hypot(p[0] - cx, p[1] - cy)))
    assume(len(pts) >= 3)
    try:
        return Area("a", tuple(pts))
    except FeatureError:
        assume(False)


def _special(points):
    """Points that make degenerate cases likely: vertices, edge midpoints, points on an edge's line."""
    out = list(points)
    for a, b in zip(points, points[1:] + points[:1]):
        out += [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), (2 * b[0] - a[0], 2 * b[1] - a[1]),
                (2 * a[0] - b[0], 2 * a[1] - b[1])]
    return out


@st.composite
def area_cases(draw):
    area = draw(polygons())
    special = st.sampled_from(_special(list(area.points)))
    p0 = draw(st.one_of(point, special))
    p1 = draw(st.one_of(point, special))
    return area, p0, p1


@st.composite
def line_cases(draw):
    pts = draw(st.lists(point, min_size=2, max_size=5))
    assume(all(a != b for a, b in zip(pts, pts[1:])))
    line = Line("l", tuple(pts))
    special = st.sampled_from(_special(pts))
    return line, draw(st.one_of(point, special)), draw(st.one_of(point, special))


@PROPS
@given(area_cases(), st.booleans())
def test_first_entry_area_is_the_exact_entry(case, from_outside):
    area, p0, p1 = case
    got = first_entry_area(p0, p1, area, from_outside=from_outside)
    assert _agree(got, ref_entry(p0, p1, area, from_outside)), (got, ref_entry(p0, p1, area, from_outside))


@PROPS
@given(area_cases(), st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]))
def test_inside_length_is_the_exact_length_inside(case, s):
    area, p0, p1 = case
    got, exact = inside_length(p0, p1, area, s), ref_inside(p0, p1, area, s)
    assert _agree(got, exact, float(exact)), (got, float(exact))


@PROPS
@given(area_cases(), st.integers(0, 80).map(lambda k: k / 8), st.integers(1, 160).map(lambda k: k / 8))
def test_reach_inside_is_where_the_length_inside_reaches_the_total(case, already, more):
    area, p0, p1 = case
    total = already + more
    got, exact = reach_inside(p0, p1, area, already, total), ref_reach(p0, p1, area, already, total)
    assert _agree(got, exact), (got, exact)
    if got is not None:   # and the length inside up to there is the total
        assert already + inside_length(p0, p1, area, got) == pytest.approx(total, rel=CLOSE, abs=CLOSE)


@PROPS
@given(line_cases())
def test_first_crossing_line_is_where_the_mover_first_comes_onto_it(case):
    line, p0, p1 = case
    got = first_crossing_line(p0, p1, line)
    assert _agree(got, ref_crossing(p0, p1, line)), (got, ref_crossing(p0, p1, line))


@PROPS
@given(point, point, st.sampled_from([((0.0, 0.0), (5.0, 0.0)), ((-2.5, 1.25), (3.0, -4.0)), ((1.0, 1.0), (1.0, 6.0))]),
       st.booleans())
def test_first_on_edge_is_where_the_mover_starts_to_run_along_it(p0, p1, ends, using):
    e = Edge("e", *ends)
    got = first_on_edge(p0, p1, e, using=using)
    assert _agree(got, ref_use(p0, p1, e, using))
    a, b = ends   # and segments on the edge's own line, each way, and to and from it
    q0, q1 = (a[0] + (b[0] - a[0]) * 2, a[1] + (b[1] - a[1]) * 2), (a[0] - (b[0] - a[0]), a[1] - (b[1] - a[1]))
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    for seg in ((q0, q1), (q1, q0), (p0, a), (a, b), (b, a), (b, q0), (mid, q1), (q1, b), (p0, mid), (mid, p1)):
        assert _agree(first_on_edge(*seg, e, using=using), ref_use(*seg, e, using)), seg


# -- named cases ----------------------------------------------------------------------
SQUARE = Area("square", ((0, 0), (10, 0), (10, 10), (0, 10)))
# An L: its reflex vertex at (10, 10)
ELL = Area("ell", ((0, 0), (20, 0), (20, 10), (10, 10), (10, 20), (0, 20)))


@pytest.mark.parametrize(("p0", "p1", "area", "expected"), [
    ((-5, -5), (5, 5), SQUARE, 0.5),          # in through a vertex
    ((-5, 5), (5, -5), SQUARE, None),         # touches a vertex only (tangent)
    ((-5, 0), (15, 0), SQUARE, None),         # along an edge, never in
    ((-5, 10), (15, 10), SQUARE, None),       # along the top edge
    ((5, 5), (15, 5), SQUARE, None),          # starts inside: no entry
    ((-5, 5), (0, 5), SQUARE, None),          # ends exactly on the boundary: not in yet
    ((0, 5), (5, 5), SQUARE, None),           # starts on the boundary going in: no entry at 0
    ((5, 5), (5, 5), SQUARE, None),           # no length
    ((-5, 5), (15, 5), SQUARE, 0.25),         # straight through
    ((30, 10), (0, 10), ELL, 2 / 3),          # along an edge to the reflex vertex, then in
    ((10, 30), (10, 0), ELL, 2 / 3),          # the same from above
    ((25, 5), (15, 15), ELL, None),           # touches the vertex (20, 10) and goes into the notch
    ((25, 25), (5, 5), ELL, 0.75),            # across the notch: in at the reflex vertex
    ((25, 5), (5, 5), ELL, 0.25),
])
def test_named_entries(p0, p1, area, expected):
    got = first_entry_area(p0, p1, area)
    assert got == pytest.approx(expected, abs=CLOSE) if expected is not None else got is None
    assert _agree(got, ref_entry(p0, p1, area))


def test_a_start_on_the_boundary_from_outside_enters_at_once():
    assert first_entry_area((0, 5), (5, 5), SQUARE, from_outside=True) == 0.0
    assert first_entry_area((0, 5), (-5, 5), SQUARE, from_outside=True) is None   # going away
    assert first_entry_area((0, 0), (0, 10), SQUARE, from_outside=True) is None    # along the edge
    assert first_entry_area((0, 0), (5, 5), SQUARE, from_outside=True) == 0.0     # at a vertex
    assert first_entry_area((0, 0), (5, 5), SQUARE) is None


@pytest.mark.parametrize(("p0", "p1", "s", "expected"), [
    ((-5, 5), (15, 5), 1.0, 10.0), ((-5, 5), (15, 5), 0.5, 5.0), ((5, 5), (15, 5), 1.0, 5.0),
    ((-5, 0), (15, 0), 1.0, 0.0),   # along an edge is not inside
    ((5, 5), (5, 5), 1.0, 0.0), ((30, 10), (0, 10), 1.0, 10.0),
])
def test_named_lengths_inside(p0, p1, s, expected):
    area = ELL if p0 == (30, 10) else SQUARE
    assert inside_length(p0, p1, area, s) == pytest.approx(expected, abs=CLOSE)
    assert _agree(inside_length(p0, p1, area, s), ref_inside(p0, p1, area, s), expected)


def test_named_reaches():
    assert reach_inside((-5, 5), (15, 5), SQUARE, 0.0, 5.0) == pytest.approx(0.5)
    assert reach_inside((-5, 5), (15, 5), SQUARE, 3.0, 5.0) == pytest.approx(0.35)
    assert reach_inside((-5, 5), (15, 5), SQUARE, 0.0, 10.0) == pytest.approx(0.75)   # at the far edge
    assert reach_inside((-5, 5), (15, 5), SQUARE, 0.0, 10.5) is None
    assert reach_inside((5, 5), (5, 5), SQUARE, 3.0, 3.0) == 0.0          # reached already
    assert reach_inside((5, 5), (5, 5), SQUARE, 3.0, 4.0) is None


LINE = Line("wire", ((0, 0), (10, 0), (10, 10)))
VEE = Line("vee", ((0, 10), (5, 0), (10, 10)))


@pytest.mark.parametrize(("p0", "p1", "line", "expected"), [
    ((5, -5), (5, 5), LINE, 0.5),        # across
    ((5, -5), (5, 0), LINE, 1.0),        # ends on it: it came onto it
    ((5, 0), (5, 5), LINE, None),        # starts on it: not again
    ((5, 0), (5, -5), LINE, None),
    ((-5, 0), (5, 0), LINE, 0.5),        # onto a stretch it then runs along: its first point
    ((0, -5), (10, 5), LINE, 0.5),       # across at (5, 0), on to the far piece's foot... (10, 5)
    ((0, -5), (20, 15), LINE, 0.25),     # the first of two crossings
    ((-5, 0), (20, 0), VEE, 0.4),        # touches the vee's tip: comes onto it
    ((15, 0), (15, 10), LINE, None),     # beside it
    ((12, -5), (12, 5), LINE, None),
    ((5, 5), (5, 5), LINE, None),        # no length
    ((10, 0), (10, 10), LINE, None),     # starts on it and runs along it
    ((0, 5), (20, 5), LINE, 0.5),
])
def test_named_crossings(p0, p1, line, expected):
    got = first_crossing_line(p0, p1, line)
    assert got == pytest.approx(expected, abs=CLOSE) if expected is not None else got is None
    assert _agree(got, ref_crossing(p0, p1, line))


BRIDGE = Edge("bridge", (10.0, 0.0), (20.0, 0.0))


@pytest.mark.parametrize(("p0", "p1", "using", "expected"), [
    ((0, 0), (30, 0), False, 1 / 3),      # runs along it from its first end
    ((10, 0), (20, 0), False, 0.0),       # the route's leg itself
    ((10, 0), (20, 0), True, None),       # it was on it already
    ((20, 0), (0, 0), False, 0.0),        # either way
    ((15, -5), (15, 5), False, None),     # crosses it: not a use
    ((0, 1), (30, 1), False, None),       # a parallel neighbour
    ((0, 0), (10, 0), False, None),       # touches its end only
    ((25, 0), (40, 0), False, None),      # its line, not it
    ((15, 0), (15, 0), False, None),      # no length
])
def test_named_uses(p0, p1, using, expected):
    got = first_on_edge(p0, p1, BRIDGE, using=using)
    assert got == pytest.approx(expected, abs=CLOSE) if expected is not None else got is None
    assert _agree(got, ref_use(p0, p1, BRIDGE, using))


# -- features and their checks -------------------------------------------------------
@pytest.mark.parametrize(("make", "message"), [
    (lambda: Area("a", ((0, 0), (1, 0))), r"Area 'a' points: expected a sequence of at least 3 points"),
    (lambda: Area("a", ((0, 0), (1, 0), (2, 0))), r"fold back"),
    (lambda: Area("a", ((0, 0), (2, 0), (0, 2), (2, 2))), r"edges 1 and 3 cross or touch"),
    (lambda: Area("a", ((0, 0), (1, 0), (1, 1), (0, 0))), r"point 3 repeats point 0 \(an area is closed"),
    (lambda: Area("a", ((0, 0), (1, 0), (math.inf, 1))), r"points\[2\]: expected a point"),
    (lambda: Area("", ((0, 0), (1, 0), (1, 1))), r"Area id: expected a non-empty string"),
    (lambda: Line("l", ((0, 0),)), r"Line 'l' points: expected a sequence of at least 2"),
    (lambda: Line("l", ((0, 0), (0, 0))), r"point 1 repeats point 0"),
    (lambda: Edge("e", (1, 1), (1, 1)), r"Edge 'e': its ends are the same point"),
    (lambda: Edge("e", (1, 1), (1, float("nan"))), r"Edge 'e' points\[1\]: expected a point"),
])
def test_a_feature_that_is_no_shape_is_one_line_naming_it(make, message):
    with pytest.raises(FeatureError, match=message) as err:
        make()
    assert isinstance(err.value, sim.InputError) and isinstance(err.value, ValueError)
    assert "\n" not in str(err.value)


def test_features_have_their_bounds_and_edge_reads_the_map():
    assert ELL.bounds == (0.0, 0.0, 20.0, 20.0) and LINE.bounds == (0.0, 0.0, 10.0, 10.0)
    terrain = build(scenario(table({"A": (0, 50), "B": (40, 50), "C": (40, 90)}, [("A", "B"), ("B", "C")]),
                             [unit("b", "A")], [unit("r", "C")])).map
    e = edge(terrain, "A", "B")
    assert e == Edge("A-B", (0.0, 50.0), (40.0, 50.0)) and e.bounds == (0.0, 50.0, 40.0, 50.0)
    assert edge(terrain, "B", "C", id="lane").id == "lane"
    with pytest.raises(sim.InputError, match=r"^v: the map has no edge A–C"):
        edge(terrain, "A", "C")
    with pytest.raises(sim.InputError, match=r"^u: expected a node of the map, got 'Z'"):
        edge(terrain, "Z", "C")
    twins = build(scenario(table({"A": (0, 50), "B": (0, 50), "C": (40, 50)}, [("A", "B"), ("B", "C")]),
                           [unit("b", "A")], [unit("r", "C")])).map
    with pytest.raises(sim.InputError, match=r"^v: the map's edge A–B has no length \(both nodes stand at"):
        edge(twins, "A", "B")


def test_the_functions_refuse_what_is_no_point_or_feature():
    with pytest.raises(sim.InputError, match=r"^p0: expected a point"):
        first_entry_area((0, math.nan), (1, 1), SQUARE)
    with pytest.raises(sim.InputError, match=r"^area: expected a sim.plugin.Area"):
        inside_length((0, 0), (1, 1), LINE, 0.5)
    with pytest.raises(sim.InputError, match=r"^s: expected a finite number in \[0.0, 1.0\]"):
        inside_length((0, 0), (1, 1), SQUARE, 1.5)


def test_the_docstring_examples_hold():
    assert doctest.testmod(ground).failed == 0
