"""The battlefield: a networkx graph of places with positions, ground and routes.

``Terrain`` wraps an undirected ``networkx.Graph`` built by ``build_terrain`` and answers
what the engine and the rules ask of the ground: positions and distances, the nearest
place to a point, line of sight and intervening hindrance (rules in ``sim.space.los``),
cover, places within a range, and least-cost paths (``sim.space.path_trees``).

Nodes are ``"q,r"`` strings on hex maps and the user's waypoint names (or ``"gx,gy"``
grid points) on tabletop maps. Every node has the attributes ``pos`` (x, y),
``terrain`` (type name), ``cover``, ``hindrance``, ``blocks_sight``, ``cost`` (the
movement multiplier of entering it) and ``passable``; hex nodes also have ``hex``
(q, r), ``offset`` (col, row) and ``letter``, tabletop nodes ``area`` (name or None).
Every edge has ``length`` (Euclidean, 1.0 between neighbouring hexes) and ``cost`` =
length × the mean of its two ends' multipliers: the graph is undirected, so a move
across the boundary pays half the price of each side in either direction.

Terrain never changes after it is built, so every answer is cached.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any

import networkx as nx
import numpy as np

from sim.space.features import Area
from sim.space.geometry import Point
from sim.space.hex_coords import hex_distance
from sim.space.los import HexSight, TableSight
from sim.space.path_trees import Edges, Node, Paths

if TYPE_CHECKING:
    from scipy.spatial import cKDTree

#: Movement's memo of edges a→b: (b's position, the edge's length, cost per unit length).
LegMemo = dict[tuple[Node, Node], tuple[Point, float, float]]


# networkx ships no types: to mypy its graph is Any.
def graph_of(nodes: Iterable[tuple[Node, dict[str, Any]]],  # type: ignore[no-any-unimported]
             edges: Iterable[tuple[Node, Node, dict[str, Any]]]) -> nx.Graph:
    """The graph that ``add_nodes_from(nodes)`` then ``add_edges_from(edges)`` would make
    ((name, attributes) and (a, b, attributes), fresh dicts, no self-loops), written
    straight into networkx's adjacency dicts: the same dicts in the same order, several
    times faster on a 50,000-node map."""
    g = nx.Graph()
    node, adj = g._node, g._adj
    for name, attrs in nodes:
        node[name] = attrs
        adj[name] = {}
    for a, b, attrs in edges:
        adj[a][b] = adj[b][a] = attrs
    return g


class Terrain:
    """Immutable map of a battle: ``kind`` is ``"hex"`` or ``"table"``.

    Hex maps measure in hexes (``distance`` is the hex count), tabletop maps in cm.
    ``areas`` are the tabletop's terrain polygons (empty on hex maps) and ``bounds``
    is (xmin, ymin, xmax, ymax) of the playing surface; ``edges`` optionally gives the
    graph's edges as index arrays (``Paths``), so they are not read back one by one.
    """

    # (networkx ships no types: to mypy the graph is Any.)
    def __init__(self, graph: nx.Graph, kind: str, *, areas: Sequence[Area] = (),  # type: ignore[no-any-unimported]
                 bounds: tuple[float, float, float, float] | None = None, edges: Edges | None = None):
        if kind not in ("hex", "table"):
            raise ValueError(f"kind must be 'hex' or 'table', not {kind!r}")
        if graph.number_of_nodes() == 0:
            raise ValueError("terrain needs at least one node")
        self.graph = graph
        self.kind = kind
        self.legs: LegMemo = {}   # movement's memo of edges a→b (sim.agents.movement._leg)
        self.areas = tuple(areas)
        self._nodes: tuple[Node, ...] = tuple(graph.nodes)
        self._index = {n: i for i, n in enumerate(self._nodes)}
        data = graph._node  # the attribute dicts themselves: a NodeView lookup is a call each
        attrs = [data[n] for n in self._nodes]
        self._pos = {n: (float(d["pos"][0]), float(d["pos"][1])) for n, d in zip(self._nodes, attrs)}
        self._cover = {n: int(d["cover"]) for n, d in zip(self._nodes, attrs)}
        xy = np.array(list(self._pos.values()), dtype=float)
        lo, hi = xy.min(axis=0), xy.max(axis=0)
        self.bounds = bounds or (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))
        if kind == "hex":
            self._hex = {n: tuple(d["hex"]) for n, d in zip(self._nodes, attrs)}
            ground = {tuple(d["hex"]): (bool(d["blocks_sight"]), int(d["hindrance"]))
                      for d in attrs}
            self._hex_sight = HexSight(ground)
        else:
            self._table_sight = TableSight(self.areas)
        self._sight: dict[tuple[Node, Node], tuple[bool, int]] = {}
        self._within: dict[tuple[Node, float], tuple[Node, ...]] = {}
        # Points between nodes are unbounded in number, so their cache is bounded.
        self._sight_points = lru_cache(maxsize=1 << 16)(self._table_sight_between) \
            if kind == "table" else None
        # Units stand at a few places each, asked about again and again (cover, sight
        # on hex maps): a k-d tree query is tens of microseconds, a cache hit well under one.
        self._nearest = lru_cache(maxsize=1 << 15)(self._nearest_node)
        self.paths = Paths(graph, edges=edges)  # edges: a bulk builder's (see Paths)

    def __repr__(self) -> str:
        g = self.graph
        return (f"Terrain(kind={self.kind!r}, nodes={g.number_of_nodes()}, "
                f"edges={g.number_of_edges()})")

    # -- places ---------------------------------------------------------------------
    @property
    def nodes(self) -> tuple[Node, ...]:
        """All nodes in build order (hex maps: row by row; tables: waypoints, then grid)."""
        return self._nodes

    def has_node(self, node: Node) -> bool:
        """Whether ``node`` is a node of the map."""
        return node in self._index

    def joined(self, a: Node, b: Node) -> bool:
        """Whether an edge of the map joins nodes ``a`` and ``b``."""
        return bool(self.graph.has_edge(a, b))

    def pos(self, node: Node) -> Point:
        """(x, y) of a node: hex centre (1.0 = one hex) or table position in cm."""
        return self._pos[node]

    def cover(self, node: Node) -> int:
        """Terrain cover of the node's hex or area."""
        return self._cover[node]

    def nearest_node(self, x: float, y: float) -> Node:
        """The node closest to (x, y); on a hex map, the hex containing the point."""
        return self._nearest(x, y)

    @cached_property
    def _kdtree(self) -> cKDTree:  # type: ignore[no-any-unimported]
        # Built at the first nearest-node or ball question: scipy.spatial loads then, not at `import sim`.
        from scipy.spatial import cKDTree

        return cKDTree(np.array(list(self._pos.values()), dtype=float))

    def _nearest_node(self, x: float, y: float) -> Node:
        _, i = self._kdtree.query((x, y))
        return self._nodes[int(i)]

    # -- measure --------------------------------------------------------------------
    def distance(self, a: Node, b: Node) -> float:
        """Hex count between a and b on hex maps, Euclidean cm on tabletop maps."""
        if self.kind == "hex":
            return float(hex_distance(self._hex[a], self._hex[b]))
        return math.dist(self._pos[a], self._pos[b])

    @staticmethod
    def distance_xy(p: Point, q: Point) -> float:
        """Euclidean distance between two points (units may stand between nodes)."""
        return math.dist(p, q)

    def within(self, node: Node, n: float) -> list[Node]:
        """Nodes at ``distance`` <= n of ``node`` (itself included), nearest first,
        ties in build order."""
        key = (node, n)
        hit = self._within.get(key)
        if hit is None:
            # Hex centres k hexes apart are at most k apart in xy, so the ball holds them all.
            idx = self._kdtree.query_ball_point(self._pos[node], r=max(n, 0) + 1e-9)
            found = [(self.distance(node, self._nodes[i]), i) for i in idx]
            hit = tuple(self._nodes[i] for d, i in sorted(found) if d <= n)
            self._within[key] = hit
        return list(hit)

    # -- sight ----------------------------------------------------------------------
    def _between(self, a: Node, b: Node) -> tuple[bool, int]:
        # One canonical order per pair, so sight is symmetric and cached once.
        if self._index[a] > self._index[b]:
            a, b = b, a
        key = (a, b)
        hit = self._sight.get(key)
        if hit is None:
            if self.kind == "hex":
                hit = self._hex_sight.between(self._hex[a], self._hex[b])
            else:
                hit = self._table_sight.between(self._pos[a], self._pos[b])
            self._sight[key] = hit
        return hit

    def _table_sight_between(self, p: Point, q: Point) -> tuple[bool, int]:
        return self._table_sight.between(p, q)

    def _between_xy(self, p: Point, q: Point) -> tuple[bool, int]:
        if self._sight_points is None:  # a hex map: between the hexes
            return self._between(self.nearest_node(*p), self.nearest_node(*q))
        p, q = (float(p[0]), float(p[1])), (float(q[0]), float(q[1]))
        return self._sight_points(*sorted((p, q)))

    def areas_at(self, p: Point) -> list[int]:
        """Indices of the tabletop areas containing point p (boundary included), in input order."""
        return self._table_sight.containing(p)

    def los(self, a: Node, b: Node) -> bool:
        """Whether nodes a and b see each other (rules in ``sim.space.los``)."""
        return self._between(a, b)[0]

    def hindrance(self, a: Node, b: Node) -> int:
        """Sum of the hindrance of the hexes or areas between a and b, ends excluded."""
        return self._between(a, b)[1]

    def los_xy(self, p: Point, q: Point) -> bool:
        """Sight between two points; on hex maps, between the hexes containing them."""
        return self._between_xy(p, q)[0]

    def hindrance_xy(self, p: Point, q: Point) -> int:
        """``hindrance`` between two points; on hex maps, between their hexes."""
        return self._between_xy(p, q)[1]

    def cover_modifier(self, target: Node, viewer: Node) -> int:
        """The target's cover plus the hindrance between viewer and target (as hex rules read cover)."""
        return self.cover(target) + self.hindrance(viewer, target)

    # -- movement -------------------------------------------------------------------
    def path(self, a: Node, b: Node) -> list[Node]:
        """Least-cost route from a to b, both included; raises ``NoPath``."""
        return self.paths.path(a, b)

    def path_cost(self, a: Node, b: Node) -> float:
        """Total edge ``cost`` of ``path(a, b)``; raises ``NoPath``."""
        return self.paths.cost(a, b)

    def reachable(self, a: Node, b: Node) -> bool:
        """Whether any passable route joins a to b."""
        return self.paths.reachable(a, b)
