"""Write the event log of every shipped scenario, and of its rule variants, at seeds
1-40 into a folder, for a byte-for-byte comparison before and after a change.

    .venv/bin/python benchmarks/shipped_logs.py /tmp/before      # on the old commit
    .venv/bin/python benchmarks/shipped_logs.py /tmp/after       # on the new one
    diff -rq /tmp/before /tmp/after                              # every difference is a fix to name

Run from the repository root; the folder is created (files in it are replaced).
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sim.replication import run_battle  # noqa: E402
from sim.scenario.load import apply_overrides, load_scenario  # noqa: E402

SEEDS = range(1, 41)
# The rule variants worth a log of their own (the readings the shipped studies compare).
VARIANTS = {"open_ground_advance": [{"rules.snapfire.reaction": "zoc"}],
            "march_column": [{"rules.snapfire.march_halt": "this_move"}, {"rules.snapfire.reaction": "zoc"}]}


def main(argv: list[str]) -> int:
    """Write the logs; print how many."""
    if len(argv) != 1 or argv[0].startswith("-"):   # --help is a request, not a folder
        print(__doc__, file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    root = Path(__file__).resolve().parents[1] / "scenarios"
    count = 0
    for path in sorted(root.glob("*.yaml")):
        if re.search(r"^study:", path.read_text(encoding="utf-8"), re.M):
            continue
        base = load_scenario(path)
        for vi, overrides in enumerate([{}, *VARIANTS.get(path.stem, [])]):
            scenario = apply_overrides(base, overrides)
            for seed in SEEDS:
                run_battle(scenario, seed).log.to_jsonl(out / f"{path.stem}.v{vi}.s{seed}.jsonl")
                count += 1
    print(f"{count} logs in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
