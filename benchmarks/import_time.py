"""How long ``import sim`` takes, beside ``import simpy, networkx`` (what any SimPy model on a
networkx graph pays): a script that prints figures, never a test (tests/test_import_cost.py
is the test: no heavy module at ``import sim``).

    .venv/bin/python benchmarks/import_time.py [--rounds N]

Each round imports each in a fresh interpreter, one after the other (so a busy machine
slows both alike); the figure is the median over the rounds of the import's own wall time
(the interpreter's start-up left out), and the ratio is of the medians. The interpreters
read compiled bytecode, as an installed package's do: written once, before the rounds, to
a temporary ``PYTHONPYCACHEPREFIX`` (even where ``PYTHONDONTWRITEBYTECODE`` is set). For scale, a fresh
interpreter's ``import sim`` plus loading a scenario and running its first battle, which
loads what a battle needs (scipy's k-d tree among it). ``--modules`` prints the modules
``import sim`` loads by package (``python -X importtime``'s cumulative figures, one run).
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SCENARIO = os.path.join(ROOT, "scenarios", "open_ground_advance.yaml")

_TIMED = "import time; t = time.perf_counter(); {body}; print(time.perf_counter() - t)"
CASES = {
    "import sim": "import sim",
    "import simpy, networkx": "import simpy, networkx",
    "import sim + first battle": f"import sim; sim.run(sim.load_scenario({SCENARIO!r}), seed=1)",
}


def python(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A fresh interpreter's run (this one's), from the repository's root."""
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, check=True, cwd=ROOT, env=env)


def timed(body: str, env: dict[str, str]) -> float:
    """Seconds ``body`` takes in a fresh interpreter, start-up left out."""
    return float(python("-c", _TIMED.format(body=body), env=env).stdout)


def by_package(env: dict[str, str]) -> list[tuple[str, float]]:
    """``import sim``'s modules grouped by top-level package: (package, own seconds), most first."""
    out = python("-X", "importtime", "-c", "import sim", env=env)
    own: dict[str, float] = {}
    for m in re.finditer(r"import time:\s+(\d+) \|\s+\d+ \|\s*(\S+)", out.stderr):
        name = m.group(2).split(".")
        key = ".".join(name[:2]) if name[0] == "sim" else name[0]
        own[key] = own.get(key, 0.0) + int(m.group(1)) / 1e6
    return sorted(own.items(), key=lambda kv: -kv[1])


def main() -> None:
    """Print each figure."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=21, help="fresh interpreters per case (default 21)")
    p.add_argument("--modules", action="store_true", help="also what import sim loads, by package")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="sim-import-") as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        run(args, {**env, "PYTHONPYCACHEPREFIX": cache})


def run(args: argparse.Namespace, env: dict[str, str]) -> None:
    """Every round, then the figures."""
    for body in CASES.values():
        timed(body, env)   # writes the bytecode
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for _ in range(args.rounds):
        for name, body in CASES.items():
            times[name].append(timed(body, env))
    median = {name: statistics.median(t) for name, t in times.items()}
    for name, value in median.items():
        print(f"{name}: {value * 1000:.0f} ms (median of {args.rounds})")
    print(f"import sim / import simpy, networkx: {median['import sim'] / median['import simpy, networkx']:.2f}")
    print(f"load average: {os.getloadavg()[0]:.2f}")
    if args.modules:
        for name, seconds in by_package(env)[:20]:
            print(f"  {name}: {seconds * 1000:.1f} ms")


if __name__ == "__main__":
    main()
