"""Battles at the documented limits: a script that prints figures, never a test.

    .venv/bin/python benchmarks/limits.py             # every case, each in its own process
    .venv/bin/python benchmarks/limits.py --only L2   # one case
    .venv/bin/python benchmarks/limits.py --quick     # the same battles, 2 turns each

Each case is a battle of 2,000 units (the unit limit; 1,000 figures under TOO, its own
limit) and 200 turns (the turn limit),
1,000 a side in two dense blocks that march at each other from the map's edges, every
unit moving every turn, and fight from about half-way (shooting, assault, reactions), on
a map near the node limit; the X cases set every range and radius the rules read to its
largest allowed value. Each runs in a child process: the time of the battle (loading the scenario and
planning routes included, as ``sim run`` pays them) and the child's peak memory
(``ru_maxrss``). docs/reference/guarantees.md's "Limits" quotes these figures; every documented limit is one
these battles meet in at most 5 minutes and 4 GB.

L1  snap fire on a 48,000-hex map (240 x 200) (198 s for one turn of 1,000 units
    before the speed work of 0.1.0)
L2  snap fire on a 1,000 x 1,000 cm table with a 5 cm grid, 40,401 nodes (536 s before
    the speed work of 0.1.0)
L3, L4, L5  H17 on the hex map, FOW and TOO on the table
X1 ... X5  the same with the ranges and radii at their limits
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(1, HERE)

import cases  # noqa: E402
from sim.systems.too import MAX_FIGURES  # noqa: E402

N = 1000                   # units a side
HEX_W, HEX_H = 240, 200    # 48,000 hexes
TABLE, GRID = 1000, 5      # cm; 201 x 201 = 40,401 grid points


def hex_doc(ruleset: str, turns: int, extreme: bool = False) -> dict:
    """1,000 a side in blocks of 25 columns x 40 rows at the map's two edges, marching at
    each other 2 hexes a turn (they meet about half-way through 200 turns)."""
    rng = random.Random(3)
    special = {cases._axial(c, r): rng.choice("WWBHR") for c in range(HEX_W) for r in range(HEX_H)
               if rng.random() < 1 / 12}
    forces: dict[str, list] = {"blue": [], "red": []}
    squads = N - 1 if ruleset == "h17" else N
    for side, col0, goal in (("blue", 0, HEX_W - 1), ("red", HEX_W - 25, 0)):
        for i in range(squads):
            col, row = col0 + i % 25, 80 + i // 25
            special.pop(cases._axial(col, row), None)
            u = cases._unit(ruleset, side, i, cases._axial(col, row), cases._axial(goal, 80 + 5 * (i // 125)), N)
            u["move"] = 2
            forces[side].append(u)
    doc = {"name": f"limits_{ruleset}_hex", "ruleset": ruleset, "turns": turns, "sides": ["blue", "red"],
           "terrain": {"kind": "hex", "width": HEX_W, "height": HEX_H, "special": special},
           "forces": forces, "victory": {"attacker": "blue", "destroy": True}}
    if ruleset == "snapfire":
        doc["rules"] = {"base": {"shoot_range": 10_000 if extreme else 4, "charge_range": 10_000 if extreme else 2},
                        "snapfire": {"radius": 1000 if extreme else 1.5}}
    else:
        for side, col in (("blue", 30), ("red", HEX_W - 30)):
            forces[side].append({"id": f"{side}_sniper", "kind": "sniper", "at": cases._axial(col, 100),
                                 "sniper_team": {"start": "off_board"}})
        doc["rules"] = {"h17": {"withdraw": {"when": "enemy_within", "hexes": 2},
                                "ap_range": 100 if extreme else 6}}
    return doc


def table_doc(ruleset: str, turns: int, extreme: bool = False) -> dict:
    """1,000 a side in blocks of 25 x 40 grid points 5 cm apart at the table's two edges,
    marching at each other 8 cm a turn (they meet about half-way through 200 turns)."""
    rng = random.Random(4)
    areas = cases._areas(rng, TABLE, TABLE)
    forces: dict[str, list] = {"blue": [], "red": []}
    last = TABLE // GRID
    # (TOO battles have at most MAX_FIGURES figures: sim.systems.too)
    teams = N - 1 if ruleset == "fow" else min(N, MAX_FIGURES // 2) if ruleset == "too" else N
    for side, gx0, goal in (("blue", 0, last), ("red", last - 24, 0)):
        for i in range(teams):
            gx, gy = gx0 + i % 25, 80 + i // 25
            u = cases._unit(ruleset, side, i, f"{gx},{gy}", f"{goal},{80 + 5 * (i // 125)}", N)
            u["move"] = 8
            forces[side].append(u)
    doc = {"name": f"limits_{ruleset}_table", "ruleset": ruleset, "turns": turns, "sides": ["blue", "red"],
           "terrain": {"kind": "table", "width": TABLE, "height": TABLE, "grid": {"spacing": GRID},
                       "areas": areas},
           "forces": forces, "victory": {"attacker": "blue", "destroy": True}}
    far = 10_000
    if ruleset == "snapfire":
        doc["rules"] = {"base": {"shoot_range": far if extreme else 25, "charge_range": far if extreme else 12},
                        "snapfire": {"radius": 1000 if extreme else 10}}
    elif ruleset == "fow":
        for side, gx in (("blue", 30), ("red", last - 30)):
            hides = [f"{gx},{gy}" for gy in (90, 100, 110, 120)]
            forces[side].append({"id": f"{side}_sniper", "kind": "sniper", "at": hides[0], "skill": 4,
                                 "sniper_team": {"start": "reserve", "candidates": hides}})
        doc["rules"] = {"fow": {"shoot_range": far, "assault_range": far, "spot_range": far, "sniper_range": far}
                        if extreme else {"shoot_range": 30, "assault_range": 12, "spot_range": 40}}
    else:
        doc["rules"] = {"too": {"opp_range": far, "search_range": 100_000} if extreme
                        else {"opp_range": 40, "search_range": 80}}
    return doc


CASES = {
    "L1": ("snap fire, 48,000 hexes", lambda q: hex_doc("snapfire", 2 if q else 200)),
    "L2": ("snap fire, 40,401-node table", lambda q: table_doc("snapfire", 2 if q else 200)),
    "L3": ("H17, 48,000 hexes", lambda q: hex_doc("h17", 2 if q else 200)),
    "L4": ("FOW, 40,401-node table", lambda q: table_doc("fow", 2 if q else 200)),
    "L5": ("TOO, 40,401-node table", lambda q: table_doc("too", 2 if q else 200)),
    "X1": ("snap fire, table, ranges at their limits", lambda q: table_doc("snapfire", 2 if q else 200, True)),
    "X2": ("snap fire, hexes, ranges at their limits", lambda q: hex_doc("snapfire", 2 if q else 200, True)),
    "X3": ("H17, hexes, AP range 100", lambda q: hex_doc("h17", 2 if q else 200, True)),
    "X4": ("FOW, table, every range at its limit", lambda q: table_doc("fow", 2 if q else 200, True)),
    "X5": ("TOO, table, search 100,000 cm, opportunity fire 10,000", lambda q: table_doc("too", 2 if q else 200, True)),
}


def child(name: str, quick: bool, per_side: int) -> None:
    """Run one case here and print its figures as JSON (the parent reads them)."""
    global N
    N = per_side
    from sim.engine.battle import Battle
    from sim.scenario.load import scenario_from_dict

    doc = CASES[name][1](quick)
    t0 = time.perf_counter()
    sc = scenario_from_dict(doc)
    b = Battle(sc, 1)
    t_load = time.perf_counter() - t0
    b.run()
    t = time.perf_counter() - t0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"s": t, "load_s": t_load, "rss": rss, "records": len(b.log), "turns": doc["turns"],
                      "units": len(b.units),
                      "end": b.log.records[-1]["turn"], "reason": b.reason,
                      "nodes": sc.map.graph.number_of_nodes()}))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="2 turns a case")
    ap.add_argument("--only", default=",".join(CASES), help="cases, e.g. L1,L2")
    ap.add_argument("--per-side", type=int, default=N, help="units a side (default 1000: the unit limit)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return child(args.child, args.quick, args.per_side)
    rows = []
    for name in [c for c in args.only.split(",") if c]:
        cmd = [sys.executable, os.path.abspath(__file__), "--child", name, "--per-side", str(args.per_side)] + \
            (["--quick"] if args.quick else [])
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
        if out.returncode != 0:
            print(f"{name} failed: {out.stderr.strip().splitlines()[-1:]}")
            continue
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"{name} {CASES[name][0]}, {r['units']} units, {r['turns']} turns ({r['nodes']} nodes): "
              f"{r['s']:.1f} s "
              f"(loading and planning {r['load_s']:.1f} s), peak {r['rss'] / 2**30:.2f} GiB; "
              f"{r['records']} records, ended in turn {r['end']} ({r['reason']})", flush=True)
        rows.append((name, r))
    print(f"\nload average {os.getloadavg()[0]:.1f}; every case within 5 min and 4 GiB: "
          f"{'yes' if rows and all(r['s'] <= 300 and r['rss'] <= 4 * 2**30 for _, r in rows) else 'NO'}")


if __name__ == "__main__":
    main()
