"""The busiest instant of every shipped battle and benchmark case: a script that prints
figures, never a test.

    .venv/bin/python benchmarks/instant_load.py            # shipped scenarios (seeds 1-40) and the cases
    .venv/bin/python benchmarks/instant_load.py --quick    # seeds 1-5, the limits' cases at 2 turns

A battle stops as standing still when one instant holds more events than
``sim.engine.instants.events_bound`` (1,000 a unit, and 1,000 more). This measures what
legitimate battles hold: the most events scheduled at one instant, and that per unit, so
the bound's margin is a measured one (docs/reference/guarantees.md quotes it).
"""
from __future__ import annotations

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, ".."), HERE]

import cases  # noqa: E402
import limits  # noqa: E402
from shipped_logs import VARIANTS  # noqa: E402
from sim.engine import instants  # noqa: E402
from sim.engine.battle import Battle  # noqa: E402
from sim.scenario.load import apply_overrides, load_scenario, scenario_from_dict  # noqa: E402

_seen = {"held": 0}
_count = instants.Environment._count_now


def _spying(env: instants.Environment) -> None:
    _count(env)
    _seen["held"] = max(_seen["held"], env._held)


instants.Environment._count_now = _spying  # type: ignore[method-assign]


def busiest(scenario, seed: int) -> tuple[int, int]:
    """(the most events at one instant, units) of one battle."""
    _seen["held"] = 0
    Battle(scenario, seed).run()
    return _seen["held"], sum(len(f) for f in scenario.forces.values())


def main(argv=None) -> int:
    """Print each scenario's busiest instant; the worst per unit last."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args(argv)
    seeds = range(1, 6 if a.quick else 41)
    rows = []
    root = os.path.join(HERE, "..", "scenarios")
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name)
        if re.search(r"^study:", open(path, encoding="utf-8").read(), re.M):
            continue
        base = load_scenario(path)
        for overrides in [{}, *VARIANTS.get(name[:-5], [])]:
            sc = apply_overrides(base, overrides)
            worst = max(busiest(sc, s) for s in seeds)
            rows.append((f"{name[:-5]} {overrides or ''}".strip(), *worst))
    for system in ("snapfire", "h17", "fow", "too"):
        sc = scenario_from_dict(cases.fight(100, system) if system != "h17" else cases.hex_fight(100, system))
        rows.append((f"fight(100) {system}", *busiest(sc, 7)))
    for case, (system, hexes) in {"L2": ("snapfire", False), "L3": ("h17", True),
                                   "L4": ("fow", False), "L5": ("too", False)}.items():
        doc = limits.hex_doc(system, 2) if hexes else limits.table_doc(system, 2)
        rows.append((f"{case} (2 turns)", *busiest(scenario_from_dict(doc), 1)))
    width = max(len(r[0]) for r in rows)
    print(f"{'battle':{width}}  events  units  a unit")
    for name, held, units in rows:
        print(f"{name:{width}}  {held:6d}  {units:5d}  {held / units:6.2f}")
    name, held, units = max(rows, key=lambda r: r[1] / r[2])
    print(f"busiest per unit: {name}, {held / units:.2f} events a unit at one instant "
          f"(the bound: {instants.EVENTS_AT_AN_INSTANT:,} a unit)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
