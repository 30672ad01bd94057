"""The peak memory of a study's client (the ``sim study`` process, not its workers) against
the battles it runs: flat when the client keeps its cells' statistics and not every
outcome. A script that prints figures (tests/test_study_stream.py is the test that fails
when the client keeps an outcome per replication).

    .venv/bin/python benchmarks/client_memory.py                     # 10^4 and 10^5 battles
    .venv/bin/python benchmarks/client_memory.py --battles 1000000   # one size (about 25 min)
    PYTHONPATH=OLD_TREE .venv/bin/python benchmarks/client_memory.py # another tree's sim

The battles are the cheapest there are: ``tiny``, one stand a side on a 20 cm table for
one turn (about 1.3 ms each, all 14 core metrics), in a study of two variants (two cells:
snap fire and a zone of control), on the process pool (``--workers``, default 2), without
``--db`` (``--db`` to store the rows in a file of this run's own). Each size runs
``sim study`` in a fresh process whose peak resident memory (``ru_maxrss`` of itself,
not of its children) is printed with the time it took.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

SCENARIO = """\
name: tiny
description: One stand each side, one turn, out of each other's reach.
ruleset: snapfire
turns: 1
sides: [blue, red]
terrain:
  kind: table
  width: 20
  height: 20
  grid: {spacing: 10}
  waypoints:
    OBJ: [15, 15]
forces:
  blue:
    - {id: b1, at: "0,0", steps: 2, armour: 4, move: 5}
  red:
    - {id: r1, at: "1,1", steps: 2, armour: 4}
victory:
  attacker: blue
  objective: OBJ
"""

STUDY = """\
study: tiny_study
description: The cheapest battles, for the client's own costs.
scenario: tiny.yaml
seed: 7
replications: 10
baseline: snap_fire
variants:
  snap_fire: {}
  zoc: {rules.snapfire.reaction: zoc}
"""

#: Runs ``sim`` with the given arguments, then prints its own peak memory and time.
_CLIENT = textwrap.dedent("""
    import json, resource, sys, time
    import sim
    from sim.cli import main
    start = time.perf_counter()
    code = main(sys.argv[1:])
    print(json.dumps({"code": code, "seconds": time.perf_counter() - start, "sim": sim.__file__,
                      "peak_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}),
          file=sys.stderr)
""")


def client(folder: Path, battles: int, workers: int, db: bool) -> dict:
    """One ``sim study`` of ``battles`` battles in a fresh process: its figures."""
    args = ["study", str(folder / "tiny_study.yaml"), "--replications", str(battles // 2),
            "--workers", str(workers)]
    if db:
        store = folder / f"rows-{battles}.sqlite"
        store.unlink(missing_ok=True)
        args += ["--db", str(store)]
    # Run in the study's folder: ``-c`` puts the working folder first on the path, and
    # this tree's ``sim`` there would hide the one PYTHONPATH names.
    done = subprocess.run([sys.executable, "-c", _CLIENT, *args], capture_output=True,
                          text=True, cwd=folder, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "{}"
    try:
        figures = json.loads(last)
    except ValueError:
        figures = {}
    if figures.get("code") != 0:
        raise SystemExit(f"sim study failed ({done.returncode}): {done.stderr[-2000:]}")
    import sim

    if Path(figures["sim"]).resolve() != Path(sim.__file__).resolve():
        raise SystemExit(f"the client ran {figures['sim']}, not {sim.__file__}")
    return figures


def main(argv: list[str]) -> int:
    """Print the client's peak memory at each size."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--battles", type=int, action="append",
                        help="battles in all (repeatable; default 10^4 and 10^5)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--db", action="store_true", help="store the rows in a --db file")
    args = parser.parse_args(argv)
    import sim

    print(f"sim {sim.__version__} from {Path(sim.__file__).parent}; {args.workers} workers, "
          f"{'--db' if args.db else 'no --db'}", flush=True)
    print(f"{'battles':>9}  {'client peak MiB':>15}  {'seconds':>8}  {'battles/s':>9}", flush=True)
    with tempfile.TemporaryDirectory(prefix="sim-client-memory-") as tmp:
        folder = Path(tmp)
        (folder / "tiny.yaml").write_text(SCENARIO)
        (folder / "tiny_study.yaml").write_text(STUDY)
        for battles in args.battles or [10_000, 100_000]:
            f = client(folder, battles, args.workers, args.db)
            print(f"{battles:>9,}  {f['peak_kib'] / 1024:>15.1f}  {f['seconds']:>8.1f}  "
                  f"{battles / f['seconds']:>9.0f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
