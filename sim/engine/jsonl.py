"""The event log's JSON Lines text: fixed key order, floats rounded to 9 decimals.

``Lines()(record)`` is exactly ``json.dumps(clean(record), separators=(",", ":"),
ensure_ascii=False)``, the format the log has always had, written several times faster:
the common values (strings, floats, whole numbers, points, lists of one kind) are formatted
here, each distinct one once per log (a log repeats its instants, positions, ids and names
many times), and a float takes one decimal conversion instead of three. Records with the
same keys are written by one function made for them (a log has a few dozen such shapes),
which lays out the keys' text once and formats each field by the kind of value it holds.
Anything else goes through ``json.dumps`` of the cleaned value, as before.
"""
from __future__ import annotations

import json
import math
from collections.abc import Callable
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


class _Memo(dict[Any, str]):
    """A dict that makes and keeps a missing entry's text (a hit is one C-level lookup)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[Any], str]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: Any) -> str:
        text = self[key] = self.make(key)
        return text


# How one field's value becomes text in a record writer, by the type it had when the writer
# was made; any other value of that field takes the general path X (so a writer is never
# wrong, only slower, for a record that differs).
_FIELD = {
    str: "(S[{a}] if type({a}) is str else X({a}))",
    float: "(F[{a}] if type({a}) is float else X({a}))",
    int: "(int.__repr__({a}) if type({a}) is int else X({a}))",
    bool: "((\"true\" if {a} else \"false\") if type({a}) is bool else X({a}))",
    type(None): "(\"null\" if {a} is None else X({a}))",
    tuple: "(P[{a}] if type({a}) is tuple and len({a}) == 2 and type({a}[0]) is float"
           " and type({a}[1]) is float else X({a}))",
    list: "L({a})",
}


# Writer makers by the fields' kinds, compiled once per process (a study writes many logs
# whose records have the same few shapes); bounded, as user rule systems may add shapes.
_MAKERS: dict[tuple[type, ...], Callable[..., Callable[[dict[str, Any]], str]]] = {}


def _maker(kinds: tuple[type, ...]) -> Callable[..., Callable[[dict[str, Any]], str]]:
    make = _MAKERS.get(kinds)
    if make is None:
        names = [f"a{i}" for i in range(len(kinds))]
        fields = [_FIELD.get(k, "X({a})").format(a=a) for a, k in zip(names, kinds)]
        body = "".join(f"{{K{i}}}{{{f}}}" for i, f in enumerate(fields))
        source = (f"def make(S, F, P, X, L, glue):\n"
                  f"    {', '.join(f'K{i}' for i in range(len(kinds)))}, = glue\n"
                  f"    def write(record):\n"
                  f"        {', '.join(names)}, = record.values()\n"
                  f"        return f'{body}}}}}'\n"
                  f"    return write\n")
        scope: dict[str, Any] = {}
        exec(source, scope)   # noqa: S102 - made from the fixed parts in _FIELD and numbered names
        if len(_MAKERS) >= 4096:
            _MAKERS.clear()
        make = _MAKERS[kinds] = scope["make"]
    return make


class Lines:
    """Records to JSON texts: one ``Lines`` per log written.

    It remembers every distinct string, float, point and list of one kind it has formatted,
    and for every distinct key sequence a writer: an f-string with the keys' text laid out
    once, each value formatted by the type that field had (a log's records of one kind
    share both).
    """

    def __init__(self) -> None:
        self._strs = _Memo(encode_basestring)
        self._floats = _Memo(float_text)
        self._points = _Memo(self._point)
        self._lists = {str: _Memo(self._items(self._strs)), float: _Memo(self._items(self._floats)),
                       int: _Memo(lambda items: "[" + ",".join(map(int.__repr__, items)) + "]")}
        self._writers: dict[tuple[Any, ...], Callable[[dict[str, Any]], str]] = {}

    def __call__(self, record: dict[str, Any]) -> str:
        """The record's JSON text, fixed key order, no spaces, no ASCII escaping."""
        keys = tuple(record)
        write = self._writers.get(keys)
        if write is None:
            write = self._writers[keys] = self._writer(record)
        return write(record)

    def _writer(self, record: dict[str, Any]) -> Callable[[dict[str, Any]], str]:
        """A function writing records with these keys, typed like ``record``'s values."""
        if not all(type(k) is str for k in record):
            return _dumps
        if not record:
            return lambda _: "{}"
        # The keys' text (with the commas and braces around it) goes in as data, never into
        # the source: a key's characters cannot change the code.
        glue = [("{" if i == 0 else ",") + encode_basestring(k) + ":" for i, k in enumerate(record)]
        kinds = tuple(t if t in _FIELD else object for t in map(type, record.values()))
        return _maker(kinds)(self._strs, self._floats, self._points, self.value, self._list, glue)

    def _point(self, p: tuple[float, float]) -> str:
        return "[" + self._floats[p[0]] + "," + self._floats[p[1]] + "]"

    def _list(self, v: Any) -> str:
        if type(v) is not list:
            return self.value(v)
        kinds = {*map(type, v)}   # one C pass; a log's lists hold one kind of thing
        if len(kinds) == 1:
            kind = kinds.pop()
            same = self._lists.get(kind)
            if same is not None:            # equal tuples of one exact type: the same text
                return same[tuple(v)]
            if kind is tuple:               # a route: points, as a rule
                return "[" + ",".join(map(self._tuple, v)) + "]"
        return "[" + ",".join(map(self.value, v)) + "]"

    def _tuple(self, v: tuple[Any, ...]) -> str:
        """A tuple's text: a point of two floats through the point memo, else element-wise."""
        if len(v) == 2 and type(v[0]) is float and type(v[1]) is float:
            return self._points[v]
        return "[" + ",".join([self.value(x) for x in v]) + "]"

    def _items(self, memo: dict[Any, str]) -> Callable[[tuple[Any, ...]], str]:
        get = memo.__getitem__
        return lambda items: "[" + ",".join(map(get, items)) + "]"

    def value(self, v: Any) -> str:
        """The JSON text of any value as the log writes it."""
        tv = type(v)
        if tv is str:
            return self._strs[v]
        if tv is float:
            return self._floats[v]
        if tv is bool:
            return "true" if v else "false"
        if tv is int:
            return int.__repr__(v)
        if v is None:
            return "null"
        if tv is tuple:
            return self._tuple(v)
        if tv is list:
            return "[" + ",".join([self.value(x) for x in v]) + "]"
        if tv is dict and all(type(k) is str for k in v):
            return "{" + ",".join([self._strs[k] + ":" + self.value(x) for k, x in v.items()]) + "}"
        return _dumps(v)
