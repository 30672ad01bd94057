"""The event log's JSON Lines text: fixed key order, floats at full precision.

A record's line is its keys in order, no spaces, no ASCII escaping (as ``json.dumps(record,
separators=(",", ":"), ensure_ascii=False)`` writes them), a tuple as a list, a numpy
scalar as its number, a non-finite float as null, and every float as the shortest text
that reads back as the same float: the digits of its ``repr``, so the log in memory and
the file agree. orjson writes it, a whole log in one call: the records interleaved with a
raw newline (a ``Fragment``: orjson's own text never holds one), whose commas are then
taken out. Where ``repr`` writes an exponent of one digit with a zero (``1e-07``) orjson
does not (``1e-7``), and from 1e-5 to 1e-4 in size it writes no exponent (``0.00001``).
A record orjson refuses (a whole number beyond 64 bits, a key that is not a string) is
written by ``json.dumps``.
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


def line(record: dict[str, Any]) -> bytes:
    """One record's JSON text, in UTF-8, without its newline."""
    try:
        return orjson.dumps(record, default=_number)
    except (orjson.JSONEncodeError, RecursionError):
        return json.dumps(clean(record), separators=(",", ":"), ensure_ascii=False).encode(
            "utf-8", "backslashreplace")


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
    # "[" r0 ",\n," r1 ... ",\n," rN ",\n,]": a raw newline is only ever a fragment's. The
    # brackets are left out through a view, not a copy: a third buffer of the log's size
    # made the allocator hand its pages back each time, to be faulted in again.
    return _SEPARATOR.sub(b"\n", memoryview(data)[1:-1])
