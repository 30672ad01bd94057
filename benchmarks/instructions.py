"""Instructions a battle costs, counted by valgrind's callgrind: a script that prints figures, never a test.

    .venv/bin/python benchmarks/instructions.py                 # cases a, c50, c500, b2 of this tree
    .venv/bin/python benchmarks/instructions.py --root ../old   # the same battles on another checkout

Wall time on a shared VM varies by up to 2x between runs; instruction counts do not (to
about 2 %), so a change is compared with the code before it this way. Each case is
counted with 1 and with 4 battles in one process, and with 1 and 4 battles only built
(``Battle(...)`` without ``run``); a battle's run is the difference of differences / 3,
and the whole battle (set-up and run) the difference of the runs / 3. With ``--log``,
the battle's log written to a file (``EventLog.to_jsonl``) 1 and 4 times after one run:
its share of the battle's run (the event log contract's target for b2: at most 10 %).
The battles are those of ``engine.py``: (a) the march, (c) with 50 and 500 enemies,
(b2) the fighting battle. Needs ``valgrind`` (Debian: ``apt-get install valgrind``).
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = ("a", "c50", "c500", "b2")


def scenario(case: str):
    """The case's scenario, built by the code of the tree on ``sys.path``."""
    import cases
    import engine
    from sim.scenario.load import scenario_from_dict

    if case == "a":
        data = engine.grid_scenario(60, 10, movers=300, enemies=[(0.0, 0.0)], turns=20, move=25,
                                    dests=[f"59,{k}" for k in (5, 20, 35)])
    elif case == "b2":
        data = cases.fight(100)
    else:   # as engine.bench_c makes them
        rng = random.Random(11)
        near = [(rng.uniform(100, 900), rng.uniform(0, 190)) for _ in range(50)]
        far = [(rng.uniform(0, 990), rng.uniform(350, 990)) for _ in range(450)]
        data = engine.grid_scenario(100, 10, 200, near + far if case == "c500" else near, turns=12, move=30,
                                    dests=[f"99,{k}" for k in (3, 9, 15)])
        for u in data["forces"]["blue"]:
            u["at"] = f"0,{int(u['id'][1:]) % 19}"
    return scenario_from_dict(data)


def child(root: str, case: str, n: int, mode: str) -> None:
    """Build (and run) ``n`` battles of ``case`` with the code under ``root``; or, in mode
    ``write``, run one and write its log ``n`` times."""
    sys.path[:0] = [root, os.path.join(root, "benchmarks"), HERE]
    import tempfile

    from sim.engine.battle import Battle

    sc = scenario(case)
    Battle(sc, 1).run()   # routes planned, caches warm: not counted
    gc.disable()
    if mode == "write":
        b = Battle(sc, 1)
        b.run()
        with tempfile.TemporaryDirectory() as folder:
            for _ in range(n):
                b.log.to_jsonl(os.path.join(folder, "log.jsonl"))
        return
    for _ in range(n):
        b = Battle(sc, 1)
        if mode == "run":
            b.run()


def count(root: str, case: str, n: int, mode: str) -> int:
    """Instructions of a child process that builds (and runs) ``n`` battles (see ``child``)."""
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                          __file__, "--child", root, case, str(n), mode],
                         capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}, timeout=1800)
    found = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    if out.returncode != 0 or found is None:
        raise SystemExit(f"callgrind failed on {case}: {out.stderr.strip().splitlines()[-1:]}")
    return int(found.group(1))


def main() -> None:
    """Print each case's instructions per battle's run and per battle's set-up."""
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        root, case, n, mode = sys.argv[2:6]
        child(root, case, int(n), mode)
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.dirname(HERE), help="the checkout whose sim to count")
    ap.add_argument("--only", default=",".join(CASES), help="cases, e.g. a,b2")
    ap.add_argument("--log", action="store_true", help="also count writing each battle's log to a file")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    for case in [c for c in args.only.split(",") if c in CASES]:
        run1, run4 = count(root, case, 1, "run"), count(root, case, 4, "run")
        build1, build4 = count(root, case, 1, "build"), count(root, case, 4, "build")
        build = (build4 - build1) / 3
        # Where a battle's set-up ends and its run begins moves when a part arms its rules at
        # the start of the run instead of in Battle(): the whole battle is the figure to compare.
        print(f"{case:5s} {root}: run {((run4 - run1) / 3 - build) / 1e6:.1f} M instructions a battle "
              f"(set-up {build / 1e6:.1f} M; whole battle {(run4 - run1) / 3 / 1e6:.1f} M)", flush=True)
        if args.log:
            write = (count(root, case, 4, "write") - count(root, case, 1, "write")) / 3
            print(f"{case:5s} {root}: writing its log {write / 1e6:.1f} M instructions, "
                  f"{100 * write / ((run4 - run1) / 3 - build):.1f} % of the battle's run", flush=True)


if __name__ == "__main__":
    main()
