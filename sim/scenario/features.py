"""What a rule module puts on the map, as a scenario writes it: areas, lines, single edges.

A module's own section (``features.<module>``, its ``RuleModule.features`` model) holds
these, each with the module's keys beside them (a minefield's density, say). They are
checked when the scenario is read, like every key (file, line, key path): an area's
corners and a line's points on the table, an edge between two nodes the map joins. The
module's play turns them into ground features (``sim.space.ground``) that its watches
hold.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any

from pydantic import Field, Strict, model_validator

from sim import arguments
from sim.space.checks import MAX_POINTS
from sim.systems.knobs import Knobs

__all__ = ["AreaFeature", "EdgeFeature", "Feature", "LineFeature", "features_in"]

_ID = r"^[A-Za-z0-9_.\-]+$"
_Coordinate = Annotated[float, Strict(), Field(allow_inf_nan=False)]
#: A point ``[x, y]`` as a file writes it (a list): two finite numbers, no coercion.
Point = Annotated[tuple[_Coordinate, _Coordinate], Strict(False)]


class AreaFeature(Knobs):
    """An area of ground a module watches: a simple polygon on the table."""

    id: str = Field(min_length=1, max_length=64, pattern=_ID, description=(
        "its id (the log's `feature`), unique among the module's features"))
    polygon: list[Point] = Field(min_length=3, max_length=MAX_POINTS, description=(
        "the corners `[x, y]` in cm, on the table, of a simple polygon (edges that do not cross)"))


class LineFeature(Knobs):
    """A line on the ground a module watches: a polyline of two or more points."""

    id: str = Field(min_length=1, max_length=64, pattern=_ID, description=(
        "its id (the log's `feature`), unique among the module's features"))
    points: list[Point] = Field(min_length=2, max_length=MAX_POINTS, description=(
        "the points `[x, y]` in cm, on the table, the line runs through in order"))


class EdgeFeature(Knobs):
    """One edge of the map a module watches: between two nodes the map joins."""

    id: str = Field(min_length=1, max_length=64, pattern=_ID, description=(
        "its id (the log's `feature`), unique among the module's features"))
    between: tuple[str, str] = Field(description="the two nodes the edge joins (a bridge, a gap in the wire)")

    @model_validator(mode="after")
    def _two(self) -> EdgeFeature:
        if self.between[0] == self.between[1]:
            raise ValueError(f"edge '{self.id}' joins node '{self.between[0]}' to itself (expected two nodes)")
        return self


Feature = AreaFeature | LineFeature | EdgeFeature


def features_in(model: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Feature]]:
    """Every feature inside a module's section, with its key path, in order."""
    if not isinstance(path, tuple):
        raise arguments.fail("path", "a tuple of keys (the section's own path)", path)
    if isinstance(model, (AreaFeature, LineFeature, EdgeFeature)):
        yield path, model
    elif isinstance(model, Knobs):
        for key in type(model).model_fields:
            yield from features_in(getattr(model, key), (*path, key))
    elif isinstance(model, (list, tuple)):
        for i, item in enumerate(model):
            yield from features_in(item, (*path, i))
    elif isinstance(model, dict):
        for key, item in model.items():
            yield from features_in(item, (*path, key))


