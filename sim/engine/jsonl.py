"""The event log's JSON Lines text: fixed key order, floats at full precision.

A record's line is ``json.dumps(clean(record), separators=(",", ":"), ensure_ascii=False)``:
its keys in order, no spaces, no ASCII escaping, and every float the shortest text that
reads back as the same float (its ``repr``), so the log in memory and the file agree. orjson
writes a whole log in one call: the records interleaved with a raw newline (a ``Fragment``,
a byte orjson's own text never holds), whose commas are then taken out. orjson writes
a float below 1e-4 in size in other notation than ``repr`` (``1e-5`` as ``0.00001``,
``1e-7`` as ``1e-7``, not ``1e-07``): a line that may hold one, and any record orjson
refuses (a whole number beyond 64 bits, a key that is not a string), takes ``json.dumps``.
"""
from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from typing import Any

import orjson

__all__ = ["clean", "line", "text"]

_NEWLINE = orjson.Fragment(b"\n")
_END = orjson.Fragment(b"")
_SEPARATOR = re.compile(rb",\n,")   # re's literal search beats bytes.replace's here
# orjson's text of a float that is not its repr: 0.0000ddd (1e-5 to 1e-4) or a one-digit
# negative exponent (1e-9 to 1e-5). Each begins with a literal, which re finds faster than
# bytes.find does; a string that looks alike costs only time.
_SMALL = re.compile(rb"0\.0000")
_EXPONENT = re.compile(rb"e-[0-9](?![0-9])")


def _not_repr(data: bytes) -> bool:
    """Whether orjson's ``data`` may hold a float not written as its repr."""
    return _SMALL.search(data) is not None or _EXPONENT.search(data) is not None


def clean(value: Any) -> Any:
    """``value`` as its log file holds it: non-finite floats None, tuples lists, numpy scalars numbers."""
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    if hasattr(value, "item"):  # numpy scalar
        return clean(value.item())
    return value


def _number(value: Any) -> Any:
    """What orjson writes for a value it does not know: a float subclass's or numpy scalar's number."""
    if isinstance(value, float):
        return float(value)
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(type(value).__name__)


def _dumps(record: Any) -> bytes:
    return json.dumps(clean(record), separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8", "backslashreplace")


def line(record: dict[str, Any]) -> bytes:
    """One record's JSON text, in UTF-8, without its newline."""
    try:
        data = orjson.dumps(record, default=_number)
    except (orjson.JSONEncodeError, RecursionError):
        return _dumps(record)
    return _dumps(record) if _not_repr(data) else data


def text(records: Sequence[dict[str, Any]]) -> bytes:
    """The records' JSON Lines, in UTF-8, each line ended by a newline."""
    if not records:
        return b""
    parts: list[Any] = [_NEWLINE] * (2 * len(records) + 1)
    parts[:-1:2] = records
    parts[-1] = _END
    try:
        data = orjson.dumps(parts, default=_number)
    except (orjson.JSONEncodeError, RecursionError):
        return b"".join([line(r) + b"\n" for r in records])
    # "[" r0 ",\n," r1 ... ",\n," rN ",\n,]": a raw newline is only ever a fragment's
    body = _SEPARATOR.sub(b"\n", data)[1:-1]
    if not _not_repr(body):
        return body
    # the few lines that may hold such a float (or a string that looks like one), again
    lines = body.split(b"\n")
    return b"\n".join([line(r) if _not_repr(ln) else ln for r, ln in zip(records, lines)]) + b"\n"
