"""Terrain builders (hex rows, hex size+specials, tabletop) and the Terrain queries that
do not involve sight or paths; bad input fails with InputError naming the key path."""
import math

import pytest

from sim.errors import InputError
from sim.space import Terrain, build_terrain


def hexmap(*rows, **extra):
    return build_terrain({"kind": "hex", "rows": list(rows), **extra})


# -- hex maps -----------------------------------------------------------------------

def test_hex_rows_nodes_ids_and_order():
    t = hexmap("...", "W.X")
    assert t.kind == "hex"
    # Row 1 is odd, so its axial q equals its column; row-major build order.
    assert t.nodes == ("0,0", "1,0", "2,0", "0,1", "1,1", "2,1")
    assert t.has_node("2,1") and not t.has_node("3,1")
    assert t.pos("0,1") == pytest.approx((0.5, math.sqrt(3) / 2))


def test_hex_node_attributes_from_builtin_letters():
    t = hexmap("W.BHRX")
    g = t.graph.nodes
    assert (g["0,0"]["terrain"], g["0,0"]["cover"], g["0,0"]["hindrance"],
            g["0,0"]["blocks_sight"], g["0,0"]["cost"]) == ("woods", 2, 1, True, 2.0)
    assert (g["2,0"]["terrain"], g["2,0"]["cover"], g["2,0"]["blocks_sight"]) == ("building", 3, True)
    assert (g["3,0"]["cover"], g["3,0"]["hindrance"], g["3,0"]["blocks_sight"]) == (1, 1, False)
    assert (g["4,0"]["cover"], g["4,0"]["hindrance"], g["4,0"]["cost"]) == (2, 1, 2.0)
    assert g["1,0"]["cover"] == 0 and g["5,0"]["passable"] is False
    assert t.cover("0,0") == 2 and t.cover("1,0") == 0


def test_hex_edges_length_one_cost_mean_and_impassable_isolated():
    t = hexmap("..W", "..X")
    e = t.graph.edges
    assert e["0,0", "1,0"]["length"] == 1.0 and e["0,0", "1,0"]["cost"] == 1.0
    assert e["1,0", "2,0"]["cost"] == 1.5  # open (1) to woods (2)
    assert t.graph.degree("2,1") == 0      # the X hex: a node, no edges
    assert t.graph.degree("1,1") == 3      # 0,1 and 1,0 and 2,0; not the X hex
    assert t.graph.number_of_edges() == 7  # 2 + 1 in the rows, 4 between them


def test_user_types_override_part_and_add_letters():
    t = hexmap("WM", types={"W": {"cover": 3}, "M": {"name": "marsh", "cost": 3}})
    w, m = t.graph.nodes["0,0"], t.graph.nodes["1,0"]
    assert (w["cover"], w["blocks_sight"], w["terrain"]) == (3, True, "woods")
    assert (m["terrain"], m["cost"], m["cover"], m["blocks_sight"]) == ("marsh", 3.0, 0, False)


def test_size_form_equals_rows_form():
    # special keys are axial "q,r", like `at`: column 0 of row 2 is q = 0 - 1 = -1.
    a = build_terrain({"kind": "hex", "width": 4, "height": 3, "default": ".",
                       "special": {"2,0": "W", "-1,2": "B", "2,1": "H"}})
    b = hexmap("..W.", "..H.", "B...")
    assert a.nodes == b.nodes
    assert dict(a.graph.nodes(data=True)) == dict(b.graph.nodes(data=True))
    assert sorted(map(sorted, a.graph.edges)) == sorted(map(sorted, b.graph.edges))


def test_hex_distance_and_nearest_node():
    t = hexmap(*["......"] * 6)
    assert t.distance("0,0", "3,0") == 3.0
    assert t.distance("0,0", "-1,3") == 3.0
    assert t.distance_xy((0, 0), (3, 4)) == 5.0
    x, y = t.pos("2,3")
    assert t.nearest_node(x + 0.4, y - 0.1) == "2,3"
    assert t.nearest_node(x + 0.6, y) == "3,3"


