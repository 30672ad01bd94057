"""Prove that two folders of event logs (``shipped_logs.py``'s) differ only in the digits of
floats that the old log rounded to 9 decimals.

    .venv/bin/python benchmarks/float_digits.py /tmp/before /tmp/after

For every log of the same name in both, line by line: the same number of lines, the same
keys in the same order, every value that is not a float equal, every float of the old log
``round(new, 9)`` (a float rounding to zero written 0.0, a non-finite one null); the old
line is, byte for byte, what the old writer made of the new record, and the new line is
what the new writer makes of it (orjson: each float the shortest text that reads back as
it). Prints a summary; exits 1 on any other difference, 2 (with one line) when a folder or
a file cannot be read as logs.
"""
from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

__all__ = ["Tally", "Unreadable", "compare_logs", "compare_records", "main", "old_rounding"]


def old_rounding(value: Any) -> Any:
    """``value`` as the old log wrote it: floats rounded to 9 decimals (0.0 for zero, None if not finite)."""
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        r = round(value, 9)
        return 0.0 if r == 0 else r
    if isinstance(value, list):
        return [old_rounding(v) for v in value]
    if isinstance(value, dict):
        return {k: old_rounding(v) for k, v in value.items()}
    return value


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _new_text(value: Any) -> str:
    """The new writer's text of a record read back: orjson's, or json.dumps' where orjson refuses it."""
    try:
        return orjson.dumps(value).decode("utf-8")
    except orjson.JSONEncodeError:
        return _dumps(value)


@dataclass
class Tally:
    """What a comparison found: lines and floats seen, floats whose digits changed, problems."""

    lines: int = 0
    floats: int = 0
    changed: int = 0
    problems: list[str] = field(default_factory=list)


def compare_records(old: Any, new: Any, tally: Tally, where: str = "") -> str | None:
    """The first way ``old`` is not ``new`` as the old log rounded it (None: it is), counting floats."""
    if type(old) is float and type(new) is float:
        tally.floats += 1
        tally.changed += old != new
        return None if old == old_rounding(new) else f"{where or 'value'}: {old!r} is not round({new!r}, 9)"
    if type(old) is not type(new):
        return f"{where or 'value'}: {old!r} against {new!r}"
    if isinstance(old, dict):
        if list(old) != list(new):
            return f"{where or 'record'}: keys {list(old)} against {list(new)}"
        for k in old:
            why = compare_records(old[k], new[k], tally, f"{where}.{k}" if where else k)
            if why:
                return why
        return None
    if isinstance(old, list):
        if len(old) != len(new):
            return f"{where}: {len(old)} items against {len(new)}"
        for i, (a, b) in enumerate(zip(old, new)):
            why = compare_records(a, b, tally, f"{where}[{i}]")
            if why:
                return why
        return None
    return None if old == new else f"{where or 'value'}: {old!r} against {new!r}"


def _compare_line(old_line: str, new_line: str, tally: Tally) -> str | None:
    old, new = json.loads(old_line), json.loads(new_line)
    why = compare_records(old, new, tally)
    if why:
        return why
    if _dumps(old_rounding(new)) != old_line:
        return "the old line is not the old writer's text of the new record"
    if _new_text(new) != new_line:
        return "the new line is not the new writer's text of its record"
    return None


def compare_logs(old_text: str, new_text: str, tally: Tally | None = None) -> Tally:
    """Compare two logs' texts line by line; the tally names the first problem (none: only float digits differ)."""
    tally = tally if tally is not None else Tally()
    old_lines, new_lines = old_text.split("\n"), new_text.split("\n")
    if len(old_lines) != len(new_lines):
        tally.problems.append(f"{len(old_lines) - 1} lines against {len(new_lines) - 1}")
        return tally
    for number, (a, b) in enumerate(zip(old_lines, new_lines), 1):
        if not a and not b:
            continue
        tally.lines += 1
        try:
            why = _compare_line(a, b, tally)
        except json.JSONDecodeError as exc:
            why = f"not JSON ({exc.msg})"
        if why:
            tally.problems.append(f"line {number}: {why}")
            return tally
    return tally


class Unreadable(Exception):
    """A log file that cannot be read as UTF-8 text."""


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise Unreadable(f"float_digits.py: {path}: cannot read it as a log ({exc})") from None


def main(argv: list[str]) -> int:
    """Compare every log of the first folder with its namesake in the second; 0 if only float digits differ."""
    if len(argv) != 2 or any(a.startswith("-") for a in argv):
        print(__doc__, file=sys.stderr)
        return 2
    old_dir, new_dir = Path(argv[0]), Path(argv[1])
    for folder in (old_dir, new_dir):
        if not folder.is_dir():
            print(f"float_digits.py: {folder}: not a folder (expected a folder of .jsonl logs)", file=sys.stderr)
            return 2
    old_names = {p.name for p in old_dir.glob("*.jsonl")}
    new_names = {p.name for p in new_dir.glob("*.jsonl")}
    if not old_names:
        print(f"float_digits.py: {old_dir}: no .jsonl log in it", file=sys.stderr)
        return 2
    try:
        total, bad = Tally(), 0
        for name in sorted(old_names & new_names):
            tally = compare_logs(_read(old_dir / name), _read(new_dir / name), total)
            if tally.problems:
                print(f"{name}: {tally.problems.pop()}")
                bad += 1
    except Unreadable as exc:
        print(exc, file=sys.stderr)
        return 2
    for name in sorted(old_names ^ new_names):
        print(f"{name}: in one folder only")
    same = len(old_names & new_names) - bad
    print(f"{len(old_names | new_names)} logs: {same} differ only in float digits, "
          f"{bad + len(old_names ^ new_names)} otherwise; {total.lines} lines, {total.floats} floats, "
          f"{total.changed} of them with more digits than the old log's 9 decimals")
    return 1 if bad or old_names ^ new_names else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
