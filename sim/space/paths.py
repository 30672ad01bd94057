"""Least-cost paths, cached as one shortest-path tree per destination.

Many units plan to the same few objectives, so the first query to a destination runs one
Dijkstra *from* it over the undirected graph (edge weight ``cost``) and keeps, for every
node, its next hop towards the destination and its cost to get there. Every later query
to that destination is dict lookups: the cost is one, the path is one per step. Since
the graph is undirected with symmetric costs, the tree path reversed is a least-cost path
from the node to the destination.

The tree is computed by scipy's compiled Dijkstra (``scipy.sparse.csgraph``) over the
graph's nodes in build order (explicit zero costs, e.g. two waypoints on one spot, stay
edges in the matrix); a graph with a negative cost would fall back to networkx. Ties are broken
deterministically either way: the same map always gives the same path.
"""
from __future__ import annotations

import networkx as nx
import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

#: A node's name: ``"q,r"`` on hex maps, a waypoint's name or ``"gx,gy"`` on tables.
Node = str


class NoPath(Exception):
    """No passable route joins the two nodes."""


class Paths:
    """Least-``cost`` routes over ``graph``, one cached tree per destination."""

    def __init__(self, graph: nx.Graph, weight: str = "cost", edges=None):
        """``edges``, if given, is (first, second, cost) arrays of node indices (build
        order) in ``graph.edges`` order, as a builder that made them in bulk has them."""
        self._graph = graph
        self._weight = weight
        self._edges = edges
        #: destination -> (next hop towards it, cost to reach it), per node that can.
        self.trees: dict[Node, tuple[dict[Node, Node], dict[Node, float]]] = {}
        self._matrix = None

    def _sparse(self):
        """(nodes, index, CSR matrix of costs), built once; None if a cost is negative."""
        if self._matrix is None:
            nodes = list(self._graph.nodes)
            index = {n: i for i, n in enumerate(nodes)}
            if self._edges is not None:
                rows, cols, vals = self._edges
            else:
                # graph.edges(data=weight), read from the adjacency dicts without a view
                rows, cols, vals = [], [], []
                done: set[str] = set()
                weight = self._weight
                for a, nbrs in self._graph._adj.items():
                    i = index[a]
                    for b, d in nbrs.items():
                        if b not in done:
                            rows.append(i)
                            cols.append(index[b])
                            vals.append(float(d[weight]))
                    done.add(a)
            if (np.asarray(vals, dtype=float) < 0.0).any():
                self._matrix = (nodes, index, None)
            else:
                m = csr_matrix((vals, (rows, cols)), shape=(len(nodes), len(nodes)))
                self._matrix = (nodes, index, m)
        return self._matrix

    def _tree_sparse(self, dest):
        nodes, index, m = self._sparse()
        if m is None:
            return None
        cost, pred = dijkstra(m, directed=False, indices=index[dest], return_predecessors=True)
        reached = np.flatnonzero(np.isfinite(cost))
        dist = dict(zip([nodes[i] for i in reached.tolist()], cost[reached].tolist()))
        hop = reached[pred[reached] >= 0]
        nxt = dict(zip([nodes[i] for i in hop.tolist()], [nodes[j] for j in pred[hop].tolist()]))
        return nxt, dist

    def _known(self, node: Node) -> None:
        if node not in self._graph:
            raise KeyError(f"unknown node {node!r}")

    def tree(self, dest: Node) -> tuple[dict[Node, Node], dict[Node, float]]:
        """(next hop, cost) maps towards ``dest``, computed on first use."""
        found = self.trees.get(dest)
        if found is None:
            self._known(dest)
            found = self._tree_sparse(dest)
            if found is None:
                pred, cost = nx.dijkstra_predecessor_and_distance(
                    self._graph, dest, weight=self._weight)
                # pred[v][0] set cost[v]; later entries are equal-cost alternatives.
                found = ({v: p[0] for v, p in pred.items() if p}, cost)
            self.trees[dest] = found
        return found

    def reachable(self, a: Node, b: Node) -> bool:
        """Whether a passable route leads from a to b."""
        self._known(a)
        return a in self.tree(b)[1]

    def cost(self, a: Node, b: Node) -> float:
        """Cost of the least-cost route from a to b; ``NoPath`` if there is none."""
        self._known(a)
        try:
            return self.tree(b)[1][a]
        except KeyError:
            raise NoPath(f"no path from {a!r} to {b!r}") from None

    def path(self, a: Node, b: Node) -> list[Node]:
        """Nodes of the least-cost route from a to b, both included (a fresh list)."""
        self._known(a)
        nxt, cost = self.tree(b)
        if a not in cost:
            raise NoPath(f"no path from {a!r} to {b!r}")
        out = [a]
        while a != b:
            a = nxt[a]
            out.append(a)
        return out
