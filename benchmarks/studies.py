"""Study throughput and the value of common random numbers, measured side by side.

    .venv/bin/python benchmarks/studies.py [--replications N] [--rounds R]
        [--part all|throughput|farming|big] [--farming-samples N] [--cells N]

1. Replications per second of ``snapfire_vs_zoc`` on one core (serial), a pool of two
   processes, and a Dask LocalCluster of two single-threaded workers. Each executor is
   started (and warmed up) before its clock starts; start-up is printed separately. The
   three are measured in interleaved rounds and the best round of each is kept, so a
   burst of load from elsewhere on the machine does not decide the ratios. The three
   must also give identical results, which is checked.
2. At equal N, the width of the paired-difference interval (zoc − snap_fire) without
   common random numbers over its width with them, per metric; and the same ratio,
   summarized, for the other shipped studies.
3. Data farming (``--part farming``): design points per second of the shipped
   ``fow_farming`` study cut to its first ``--farming-samples`` Saltelli blocks (each
   point ``--farming-replications`` replications), on serial, 2 processes and Dask, in
   interleaved rounds; the three must give identical rows and an identical analysis.
4. A 10,000-cell study (``--part big``): validating it, and running it with one
   replication per cell on 2 processes, each in a child process: wall time and the
   largest resident memory of any one process (the parent, or a worker).

A script, never a test: timings are figures to read, not assertions.
"""
from __future__ import annotations

import argparse
import json
import math
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sim.study.plan.study_file import load_study
from sim.study.reports.summary import as_json
from sim.study.run.executors import DaskExecutor, ProcessExecutor, SerialExecutor
from sim.study.run.runner import run_study

STUDY = Path(__file__).resolve().parents[1] / "scenarios" / "snapfire_vs_zoc.yaml"
OTHERS = ["march_halt.yaml", "fow_relocation.yaml"]
FARMING = STUDY.with_name("fow_farming.yaml")


def throughput(study, replications: int, rounds: int) -> None:
    makers = {"serial": SerialExecutor, "2 processes": lambda: ProcessExecutor(2),
              "dask 2 workers": lambda: DaskExecutor(2)}
    best = {name: 0.0 for name in makers}
    startup, results = {}, {}
    executors = {}
    for name, make in makers.items():
        t0 = time.perf_counter()
        executors[name] = make().__enter__()
        run_study(study, executor=executors[name], replications=10)  # warm: imports, terrain
        startup[name] = time.perf_counter() - t0
    battles = replications * len(study.cells)
    try:
        for _ in range(rounds):
            for name, ex in executors.items():
                t0 = time.perf_counter()
                run = run_study(study, executor=ex, replications=replications)
                best[name] = max(best[name], battles / (time.perf_counter() - t0))
                results[name] = json.dumps(as_json(run))
    finally:
        for ex in executors.values():
            ex.__exit__(None, None, None)
    print(f"Throughput: {study.name}, {battles} battles per round, best of {rounds} rounds")
    for name in makers:
        print(f"  {name:<15} {best[name]:8.0f} replications/s   (start-up {startup[name]:.2f} s)")
    serial, procs, dask = (best[n] for n in makers)
    print(f"  2 processes / serial      = {procs / serial:.2f}x   (target >= 1.8x)")
    print(f"  dask / 2 processes        = {dask / procs:.2f}    (target >= 0.90)")
    same = len(set(results.values())) == 1
    print(f"  identical results on all three executors: {'yes' if same else 'NO'}")


def _pair(ex, study, replications):
    return (run_study(study, executor=ex, replications=replications, crn=True),
            run_study(study, executor=ex, replications=replications, crn=False))


def crn_gain(study, replications: int, others: list, other_n: int) -> None:
    with ProcessExecutor(2) as ex:
        crn, ind = _pair(ex, study, replications)
        extra = [(o, *_pair(ex, o, other_n)) for o in others]
    (name, with_crn), = crn.summary.differences.items()
    without = ind.summary.differences[name]
    print(f"\nCommon random numbers: {name}, N = {replications} pairs each")
    print(f"  {'metric':<22} {'width, CRN':>11} {'width, no CRN':>14} {'no CRN / CRN':>13}")
    for m in crn.metrics:
        a, b = with_crn[m].half_width * 2, without[m].half_width * 2
        ratio = b / a if a > 0 else math.inf
        shown = "inf (CRN width 0)" if math.isinf(ratio) else f"{ratio:.2f}x"
        print(f"  {m:<22} {a:>11.4f} {b:>14.4f} {shown:>13}")
    first = crn.metrics[0]
    print(f"  -> on {first}: CRN interval {without[first].half_width / with_crn[first].half_width:.2f}x "
          f"narrower (target >= 2x)")
    if extra:
        print(f"\n  Other shipped studies (N = {other_n}): no-CRN width / CRN width, per metric, "
              "median [min, max] over their paired differences")
    for other, c, i in extra:
        ratios = sorted(i.summary.differences[d][m].half_width / e.half_width
                        for d, per in c.summary.differences.items()
                        for m, e in per.items() if e.half_width > 0)
        print(f"  {other.name:<22} {statistics.median(ratios):.2f}x [{ratios[0]:.2f}, {ratios[-1]:.2f}]")


