"""Map loading benchmarks: a script that prints figures, never a test.

    .venv/bin/python benchmarks/maps.py            # the sizes at the documented limits
    .venv/bin/python benchmarks/maps.py --quick    # a tenth of them, a few seconds

Each case writes a scenario file and times ``load_scenario`` on it (reading and checking
the YAML, building the map, the checks that need the map, the rules' set-up): what
``sim validate`` and every ``sim run`` pay before the first event. Best of ``--rounds``
runs, garbage collection off while timing; the machine's load is printed with them,
since a shared 2-core machine slows every figure alike.

(a) a 50,000-hex map (250 x 200, woods scattered), target <= 0.5 s;
(b) a 50,000-node table (a 2,220 cm square, 10 cm grid), the same target;
(c) a table with 1,000 sight-blocking areas of 60 points each (the file near the
    2,000,000-byte and 200,000-node limits) on a 40,000-point grid: "refusing or
    accepting a file at the limits costs at most a few seconds".
"""
from __future__ import annotations

import argparse
import gc
import math
import os
import random
import sys
import tempfile
import time

import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from sim.scenario.load import load_scenario  # noqa: E402


def scenario(terrain: dict, start: str, goal: str) -> dict:
    return {"name": "bench", "ruleset": "snapfire", "turns": 2, "sides": ["blue", "red"],
            "terrain": terrain,
            "forces": {"blue": [{"id": "b1", "at": start, "orders": {"type": "advance", "to": goal}}],
                       "red": [{"id": "r1", "at": goal}]},
            "victory": {"attacker": "blue", "destroy": True}}


def hex_map(scale: float) -> dict:
    width, height = int(250 * scale), int(200 * scale)
    special = {f"{c - r // 2},{r}": "W" for c in range(0, width, 7) for r in range(0, height, 5)}  # axial "q,r"
    return scenario({"kind": "hex", "width": width, "height": height, "special": special},
                    "0,0", f"{width // 2},{height // 2}")


def table_map(scale: float) -> dict:
    side = round(2220 * math.sqrt(scale), -1)
    return scenario({"kind": "table", "width": side, "height": side, "grid": {"spacing": 10}},
                    "0,0", "20,20")


def areas_map(scale: float) -> dict:
    rng = random.Random(5)
    areas = []
    for i in range(int(1000 * scale)):
        x, y = rng.uniform(20, 960), rng.uniform(20, 960)
        points = [[round(x + 8 + 8 * math.cos(2 * math.pi * k / 60), 3),
                   round(y + 8 + 8 * math.sin(2 * math.pi * k / 60), 3)] for k in range(60)]
        areas.append({"name": f"a{i}", "terrain": "woods", "polygon": points})
    return scenario({"kind": "table", "width": 1000, "height": 1000, "grid": {"spacing": 5},
                     "areas": areas, "waypoints": {"S": [5, 5], "T": [995, 995]}}, "S", "T")


CASES = [("(a) load a 50,000-hex map", hex_map, 0.5),
         ("(b) load a 50,000-node table", table_map, 0.5),
         ("(c) load a table of 1,000 blocking areas", areas_map, None)]


def best_of(path: str, rounds: int) -> tuple[float, int]:
    best, nodes = math.inf, 0
    for _ in range(rounds):
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter()
            loaded = load_scenario(path)
            best = min(best, time.perf_counter() - t0)
        finally:
            gc.enable()
        nodes = len(loaded._terrain.nodes)
    return best, nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the sizes")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    scale = 0.1 if args.quick else 1.0
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        for title, make, target in CASES:
            path = os.path.join(tmp, "map.yaml")
            with open(path, "w") as fh:
                yaml.safe_dump(make(scale), fh)
            seconds, nodes = best_of(path, args.rounds)
            verdict = "" if target is None else \
                f"  target <= {target} s: {'met' if seconds <= target else 'MISSED'}"
            print(f"{title}: {seconds:.3f} s ({nodes} nodes, {os.path.getsize(path)} bytes)"
                  f"{verdict}")


if __name__ == "__main__":
    main()
