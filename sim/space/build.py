"""``build_terrain``: the one entry point from a parsed ``terrain`` mapping to a ``Terrain``."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sim.space import checks
from sim.space.checks import Where
from sim.space.hexmap import build_hex
from sim.space.table import build_table
from sim.space.terrain import Terrain


def build_terrain(spec: Any, file: str | None = None, place: str = "terrain",
                  lines: Mapping[tuple[Any, ...], int] | None = None) -> Terrain:
    """Check ``spec`` (YAML already parsed) and build its map, by ``spec["kind"]``.

    ``kind: hex`` is described in ``sim.space.hexmap``, ``kind: table`` in
    ``sim.space.table``. Bad input raises ``InputError`` naming ``file`` and the key path
    under ``place`` (e.g. ``terrain.rows[2]``) and what was expected there; given the
    file's ``lines`` (key path -> line), the line too.
    """
    where = Where(file, place, lines)
    spec = checks.mapping(spec, where)
    kind = spec.get("kind")
    if kind == "hex":
        return build_hex(spec, where)
    if kind == "table":
        return build_table(spec, where)
    where.at("kind").fail(f"expected 'hex' or 'table', got {kind!r}")
