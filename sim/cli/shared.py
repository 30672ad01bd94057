"""What the commands share: the option values they check alike, and the one-line message."""
from __future__ import annotations

import argparse
import json
import math
from typing import Any

from sim.arguments import MAX_REPLICATIONS, MAX_WORKERS
from sim.errors import InputError


def one_line(text: str) -> str:
    """``text`` on one line, printable whatever the path's bytes (a non-UTF-8 file name)."""
    return " ".join(text.encode("utf-8", "backslashreplace").decode("utf-8").splitlines())


def finite(value: Any) -> Any:
    """``value`` with every float that is not finite (NaN, ±infinity) made None, as the event
    log writes one (JSON has no such numbers); tuples become lists."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def json_text(value: Any, **options: Any) -> str:
    """What ``--json`` prints: strict JSON (a non-finite number is null, never ``NaN``);
    ``options`` are ``json.dumps``'s (indent, sort_keys, ...)."""
    return json.dumps(finite(value), allow_nan=False, **options)


def seed(text: str) -> int:
    """``--seed``: a root seed, 0 .. 2**63-1."""
    try:
        value = int(text)
    except ValueError:
        raise InputError(f"--seed '{text}' is not an integer (expected 0 .. 2**63-1)", file="command line") from None
    if not 0 <= value < 2**63:
        raise InputError(f"--seed {value} is out of range (expected 0 .. 2**63-1)", file="command line")
    return value


def positive_int(text: str, hi: int = MAX_REPLICATIONS, lo: int = 1) -> int:
    """A whole number from ``lo`` (1) to ``hi`` (replications, a task's size, resamples)."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got '{text}'") from None
    if not lo <= v <= hi:
        raise argparse.ArgumentTypeError(f"expected a number from {lo} to {hi}, got {v}")
    return v


def workers(text: str) -> int:
    """``--workers``: 1 to ``MAX_WORKERS`` worker processes."""
    return positive_int(text, hi=MAX_WORKERS)


def positive_float(text: str) -> float:
    """A finite number > 0 (``--precision``)."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got '{text}'") from None
    if not v > 0 or v == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a finite number > 0, got {text}")
    return v


def probability(text: str) -> float:
    """A number strictly between 0 and 1 (``--alpha``)."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got '{text}'") from None
    if not 0 < v < 1:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1 (both "
                                         f"excluded), got {text}")
    return v
