"""Line of sight and intervening hindrance, for hex maps and for tabletop maps.

Both kinds answer one question, ``between``: can the two ends see each other, and what
is the sum of the hindrance of the ground *between* them (the ends' own hexes or areas
excluded)? ``Terrain`` caches the answers.

Hex rule
    Draw ``hex_line`` from centre to centre. A line is blocked when a hex strictly
    between the ends has ``blocks_sight``; the end hexes never block, so a unit in woods
    sees out and is seen. When the line runs along a hexside (``hex_line`` gives two
    candidate lines) the viewer gets the benefit: there is sight if EITHER candidate is
    clear, and the hindrance is that of the clear candidate with the smaller sum. With
    no sight, the hindrance reported is the smallest sum over the candidates. The same
    hex and adjacent hexes always see each other with hindrance 0. A hex of the line
    that lies off the map is open ground.

Tabletop rule
    Areas are shapely polygons. An area that contains either end (its boundary counts as
    inside) is ignored: a unit in a wood sees out and is seen, and two units in the same
    wood see each other. Any other area the sight segment passes through the *interior*
    of blocks sight if it has ``blocks_sight`` and adds its ``hindrance``. A segment
    that only touches an area's boundary (grazes a corner, runs along an edge) does not
    pass through it: no block, no hindrance.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import shapely
from shapely.geometry import LineString
from shapely.strtree import STRtree

from sim.space.features import Area
from sim.space.hexgrid import Hex, hex_distance, hex_line

Point = tuple[float, float]


class HexSight:
    """Sight between hexes, from each hex's (blocks_sight, hindrance)."""

    def __init__(self, ground: Mapping[Hex, tuple[bool, int]]):
        self._ground = ground

    def _through(self, line: list[Hex]) -> tuple[bool, int]:
        clear, hindrance = True, 0
        for h in line[1:-1]:
            blocks, hind = self._ground.get(h, (False, 0))  # off-map: open ground
            clear = clear and not blocks
            hindrance += hind
        return clear, hindrance

    def between(self, a: Hex, b: Hex) -> tuple[bool, int]:
        """(sight, hindrance) between hexes a and b, by the hex rule above."""
        if hex_distance(a, b) <= 1:
            return True, 0
        results = [self._through(line) for line in hex_line(a, b)]
        clear = [h for ok, h in results if ok]
        if clear:
            return True, min(clear)
        return False, min(h for _, h in results)


class TableSight:
    """Sight between points on a tabletop, through shapely area polygons."""

    def __init__(self, areas: Sequence[Area]):
        self.areas = tuple(areas)
        self._geoms = np.array([a.polygon for a in self.areas], dtype=object)
        shapely.prepare(self._geoms)  # speeds up the repeated predicates below
        self._tree = STRtree(self._geoms)
        self._blocks = np.array([a.type.blocks_sight for a in self.areas], dtype=bool)
        self._hind = np.array([a.type.hindrance for a in self.areas], dtype=np.int64)

    def containing(self, p: Point) -> list[int]:
        """Indices of the areas containing point p (boundary included), in input order."""
        idx = self._tree.query(shapely.points(p), predicate="intersects")
        return sorted(int(i) for i in idx)

    def containing_all(self, points) -> tuple[np.ndarray, np.ndarray]:
        """``containing`` for many points (shapely points) at once: the pairs (point
        index, area index) of every area containing a point, boundary included."""
        at, hit = self._tree.query(points, predicate="intersects")
        return at, hit

    def between(self, p: Point, q: Point) -> tuple[bool, int]:
        """(sight, hindrance) between points p and q, by the tabletop rule above."""
        if p == q or not self.areas:
            return True, 0
        line = LineString([p, q])
        idx = np.sort(self._tree.query(line, predicate="intersects"))
        if idx.size == 0:
            return True, 0
        geoms = self._geoms[idx]
        holds_end = shapely.intersects_xy(geoms, *p) | shapely.intersects_xy(geoms, *q)
        through = ~holds_end & ~shapely.touches(geoms, line)
        sel = idx[through]
        return not bool(self._blocks[sel].any()), int(self._hind[sel].sum())
