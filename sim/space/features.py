"""Terrain types: what a kind of ground does to sight, cover and movement.

A ``TerrainType`` is shared by both map kinds: a hex map names one per letter, a
tabletop area carries one. Built-in letters (a user's ``types`` may override or add):

====  ==========  =====  =========  ============  ====  ========
code  name        cover  hindrance  blocks_sight  cost  passable
====  ==========  =====  =========  ============  ====  ========
``.`` open        0      0          no            1     yes
``W`` woods       2      1          yes           2     yes
``B`` building    3      0          yes           2     yes
``H`` hedge       1      1          no            1     yes
``R`` rubble      2      1          no            2     yes
``X`` impassable  0      0          yes           1     no
====  ==========  =====  =========  ============  ====  ========
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from shapely.geometry import Polygon

from sim.space import checks
from sim.space.checks import Where
from sim.space.spec import TerrainTypeSpec


@dataclass(frozen=True)
class TerrainType:
    """Cover (to be hit), hindrance (to sight through), sight blocking and movement cost.

    ``cost`` multiplies the length of a move into ground of this type; ``passable``
    false means no move enters it.
    """

    name: str
    cover: int = 0
    hindrance: int = 0
    blocks_sight: bool = False
    cost: float = 1.0
    passable: bool = True


OPEN = TerrainType("open")

BUILTIN: dict[str, TerrainType] = {
    ".": OPEN,
    "W": TerrainType("woods", cover=2, hindrance=1, blocks_sight=True, cost=2.0),
    "B": TerrainType("building", cover=3, hindrance=0, blocks_sight=True, cost=2.0),
    "H": TerrainType("hedge", cover=1, hindrance=1, blocks_sight=False, cost=1.0),
    "R": TerrainType("rubble", cover=2, hindrance=1, blocks_sight=False, cost=2.0),
    "X": TerrainType("impassable", blocks_sight=True, passable=False),
}

#: Built-in types by name, so a tabletop area can say ``terrain: woods``.
BUILTIN_BY_NAME: dict[str, TerrainType] = {t.name: t for t in BUILTIN.values()}

TYPE_KEYS = tuple(TerrainTypeSpec.model_fields)   # the keys the reference documents


def parse_type(entry: Mapping[str, Any], base: TerrainType, where: Where) -> TerrainType:
    """``base`` with the type keys present in ``entry`` replaced, each checked.

    Only the keys in ``TYPE_KEYS`` are read; the caller rejects any others.
    """
    changes: dict[str, Any] = {}
    if "name" in entry:
        changes["name"] = checks.text(entry["name"], where.at("name"))
    for key in ("cover", "hindrance"):
        if key in entry:
            changes[key] = checks.integer(entry[key], where.at(key), minimum=0,
                                          maximum=checks.MAX_COVER)
    for key in ("blocks_sight", "passable"):
        if key in entry:
            changes[key] = checks.boolean(entry[key], where.at(key))
    if "cost" in entry:
        changes["cost"] = checks.number(entry["cost"], where.at("cost"), positive=True,
                                        maximum=checks.MAX_COST)
    return replace(base, **changes)


# shapely ships no types: to mypy the polygon field (an argument of __init__ and replace
# too) is Any.
@dataclass(frozen=True)
class Area:  # type: ignore[no-any-unimported]
    """A tabletop terrain area: a named polygon of one terrain type."""

    name: str
    polygon: Polygon  # type: ignore[no-any-unimported]
    type: TerrainType
