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
from numpy.typing import NDArray
from shapely.geometry import LineString
from shapely.strtree import STRtree

from sim.space.features import Area
from sim.space.hex_coords import Hex, hex_distance, hex_line

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


def _meets_box(p: Point, q: Point, box: tuple[float, float, float, float]) -> bool:
    """Whether segment p-q meets the box (x0, y0, x1, y1), edges included (Liang-Barsky)."""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for d, lo, hi, at in ((dx, box[0], box[2], p[0]), (dy, box[1], box[3], p[1])):
        if d == 0.0:
            if at < lo or at > hi:
                return False
            continue
        a, b = (lo - at) / d, (hi - at) / d
        if a > b:
            a, b = b, a
        t0, t1 = max(t0, a), min(t1, b)
        if t0 > t1:
            return False
    return True


class TableSight:
    """Sight between points on a tabletop, through shapely area polygons."""

    def __init__(self, areas: Sequence[Area]):
        self.areas = tuple(areas)
        self._geoms = np.array([a.polygon for a in self.areas], dtype=object)
        shapely.prepare(self._geoms)  # speeds up the repeated predicates below
        self._tree = STRtree(self._geoms)
        self._blocks = np.array([a.type.blocks_sight for a in self.areas], dtype=bool)
        self._hind = np.array([a.type.hindrance for a in self.areas], dtype=np.int64)
        # Each area's bounding box, grown a hair: a sight line that meets none of them
        # meets no area, and is clear without asking shapely (most lines, most of the time).
        boxes = np.array([a.polygon.bounds for a in self.areas], dtype=float).reshape(-1, 4)
        pad = 1e-9 * (1.0 + np.abs(boxes).max(initial=0.0))
        self._boxes = [(x0 - pad, y0 - pad, x1 + pad, y1 + pad) for x0, y0, x1, y1 in boxes.tolist()]

    def containing(self, p: Point) -> list[int]:
        """Indices of the areas containing point p (boundary included), in input order."""
        idx = self._tree.query(shapely.points(p), predicate="intersects")
        return sorted(int(i) for i in idx)

    def containing_all(self, points: NDArray[np.object_]) -> tuple[np.ndarray, np.ndarray]:
        """``containing`` for many points (shapely points) at once: the pairs (point
        index, area index) of every area containing a point, boundary included."""
        at, hit = self._tree.query(points, predicate="intersects")
        return at, hit

    def _near_any_box(self, p: Point, q: Point) -> bool:
        """Whether segment p-q meets some area's (padded) bounding box: if not, it meets no area."""
        x0, x1 = (p[0], q[0]) if p[0] <= q[0] else (q[0], p[0])
        y0, y1 = (p[1], q[1]) if p[1] <= q[1] else (q[1], p[1])
        for box in self._boxes:
            if box[0] <= x1 and box[2] >= x0 and box[1] <= y1 and box[3] >= y0 and _meets_box(p, q, box):
                return True
        return False

    def between(self, p: Point, q: Point) -> tuple[bool, int]:
        """(sight, hindrance) between points p and q, by the tabletop rule above."""
        if p == q or not self.areas:
            return True, 0
        if len(self._boxes) <= 64 and not self._near_any_box(p, q):
            return True, 0      # (beyond a few dozen areas, the tree below is quicker)
        line = LineString([p, q])
        idx = np.sort(self._tree.query(line, predicate="intersects"))
        if idx.size == 0:
            return True, 0
        geoms = self._geoms[idx]
        holds_end = shapely.intersects_xy(geoms, *p) | shapely.intersects_xy(geoms, *q)
        through = ~holds_end & ~shapely.touches(geoms, line)
        sel = idx[through]
        return not bool(self._blocks[sel].any()), int(self._hind[sel].sum())
