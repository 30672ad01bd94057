"""Line of sight, intervening hindrance and the H17 cover modifier, hex and tabletop."""
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.space import build_terrain


def hexmap(*rows):
    return build_terrain({"kind": "hex", "rows": list(rows)})


# -- hex maps -----------------------------------------------------------------------

def test_woods_between_blocks():
    t = hexmap(".W..")
    assert t.los("0,0", "3,0") is False
    assert t.los("0,0", "2,0") is False


def test_woods_at_the_ends_do_not_block():
    t = hexmap("W..W")
    assert t.los("0,0", "3,0") is True
    assert t.hindrance("0,0", "3,0") == 0


def test_adjacent_and_same_hex_always_see():
    t = hexmap("WW", "WW")
    assert t.los("0,0", "1,0") and t.los("0,0", "0,1") and t.los("1,1", "1,1")
    assert t.hindrance("0,0", "1,0") == 0


# (0,0) -> (1,1) runs along the hexside between (1,0) [row 0, col 1] and (0,1) [row 1, col 0].
@pytest.mark.parametrize("rows,seen", [
    ((".W", ".."), True),   # only one side blocks: the viewer gets the benefit
    (("..", "W."), True),   # the other side alone
    ((".W", "W."), False),  # both sides block
    ((".B", "X."), False),
])
def test_hexside_line_needs_one_clear_side(rows, seen):
    t = hexmap(*rows)
    assert t.los("0,0", "1,1") is seen
    assert t.los("1,1", "0,0") is seen


# (0,0) -> (2,2) runs along hexsides; one candidate line passes (0,1) (1,1) (1,2)
# [offsets (0,1) (1,1) (2,2)], the other (1,0) (1,1) (2,1) [offsets (1,0) (1,1) (2,1)].
def test_hexside_hindrance_is_the_clear_line_with_smaller_sum():
    t = hexmap(".H..",
               "H...",
               "..H.")
    assert t.los("0,0", "2,2") is True
    assert t.hindrance("0,0", "2,2") == 1


def test_hexside_hindrance_ignores_the_blocked_line():
    t = hexmap(".H..",
               "H.W.",
               "..H.")
    assert t.los("0,0", "2,2") is True
    assert t.hindrance("0,0", "2,2") == 2


def test_two_hindrance_hexes_sum():
    t = hexmap(".HH.W")
    assert t.los("0,0", "3,0") is True
    assert t.hindrance("0,0", "3,0") == 2
    assert t.hindrance("0,0", "1,0") == 0  # an end hex never counts
    assert t.hindrance("1,0", "3,0") == 1


def test_cover_modifier_is_target_cover_plus_hindrance():
    t = hexmap(".HH.W", ".....")
    # Target in woods (cover 2) seen from "1,0" past "2,0" and "3,0": one hedge (1).
    assert t.cover_modifier("4,0", "1,0") == 2 + 1
    assert t.cover_modifier("3,0", "0,0") == 0 + 2
    # The viewer's own hex adds nothing; the target's hex adds its cover only.
    assert t.cover_modifier("1,0", "0,0") == 1
    assert t.cover_modifier("0,0", "1,0") == 0


def test_hex_sight_is_symmetric_over_a_cluttered_map():
    t = hexmap("..W.H.", ".H..W.", "W..B..", "..HH..", ".W...R", "....W.")
    for a, b in itertools.combinations(t.nodes, 2):
        assert t.los(a, b) == t.los(b, a)
        assert t.hindrance(a, b) == t.hindrance(b, a)


def test_hex_los_xy_uses_the_hexes_holding_the_points():
    t = hexmap("..W..")
    (x0, y0), (x3, y3) = t.pos("0,0"), t.pos("3,0")
    assert t.los_xy((x0 + 0.3, y0 + 0.2), (x3 + 0.3, y3)) is False
    assert t.los_xy((x0, y0), (x3 - 0.6, y3)) is True  # in the woods hex: an end, no block
    assert t.los_xy((x0, y0), (x3 - 0.4, y3)) is False  # in hex 3,0, behind the woods


# -- tabletop maps ------------------------------------------------------------------

WOOD = {"name": "wood", "polygon": [[40, 30], [60, 30], [60, 50], [40, 50]],
        "cover": 2, "hindrance": 1, "blocks_sight": True, "cost": 2}


def table(*areas, **waypoints):
    return build_terrain({"kind": "table", "width": 120, "height": 80, "areas": list(areas),
                          "waypoints": waypoints or {"A": [0, 0]}})


