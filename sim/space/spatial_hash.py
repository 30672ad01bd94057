"""A grid hash of points, so a segment query touches only nearby cells.

The cost of a query depends on how many points lie near the segment, not on how many
points there are in all: 500 distant enemies cost no more than 50.

>>> g = SpatialGrid(10.0)
>>> g.add("a", (5, 5)); g.add("b", (95, 95))
>>> g.near_segment((0, 0), (20, 0), 10.0)
['a']
"""
from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from typing import Any, Generic, Protocol, TypeVar

from sim.space.geometry import Point, reach


class Placed(Protocol):
    """Anything that stands at a point (a unit)."""

    @property
    def pos(self) -> Point:
        """Where it stands."""
        ...


class Named(Placed, Protocol):
    """A placed thing with an id (a unit): ties in distance go to the lower id."""

    @property
    def id(self) -> str:
        """Its id."""
        ...


T = TypeVar("T", bound=Placed)
N = TypeVar("N", bound=Named)
#: The occupied cells' index box (i0, j0, i1, j1).
Span = tuple[int, int, int, int]


class SpatialGrid(Generic[T]):
    """A grid hash of items by position: a query visits only the cells near it."""

    def __init__(self, cell: float):
        self.cell = float(cell)
        self._cells: dict[tuple[int, int], list[T]] = {}
        # The occupied cells' index box and, per row j of cells, its occupied columns,
        # sorted, and their item lists; so a query visits only occupied cells (bisected),
        # however long its box. Built at the first query after a change.
        self._index: tuple[Span, dict[int, tuple[list[int], list[list[T]]]]] | None = None
        # The items' extent (x0, y0, x1, y1): a query box clear of it finds nothing.
        self.box = (float("inf"), float("inf"), -float("inf"), -float("inf"))

    def _key(self, x: float, y: float) -> tuple[int, int]:
        c = self.cell
        return (int(x // c), int(y // c))

    def add_all(self, items: Sequence[T]) -> SpatialGrid[T]:
        """Index every item at its ``pos`` (one pass, no per-item call)."""
        cells, c = self._cells, self.cell
        places = [item.pos for item in items]
        for item, (x, y) in zip(items, places):
            key = (int(x // c), int(y // c))
            found = cells.get(key)
            if found is None:
                cells[key] = [item]
            else:
                found.append(item)
        if places:
            xs, ys = zip(*places)
            bx0, by0, bx1, by1 = self.box
            self.box = (min(bx0, min(xs)), min(by0, min(ys)), max(bx1, max(xs)), max(by1, max(ys)))
        self._index = None
        return self

    def add(self, item: T, pos: Point) -> None:
        """Index one item at ``pos``."""
        x, y = pos
        bx0, by0, bx1, by1 = self.box
        self.box = (min(bx0, x), min(by0, y), max(bx1, x), max(by1, y))
        key = self._key(x, y)
        items = self._cells.get(key)
        if items is None:
            self._cells[key] = [item]
            self._index = None
        else:
            items.append(item)

    def _built_index(self) -> tuple[Span, dict[int, tuple[list[int], list[list[T]]]]]:
        keys = self._cells.keys()
        span: Span
        if keys:
            i_s = [k[0] for k in keys]
            j_s = [k[1] for k in keys]
            span = (min(i_s), min(j_s), max(i_s), max(j_s))
        else:
            span = (1, 1, 0, 0)  # empty: no index range satisfies it
        rows: dict[int, tuple[list[int], list[list[T]]]] = {}
        for (i, j) in sorted(keys):
            row = rows.get(j)
            if row is None:
                row = rows[j] = ([], [])
            row[0].append(i)
            row[1].append(self._cells[(i, j)])
        self._index = (span, rows)
        return self._index

    def near_segment(self, p0: Point, p1: Point, r: float) -> list[T]:
        """Items in cells that the segment's bounding box, grown by r, overlaps."""
        x0, x1 = (p0[0], p1[0]) if p0[0] <= p1[0] else (p1[0], p0[0])
        y0, y1 = (p0[1], p1[1]) if p0[1] <= p1[1] else (p1[1], p0[1])
        # grown a little more than any caller's tangent tolerance
        return [it for items in self._cells_near(x0, y0, x1, y1, reach(r)) for it in items]

    def any_near_box(self, x0: float, y0: float, x1: float, y1: float, reach: float) -> bool:
        """Whether some item (indexed by ``add_all``: items carry ``pos``) lies within
        ``reach`` of the box [x0, x1] x [y0, y1] (edges included), measured exactly."""
        reach2 = reach * reach
        for items in self._cells_near(x0, y0, x1, y1, reach):
            for it in items:
                cx, cy = it.pos
                ex = x0 - cx if cx < x0 else cx - x1 if cx > x1 else 0.0
                ey = y0 - cy if cy < y0 else cy - y1 if cy > y1 else 0.0
                if ex * ex + ey * ey <= reach2:
                    return True
        return False

    def _cells_near(self, x0: float, y0: float, x1: float, y1: float, m: float) -> list[list[T]]:
        """The occupied cells' item lists that the box grown by m overlaps."""
        # Most queries pass far from every item: refused on the items' extent.
        bx0, by0, bx1, by1 = self.box
        if x1 + m < bx0 or x0 - m > bx1 or y1 + m < by0 or y0 - m > by1:
            return []
        c = self.cell
        (si0, sj0, si1, sj1), rows = self._index if self._index is not None else self._built_index()
        # Clip the query to the occupied cells.
        i0 = max(int((x0 - m) // c), si0)
        i1 = min(int((x1 + m) // c), si1)
        j0 = max(int((y0 - m) // c), sj0)
        j1 = min(int((y1 + m) // c), sj1)
        if i0 > i1 or j0 > j1:
            return []
        out: list[list[T]] = []
        for j in range(j0, j1 + 1):
            row = rows.get(j)
            if row is not None:
                cols = row[0]
                lo = bisect_left(cols, i0) if i0 > cols[0] else 0
                hi = bisect_right(cols, i1) if i1 < cols[-1] else len(cols)
                if lo < hi:
                    out.extend(row[1][lo:hi])
        return out


class GridMemo(Generic[T]):
    """The last grid hash made under each key, reused while the very same items stand at
    the very same places (units that hold, phase after phase), else made afresh."""

    def __init__(self) -> None:
        self._last: dict[Any, tuple[list[T], list[Point], SpatialGrid[T]]] = {}

    def grid(self, key: Any, items: list[T], reach: float) -> SpatialGrid[T]:
        """The grid of ``items`` for queries of about ``reach`` (cells by ``cell_for``),
        remembered under ``key``."""
        places = [it.pos for it in items]
        last = self._last.get(key)
        if last is not None and last[0] == items and last[1] == places:
            return last[2]
        grid: SpatialGrid[T] = SpatialGrid(cell_for(items, reach))
        grid.add_all(items)
        self._last[key] = (items, places, grid)
        return grid


def nearest(index: SpatialGrid[N], pos: Point, max_range: float, accept: Callable[[N, float], bool],
            start: float, rank: Callable[[N], Any] | None = None) -> N | None:
    """The item of ``index`` with the least (distance, id) from ``pos``, within
    ``max_range``, that ``accept(item, distance)`` takes; None if none does.

    Items are offered nearest first, ties by id (or by ``rank(item)``), in rings of
    doubling radius from ``start``: each ring's items are sorted and offered before any
    farther one, so ``accept`` (a sight line, say) is asked only until it first says
    yes, and the answer is that of a scan of every item. Distances are ``dist``'s, exactly.
    """
    x, y = pos
    inner, r = -1.0, min(max(start, 1e-9), max_range)
    while True:
        ring = []
        for it in index.near_segment(pos, pos, r):
            px, py = it.pos
            d = math.hypot(x - px, y - py)   # = dist(pos, it.pos)
            if inner < d <= r:
                ring.append((d, it.id if rank is None else rank(it), it))
        ring.sort(key=_by_distance_and_id)
        for d, _, it in ring:
            if accept(it, d):
                return it
        if r >= max_range:
            return None
        inner, r = r, min(2.0 * r, max_range)


def within(index: SpatialGrid[N], pos: Point, max_range: float) -> list[tuple[float, N]]:
    """Every item of ``index`` within ``max_range`` of ``pos``, as (distance, item), in
    the index's order; distances are ``dist``'s, exactly (as ``nearest``'s)."""
    x, y = pos
    found = []
    for it in index.near_segment(pos, pos, max_range):
        px, py = it.pos
        d = math.hypot(x - px, y - py)
        if d <= max_range:
            found.append((d, it))
    return found


def cell_for(items: Sequence[Placed], reach: float) -> float:
    """A cell size for indexing ``items`` against queries of radius ``reach``: a few items
    a cell where they stand densely, never more than ``reach`` (nor below reach / 64)."""
    if not items:
        return max(reach, 1e-3)
    xs, ys = zip(*[it.pos for it in items])
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    n = len(items)
    typical = 2.0 * math.sqrt(w * h / n) if w * h > 0.0 else 2.0 * max(w, h) / n
    return max(min(typical, reach), reach / 64, 1e-3)


def _by_distance_and_id(entry: tuple[float, Any, object]) -> tuple[float, Any]:
    return entry[0], entry[1]


def within_extent(items: Sequence[T], others: Sequence[Placed], reach: float) -> list[T]:
    """The items (with ``pos``) inside the bounding box of ``others`` grown by ``reach``,
    in their order: none outside it can be within ``reach`` of any of ``others``."""
    if not items or not others:
        return []
    xs, ys = zip(*[o.pos for o in others])
    x0, x1, y0, y1 = min(xs) - reach, max(xs) + reach, min(ys) - reach, max(ys) + reach
    return [it for it in items if x0 <= it.pos[0] <= x1 and y0 <= it.pos[1] <= y1]