def test_within_counts_rings_nearest_first():
    t = hexmap(*["........."] * 9)
    centre = "2,4"  # offset (4, 4), well inside
    one = t.within(centre, 1)
    assert one[0] == centre and len(one) == 7
    assert set(one[1:]) == {f"{q},{r}" for q, r in ((3, 4), (3, 3), (2, 3), (1, 4), (1, 5), (2, 5))}
    two = t.within(centre, 2)
    assert len(two) == 19
    assert [t.distance(centre, n) for n in two] == sorted(t.distance(centre, n) for n in two)
    assert t.within(centre, 0) == [centre]


def test_within_at_map_corner_is_clipped():
    t = hexmap("...", "...", "...")
    assert sorted(t.within("0,0", 1)) == ["0,0", "0,1", "1,0"]


# -- tabletop maps ------------------------------------------------------------------

WOOD = {"name": "wood1", "polygon": [[40, 30], [60, 30], [60, 50], [40, 50]],
        "cover": 2, "hindrance": 1, "blocks_sight": True, "cost": 2}


def table(**extra):
    return build_terrain({"kind": "table", "width": 120, "height": 80, **extra})


def test_table_waypoints_edges_and_lengths():
    t = table(waypoints={"A": [0, 40], "B": [30, 40], "OBJ": [120, 40]},
              edges=[["A", "B"], ["B", "OBJ"]])
    assert t.kind == "table" and t.nodes == ("A", "B", "OBJ")
    assert t.graph.edges["B", "OBJ"]["length"] == 90.0
    assert t.distance("A", "OBJ") == 120.0
    assert t.bounds == (0.0, 0.0, 120.0, 80.0)
    assert t.nearest_node(100, 10) == "OBJ"


def test_table_node_ground_from_area_highest_cover():
    bush = {"name": "bush", "polygon": [[0, 0], [100, 0], [100, 100], [0, 100]],
            "terrain": "hedge"}
    t = build_terrain({"kind": "table", "width": 120, "height": 100, "areas": [bush, WOOD],
                       "waypoints": {"in_wood": [50, 40], "in_bush": [10, 10], "out": [110, 40]}})
    g = t.graph.nodes
    assert (g["in_wood"]["area"], g["in_wood"]["cover"], g["in_wood"]["cost"]) == ("wood1", 2, 2.0)
    # terrain: hedge gives the built-in hedge values the area left out.
    assert (g["in_bush"]["terrain"], g["in_bush"]["cover"], g["in_bush"]["hindrance"]) == ("hedge", 1, 1)
    assert (g["out"]["area"], g["out"]["terrain"], g["out"]["cover"]) == (None, "open", 0)


def test_table_grid_lattice_and_waypoint_links():
    t = table(grid={"spacing": 40}, waypoints={"A": [10, 10]})
    grid = [n for n in t.nodes if n != "A"]
    assert len(grid) == 4 * 3 and t.pos("3,2") == (120.0, 80.0)
    assert t.graph.has_edge("0,0", "1,1") and t.graph.has_edge("1,0", "0,1")  # diagonals
    assert not t.graph.has_edge("0,0", "2,0")
    assert t.graph.degree("1,1") == 8 + 1  # its 8 grid neighbours and A
    assert set(t.graph["A"]) == {"0,0", "1,0", "0,1", "1,1"}
    # Edge cost is length times the mean multiplier: open ground everywhere here.
    e = t.graph.edges["0,0", "1,1"]
    assert e["length"] == pytest.approx(40 * math.sqrt(2)) and e["cost"] == e["length"]


