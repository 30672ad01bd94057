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

    def _key(self, x: float, y: float) -> tuple[int, int]:
        return (math.floor(x / self.cell), math.floor(y / self.cell))

    def add(self, item, pos) -> None:
        self._cells[self._key(*pos)].append(item)

    def near_segment(self, p0, p1, r: float) -> list:
        """Items in cells that the segment's bounding box, grown by r, overlaps."""
        x0, x1 = sorted((p0[0], p1[0]))
        y0, y1 = sorted((p0[1], p1[1]))
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
