"""A grid hash of points, so a segment query touches only nearby cells.

The cost of a query depends on how many points lie near the segment, not on how many
points there are in all: 500 distant enemies cost no more than 50.
"""
from __future__ import annotations

import math
from collections import defaultdict


class SpatialGrid:
    def __init__(self, cell: float):
        self.cell = float(cell)
        self._cells: dict[tuple[int, int], list] = defaultdict(list)
        # The bounding box of all items: most segments lie far from every enemy.
        self._box = (math.inf, math.inf, -math.inf, -math.inf)

    def _key(self, x: float, y: float) -> tuple[int, int]:
        return (math.floor(x / self.cell), math.floor(y / self.cell))

    def add(self, item, pos) -> None:
        self._cells[self._key(*pos)].append(item)
        x0, y0, x1, y1 = self._box
        self._box = (min(x0, pos[0]), min(y0, pos[1]), max(x1, pos[0]), max(y1, pos[1]))

    def near_segment(self, p0, p1, r: float) -> list:
        """Items in cells that the segment's bounding box, grown by r, overlaps."""
        x0, x1 = (p0[0], p1[0]) if p0[0] <= p1[0] else (p1[0], p0[0])
        y0, y1 = (p0[1], p1[1]) if p0[1] <= p1[1] else (p1[1], p0[1])
        bx0, by0, bx1, by1 = self._box
        if x1 + r < bx0 or x0 - r > bx1 or y1 + r < by0 or y0 - r > by1:
            return []
        i0, j0 = self._key(x0 - r, y0 - r)
        i1, j1 = self._key(x1 + r, y1 + r)
        cells = self._cells
        if (i1 - i0 + 1) * (j1 - j0 + 1) > len(cells):
            # A long segment over a sparse grid: scanning the occupied cells is cheaper.
            return [it for (i, j), items in cells.items() if i0 <= i <= i1 and j0 <= j <= j1 for it in items]
        out = []
        for i in range(i0, i1 + 1):
            for j in range(j0, j1 + 1):
                items = cells.get((i, j))
                if items:
                    out.extend(items)
        return out