def test_table_wood_between_blocks():
    t = table(WOOD, A=[0, 40], B=[100, 40])
    assert t.los("A", "B") is False
    assert t.los_xy((0, 40), (100, 40)) is False
    assert t.los_xy((0, 10), (100, 10)) is True


def test_table_viewer_inside_the_wood_sees_out_and_is_seen():
    t = table(WOOD, IN=[50, 40], OUT=[100, 40])
    assert t.los("IN", "OUT") is True and t.los("OUT", "IN") is True
    assert t.hindrance("IN", "OUT") == 0
    assert t.los_xy((40, 40), (100, 40)) is True  # on the wood's edge counts as inside


def test_table_two_units_in_the_same_wood_see_each_other():
    t = table(WOOD)
    assert t.los_xy((42, 32), (58, 48)) is True


def test_table_touching_a_corner_or_edge_does_not_block():
    t = table(WOOD)
    # x + y = 70 meets the wood (x >= 40, y >= 30) only at its corner (40, 30).
    assert t.los_xy((30, 40), (50, 20)) is True
    assert t.hindrance_xy((30, 40), (50, 20)) == 0
    assert t.los_xy((40, 20), (40, 60)) is True   # along the west edge
    assert t.los_xy((30, 40), (50, 19.9)) is True
    assert t.los_xy((30, 40), (50, 20.1)) is False  # just clips the corner's interior


def test_table_concave_area_does_not_block_through_its_notch():
    u_shape = dict(WOOD, polygon=[[40, 30], [80, 30], [80, 60], [70, 60], [70, 40],
                                  [50, 40], [50, 60], [40, 60]])
    t = table(u_shape)
    assert t.los_xy((60, 45), (60, 79)) is True    # up the open notch
    assert t.los_xy((60, 45), (60, 0)) is False    # down through the base


def test_table_hindrance_sums_crossed_areas_but_not_end_areas():
    hedge1 = {"name": "h1", "polygon": [[20, 0], [25, 0], [25, 80], [20, 80]], "terrain": "hedge"}
    hedge2 = {"name": "h2", "polygon": [[60, 0], [65, 0], [65, 80], [60, 80]], "terrain": "hedge"}
    t = table(hedge1, hedge2)
    assert t.los_xy((0, 40), (100, 40)) is True
    assert t.hindrance_xy((0, 40), (100, 40)) == 2
    assert t.hindrance_xy((22, 40), (100, 40)) == 1  # the viewer stands in h1
    assert t.hindrance_xy((100, 40), (0, 40)) == 2


def test_table_node_and_point_sight_agree_and_are_symmetric():
    t = table(WOOD, A=[0, 40], B=[100, 45], C=[50, 0], D=[50, 79])
    for a, b in itertools.permutations(t.nodes, 2):
        assert t.los(a, b) == t.los_xy(t.pos(a), t.pos(b)) == t.los(b, a)
    assert t.los("C", "D") is False and t.los("A", "C") is True


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.floats(0, 90), st.floats(0, 90), st.floats(0.5, 30), st.floats(0.5, 30),
                          st.booleans(), st.integers(0, 3)), min_size=1, max_size=8),
       st.lists(st.tuples(st.floats(0, 120), st.floats(0, 120), st.floats(0, 120), st.floats(0, 120)),
                min_size=1, max_size=30))
def test_table_sight_quick_refusal_by_boxes_gives_shapelys_answer(rects, lines):
    """A sight line clear of every area's bounding box is clear without shapely: for any
    areas and lines (corners and edges grazed included), the answer is shapely's."""
    from shapely.geometry import LineString, Point, Polygon

    from sim.space.features import Area, TerrainType
    from sim.space.los import TableSight

    areas = [Area(f"a{i}", Polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)]),
                  TerrainType(f"t{i}", hindrance=hd, blocks_sight=bl))
             for i, (x, y, w, h, bl, hd) in enumerate(rects)]
    sight = TableSight(areas)

    def shapely_alone(p, q):             # the tabletop rule, area by area
        line = LineString([p, q])
        through = [a for a in areas if line.intersects(a.polygon) and not a.polygon.intersects(Point(p))
                   and not a.polygon.intersects(Point(q)) and not line.touches(a.polygon)]
        return not any(a.type.blocks_sight for a in through), sum(a.type.hindrance for a in through)

    corners = [c for a in areas for c in a.polygon.exterior.coords]
    for x0, y0, x1, y1 in lines + [(corners[0][0], corners[0][1] - 5, corners[0][0], corners[0][1] + 5)]:
        p, q = (x0, y0), (x1, y1)
        if p != q:
            assert sight.between(p, q) == shapely_alone(p, q)
