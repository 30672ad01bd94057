"""Each process's peak memory against the battles it has run: a script that prints figures,
never a test (tests/test_battle_gc.py is the test that fails on growth).

    .venv/bin/python benchmarks/memory.py            # 1,000 and 8,000 battles each way
    .venv/bin/python benchmarks/memory.py --quick    # 250 and 1,000

(a) serial: ``sim.run`` in a loop, in a fresh process; its peak resident memory.
(b) a study with ``--workers 2``: the largest worker's peak (``ru_maxrss`` of the children).
(c) a study on Dask, a LocalCluster of 2 worker processes: each worker's peak, asked of it.
(d) ``sim.gym``: episodes of ``kill_zone_run`` one after another in one process.
(e) the collector's cost: battles a second (CPU time), side by side in alternating
    bursts: with the collector resting from each battle's making to its letting go (as
    ``sim.run`` and studies run them), left as it is, and with the objects frozen through
    each battle and unfrozen at its end (how battles ran before: fast, but the unfrozen
    objects land in the oldest generation, which CPython then never collects, so the
    process grew by about 600 objects a battle).

Each figure is measured at two numbers of battles: a process whose memory does not grow
with the battles it has run shows about the same peak at both.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import textwrap
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
SCENARIO = os.path.join(ROOT, "scenarios", "open_ground_advance.yaml")
STUDY = os.path.join(ROOT, "scenarios", "snapfire_vs_zoc.yaml")

_SERIAL = textwrap.dedent("""
    import resource, sys
    import sim
    sc = sim.load_scenario(sys.argv[1])
    for seed in range(int(sys.argv[2])):
        sim.run(sc, seed=seed)
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
""")

_GYM = textwrap.dedent("""
    import resource, sys
    import numpy as np
    from sim.gym import BattleEnv
    env = BattleEnv(sys.argv[1])
    plan = np.zeros(env.action_space.shape, dtype=np.int64)
    for seed in range(int(sys.argv[2])):
        env.reset(seed=seed)
        while not env.step(plan)[2]:
            pass
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
""")

_DASK = textwrap.dedent("""
    import json, resource, sys
    from sim.study.plan.study_file import load_study
    from sim.study.run.executors import DaskExecutor
    from sim.study.run.runner import run_study

    def peak():
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    study = load_study(sys.argv[1])
    with DaskExecutor(2) as ex:
        run_study(study, executor=ex, replications=int(sys.argv[2]))
        print(json.dumps(sorted(ex.client.run(peak).values())))
""")

#: (e): battles run as they are (the collector resting from a battle's making to its
#: letting go), with the collector left as it is, and as they ran before (frozen).
_COST = textwrap.dedent("""
    import gc, sys, time
    import sim
    import sim.replication as replication
    from sim.engine.battle import Battle
    from sim.metrics import compute_metrics

    def frozen_run(self):
        freezing = gc.isenabled() and gc.get_freeze_count() == 0
        self.start()
        if freezing:
            gc.freeze()
        try:
            self.env.run(until=self.done)
        finally:
            if freezing:
                gc.unfreeze()
        return self

    def plain_run(self):
        self.start()
        self.env.run(until=self.done)
        return self

    def plain_battle(scenario, seed):
        battle = Battle(scenario, seed).run()
        metrics = compute_metrics(battle.log, scenario)
        return replication.BattleResult(battle.log, metrics, battle.winner, battle.reason)

    ways = {"resting": (Battle.run, replication.run_battle), "plain": (plain_run, plain_battle),
            "frozen": (frozen_run, plain_battle)}
    sc = sim.load_scenario(sys.argv[1])
    burst, rounds = int(sys.argv[2]), int(sys.argv[3])
    spent = dict.fromkeys(ways, 0.0)
    seed = 0
    for _ in range(rounds):
        for name, (run, battle) in ways.items():
            Battle.run, sim.run_battle = run, battle
            t0 = time.process_time()
            for _ in range(burst):
                seed += 1
                sim.run(sc, seed=seed)
            spent[name] += time.process_time() - t0
    print(" ".join(f"{name}={burst * rounds / s:.1f}" for name, s in spent.items()))
""")


def _python(code: str, *args: str) -> str:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          check=True, cwd=ROOT).stdout.strip()


def _mib(kib: float) -> str:
    return f"{kib / 1024:6.0f} MiB"


def main(argv=None) -> int:
    """Print each case's peak memory at two numbers of battles, then the collector's cost."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args(argv)
    sizes = (250, 1000) if a.quick else (1000, 8000)
    started = time.time()
    for n in sizes:
        print(f"(a) serial, {n:5d} battles: peak {_mib(float(_python(_SERIAL, SCENARIO, str(n))))}", flush=True)
    for n in sizes:
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        reps = n // 2   # two variants
        subprocess.run([sys.executable, "-m", "sim", "study", STUDY, "--workers", "2", "--replications",
                        str(reps), "--json"], capture_output=True, check=True, cwd=ROOT)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        note = "" if peak > before else " (no higher than an earlier process)"
        print(f"(b) pool of 2, {n:5d} battles: largest process peak {_mib(peak)}{note}", flush=True)
    for n in sizes:
        peaks = json.loads(_python(_DASK, STUDY, str(n // 2)))
        print(f"(c) Dask, 2 workers, {n:5d} battles: worker peaks {', '.join(_mib(p).strip() for p in peaks)}",
              flush=True)
    gym_scenario = os.path.join(ROOT, "scenarios", "kill_zone_run.yaml")
    for n in (s // 4 for s in sizes):
        print(f"(d) sim.gym, {n:5d} episodes: peak {_mib(float(_python(_GYM, gym_scenario, str(n))))}", flush=True)
    rates = dict(kv.split("=") for kv in _python(_COST, SCENARIO, "100", "4" if a.quick else "12").split())
    print("(e) battles a second, side by side: " + ", ".join(f"{k} {v}" for k, v in rates.items()))
    print(f"(e) resting / frozen: {float(rates['resting']) / float(rates['frozen']):.2f}; "
          f"resting / plain: {float(rates['resting']) / float(rates['plain']):.2f}")
    print(f"load average {os.getloadavg()[0]:.1f}; {time.time() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