def test_table_edges_through_impassable_dropped_along_boundary_kept():
    rock = {"name": "rock", "terrain": "impassable",
            "polygon": [[40, 30], [60, 30], [60, 50], [40, 50]]}
    t = table(areas=[rock], waypoints={"A": [20, 40], "B": [80, 40], "C": [40, 10], "D": [40, 70]},
              edges=[["A", "B"], ["C", "D"], ["A", "C"]])
    assert not t.graph.has_edge("A", "B")  # straight through the rock
    assert t.graph.has_edge("C", "D")      # along its west side
    assert t.graph.has_edge("A", "C")


def test_table_edge_cost_mean_of_end_multipliers():
    t = table(areas=[WOOD], waypoints={"A": [20, 40], "B": [50, 40]}, edges=[["A", "B"]])
    assert t.graph.edges["A", "B"]["cost"] == pytest.approx(30 * 1.5)


def test_terrain_is_a_terrain():
    assert isinstance(hexmap("."), Terrain)


# -- bad input ----------------------------------------------------------------------

BAD = [
    ({"kind": "hex", "rows": ["...", ".."]}, "terrain.rows[1]", "expected 3 letters"),
    ({"kind": "hex", "rows": ["...", "..Z"]}, "terrain.rows[1]", "unknown terrain letter 'Z'"),
    ({"kind": "hex", "rows": []}, "terrain.rows", "at least one row"),
    ({"kind": "hex", "rows": ["."], "types": {"W": {"cover": -1}}}, "terrain.types.W.cover", ">= 0"),
    ({"kind": "hex", "rows": ["."], "types": {"W": {"colour": 1}}}, "terrain.types.W.colour", "unknown key"),
    ({"kind": "hex", "rows": ["."], "types": {"W": {"cost": 0}}}, "terrain.types.W.cost", "> 0"),
    ({"kind": "hex", "rows": ["."], "types": {"W": {"blocks_sight": "yes"}}},
     "terrain.types.W.blocks_sight", "true or false"),
    ({"kind": "hex", "rows": ["."], "types": {"MM": {}}}, "terrain.types.MM", "single non-space"),
    ({"kind": "hex", "rows": ["."], "width": 3}, "terrain.width", "either 'rows'"),
    ({"kind": "hex", "height": 3}, "terrain.width", "expected 'width'"),
    ({"kind": "hex", "width": 3, "height": 0}, "terrain.height", ">= 1"),
    ({"kind": "hex", "width": 3, "height": 2, "special": {"3,0": "W"}}, "terrain.special.3,0",
     "on the 3x2 map (q 0..2 in row 0)"),
    ({"kind": "hex", "width": 3, "height": 3, "special": {"3,2": "W"}}, "terrain.special.3,2",
     "(q -1..1 in row 2)"),
    ({"kind": "hex", "width": 3, "height": 2, "special": {"0,2": "W"}}, "terrain.special.0,2", "(r 0..1)"),
    ({"kind": "hex", "width": 3, "height": 2, "special": {"a": "W"}}, "terrain.special.a", '"q,r"'),
    ({"kind": "table", "width": 10, "height": 10, "waypoints": {"A": [1, 1]},
      "areas": [{"polygon": [[0, 0], [5, 0], [5, 5]], "terrain": "forest"}]}, "terrain.areas[0].terrain",
     "unknown terrain type 'forest'; expected one of: open, woods, building, hedge, rubble, impassable"),
    ({"kind": "hex", "width": 3, "height": 2, "default": "?"}, "terrain.default", "unknown terrain letter"),
    ({"kind": "hex", "rows": ["."], "colour": "red"}, "terrain.colour", "unknown key"),
    ({"kind": "hexes"}, "terrain.kind", "'hex' or 'table'"),
    ({"kind": "table", "width": 10, "height": 10}, "terrain", "'waypoints' or 'grid'"),
    ({"kind": "table", "width": 10, "height": 10, "waypoints": {"A": [11, 0]}},
     "terrain.waypoints.A", "on the 10 x 10 cm table"),
    ({"kind": "table", "width": 10, "height": 10, "waypoints": {"A": [1, 1]}, "edges": [["A", "Q"]]},
     "terrain.edges[0]", "unknown waypoint 'Q'"),
    ({"kind": "table", "width": 10, "height": 10, "waypoints": {"A": [1, 1]}, "edges": [["A", "A"]]},
     "terrain.edges[0]", "two different"),
    ({"kind": "table", "width": 10, "height": 10, "waypoints": {"A": [1, 1]},
      "areas": [{"polygon": [[0, 0], [1, 1]]}]}, "terrain.areas[0].polygon", "at least 3 points"),
    ({"kind": "table", "width": 10, "height": 10, "waypoints": {"A": [1, 1]},
      "areas": [{"polygon": [[0, 0], [5, 5], [5, 0], [0, 5]]}]}, "terrain.areas[0].polygon", "invalid"),
    ({"kind": "table", "width": 10, "height": 10, "waypoints": {"A": [1, 1]},
      "areas": [{"polygon": [[0, 0], [5, 0], [50, 5]]}]}, "terrain.areas[0].polygon[2]", "on the 10 x 10"),
    ({"kind": "table", "width": 10, "height": 10, "grid": {"spacing": 0}}, "terrain.grid.spacing", "> 0"),
    ({"kind": "table", "width": 10, "height": 10, "grid": {"spacing": 5}, "waypoints": {"1,1": [2, 2]}},
     "terrain.grid", "name of a waypoint"),
]


