"""The event log's JSON Lines text: fixed key order, floats rounded to 9 decimals.

``Lines()(record)`` is exactly ``json.dumps(clean(record), separators=(",", ":"),
ensure_ascii=False)``, the format the log has always had, written several times faster:
the common values (strings, floats, whole numbers, points) are formatted here, each
distinct one once per log (a log repeats its instants, positions, ids and names many
times), and a float takes one decimal conversion instead of three. Anything else goes
through ``json.dumps`` of the cleaned value, as before.
"""
from __future__ import annotations

import json
import math
from json.encoder import encode_basestring
from typing import Any

__all__ = ["Lines", "clean", "float_text"]


def clean(value: Any) -> Any:
    """``value`` as the log writes it: floats to 9 decimals, tuples as lists, numpy scalars as numbers.

    A float rounding to zero is 0.0 (never -0.0), a non-finite one None.
    """
    # Rounded, so the log does not depend on the last ulp of a platform's libm.
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        r = round(value, 9)
        return 0.0 if r == 0 else r
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    if hasattr(value, "item"):  # numpy scalar
        return clean(value.item())
    return value


def _dumps(value: Any) -> str:
    return json.dumps(clean(value), separators=(",", ":"), ensure_ascii=False)


def float_text(v: float) -> str:
    """The JSON text of ``clean(v)`` for a float ``v``: ``repr(round(v, 9))``.

    Between 1e-4 and 1e6 in size it is ``format(v, '.9f')`` without its trailing zeros (one
    decimal conversion, not round's two and repr's one): both are the correctly rounded
    9-decimal value, and there a double is finer than 1e-9, so no shorter decimal names
    the rounded float. Elsewhere (exponent notation, coarser doubles) round and repr.
    """
    if 1e-4 <= abs(v) < 1e6:
        s = format(v, ".9f").rstrip("0")
        return s + "0" if s[-1] == "." else s
    if v - v != 0.0:        # inf or nan
        return "null"
    r = round(v, 9)
    return "0.0" if r == 0 else float.__repr__(r)


class Lines:
    """Records to JSON texts: one ``Lines`` per log written.

    It remembers every distinct string, float, point and key it has formatted.
    """

    def __init__(self) -> None:
        self._keys: dict[str, str] = {}
        self._strs: dict[str, str] = {}
        self._floats: dict[float, str] = {}
        self._points: dict[tuple[float, float], str] = {}

    def __call__(self, record: dict[str, Any]) -> str:
        """The record's JSON text, fixed key order, no spaces, no ASCII escaping."""
        keys, strs, floats = self._keys, self._strs, self._floats
        parts = []
        for k, v in record.items():
            kt = keys.get(k)
            if kt is None:
                if type(k) is not str:
                    return _dumps(record)
                kt = keys[k] = encode_basestring(k) + ":"
            tv = type(v)
            if tv is str:
                t = strs.get(v)
                if t is None:
                    t = strs[v] = encode_basestring(v)
            elif tv is float:
                t = floats.get(v)
                if t is None:
                    t = floats[v] = float_text(v)
            elif tv is int:
                t = int.__repr__(v)
            elif v is None:
                t = "null"
            else:
                t = self.value(v)
            parts.append(kt + t)
        return "{" + ",".join(parts) + "}"

    def value(self, v: Any) -> str:
        """The JSON text of any value as the log writes it."""
        tv = type(v)
        if tv is str:
            t = self._strs.get(v)
            if t is None:
                t = self._strs[v] = encode_basestring(v)
            return t
        if tv is float:
            t = self._floats.get(v)
            if t is None:
                t = self._floats[v] = float_text(v)
            return t
        if tv is bool:
            return "true" if v else "false"
        if tv is int:
            return int.__repr__(v)
        if v is None:
            return "null"
        if tv is tuple and len(v) == 2 and type(v[0]) is float and type(v[1]) is float:
            t = self._points.get(v)
            if t is None:
                t = self._points[v] = "[" + self.value(v[0]) + "," + self.value(v[1]) + "]"
            return t
        if tv is list or tv is tuple:
            return "[" + ",".join([self.value(x) for x in v]) + "]"
        return _dumps(v)
