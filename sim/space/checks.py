"""Checks of terrain input that fail with an ``InputError`` naming the key path.

A ``Where`` is a position in the user's input (file and key path such as
``terrain.rows[2]``); each check returns the value in the type the builders use, or
raises ``InputError`` saying what was expected there.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any, NoReturn

from sim.errors import InputError

# Limits on terrain input (docs/reference/guarantees.md, "Limits"): enough for benchmarks/engine.py's
# 10,000-node map, small enough that a typo cannot exhaust memory or time.
MAX_NODES = 50_000         # hexes of a hex map; waypoints + grid points of a table
MAX_EXTENT = 1_000_000.0   # cm: a table's width and height
MAX_AREAS = 1_000          # areas of a table
MAX_POINTS = 10_000        # points of one area's polygon
MAX_EDGES = 200_000        # explicit edges of a table
MAX_COVER = 100            # cover and hindrance of a terrain type
MAX_COST = 1_000.0         # movement cost multiplier of a terrain type


class Where:
    """A place in the input: ``Where(None, "terrain").at("rows").at(2)`` → ``terrain.rows[2]``.

    Given the file's ``lines`` (key path tuple -> line, as ``sim.scenario.yamlfile``
    records them) and the key path ``keys`` of the place, a failure also names the line.
    """

    def __init__(self, file: str | None, place: str, lines: Mapping[tuple[Any, ...], int] | None = None,
                 keys: tuple[Any, ...] = ()):
        self.file = file
        self.place = place
        self.lines = lines
        self.keys = keys or (place,)

    def at(self, key: Any) -> Where:
        keys = (*self.keys, key)
        if isinstance(key, int) and not isinstance(key, bool):
            return Where(self.file, f"{self.place}[{key}]", self.lines, keys)
        return Where(self.file, f"{self.place}.{key}", self.lines, keys)

    def line(self) -> int | None:
        """The line of the place, or of the nearest enclosing key the file gives one for."""
        probe = self.keys
        while probe and self.lines is not None and probe not in self.lines:
            probe = probe[:-1]
        return self.lines.get(probe) if self.lines is not None and probe else None

    def fail(self, message: str) -> NoReturn:
        line = self.line()
        place = f"line {line}, key {self.place}" if line else self.place
        raise InputError(message, file=self.file, place=place)


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def mapping(value: Any, where: Where) -> Mapping[Any, Any]:
    if not isinstance(value, Mapping):
        where.fail(f"expected a mapping of keys to values, got {_show(value)}")
    return value


def sequence(value: Any, where: Where) -> list[Any]:
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        where.fail(f"expected a list, got {_show(value)}")
    return list(value)


def known_keys(value: Mapping[Any, Any], allowed: Iterable[str], where: Where) -> None:
    """Fail on the first key that is not in ``allowed`` (typos must not pass silently)."""
    allowed = tuple(allowed)
    for key in value:
        if key not in allowed:
            where.at(key).fail(f"unknown key {key!r}; expected one of: {', '.join(allowed)}")


def integer(value: Any, where: Where, minimum: int | None = None, maximum: int | None = None) -> int:
    ok = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if isinstance(value, bool) or not ok:
        where.fail(f"expected a whole number, got {_show(value)}")
    if minimum is not None and value < minimum:
        where.fail(f"expected a whole number >= {minimum}, got {_show(value)}")
    if maximum is not None and value > maximum:
        where.fail(f"expected a whole number <= {maximum}, got {_show(value)}")
    return int(value)


def number(value: Any, where: Where, positive: bool = False, maximum: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        where.fail(f"expected a number, got {_show(value)}")
    if positive and value <= 0:
        where.fail(f"expected a number > 0, got {_show(value)}")
    if maximum is not None and value > maximum:
        where.fail(f"expected a number <= {maximum:g}, got {_show(value)}")
    return float(value)


def boolean(value: Any, where: Where) -> bool:
    if not isinstance(value, bool):
        where.fail(f"expected true or false, got {_show(value)}")
    return value


def text(value: Any, where: Where) -> str:
    if not isinstance(value, str) or not value:
        where.fail(f"expected a non-empty string, got {_show(value)}")
    return value


def point(value: Any, where: Where) -> tuple[float, float]:
    """An [x, y] pair of numbers."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)) or len(value) != 2:
        where.fail(f"expected a point [x, y], got {_show(value)}")
    return number(value[0], where.at(0)), number(value[1], where.at(1))
