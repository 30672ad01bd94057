"""The terrain document as models: what ``terrain`` may hold, for the reference and the
JSON Schema (``sim schema``). The builders (``sim.space.hexmap``, ``sim.space.table``)
check the same keys (they take their key lists from these models) with the same limits
(``sim.space.checks``), and give the one-line errors; a test holds the two together.
A key shown as optional may be left out; it is never ``null``."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from sim.space.checks import MAX_AREAS, MAX_COST, MAX_COVER, MAX_EDGES, MAX_EXTENT, MAX_NODES, MAX_POINTS

Point = tuple[float, float]


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class TerrainTypeSpec(_Spec):
    """A terrain type: what a kind of ground does to sight, cover and movement. Keys left
    out keep the values of the type it changes (a built-in letter's, or open ground's)."""

    name: str | None = Field(None, min_length=1, description="the type's name, shown in pictures "
                      "(default: the built-in type's, or the letter itself for a new letter)")
    cover: int = Field(0, ge=0, le=MAX_COVER, description="cover of a unit standing in it: "
                       "it makes the unit harder to hit (each rule system's fire rule says how)")
    hindrance: int = Field(0, ge=0, le=MAX_COVER, description="hindrance to sight through it "
                           "(added to cover by the rules that look through it)")
    blocks_sight: bool = Field(False, description="whether it blocks line of sight")
    cost: float = Field(1.0, gt=0, le=MAX_COST, allow_inf_nan=False,
                        description="movement cost multiplier: an edge costs its length × the "
                                    "mean cost of its two ends")
    passable: bool = Field(True, description="false: no move enters it (a hex keeps its "
                           "place but has no edges; edges through an area's inside are dropped)")


class HexTerrain(_Spec):
    """``kind: hex``: a map of pointy-top hexes. Every hex is named ``"q,r"`` in axial
    coordinates, the same in every key: ``r`` is the row (row 0 is the first string of
    ``rows`` and is drawn at the top) and ``q = column − floor(r / 2)`` (odd rows sit half
    a hex to the right). Neighbouring passable hexes are joined by edges of length 1."""

    kind: Literal["hex"] = Field(description="a hex map")
    name: str | None = Field(None, min_length=1, description="a label")
    types: dict[str, TerrainTypeSpec] | None = Field(None, description=(
        "terrain letters → type: an entry for a built-in letter (`.` open, `W` woods, `B` "
        "building, `H` hedge, `R` rubble, `X` impassable) changes only the keys it gives; a "
        "new letter starts from open ground"))
    rows: list[str] | None = Field(None, min_length=1, max_length=MAX_NODES, description=(
        f"the map row by row, one letter per hex, all rows the same length (at most "
        f"{MAX_NODES:,} hexes); give either `rows` or `width`/`height`"))
    width: int | None = Field(None, ge=1, le=MAX_NODES, description="instead of `rows`: hexes per row")
    height: int | None = Field(None, ge=1, le=MAX_NODES, description="instead of `rows`: the number of rows")
    default: str = Field(".", min_length=1, max_length=1, description="with `width`/`height`: "
                         "the letter of every hex not in `special`")
    special: dict[str, str] | None = Field(None, description=(
        'with `width`/`height`: hexes `"q,r"` → letter, for the hexes of other ground '
        '(`"q,r"` as in `at`: column c of row r is q = c − floor(r/2))'))


class GridSpec(_Spec):
    """A lattice of places over the table."""

    spacing: float = Field(gt=0, le=MAX_EXTENT, allow_inf_nan=False, description=(
        'grid places `"gx,gy"` at (gx·spacing, gy·spacing) cm over the table, each joined to '
        "its 8 neighbours; named waypoints are joined to their 4 nearest grid places"))


class AreaSpec(_Spec):
    """A terrain area of a table: a polygon of one kind of ground."""

    name: str | None = Field(None, min_length=1, description="a label (default `area<i>`)")
    terrain: Literal["open", "woods", "building", "hedge", "rubble", "impassable"] | None = Field(
        None, description=("a built-in type, which gives the values the area leaves out (any "
                           "other name is an error; without it, the area is labelled with its "
                           "name and takes the values of the built-in type of that name, if "
                           "any, else open ground's)"))
    polygon: list[Point] = Field(min_length=3, max_length=MAX_POINTS, description=(
        "the corners `[x, y]` in cm, on the table, of a simple polygon (edges that do not cross)"))
    cover: int | None = Field(None, ge=0, le=MAX_COVER, description="as in a terrain type")
    hindrance: int | None = Field(None, ge=0, le=MAX_COVER, description="as in a terrain type")
    blocks_sight: bool | None = Field(None, description="as in a terrain type")
    cost: float | None = Field(None, gt=0, le=MAX_COST, allow_inf_nan=False, description="as in a terrain type")
    passable: bool | None = Field(None, description="as in a terrain type")


class TableTerrain(_Spec):
    """``kind: table``: a tabletop in cm, 0..width × 0..height (y up in pictures). Units
    stand on named waypoints and grid places; a place takes its ground from the area it is
    in (boundary included; the highest cover wins where areas overlap)."""

    kind: Literal["table"] = Field(description="a tabletop")
    name: str | None = Field(None, min_length=1, description="a label")
    width: float = Field(gt=0, le=MAX_EXTENT, allow_inf_nan=False, description="the table's width in cm")
    height: float = Field(gt=0, le=MAX_EXTENT, allow_inf_nan=False, description="the table's height in cm")
    waypoints: dict[str, Point] | None = Field(None, max_length=MAX_NODES, description=(
        "named places `[x, y]` (cm) units can stand on; give `waypoints`, `grid` or both"))
    edges: list[tuple[str, str]] | None = Field(None, max_length=MAX_EDGES, description=(
        "straight routes `[a, b]` between two waypoints (length = their distance)"))
    grid: GridSpec | None = Field(None, description='a lattice of places `"gx,gy"`')
    areas: list[AreaSpec] | None = Field(None, max_length=MAX_AREAS, description="terrain polygons")


TERRAIN_MODELS = (HexTerrain, TableTerrain)