@pytest.mark.parametrize("spec,place,expected", BAD, ids=[b[1] + ":" + b[2] for b in BAD])
def test_bad_specs_name_the_place(spec, place, expected):
    with pytest.raises(InputError) as err:
        build_terrain(spec, file="scen.yaml")
    assert err.value.place == place
    assert expected in str(err.value)
    assert str(err.value).startswith(f"scen.yaml: {place}: ")


def test_special_hexes_are_the_nodes_at_names():
    # The hex a unit stands on ("q,r") is the hex `special` changes: one coordinate system.
    t = build_terrain({"kind": "hex", "width": 5, "height": 4,
                       "special": {"-1,3": "W", "3,1": "B"}})
    assert t.graph.nodes["-1,3"]["terrain"] == "woods" and t.graph.nodes["-1,3"]["offset"] == (0, 3)
    assert t.graph.nodes["3,1"]["terrain"] == "building" and t.graph.nodes["3,1"]["offset"] == (3, 1)
    assert sum(d["terrain"] != "open" for _, d in t.graph.nodes(data=True)) == 2


def test_terrain_errors_name_the_line_when_the_file_gives_lines():
    lines = {("terrain",): 3, ("terrain", "areas"): 7, ("terrain", "areas", 0): 8,
             ("terrain", "areas", 0, "terrain"): 8}
    spec = {"kind": "table", "width": 10, "height": 10, "waypoints": {"A": [1, 1]},
            "areas": [{"polygon": [[0, 0], [5, 0], [5, 5]], "terrain": "forest"}]}
    with pytest.raises(InputError) as err:
        build_terrain(spec, file="s.yaml", lines=lines)
    assert str(err.value).startswith("s.yaml: line 8, key terrain.areas[0].terrain: unknown terrain type")
    spec["areas"][0]["terrain"] = "woods"
    spec["waypoints"]["A"] = [11, 1]   # no line for the waypoint: the nearest enclosing key's
    with pytest.raises(InputError) as err:
        build_terrain(spec, file="s.yaml", lines=lines)
    assert str(err.value).startswith("s.yaml: line 3, key terrain.waypoints.A: ")


def test_place_prefix_is_the_callers():
    with pytest.raises(InputError) as err:
        build_terrain({"kind": "hex", "rows": ["..", "."]}, place="scenario.terrain")
    assert err.value.place == "scenario.terrain.rows[1]"
