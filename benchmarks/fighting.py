"""The engine benchmark's fighting, marching and scaling cases, run by ``engine.py``.

(b2) a dense, engaged snap-fire battle (``cases.fight``: 100 units a side, snap fire,
     shooting and assault all acting): µs per SimPy event against a bare SimPy loop with
     the same mix of events (as many process starts, timeouts and interrupts);
     target <= 4x. Also the share of its time that writing its log as JSON Lines (floats
     at full precision) takes; target <= 10 %.
(e)  movement: 1,000 movers march across the 10,000-node grid of (d), against Mesa 3
     agents walking the same routes on a ``NetworkGrid`` over the same graph and writing
     the same records (checked equal); target <= 1x.
(f)  dense battles at constant density, N = 10 ... 1,000 units a side: battle time
     against N (the slope of log time on log N; target <= 1.05), and peak memory per
     unit, map and route planning excluded, less the part the event log's records hold
     (target <= 4 KiB; the records stay to the end: they grow with the battle's length),
     and the log's bytes a record.

Each pair is timed in alternating bursts with the garbage collector on, as ``sim run``
runs: its cost is part of what is measured.
"""
from __future__ import annotations

import gc
import math
import os
import random
import tempfile
import time
import tracemalloc
from collections import Counter

import simpy

import cases
from sim.engine.battle import Battle
from sim.scenario.load import scenario_from_dict


def alternate(fa, fb, rounds, burst=3):
    """Best times of fa and fb (each returns (seconds, result)), timed in alternating
    bursts with the garbage collector on (collected before each call); and their last results."""
    best, last = [math.inf, math.inf], [None, None]
    for _ in range(rounds):
        for which, fn in enumerate((fa, fb)):
            for _ in range(burst):
                gc.collect()
                t, last[which] = fn()
                best[which] = min(best[which], t)
    return best[0], last[0], best[1], last[1]


def run_clocked(sc, seed=1):
    """(wall time of run(), the battle): building the battle is set-up, not timed."""
    b = Battle(sc, seed)
    t0 = time.perf_counter()
    b.run()
    return time.perf_counter() - t0, b


def event_mix(sc, seed=1) -> Counter:
    """How many processes, timeouts and interrupts one battle makes, and all its events."""
    counts: Counter = Counter()
    saved = {}
    for cls in (simpy.events.Process, simpy.events.Timeout, simpy.events.Interruption):
        saved[cls] = init = cls.__init__

        def counting(self, *args, _init=init, _name=cls.__name__, **kw):
            counts[_name] += 1
            _init(self, *args, **kw)
        cls.__init__ = counting
    # An end of motion or a reaction is scheduled at an exact instant
    # (sim.engine.instants.Environment.schedule_at): a timeout by another name, counted as one.
    from sim.engine.instants import Environment
    at = Environment.schedule_at

    def counting_at(self, *args, **kw):
        counts["Timeout"] += 1
        return at(self, *args, **kw)
    Environment.schedule_at = counting_at
    try:
        b = Battle(sc, seed).run()
    finally:
        for cls, init in saved.items():
            cls.__init__ = init
        Environment.schedule_at = at
    counts["events"] = b.env.numbers_drawn()
    return counts


def bare_loop(mix: Counter, seed=1):
    """A SimPy model with the battle's mix: as many processes, sharing its timeouts, and
    one more process that interrupts them as often (a live one each time); returns a
    function timing one run: (seconds, events)."""
    procs, interrupts = max(1, mix["Process"] - 1), mix["Interruption"]
    share, extra = divmod(max(0, mix["Timeout"] - interrupts), procs)
    rng = random.Random(seed)
    delays = [[rng.random() * 1e-3 for _ in range(share + (k < extra))] for k in range(procs)]
    span = min((sum(d) for d in delays if d), default=1e-3)
    gap = span / (interrupts + 1)

    def run():
        env = simpy.Environment()

        def worker(mine):
            for d in mine:
                try:
                    yield env.timeout(d)
                except simpy.Interrupt:
                    pass

        workers = [env.process(worker(d)) for d in delays]

        def interrupter():
            k = 0
            for _ in range(interrupts):
                yield env.timeout(gap)
                for _ in range(procs):               # the next live worker
                    k = (k + 1) % procs
                    if workers[k].is_alive:
                        workers[k].interrupt()
                        break

        env.process(interrupter())
        t0 = time.perf_counter()
        env.run()
        return time.perf_counter() - t0, next(env._eid)
    return run


