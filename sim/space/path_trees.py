"""Least-cost paths, cached as one shortest-path tree per destination.

Many units plan to the same few objectives, so the first query to a destination runs one
Dijkstra *from* it over the undirected graph (edge weight ``cost``) and keeps, for every
node, its next hop towards the destination and its cost to get there, as two arrays
indexed by node (12 bytes a node: a 50,000-node map's tree is 0.6 MB, not the tens of
MB of two dicts). Every later query to that destination is array lookups: the cost is
one, the path is one per step. Since the graph is undirected with symmetric costs, the
tree path reversed is a least-cost path from the node to the destination.

The tree is computed by scipy's compiled Dijkstra (``scipy.sparse.csgraph``) over the
graph's nodes in build order (explicit zero costs, e.g. two waypoints on one spot, stay
edges in the matrix); a graph with a negative cost would fall back to networkx. Ties are broken
deterministically either way: the same map always gives the same path.
"""
from __future__ import annotations

import math
from array import array
from typing import TYPE_CHECKING, Any, TypeAlias

import networkx as nx
import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix

#: A node's name: ``"q,r"`` on hex maps, a waypoint's name or ``"gx,gy"`` on tables.
Node = str


#: A destination's tree: each node's next hop towards it (a node index, -1 for none) and
#: its cost to get there (inf where it cannot), both indexed by node in build order.
#: (A string: ``array`` takes no type arguments at run time before Python 3.12.)
Tree: TypeAlias = "tuple[array[int], array[float]]"

#: A bulk builder's edges: (first, second, cost) arrays, the ends as node indices in build
#: order, in ``graph.edges`` order.
Edges: TypeAlias = tuple[NDArray[np.integer[Any]], NDArray[np.integer[Any]], NDArray[np.floating[Any]]]


class NoPath(Exception):
    """No passable route joins the two nodes."""


class Paths:
    """Least-``cost`` routes over ``graph``, one cached tree per destination."""

    # networkx and scipy ship no types: to mypy a graph and a sparse matrix are Any (hence
    # the ignores in this class).
    def __init__(self, graph: nx.Graph, weight: str = "cost",  # type: ignore[no-any-unimported]
                 edges: Edges | None = None):
        """``edges``, if given, is (first, second, cost) arrays of node indices (build
        order) in ``graph.edges`` order, as a builder that made them in bulk has them."""
        self._graph = graph
        self._weight = weight
        self._edges = edges
        #: destination -> its Tree.
        self.trees: dict[Node, Tree] = {}
        self._matrix: tuple[list[Node], dict[Node, int], csr_matrix | None] | None = None  # type: ignore[no-any-unimported]
        self._order: tuple[list[Node], dict[Node, int]] | None = None

    @property
    def _nodes(self) -> list[Node]:
        return self._ordered()[0]

    @property
    def _index(self) -> dict[Node, int]:
        return self._ordered()[1]

    def _ordered(self) -> tuple[list[Node], dict[Node, int]]:
        """The nodes in build order and each one's place: made at the first question."""
        if self._order is None:
            nodes = list(self._graph.nodes)
            self._order = (nodes, {n: i for i, n in enumerate(nodes)})
        return self._order

    def _sparse(self) -> tuple[list[Node], dict[Node, int], csr_matrix | None]:  # type: ignore[no-any-unimported]
        """(nodes, index, CSR matrix of costs), built once; None if a cost is negative."""
        if self._matrix is None:
            nodes, index = self._ordered()
            rows: NDArray[np.integer[Any]] | list[int]
            cols: NDArray[np.integer[Any]] | list[int]
            vals: NDArray[np.floating[Any]] | list[float]
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
                from scipy.sparse import csr_matrix  # here, not at `import sim`

                m = csr_matrix((vals, (rows, cols)), shape=(len(nodes), len(nodes)))
                self._matrix = (nodes, index, m)
        return self._matrix

    def _tree_sparse(self, dest: Node) -> Tree | None:
        nodes, index, m = self._sparse()
        if m is None:
            return None
        from scipy.sparse.csgraph import dijkstra

        cost, pred = dijkstra(m, directed=False, indices=index[dest], return_predecessors=True)
        hop = np.where(pred >= 0, pred, -1).astype(np.int32)
        return array("i", hop.tobytes()), array("d", cost.astype(np.float64).tobytes())

    def _tree_networkx(self, dest: Node) -> Tree:
        pred, dist = nx.dijkstra_predecessor_and_distance(self._graph, dest, weight=self._weight)
        index = self._index
        hop = array("i", [-1]) * len(index)
        cost = array("d", [math.inf]) * len(index)
        for v, d in dist.items():
            cost[index[v]] = d
        for v, p in pred.items():
            if p:   # pred[v][0] set cost[v]; later entries are equal-cost alternatives
                hop[index[v]] = index[p[0]]
        return hop, cost

    def _known(self, node: Node) -> int:
        i = self._index.get(node)
        if i is None:
            raise KeyError(f"unknown node {node!r}")
        return i

    def tree(self, dest: Node) -> Tree:
        """The Tree towards ``dest``, computed on first use."""
        found = self.trees.get(dest)
        if found is None:
            self._known(dest)
            found = self._tree_sparse(dest)
            if found is None:
                found = self._tree_networkx(dest)
            self.trees[dest] = found
        return found

    def reachable(self, a: Node, b: Node) -> bool:
        """Whether a passable route leads from a to b."""
        return self.tree(b)[1][self._known(a)] != math.inf

    def cost(self, a: Node, b: Node) -> float:
        """Cost of the least-cost route from a to b; ``NoPath`` if there is none."""
        c = self.tree(b)[1][self._known(a)]
        if c == math.inf:
            raise NoPath(f"no path from {a!r} to {b!r}")
        return c

    def path(self, a: Node, b: Node) -> list[Node]:
        """Nodes of the least-cost route from a to b, both included (a fresh list)."""
        i = self._known(a)
        hop, cost = self.tree(b)
        if cost[i] == math.inf:
            raise NoPath(f"no path from {a!r} to {b!r}")
        nodes, index = self._ordered()
        end = index[b]
        out = [a]
        while i != end:
            i = hop[i]
            out.append(nodes[i])
        return out
