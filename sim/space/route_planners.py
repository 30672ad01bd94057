"""Route planners: the node path a unit's step follows from where it stands to its goal.

* ``shortest``: the least-cost path (``Terrain.path``), through the ``via`` nodes in order;
* ``via``: the same, the ``via`` nodes being the point of it (an alias, for reading);
* ``covered``: through the ``via`` nodes in order, each leg the least-cost path when ground
  the enemy sees is ``EXPOSED`` times dearer (an edge with both ends seen costs
  ``EXPOSED`` times its cost, with one end seen half as much more); "seen" is the line
  of sight from any enemy's starting node (the positions known at the start).

Each returns the nodes after the start, ending at the goal ([] when already there);
``NoPath`` when a leg cannot be made.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

import networkx as nx

from sim.space.path_trees import Node, NoPath
from sim.space.terrain import Terrain

EXPOSED = 10.0   # how much dearer an edge is where the enemy sees it (covered routes)


def _legs(stops: Sequence[Node]) -> list[tuple[Node, Node]]:
    return [(a, b) for a, b in zip(stops, stops[1:]) if a != b]


def shortest(terrain: Terrain, start: Node, via: Sequence[Node], goal: Node) -> list[Node]:
    """The least-cost path through ``via`` in order (nodes after ``start``)."""
    route: list[Node] = []
    for a, b in _legs([start, *via, goal]):
        route += terrain.path(a, b)[1:]
    return route


def offset_node(terrain: Terrain, node: Node, offset: Sequence[float]) -> Node:
    """Where a formation member stands for ``node``: the node nearest ``node``'s position
    moved by its ``[dx, dy]``."""
    x, y = terrain.pos(node)
    return terrain.nearest_node(x + offset[0], y + offset[1])


def seen_ground(terrain: Terrain, watchers: Iterable[Node]) -> frozenset[Node]:
    """The nodes any of ``watchers`` (nodes) has a line of sight to."""
    eyes = sorted(set(watchers))
    return frozenset(n for n in terrain.nodes if any(terrain.los(w, n) for w in eyes))


def covered(terrain: Terrain, start: Node, via: Sequence[Node], goal: Node,
            seen: frozenset[Node]) -> list[Node]:
    """The path through ``via`` that keeps out of the ``seen`` ground where it can."""
    g = terrain.graph

    def weight(a: Node, b: Node, data: dict[str, float]) -> float:
        # each seen end makes half the edge exposed: a path along seen nodes costs most
        exposed = ((a in seen) + (b in seen)) / 2
        return float(data["cost"]) * (1.0 + (EXPOSED - 1.0) * exposed)

    route: list[Node] = []
    for a, b in _legs([start, *via, goal]):
        try:
            route += nx.dijkstra_path(g, a, b, weight=weight)[1:]
        except (nx.NetworkXNoPath, nx.NodeNotFound):
            raise NoPath(f"no route from {a} to {b}") from None
    return route