def bench_b2(q, rounds):
    """(b2): the fighting battle against a bare loop of the same mix, and its JSON share."""
    sc = scenario_from_dict(cases.fight(40 if q else 100))
    Battle(sc, 1)                                   # routes planned once, as in a study
    mix = event_mix(sc)
    t_fight, b, t_bare, n_bare = alternate(lambda: run_clocked(sc), bare_loop(mix), rounds)
    n_events = b.env.numbers_drawn()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "log.jsonl")

        def write():
            t0 = time.perf_counter()
            b.log.to_jsonl(path)
            return time.perf_counter() - t0, None
        t_json, _, t_run, _ = alternate(write, lambda: run_clocked(sc), rounds)
    ratio = (t_fight / n_events) / (t_bare / n_bare)
    return {"fight_s": t_fight, "events": n_events, "records": len(b.log), "mix": mix, "bare_s": t_bare,
            "bare_events": n_bare, "ratio": ratio, "json_s": t_json, "run_s": t_run,
            "json_share": t_json / t_run}


def bench_e(q, repeat, grid_scenario):
    """(e): sim against Mesa 3 on the same march; the records of both are checked equal."""
    import mesa_march

    n_side, movers, turns = 100, 1000 if not q else 300, 10 if q else 20
    data = grid_scenario(n_side, 10, movers, enemies=[(990.0, 990.0)], turns=turns, move=30,
                         dests=[f"{n_side - 1},{k}" for k in range(5, 100, 10)])
    sc = scenario_from_dict(data)
    terrain = sc.map
    first = Battle(sc, 1)                         # the routes, planned once for both
    units = [(u.id, u.side, u.node, list(u.route), u.move) for u in first.units.values()]
    xy = {n: terrain.pos(n) for n in terrain.nodes}
    phases, length = len(first.system.phases), first.clock.phase_length

    def mesa():
        model = mesa_march.MarchModel(terrain.graph, xy, units, sc.sides, phases, length)
        t0 = time.perf_counter()
        for _ in range(turns):
            model.step()
        return time.perf_counter() - t0, model

    t_sim, b, t_mesa, model = alternate(lambda: run_clocked(sc), mesa, repeat)
    moving = {"move", "stop", "arrive"}
    ours = sorted((r["unit"], r["t"], r["event"], repr(r)) for r in b.log if r["event"] in moving)
    theirs = sorted((r["unit"], r["t"], r["event"], repr(r)) for r in model.log)
    steps = sum(1 for r in model.log if r["event"] == "move")
    return {"sim_s": t_sim, "mesa_s": t_mesa, "ratio": t_sim / t_mesa, "same_log": ours == theirs,
            "moves": steps, "records": len(model.log)}


def bench_f(q, rounds):
    """(f): battle time and memory per unit against N at constant density."""
    sizes = (10, 30, 100) if q else (10, 30, 100, 300, 1000)
    rows = []
    for n in sizes:
        sc = scenario_from_dict(cases.fight(n))
        Battle(sc, 1)                                  # map built and routes planned: not counted
        best = math.inf
        for _ in range(rounds if n < 1000 else max(1, rounds - 1)):
            gc.collect()
            t, b = run_clocked(sc)
            best = min(best, t)
        gc.collect()
        tracemalloc.start()
        b = Battle(sc, 1).run()
        held, peak = tracemalloc.get_traced_memory()
        records = len(b.log)
        b.log.records = []                             # what the records alone held
        gc.collect()
        log_bytes = held - tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        rows.append({"n": n, "s": best, "records": records, "events": b.env.numbers_drawn(),
                     "kib_per_unit": peak / 1024 / (2 * n), "log_kib_per_unit": log_bytes / 1024 / (2 * n),
                     "bytes_per_record": log_bytes / records})
    xs = [math.log(r["n"]) for r in rows]
    ys = [math.log(r["s"]) for r in rows]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return {"rows": rows, "slope": slope}
