"""Hex geometry: offset rows, centres, distances, neighbours and line drawing."""
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.space.hex_coords import (
    DIRECTIONS,
    axial_to_offset,
    axial_to_xy,
    hex_distance,
    hex_line,
    neighbours,
    node_id,
    offset_to_axial,
)

coords = st.integers(-12, 12)
hexes = st.tuples(coords, coords)


@pytest.mark.parametrize("col,row,axial", [
    (0, 0, (0, 0)), (3, 0, (3, 0)), (0, 1, (0, 1)), (2, 1, (2, 1)),
    (0, 2, (-1, 2)), (3, 2, (2, 2)), (0, 3, (-1, 3)), (4, 5, (2, 5)),
])
def test_offset_to_axial_known_values(col, row, axial):
    assert offset_to_axial(col, row) == axial
    assert axial_to_offset(*axial) == (col, row)


def test_odd_rows_are_shifted_right_by_half_a_hex():
    x0, _ = axial_to_xy(*offset_to_axial(0, 0))
    x1, _ = axial_to_xy(*offset_to_axial(0, 1))
    x2, _ = axial_to_xy(*offset_to_axial(0, 2))
    assert (x0, x1, x2) == (0.0, 0.5, 0.0)


def test_y_grows_with_row():
    ys = [axial_to_xy(*offset_to_axial(0, row))[1] for row in range(4)]
    assert ys == sorted(ys) and len(set(ys)) == 4


@given(hexes)
def test_neighbour_centres_are_one_apart(h):
    p = axial_to_xy(*h)
    for n in neighbours(*h):
        assert math.dist(p, axial_to_xy(*n)) == pytest.approx(1.0, abs=1e-12)


def test_neighbours_fixed_order_and_distance_one():
    assert neighbours(2, -1) == [(3, -1), (3, -2), (2, -2), (1, -1), (1, 0), (2, 0)]
    assert [(dq, dr) for dq, dr in DIRECTIONS] == [(n[0] - 2, n[1] + 1) for n in neighbours(2, -1)]
    assert all(hex_distance((2, -1), n) == 1 for n in neighbours(2, -1))


@pytest.mark.parametrize("a,b,d", [
    ((0, 0), (0, 0), 0), ((0, 0), (3, 0), 3), ((0, 0), (2, -1), 2),
    ((0, 0), (1, 1), 2), ((-2, 3), (1, -1), 4), ((0, 0), (0, -5), 5),
])
def test_hex_distance_known_values(a, b, d):
    assert hex_distance(a, b) == d
    assert hex_distance(b, a) == d


@given(hexes, hexes)
def test_hex_distance_at_least_euclidean(a, b):
    # Centres k hexes apart are at most k apart (Terrain.within relies on it).
    assert math.dist(axial_to_xy(*a), axial_to_xy(*b)) <= hex_distance(a, b) + 1e-9


def test_node_id():
    assert node_id(3, -1) == "3,-1"


def test_straight_line_is_single_and_includes_ends():
    assert hex_line((0, 0), (3, 0)) == [[(0, 0), (1, 0), (2, 0), (3, 0)]]
    assert hex_line((1, 1), (1, 1)) == [[(1, 1)]]


def test_line_along_hexside_gives_both_candidates():
    lines = hex_line((0, 0), (1, 1))
    assert sorted(lines) == [[(0, 0), (0, 1), (1, 1)], [(0, 0), (1, 0), (1, 1)]]


def test_long_hexside_line_keeps_each_side_whole():
    lines = sorted(hex_line((0, 0), (2, 2)))
    assert lines == [[(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)],
                     [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)]]


def test_generic_line_is_unambiguous():
    assert hex_line((0, 0), (3, -1)) == [[(0, 0), (1, 0), (2, -1), (3, -1)]]


@given(hexes, hexes)
def test_lines_are_contiguous_and_end_to_end(a, b):
    lines = hex_line(a, b)
    assert 1 <= len(lines) <= 2
    for line in lines:
        assert line[0] == a and line[-1] == b
        assert len(line) == hex_distance(a, b) + 1
        assert all(hex_distance(p, q) == 1 for p, q in zip(line, line[1:]))
