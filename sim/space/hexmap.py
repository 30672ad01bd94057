"""Build a hex map from its YAML form.

Two forms, both ``kind: hex`` with optional ``types`` (letter -> terrain type, see
``sim.space.features``; an entry for a built-in letter changes only the keys it gives,
a new letter starts from open ground and is named after itself):

* rows: ``rows: ["....WW..", "..BB...."]``, one string per row (row 0 first, drawn at
  the top), one letter per hex, all rows the same length; odd rows sit half a hex to the
  right ("odd-r");
* size: ``width``, ``height``, ``default`` (letter, "." if absent) and ``special``
  mapping hexes ``"q,r"`` to letters.

Every key names a hex the same way: axial ``"q,r"``, where ``r`` is the row and
``q = column - floor(r / 2)`` (``sim.space.hex_coords.offset_to_axial``), so ``special``,
``at``, ``orders.to`` and ``victory.objective`` agree. Each hex becomes the node
``"q,r"``; neighbouring passable hexes are joined by an edge of length 1.0. An impassable
hex stays on the map (it still blocks sight) but has no edges.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from sim.space import checks
from sim.space.checks import Where
from sim.space.features import BUILTIN, TYPE_KEYS, TerrainType, parse_type
from sim.space.hex_coords import DIRECTIONS, ROOT3_2, axial_to_offset, node_id
from sim.space.spec import HexTerrain
from sim.space.terrain import Terrain, graph_of

HEX_KEYS = tuple(HexTerrain.model_fields)   # the keys the reference documents
SIZE_KEYS = ("width", "height", "default", "special")

Cell = tuple[int, int, str]  # col, row, letter


def _types(value: Any, where: Where) -> dict[str, TerrainType]:
    types = dict(BUILTIN)
    if value is None:
        return types
    for letter, entry in checks.mapping(value, where).items():
        at = where.at(letter)
        if not isinstance(letter, str) or len(letter) != 1 or letter.isspace():
            at.fail(f"expected a single non-space character as a terrain letter, got {letter!r}")
        entry = checks.mapping(entry, at)
        checks.known_keys(entry, TYPE_KEYS, at)
        types[letter] = parse_type(entry, types.get(letter, TerrainType(letter)), at)
    return types


def _letter(value: Any, types: Mapping[str, TerrainType], where: Where) -> str:
    if not isinstance(value, str) or value not in types:
        where.fail(f"unknown terrain letter {value!r}; known letters: {' '.join(types)}")
    return value


def _from_rows(value: Any, types: Mapping[str, TerrainType], where: Where) -> list[Cell]:
    rows = checks.sequence(value, where)
    if not rows:
        where.fail("expected at least one row of terrain letters")
    cells = []
    width = None
    for row, line in enumerate(rows):
        at = where.at(row)
        line = checks.text(line, at)
        if width is None:
            width = len(line)
            if width * len(rows) > checks.MAX_NODES:
                where.fail(f"expected at most {checks.MAX_NODES} hexes, got {len(rows)} rows "
                           f"of {width}")
        elif len(line) != width:
            at.fail(f"expected {width} letters like rows[0], got {len(line)}")
        for col, letter in enumerate(line):
            if letter not in types:
                at.fail(f"unknown terrain letter {letter!r} at column {col}; "
                        f"known letters: {' '.join(types)}")
            cells.append((col, row, letter))
    return cells


def _special_key(key: Any, width: int, height: int, where: Where) -> tuple[int, int]:
    """(col, row) of a ``special`` key, written as the axial hex ``"q,r"``."""
    parts = key.split(",") if isinstance(key, str) else []
    try:
        q, row = (int(p) for p in parts)
    except ValueError:
        where.fail(f"expected a hex \"q,r\" (axial: r the row, q = column - floor(r/2)), got {key!r}")
    col = axial_to_offset(q, row)[0]
    if not (0 <= row < height and 0 <= col < width):
        span = (f"q {-(row // 2)}..{width - 1 - row // 2} in row {row}" if 0 <= row < height
                else f"r 0..{height - 1}")
        where.fail(f"expected a hex \"q,r\" on the {width}x{height} map ({span}), got {key!r}")
    return col, row


def _from_size(spec: Mapping[str, Any], types: Mapping[str, TerrainType], where: Where) -> list[Cell]:
    for key in ("width", "height"):
        if key not in spec:
            where.at(key).fail(f"expected '{key}' in hexes (or give the map as 'rows')")
    width = checks.integer(spec["width"], where.at("width"), minimum=1)
    height = checks.integer(spec["height"], where.at("height"), minimum=1)
    if width * height > checks.MAX_NODES:
        where.fail(f"expected at most {checks.MAX_NODES} hexes, got {width} x {height}")
    default = _letter(spec.get("default", "."), types, where.at("default"))
    grid = [[default] * width for _ in range(height)]
    special = spec.get("special") or {}
    for key, letter in checks.mapping(special, where.at("special")).items():
        at = where.at("special").at(key)
        col, row = _special_key(key, width, height, at)
        grid[row][col] = _letter(letter, types, at)
    return [(col, row, grid[row][col]) for row in range(height) for col in range(width)]


def hex_terrain(cells: list[Cell], types: Mapping[str, TerrainType]) -> Terrain:
    """The ``Terrain`` of the given offset cells, in their order (no input checks).

    Built in bulk (numpy finds the neighbours), in the order a cell-by-cell build adds
    nodes and edges: each edge from the first of its two hexes, neighbours in
    ``DIRECTIONS`` order. So the graph, and every path and log over it, is that build's.
    """
    col = np.fromiter((c for c, _, _ in cells), np.int64, len(cells))
    row = np.fromiter((r for _, r, _ in cells), np.int64, len(cells))
    q, r = col - (row - (row & 1)) // 2, row  # offset_to_axial, for every cell at once
    kinds = [types[letter] for _, _, letter in cells]
    passable = np.fromiter((t.passable for t in kinds), bool, len(cells))
    cost = np.fromiter((t.cost for t in kinds), float, len(cells))
    # Index of the cell at each (q, r), -1 where there is none (one cell of margin).
    q0, r0 = q.min() - 1, r.min() - 1
    at = np.full((q.max() - q0 + 2, r.max() - r0 + 2), -1, np.int64)
    at[q - q0, r - r0] = np.arange(len(cells))
    first = np.arange(len(cells))[:, None]
    other = np.stack([at[q - q0 + dq, r - r0 + dr] for dq, dr in DIRECTIONS], axis=1)
    # Added from the earlier of the two hexes (the later one finds it already there).
    keep = (other > first) & passable[:, None] & passable[np.maximum(other, 0)]
    a, b = np.broadcast_to(first, other.shape)[keep], other[keep]
    pair_cost = (cost[a] + cost[b]) / 2.0

    qs, rs = q.tolist(), r.tolist()
    names = [node_id(x, y) for x, y in zip(qs, rs)]
    # axial_to_xy for every hex at once (the same float operations, so the same values)
    xs, ys = (q + r / 2.0).tolist(), (r * ROOT3_2).tolist()
    nodes = []
    for name, qq, rr, x, y, (cc, rw, letter), t in zip(names, qs, rs, xs, ys, cells, kinds):
        nodes.append((name, {
            "pos": (x, y), "hex": (qq, rr), "offset": (cc, rw), "letter": letter,
            "terrain": t.name, "cover": t.cover, "hindrance": t.hindrance,
            "blocks_sight": t.blocks_sight, "cost": t.cost, "passable": t.passable}))
    # Edges of one cost share one attribute dict: the terrain never changes once built.
    shared: dict[float, dict[str, float]] = {}
    attrs = [shared.setdefault(c, {"length": 1.0, "cost": c}) for c in pair_cost.tolist()]
    g = graph_of(nodes, zip([names[i] for i in a.tolist()], [names[j] for j in b.tolist()], attrs))
    return Terrain(g, "hex", edges=(a, b, pair_cost))


def build_hex(spec: Mapping[Any, Any], where: Where) -> Terrain:
    """Check a ``kind: hex`` spec and build its ``Terrain``; ``InputError`` on bad input."""
    checks.known_keys(spec, HEX_KEYS, where)
    types = _types(spec.get("types"), where.at("types"))
    if "rows" in spec:
        for key in SIZE_KEYS:
            if key in spec:
                where.at(key).fail(f"expected either 'rows' or 'width'/'height'/'default'/"
                                   f"'special', not both ('{key}' given with 'rows')")
        cells = _from_rows(spec["rows"], types, where.at("rows"))
    else:
        cells = _from_size(spec, types, where)
    return hex_terrain(cells, types)
