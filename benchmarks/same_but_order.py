"""Compare two folders of event logs (``shipped_logs.py``'s) record by record, each
instant's records taken in any order: the check that a change moved records only within
the instant they share.

    .venv/bin/python benchmarks/same_but_order.py /tmp/before /tmp/after

Prints, per file, whether it is byte-identical, identical but for the order of records at
one instant, or different (with the first instant that differs); exits 1 if any differs.
"""
from __future__ import annotations

import sys
from collections.abc import Iterator
from itertools import groupby
from pathlib import Path

import orjson


def instants(path: Path) -> Iterator[tuple[float, list[bytes]]]:
    """(t, the instant's record lines sorted) for each run of records sharing a ``t``."""
    lines = path.read_bytes().splitlines()
    for t, group in groupby(lines, key=lambda line: orjson.loads(line)["t"]):
        yield t, sorted(group)


def compare(a: Path, b: Path) -> str:
    """'same', 'order' (same records at each instant, in another order) or what differs."""
    if a.read_bytes() == b.read_bytes():
        return "same"
    left, right = list(instants(a)), list(instants(b))
    for (ta, ra), (tb, rb) in zip(left, right):
        if ta != tb or ra != rb:
            return f"differs at t={ta} (against t={tb})"
    if len(left) != len(right):
        return f"differs: {len(left)} instants against {len(right)}"
    return "order"


def main(argv: list[str]) -> int:
    """Compare every log of the first folder with its namesake in the second."""
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    before, after = Path(argv[0]), Path(argv[1])
    names = sorted(p.name for p in before.glob("*.jsonl"))
    missing = sorted({p.name for p in after.glob("*.jsonl")} ^ set(names))
    counts = {"same": 0, "order": 0, "differs": 0}
    for name in names:
        if name in missing:
            continue
        verdict = compare(before / name, after / name)
        counts[verdict if verdict in counts else "differs"] += 1
        if verdict not in ("same",):
            print(f"{name}: {verdict}")
    for name in missing:
        print(f"{name}: in one folder only")
    print(f"{len(names)} logs: {counts['same']} byte-identical, {counts['order']} differ only in the "
          f"order of records at one instant, {counts['differs'] + len(missing)} differ")
    return 1 if counts["differs"] or missing else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
