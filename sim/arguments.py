"""Checks of the Python API's arguments: a bad one is an ``InputError`` naming it.

Each check returns the value it accepted (so a call reads ``seed = arguments.seed(seed)``)
and raises ``InputError(..., place=name)``, as strict as the command line: no bool taken
for a number, no float for an integer, no NaN, no silently truncated seed.
"""
from __future__ import annotations

import math
import os
import re
from collections.abc import Collection
from numbers import Integral, Real
from typing import Any

from sim.errors import InputError
from sim.scenario.yamlfile import MAX_DEPTH, MAX_NODES

SEED_MAX = 2**63 - 1
MAX_REPLICATIONS = 1_000_000  # per cell, as --replications
MAX_WORKERS = 256             # more processes on one machine only thrash; clusters use --address


def _got(value: Any) -> str:
    text = re.sub(r"\s*\n\s*", " ", repr(value))   # one line: a NumPy array's repr spans several
    return text if len(text) <= 60 else text[:57] + "..."


def fail(name: str, expected: str, value: Any) -> InputError:
    """The error for argument ``name``: what was expected and what was given."""
    return InputError(f"expected {expected}, got {_got(value)}", place=name)


def whole(value: Any, name: str, least: int = 0, most: int | None = None) -> int:
    """A whole number (an ``int`` or NumPy's; not a bool, not a float) in ``least`` ..
    ``most``, as an ``int``."""
    # bool first: mypy does not know a bool is an Integral (a registered ABC) and would call the check dead
    whole_number = int(value) if not isinstance(value, bool) and isinstance(value, Integral) else None
    if whole_number is None or whole_number < least or (most is not None and whole_number > most):
        span = f"{least} .. {'2**63-1' if most == SEED_MAX else most}" if most is not None \
            else f">= {least}"
        raise fail(name, f"an integer {span}", value)
    return whole_number


def seed(value: Any, name: str = "seed") -> int:
    """A seed: an ``int`` in 0 .. 2**63-1 (what ``--seed`` takes)."""
    return whole(value, name, 0, SEED_MAX)


def count(value: Any, name: str) -> int:
    """A positive ``int`` (a number of replications, of workers, of frames)."""
    return whole(value, name, 1)


def number(value: Any, name: str, least: float | None = None, most: float | None = None,
           *, positive: bool = False) -> Any:
    """A finite real number (not a bool; an int or a Fraction stays exact) within bounds."""
    if not _finite(value) or (least is not None and value < least) \
            or (most is not None and value > most) or (positive and value <= 0):
        bounds = ("> 0" if positive else "") if least is None and most is None \
            else f"in [{least}, {most}]" if most is not None else f">= {least}"
        raise fail(name, f"a finite number {bounds}".rstrip(), value)
    return value


def _finite(value: Any) -> bool:
    # bool first, as in ``whole``: mypy does not know a bool is a Real
    if isinstance(value, bool) or not isinstance(value, Real):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an int beyond the largest float
        return False


def point(value: Any, name: str) -> tuple[float, float]:
    """A point: a pair of finite numbers."""
    if not (isinstance(value, Collection) and not isinstance(value, (str, bytes))
            and len(value) == 2 and all(_finite(v) for v in value)):
        raise fail(name, "a point (x, y) of two finite numbers", value)
    x, y = value
    return x, y


def flag(value: Any, name: str) -> bool:
    """A ``bool`` (not a truthy string)."""
    if not isinstance(value, bool):
        raise fail(name, "True or False", value)
    return value


def text(value: Any, name: str) -> str:
    """A non-empty ``str``."""
    if not isinstance(value, str) or not value:
        raise fail(name, "a non-empty string", value)
    return value


def path(value: Any, name: str = "path") -> str:
    """A file path (a ``str`` or ``os.PathLike``), as a ``str``; whether it names a file
    (or is empty) is for the reader of the file to say, as it does for the command line."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise fail(name, "a file path (a str or os.PathLike)", value)
    return value


def choice(value: Any, name: str, choices: Collection[str]) -> str:
    """One of ``choices``."""
    if not isinstance(value, str) or value not in choices:
        raise fail(name, f"one of {', '.join(sorted(choices))}", value)
    return value


def instance(value: Any, name: str, kind: type | tuple[type, ...], what: str) -> Any:
    """An instance of ``kind`` (``what`` says it in words)."""
    if not isinstance(value, kind):
        raise fail(name, what, value)
    return value


def mapping(value: Any, name: str, *, keys: str = "string keys") -> dict[str, Any]:
    """A ``dict`` with ``str`` keys, nested at most ``MAX_DEPTH`` levels (as a YAML file)."""
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise fail(name, f"a dict with {keys}", value)
    nesting(value, name)
    return value


def nesting(value: Any, name: str) -> None:
    """Refuse a document nested deeper, or larger, than a YAML file may be.

    Counted as the YAML reader counts nodes (shared values once per use), so a dict passes
    from Python exactly when it would pass written as YAML; done without recursion, so a
    deep (or self-holding) one cannot overflow the stack.
    """
    stack: list[tuple[Any, int]] = [(value, 0)]
    seen = 0
    while stack:
        seen += 1
        if seen > MAX_NODES:
            raise InputError(f"more than {MAX_NODES} values (expected a document as a "
                             "scenario or study file may hold)", place=name)
        node, depth = stack.pop()
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list | tuple) else ()
        for child in children:
            if depth + 1 >= MAX_DEPTH:
                raise InputError(f"nested more than {MAX_DEPTH} levels deep (expected a "
                                 "document as a scenario or study file may hold)", place=name)
            stack.append((child, depth + 1))
