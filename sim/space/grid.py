"""A grid hash of points, so a segment query touches only nearby cells.

The cost of a query depends on how many points lie near the segment, not on how many
points there are in all: 500 distant enemies cost no more than 50.

>>> g = SpatialGrid(10.0)
>>> g.add("a", (5, 5)); g.add("b", (95, 95))
>>> g.near_segment((0, 0), (20, 0), 10.0)
['a']
"""
from __future__ import annotations


class SpatialGrid:
    def __init__(self, cell: float):
        self.cell = float(cell)
        self._cells: dict[tuple[int, int], list] = {}
        self._span: tuple[int, int, int, int] | None = None  # occupied cells' index box

    def _key(self, x: float, y: float) -> tuple[int, int]:
        c = self.cell
        return (int(x // c), int(y // c))

    def add(self, item, pos) -> None:
        key = self._key(pos[0], pos[1])
        items = self._cells.get(key)
        if items is None:
            self._cells[key] = [item]
            self._span = None
        else:
            items.append(item)

    def _occupied_span(self) -> tuple[int, int, int, int]:
        if self._span is None:
            keys = self._cells.keys()
            if keys:
                i_s = [k[0] for k in keys]
                j_s = [k[1] for k in keys]
                self._span = (min(i_s), min(j_s), max(i_s), max(j_s))
            else:
                self._span = (1, 1, 0, 0)  # empty: no index range satisfies it
        return self._span

    def near_segment(self, p0, p1, r: float) -> list:
        """Items in cells that the segment's bounding box, grown by r, overlaps."""
        x0, x1 = (p0[0], p1[0]) if p0[0] <= p1[0] else (p1[0], p0[0])
        y0, y1 = (p0[1], p1[1]) if p0[1] <= p1[1] else (p1[1], p0[1])
        c = self.cell
        si0, sj0, si1, sj1 = self._span or self._occupied_span()
        # Clip the query to the occupied cells: most segments pass far from every enemy.
        i0 = max(int((x0 - r) // c), si0)
        i1 = min(int((x1 + r) // c), si1)
        if i0 > i1:
            return []
        j0 = max(int((y0 - r) // c), sj0)
        j1 = min(int((y1 + r) // c), sj1)
        if j0 > j1:
            return []
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
