"""Nearest-first target search (sim.space.spatial_hash.nearest): the answer of a scan of every
item, found by asking ``accept`` (a sight line) of as few items as that answer needs."""
from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from sim.space.spatial_hash import SpatialGrid, cell_for, nearest

PROPS = settings(max_examples=120, deadline=None, derandomize=True)
coord = st.floats(0, 300, allow_nan=False)


class _Item:
    def __init__(self, id, pos):
        self.id, self.pos = id, pos


def _scan(items, pos, r, ok):
    """What a scan of every item picks: the least (distance, id) within r that ok takes."""
    best = None
    for it in items:
        d = math.hypot(pos[0] - it.pos[0], pos[1] - it.pos[1])
        if d <= r and ok(it) and (best is None or (d, it.id) < best[:2]):
            best = (d, it.id, it)
    return None if best is None else best[2]


@PROPS
@given(st.lists(st.tuples(coord, coord), min_size=0, max_size=50), coord, coord,
       st.floats(0, 400), st.floats(0.5, 100), st.floats(0.01, 200), st.integers(0, 7))
def test_nearest_is_the_scan_of_every_item_and_asks_nearest_first(points, x, y, r, cell, start, every):
    """Whatever the cell size and first ring, the item found is the scan's, and accept
    was asked of exactly the items before it in (distance, id) order, then of it."""
    items = [_Item(f"u{i:02d}", p) for i, p in enumerate(points)]
    # ties in distance: a copy of the first point under another id
    if items:
        items.append(_Item("a", items[0].pos))
    index = SpatialGrid(cell).add_all(items)
    ok = (lambda it: True) if every == 0 else (lambda it: int(it.id[1:] or 0) % every == 0 if it.id != "a" else True)
    asked = []

    def accept(it, d):
        asked.append((d, it.id))
        assert d == math.hypot(x - it.pos[0], y - it.pos[1])
        return ok(it)

    got = nearest(index, (x, y), r, accept, start)
    want = _scan(items, (x, y), r, ok)
    assert got is want
    in_range = sorted((math.hypot(x - it.pos[0], y - it.pos[1]), it.id) for it in items
                      if math.hypot(x - it.pos[0], y - it.pos[1]) <= r)
    assert asked == in_range[:len(asked)]
    if got is not None:
        assert asked[-1][1] == got.id
    else:
        assert asked == in_range


def test_nearest_boundary_is_inclusive_and_ties_go_to_the_lower_id():
    items = [_Item("b", (10.0, 0.0)), _Item("a", (0.0, 10.0)), _Item("c", (10.0001, 0.0))]
    index = SpatialGrid(3.0).add_all(items)
    assert nearest(index, (0.0, 0.0), 10.0, lambda it, d: True, 1.0).id == "a"
    assert nearest(index, (0.0, 0.0), 10.0, lambda it, d: it.id == "c", 1.0) is None
    assert nearest(index, (0.0, 0.0), 9.999, lambda it, d: True, 1.0) is None


def test_cell_size_follows_density_within_bounds():
    dense = [_Item(str(i), (i % 10 * 1.0, i // 10 * 1.0)) for i in range(100)]
    assert 1e-3 <= cell_for(dense, 50.0) <= 5.0          # about two spacings, not the reach
    assert cell_for(dense, 1.0) == 1.0                     # never more than the reach
    assert cell_for([_Item("x", (0.0, 0.0))], 64.0) == 1.0   # one item: the reach / 64
    assert cell_for([], 8.0) == 8.0