def farming(samples: int, replications: int, rounds: int) -> None:
    from sim.study.analysis.responses import analyse
    from sim.study.reports.farming import as_dict

    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(FARMING.with_name("crossing_sniper.yaml"), tmp)
        path = Path(tmp) / FARMING.name
        path.write_text(FARMING.read_text().replace("samples: 256", f"samples: {samples}")
                        .replace("replications: 16", f"replications: {replications}"))
        study = load_study(path)
        makers = {"serial": SerialExecutor, "2 processes": lambda: ProcessExecutor(2),
                  "dask 2 workers": lambda: DaskExecutor(2)}
        best, results, executors = {n: 0.0 for n in makers}, {}, {}
        for name, make in makers.items():
            executors[name] = make().__enter__()
        points = len(study.cells)
        try:
            for _ in range(rounds):
                for name, ex in executors.items():
                    t0 = time.perf_counter()
                    run = run_study(study, executor=ex)
                    best[name] = max(best[name], points / (time.perf_counter() - t0))
                    found = analyse(study, [run.records[k] for k in sorted(run.records)],
                                    run.kinds, ["sniper_hits"])
                    results[name] = json.dumps([as_json(run), as_dict(found)])
        finally:
            for ex in executors.values():
                ex.__exit__(None, None, None)
    print(f"\nData farming: {study.name}, {samples} Saltelli blocks = {points} design points "
          f"x {replications} replications, best of {rounds} rounds")
    for name in makers:
        print(f"  {name:<15} {best[name]:8.1f} design points/s   "
              f"({best[name] * replications:.0f} replications/s)")
    print(f"  2 processes / serial      = {best['2 processes'] / best['serial']:.2f}x")
    print(f"  dask / 2 processes        = {best['dask 2 workers'] / best['2 processes']:.2f}")
    same = len(set(results.values())) == 1
    print(f"  identical rows and analysis on all three executors: {'yes' if same else 'NO'}")


BIG = """\
study: big
scenario: {scenario}
seed: 5
replications: 1
variants: {{a: {{}}}}
factors:
  design: lhs
  samples: {cells}
  vary: {{rules.h17.ap_range: [2, 9], forces.blue.0.move: [1.0, 5.0]}}
"""


def _child(argv: list[str]) -> tuple[float, float, int]:
    """Wall seconds, the largest resident set of any process it ran (MiB), exit code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(peak, before) / 1024, done.returncode


def big(cells: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.yaml"
        path.write_text(BIG.format(scenario=FARMING.with_name("village_sniper.yaml"), cells=cells))
        sim = [sys.executable, "-m", "sim"]
        v = _child(sim + ["validate", str(path)])
        r = _child(sim + ["study", str(path), "--workers", "2", "--quiet", "--json",
                          "--db", str(Path(tmp) / "big.db")])
    print(f"\nA study of {cells} cells (village_sniper, 1 replication each)")
    print(f"  sim validate              {v[0]:7.1f} s, largest process {v[1]:6.0f} MiB (exit {v[2]})")
    print(f"  sim study --workers 2     {r[0]:7.1f} s, largest process {r[1]:6.0f} MiB (exit {r[2]})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replications", type=int, default=1000, help="per variant (default 1000)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--others", type=int, default=300, metavar="N",
                        help="replications for the CRN figures of the other shipped studies "
                             "(0: skip them)")
    parser.add_argument("--part", choices=["all", "throughput", "farming", "big"], default="all")
    parser.add_argument("--farming-samples", type=int, default=32, metavar="N")
    parser.add_argument("--farming-replications", type=int, default=4, metavar="N")
    parser.add_argument("--cells", type=int, default=10_000, help="cells of the big study")
    args = parser.parse_args()
    if args.part in ("all", "throughput"):
        study = load_study(STUDY)
        throughput(study, args.replications, args.rounds)
        others = [load_study(STUDY.with_name(n)) for n in OTHERS] if args.others else []
        crn_gain(study, args.replications, others, args.others)
    if args.part in ("all", "farming"):
        farming(args.farming_samples, args.farming_replications, args.rounds)
    if args.part in ("all", "big"):
        big(args.cells)


if __name__ == "__main__":
    main()
