"""Least-cost paths: cost-aware, impassable-aware, cached per destination, deterministic."""
import itertools

import networkx as nx
import pytest

from sim.space import NoPath, build_terrain


def hexmap(*rows):
    return build_terrain({"kind": "hex", "rows": list(rows)})


def edge_cost_sum(t, path):
    return sum(t.graph.edges[u, v]["cost"] for u, v in zip(path, path[1:]))


def test_path_goes_around_woods_when_cheaper():
    t = hexmap(".....",
               ".WWW.",
               ".....")
    path = t.path("0,1", "4,1")
    assert path[0] == "0,1" and path[-1] == "4,1"
    assert all(t.graph.nodes[n]["terrain"] == "open" for n in path)
    assert len(path) == 6  # 5 steps around, against 4 through the woods
    assert t.path_cost("0,1", "4,1") == 5.0 == edge_cost_sum(t, path)


def test_path_goes_through_woods_when_cheaper():
    # A wall of X with a woods gap under the start and an open gap far to the west.
    t = hexmap(".......",
               ".XXWXXX",
               ".......")
    path = t.path("3,0", "2,2")  # offset (3,0) to offset (3,2)
    assert path == ["3,0", "3,1", "2,2"]
    assert t.path_cost("3,0", "2,2") == 3.0  # 1.5 in, 1.5 out


def test_impassable_hexes_are_never_entered():
    t = hexmap("....",
               ".XX.",
               "....")
    for target in ("0,0", "3,0"):
        for n in t.nodes:
            if t.graph.nodes[n]["passable"]:
                assert "1,1" not in t.path(n, target) and "2,1" not in t.path(n, target)
    with pytest.raises(NoPath):
        t.path("0,0", "1,1")


def test_disconnected_raises_nopath():
    t = hexmap("...",
               "XXX",
               "...")
    assert t.reachable("0,0", "2,0") is True
    assert t.reachable("0,0", "1,2") is False
    with pytest.raises(NoPath, match="no path from '0,0' to '1,2'"):
        t.path("0,0", "1,2")
    with pytest.raises(NoPath):
        t.path_cost("0,0", "1,2")


def test_path_to_itself():
    t = hexmap("..")
    assert t.path("1,0", "1,0") == ["1,0"]
    assert t.path_cost("1,0", "1,0") == 0.0


def test_unknown_node_is_a_key_error():
    t = hexmap("..")
    with pytest.raises(KeyError):
        t.path("0,0", "9,9")
    with pytest.raises(KeyError):
        t.path("9,9", "0,0")


CLUTTERED = ("..W.H.R.", ".H..W...", "W..B..X.", "..HH..X.", ".W...R..", "....W...")


def test_paths_are_least_cost_against_networkx():
    t = hexmap(*CLUTTERED)
    for a, b in itertools.combinations(t.nodes[::3], 2):
        if t.reachable(a, b):
            expected = nx.dijkstra_path_length(t.graph, a, b, weight="cost")
            assert t.path_cost(a, b) == pytest.approx(expected)
            assert edge_cost_sum(t, t.path(a, b)) == pytest.approx(expected)
            assert all(t.graph.has_edge(u, v) for u, v in zip(t.path(a, b), t.path(a, b)[1:]))


def test_one_tree_per_destination_is_cached():
    t = hexmap(*CLUTTERED)
    assert t.paths.trees == {}
    first = t.path("0,0", "7,0")
    tree = t.paths.trees["7,0"]
    t.path("0,2", "7,0")
    t.path_cost("3,4", "7,0")
    t.reachable("1,1", "7,0")
    assert list(t.paths.trees) == ["7,0"] and t.paths.trees["7,0"] is tree
    first.append("junk")  # callers get their own list
    assert t.path("0,0", "7,0") == first[:-1]
    t.path("0,0", "0,5")
    assert list(t.paths.trees) == ["7,0", "0,5"]


def test_ties_are_broken_the_same_every_build():
    rows = ["........"] * 6  # open ground: many equal-cost routes
    one, two = hexmap(*rows), hexmap(*rows)
    for a in one.nodes:
        assert one.path(a, "7,0") == two.path(a, "7,0")
        assert one.path("0,5", a) == two.path("0,5", a)


def test_table_path_around_impassable_rock():
    rock = {"name": "rock", "terrain": "impassable", "polygon": [[40, 30], [60, 30], [60, 50], [40, 50]]}
    t = build_terrain({
        "kind": "table", "width": 100, "height": 80, "areas": [rock],
        "waypoints": {"W": [20, 40], "E": [80, 40], "N": [50, 10], "S": [50, 75]},
        "edges": [["W", "E"], ["W", "N"], ["N", "E"], ["W", "S"], ["S", "E"]],
    })
    assert not t.graph.has_edge("W", "E")
    assert t.path("W", "E") == ["W", "N", "E"]  # N is nearer the rock than S: shorter
    assert t.path_cost("W", "E") == pytest.approx(2 * (30**2 + 30**2) ** 0.5)


def test_table_grid_path_avoids_costly_area():
    swamp = {"name": "swamp", "polygon": [[35, 0], [65, 0], [65, 45], [35, 45]], "cost": 10}
    t = build_terrain({"kind": "table", "width": 100, "height": 60, "grid": {"spacing": 10},
                       "areas": [swamp]})
    path = t.path("0,1", "10,1")
    assert all(t.graph.nodes[n]["area"] is None for n in path)
    assert max(t.pos(n)[1] for n in path) >= 50  # went round the north end


@pytest.mark.parametrize("spec", [
    {"kind": "table", "width": 100, "height": 60, "grid": {"spacing": 10},
     "areas": [{"name": "swamp", "polygon": [[35, 0], [65, 0], [65, 45], [35, 45]], "cost": 10},
               {"name": "rock", "terrain": "impassable", "polygon": [[10, 40], [30, 40], [30, 55], [10, 55]]}],
     "waypoints": {"W": [3, 4], "E": [97, 33]}},
    # explicit links given twice, both ways, with the grid's own links beside them
    {"kind": "table", "width": 50, "height": 30, "grid": {"spacing": 10},
     "waypoints": {"A": [1, 1], "B": [49, 29], "C": [20, 20]},
     "edges": [["A", "B"], ["B", "A"], ["A", "C"], ["C", "B"], ["A", "C"], ["C", "A"]]},
], ids=["grid-areas-waypoints", "repeated-edges"])
def test_a_tables_edge_arrays_are_the_graph_read_back(spec):
    """The table builder hands the route planner its edges as arrays; they must be what the
    planner would read back from the graph, entry for entry (each edge once, from the node
    built first, its last cost), or routes (and their ties) would change."""
    from sim.space.path_trees import Paths

    t = build_terrain(spec)
    built = t.paths._sparse()[2]
    read = Paths(t.graph)._sparse()[2]
    assert built is not None and read is not None
    assert built.shape == read.shape and built.nnz == read.nnz == t.graph.number_of_edges()
    for part in ("indptr", "indices", "data"):
        assert getattr(built, part).tolist() == getattr(read, part).tolist()
