"""Whether a record is of its declared type: its keys and the types of their values.

A record type is a ``TypedDict`` (``sim.records``): a record matches it when it has every
required key, no key the type does not declare, and each value of its key's type: ``str``,
``int`` (not a bool), ``float`` (not an int: the log writes ``1`` and ``1.0`` apart),
``bool``, ``None``, a ``Literal``, a union, ``list[X]``, ``tuple[X, Y]`` or
``tuple[X, ...]``, ``dict[K, V]``, a nested ``TypedDict``, ``Any`` or a class. Each type is
read once (``shape``); a type this cannot check is a ``TypeError`` naming the key.
"""
from __future__ import annotations

import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin, get_type_hints, is_typeddict

from sim.events import CONTRACT_KEYS

__all__ = ["Field", "Shape", "mismatch", "problem", "shape", "type_text"]

Check = Callable[[Any], bool]


@dataclass(frozen=True)
class Field:
    """One key of a record type: its name, its type as text, whether every such record has it."""

    name: str
    type: str
    required: bool


@dataclass(frozen=True)
class Shape:
    """A record type, read: its keys in order (the contract's first) and a check of each value."""

    name: str
    fields: tuple[Field, ...]
    required: frozenset[str]
    checks: Mapping[str, Check]


def _plain(hint: Any) -> tuple[Any, bool | None]:
    """The hint without ``Required``/``NotRequired``, and which of them it was (None: neither)."""
    origin = get_origin(hint)
    if origin is NotRequired or origin is Required:
        return get_args(hint)[0], origin is Required
    return hint, None


def type_text(hint: Any) -> str:
    """A type as it reads in a declaration: ``str | None``, ``list[tuple[float, float]]``."""
    hint = _plain(hint)[0]
    origin, args = get_origin(hint), get_args(hint)
    if hint is None or hint is type(None):
        return "None"
    if origin is Literal:
        return " | ".join(repr(a) for a in args)
    if origin is Union or origin is types.UnionType:
        return " | ".join(type_text(a) for a in args)
    if origin is not None:
        inner = ", ".join("..." if a is Ellipsis else type_text(a) for a in args)
        return f"{getattr(origin, '__name__', str(origin))}[{inner}]"
    return getattr(hint, "__name__", str(hint))


def _exactly(kind: type) -> Check:
    if kind is int:
        return lambda v: isinstance(v, int) and not isinstance(v, bool)
    if kind is float:
        return lambda v: isinstance(v, float)
    return lambda v: isinstance(v, kind)


def _check_of(hint: Any, key: str) -> Check:  # noqa: C901 - one branch per kind of type
    """A check of a value against ``hint``; TypeError naming ``key`` if it is not one this reads."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any or hint is object:
        return lambda v: True
    if hint is None or hint is type(None):
        return lambda v: v is None
    if origin is Literal:
        return lambda v: any(type(v) is type(a) and v == a for a in args)
    if origin is Union or origin is types.UnionType:
        alternatives = [_check_of(a, key) for a in args]
        return lambda v: any(c(v) for c in alternatives)
    if origin is list:
        item = _check_of(args[0], key) if args else _check_of(Any, key)
        return lambda v: isinstance(v, list) and all(item(x) for x in v)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            each = _check_of(args[0], key)
            return lambda v: isinstance(v, tuple) and all(each(x) for x in v)
        parts = [_check_of(a, key) for a in args]
        return lambda v: isinstance(v, tuple) and len(v) == len(parts) and all(c(x) for c, x in zip(parts, v))
    if origin is dict:
        k, val = (_check_of(a, key) for a in (args or (Any, Any)))
        return lambda v: isinstance(v, dict) and all(k(a) and val(b) for a, b in v.items())
    if is_typeddict(hint):
        nested = _read(hint)
        return lambda v: isinstance(v, dict) and _problem(v, nested) is None
    if origin is None and isinstance(hint, type):
        return _exactly(hint)
    raise TypeError(f"key '{key}' has the type {hint!r}, which a record cannot be checked against "
                    "(expected str, int, float, bool, None, a Literal, a union, list, tuple, dict, "
                    "a TypedDict or a class)")


@cache
def _read(kind: type) -> Shape:
    """A TypedDict read (once): its keys, whether each is required, a check of each value."""
    if not is_typeddict(kind):
        raise TypeError(f"{getattr(kind, '__name__', kind)!r} is not a TypedDict")
    hints = get_type_hints(kind, include_extras=True)
    optional: frozenset[str] = getattr(kind, "__optional_keys__", frozenset())
    fields: list[Field] = []
    checks: dict[str, Check] = {}
    for key, hint in hints.items():
        plain, said = _plain(hint)
        required = said if said is not None else key not in optional
        fields.append(Field(key, type_text(plain), required))
        checks[key] = _check_of(plain, key)
    return Shape(kind.__name__, tuple(fields), frozenset(f.name for f in fields if f.required), checks)


def shape(kind: type) -> Shape:
    """The record type ``kind`` read; TypeError if it is no TypedDict that begins with the contract keys."""
    if not isinstance(kind, type) or not is_typeddict(kind):
        raise TypeError(f"{getattr(kind, '__name__', kind)!r} is not a TypedDict")
    s = _read(kind)
    fields = s.fields
    first = tuple(f.name for f in fields[:len(CONTRACT_KEYS)])
    if first != CONTRACT_KEYS or not all(f.required for f in fields[:len(CONTRACT_KEYS)]):
        raise TypeError(f"{kind.__name__} does not begin with the contract keys {list(CONTRACT_KEYS)}, each "
                        "required (expected a subclass of sim.records.Record)")
    return s


def _problem(record: Mapping[str, Any], s: Shape) -> str | None:
    for f in s.fields:
        if f.required and f.name not in record:
            return f"no key '{f.name}', which {s.name} requires"
    for key, value in record.items():
        check = s.checks.get(key)
        if check is None:
            return f"key '{key}', which {s.name} does not declare"
        if not check(value):
            declared = next(f.type for f in s.fields if f.name == key)
            return f"key '{key}' is {value!r} ({type(value).__name__}), where {s.name} declares {declared}"
    return None


def problem(record: Mapping[str, Any], kind: type) -> str | None:
    """What in ``record`` its type ``kind`` does not allow (None: it matches)."""
    return _problem(record, shape(kind))


def mismatch(record: Mapping[str, Any], kinds: Iterable[type]) -> str | None:
    """What keeps ``record`` from matching any of ``kinds`` (its event's declared types); None if one matches."""
    said = []
    for kind in kinds:
        found = problem(record, kind)
        if found is None:
            return None
        said.append(found)
    return "; ".join(said) if said else "no declared type"
