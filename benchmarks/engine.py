"""Engine benchmarks: a script that prints figures, never a test.

    .venv/bin/python benchmarks/engine.py            # every case, a few minutes
    .venv/bin/python benchmarks/engine.py --quick    # smaller sizes, well under a minute
    .venv/bin/python benchmarks/engine.py --only b2,e # some cases

(e) needs Mesa 3, a benchmark-only dependency: ``pip install -e '.[bench]'`` (``make bench``).

Each pair is timed side by side in this one run (in alternating bursts of three, over
``--rounds`` rounds, best time of each, garbage collection off while timing), and the
table at the end says whether each figure meets its target:

(a) engine cost per event / a bare SimPy loop's cost per event, same event count;
    target <= 2.5x. The battle: many movers crossing a grid map, one enemy far away.
(b) exact referee vs a time-stepped proximity check (each mover stepped by dt, the
    distance to every enemy checked every step; dt so the halt error is <= 3 cm):
    wall-time ratio and both halt errors; target >= 30x.
(c) the same battle with 500 enemies vs 50 (the 450 extra far from the movers'
    corridor): wall-time ratio; target <= 1.2x.
(d) 1000 movers on a 10,000-node map: path planning time / simulation time;
    target <= 1x.
(b2), (e), (f): a fighting battle against a bare SimPy loop of the same event mix, and
    its JSON share; movement against Mesa 3; dense battles from 10 to 1,000 a side
    (``benchmarks/fighting.py`` says how each is measured).
"""
from __future__ import annotations

import argparse
import gc
import math
import os
import random
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(1, HERE)

import simpy  # noqa: E402

import fighting  # noqa: E402
from sim.engine.battle import Battle  # noqa: E402
from sim.engine.clock import Phase  # noqa: E402
from sim.engine.instants import Environment  # noqa: E402
from sim.scenario.load import scenario_from_dict  # noqa: E402
from sim.space.geometry import dist, first_entry, lerp  # noqa: E402
from sim.space.spatial_hash import SpatialGrid  # noqa: E402


def side_by_side(fa, fb, rounds, burst=3):
    """Time fa and fb in alternating bursts (``burst`` calls of fa, then of fb, for
    ``rounds`` rounds), GC off while timing: both see the same machine over the same
    minutes, and each is timed warm, not just after the other's very different loop.
    Returns (best time of a, last result of a, best of b, last result of b); each
    function returns (seconds, result)."""
    best = [math.inf, math.inf]
    last = [None, None]
    for _ in range(rounds):
        for which, fn in enumerate((fa, fb)):
            for _ in range(burst):
                gc.collect()
                gc.disable()
                try:
                    t, last[which] = fn()
                finally:
                    gc.enable()
                best[which] = min(best[which], t)
    return best[0], last[0], best[1], last[1]


def clocked(fn):
    """(wall time, result) of fn()."""
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def timed_run(battle) -> float:
    """Wall time of ``battle.run()`` alone (GC is off around it: see side_by_side)."""
    return clocked(battle.run)[0]


def events_of(env: simpy.Environment) -> int:
    """How many events the environment scheduled (each draws a number; a battle's moves too)."""
    return env.numbers_drawn() if isinstance(env, Environment) else next(env._eid)


def grid_scenario(n_side, spacing, movers, enemies, turns, move, dests, radius=10.0,
                  start_col=0, name="bench"):
    """A grid table map (n_side x n_side nodes), movers on the west edge advancing to
    ``dests`` on the east edge, enemies at given (x, y) waypoints."""
    w = (n_side - 1) * spacing
    wp = {f"E{i}": [x, y] for i, (x, y) in enumerate(enemies)}
    terrain = {"kind": "table", "width": w, "height": w, "grid": {"spacing": spacing}}
    if wp:
        terrain["waypoints"] = wp
    blue = []
    for i in range(movers):
        row = (i * 7919) % n_side
        dest = dests[i % len(dests)]
        blue.append({"id": f"m{i}", "at": f"{start_col},{row}", "move": move, "armour": 7,
                     "steps": 9, "orders": {"type": "advance", "to": dest}})
    red = [{"id": f"e{i}", "at": f"E{i}", "armour": 7, "steps": 9} for i in range(len(enemies))]
    return {"name": name, "ruleset": "snapfire", "turns": turns, "sides": ["blue", "red"],
            "terrain": terrain, "forces": {"blue": blue, "red": red},
            "victory": {"attacker": "blue", "destroy": False},
            "rules": {"base": {"shoot_range": 0, "charge_range": 0},
                      "snapfire": {"radius": radius}}}


# ----------------------------------------------------------------------------- (a)
def bench_a(q, repeat):
    n_side = 40 if q else 60
    data = grid_scenario(n_side, 10, movers=100 if q else 300, enemies=[(0.0, 0.0)],
                         turns=12 if q else 20, move=25, dests=[f"{n_side - 1},{k}" for k in (5, 20, 35)])
    sc = scenario_from_dict(data)

    def engine():  # time only run(): planning is (d)'s business
        b = Battle(sc, 1)
        return timed_run(b), (events_of(b.env), len(b.log))

    # the bare loop's size is fixed by the engine's event count: count it first
    n_events, n_records = engine()[1]
    procs = 300
    per = max(1, (n_events - procs) // procs)
    rng = random.Random(1)
    delays = [rng.random() * 1e-3 for _ in range(per)]

    def bare():
        env = simpy.Environment()

        def proc():
            for d in delays:
                yield env.timeout(d)

        for _ in range(procs):
            env.process(proc())
        return clocked(lambda: (env.run(), events_of(env))[1])

    t_engine, _, t_bare, n_bare = side_by_side(engine, bare, repeat)
    ratio = (t_engine / n_events) / (t_bare / n_bare)
    return {"engine_s": t_engine, "events": n_events, "records": n_records, "bare_s": t_bare,
            "bare_events": n_bare, "ratio": ratio}


# ----------------------------------------------------------------------------- (b)
def lane_y(i, n_movers, h):
    return 5 + (h - 10) * (i + 0.5) / n_movers


def lanes_scenario(n_movers, n_enemies, length, radius, seed=3, h=200.0):
    """Movers on straight west→east lanes (one edge each, all crossed in one phase),
    enemies scattered over a field ``h`` cm deep: each mover is halted at its first entry."""
    rng = random.Random(seed)
    wp, edges, blue = {}, [], []
    for i in range(n_movers):
        y = lane_y(i, n_movers, h)
        wp[f"A{i}"], wp[f"B{i}"] = [0.0, y], [length, y]
        edges.append([f"A{i}", f"B{i}"])
        blue.append({"id": f"m{i}", "at": f"A{i}", "move": length, "armour": 7, "steps": 9,
                     "orders": {"type": "advance", "to": f"B{i}"}})
    # the enemy positions lie ahead (the last 30 % of the field), as in an advance
    enemies = [(rng.uniform(0.7 * length, length), rng.uniform(0, h)) for _ in range(n_enemies)]
    red = []
    for j, (x, y) in enumerate(enemies):
        wp[f"E{j}"] = [x, y]
        red.append({"id": f"e{j}", "at": f"E{j}", "armour": 7, "steps": 9})
    data = {"name": "lanes", "ruleset": "snapfire", "turns": 1, "sides": ["blue", "red"],
            "terrain": {"kind": "table", "width": length, "height": h, "waypoints": wp, "edges": edges},
            "forces": {"blue": blue, "red": red}, "victory": {"attacker": "blue", "destroy": False},
            "rules": {"base": {"shoot_range": 0, "charge_range": 0}, "snapfire": {"radius": radius}}}
    return data, enemies


def exact_entries(paths, enemies, r):
    """The true first-entry point of each straight path (analytic), or None."""
    out = []
    for p0, p1 in paths:
        best = None
        for c in enemies:
            s = first_entry(p0, p1, c, r)
            if s is not None and (best is None or s < best):
                best = s
        out.append(None if best is None else lerp(p0, p1, best))
    return out


def time_stepped(paths, enemies, r, speed, dt):
    """The time-stepped alternative: every mover advances speed*dt per step and checks
    the distance to every enemy after each step; halts at the first step inside."""
    r2 = r * r
    ex = [e[0] for e in enemies]
    ey = [e[1] for e in enemies]
    n = len(ex)
    state = []
    for p0, p1 in paths:
        L = dist(p0, p1)
        state.append([p0[0], p0[1], (p1[0] - p0[0]) / L * speed * dt, (p1[1] - p0[1]) / L * speed * dt,
                      L, 0.0, None])
    active = list(range(len(paths)))
    step_len = speed * dt
    while active:
        still = []
        for i in active:
            s = state[i]
            s[5] += step_len
            if s[5] >= s[4]:                       # end of its path
                s[0], s[1] = paths[i][1]
                done = True
            else:
                s[0] += s[2]
                s[1] += s[3]
                done = False
            x, y = s[0], s[1]
            for j in range(n):
                dx, dy = x - ex[j], y - ey[j]
                if dx * dx + dy * dy <= r2:
                    s[6] = (x, y)
                    done = True
                    break
            if not done:
                still.append(i)
        active = still
    return [s[6] for s in state]


def bench_b(q, repeat):
    length, r = 1000.0, 10.0
    # (The naive stepped check costs movers x steps x enemies, the exact run about
    # movers x nearby enemies: the ratio grows with the enemy count, so the case is
    # fixed, not scaled to a target.)
    n_movers, n_enemies, h = (60, 40, 200.0) if q else (150, 60, 200.0)
    data, enemies = lanes_scenario(n_movers, n_enemies, length, r, h=h)
    sc = scenario_from_dict(data)

    paths = [((0.0, lane_y(i, n_movers, h)), (length, lane_y(i, n_movers, h))) for i in range(n_movers)]
    speed = length  # cm per unit time: the whole lane in one phase
    dt = 2.9 / speed  # one step = 2.9 cm: the halt lies at most one step past the entry

    def exact():  # as in (a), time the run alone: building units is set-up
        b = Battle(sc, 1)
        return timed_run(b), b

    t_exact, b, t_step, stepped = side_by_side(
        exact, lambda: clocked(lambda: time_stepped(paths, enemies, r, speed, dt)), repeat)
    # Context, not the target: the detection alone on both sides (the referee's index
    # and exact entries; a stepped check that uses the same grid index).
    t_ref, _, t_grid, grid_stepped = side_by_side(
        lambda: referee_only(sc, paths), lambda: clocked(lambda: time_stepped_grid(paths, enemies, r, 2.9)),
        repeat)
    assert grid_stepped == stepped
    halts = {rec["unit"]: rec for rec in b.log.where(rule="SF.HALT")}
    truth = exact_entries(paths, enemies, r)
    err_exact = 0.0
    for i, tp in enumerate(truth):
        rec = halts.get(f"m{i}")
        assert (rec is None) == (tp is None)
        if rec is not None:
            err_exact = max(err_exact, dist(rec["pos"], tp), abs(rec["dist"] - r))
    err_step, missed = 0.0, 0
    for tp, sp in zip(truth, stepped):
        if tp is None:
            continue
        if sp is None:
            missed += 1
            continue
        err_step = max(err_step, dist(tp, sp))
    return {"exact_s": t_exact, "stepped_s": t_step, "ratio": t_step / t_exact,
            "err_exact": err_exact, "err_step": err_step, "missed": missed,
            "halts": len(halts), "dt": dt, "referee_s": t_ref, "grid_stepped_s": t_grid}


def referee_only(sc, paths):
    """(wall time, first reactions) of the referee's own work for every lane: indexing
    the enemies and finding each mover's exact first entry, outside any battle."""
    b = Battle(sc, 1)
    b.setup()
    b.clock.current = Phase(1, "blue", "movement", 0.0, 1.0, moves=True)
    movers = [b.units[f"m{i}"] for i in range(len(paths))]
    t0 = time.perf_counter()
    b.referee.begin_phase()
    found = [b.referee.earliest(m, p0, p1) for m, (p0, p1) in zip(movers, paths)]
    return time.perf_counter() - t0, found


class _Post:
    def __init__(self, pos):
        self.pos = pos


def time_stepped_grid(paths, enemies, r, step):
    """``time_stepped`` with the referee's grid index (cells of 4r): each step asks only
    the enemies in nearby cells. Same halts (asserted), fewer distance checks."""
    grid = SpatialGrid(4 * r).add_all([_Post(e) for e in enemies])
    r2 = r * r
    out = []
    for p0, p1 in paths:
        L = dist(p0, p1)
        ux, uy = (p1[0] - p0[0]) / L * step, (p1[1] - p0[1]) / L * step
        x, y, done, hit = p0[0], p0[1], 0.0, None
        while hit is None:
            done += step
            end = done >= L
            x, y = (p1 if end else (x + ux, y + uy))
            for e in grid.near_segment((x, y), (x, y), r):
                if (x - e.pos[0]) ** 2 + (y - e.pos[1]) ** 2 <= r2:
                    hit = (x, y)
                    break
            if end:
                break
        out.append(hit)
    return out


# ----------------------------------------------------------------------------- (c)
def bench_c(q, repeat):
    n_side, spacing = 100, 10            # 990 x 990 cm
    movers = 100 if q else 200
    rng = random.Random(11)
    # the movers' corridor: rows 0-19 (y <= 190); 50 enemies scattered in it
    near = [(rng.uniform(100, 900), rng.uniform(0, 190)) for _ in range(50)]
    far = [(rng.uniform(0, 990), rng.uniform(350, 990)) for _ in range(450)]
    dests = [f"{n_side - 1},{k}" for k in (3, 9, 15)]

    def make(enemies):
        data = grid_scenario(n_side, spacing, movers, enemies, turns=8 if q else 12, move=30,
                             dests=dests)
        for u in data["forces"]["blue"]:   # keep the movers in the corridor
            u["at"] = f"0,{int(u['id'][1:]) % 19}"
        return scenario_from_dict(data)

    s50, s500 = make(near), make(near + far)

    def run(sc):
        def go():
            b = Battle(sc, 1)
            return timed_run(b), len(b.log.where(rule="SF.HALT"))
        return go

    t50, h50, t500, h500 = side_by_side(run(s50), run(s500), repeat)
    return {"t50": t50, "t500": t500, "ratio": t500 / t50, "halts50": h50, "halts500": h500}


# ----------------------------------------------------------------------------- (d)
def bench_d(q, repeat):
    n_side, spacing = 100, 10            # 10,000 nodes
    movers = 1000
    dests = [f"{n_side - 1},{k}" for k in range(5, 100, 10)]    # ten objectives
    data = grid_scenario(n_side, spacing, movers, enemies=[(990.0, 990.0)],
                         turns=10 if q else 40, move=30, dests=dests)
    sc = scenario_from_dict(data)
    terrain = sc._terrain

    def plan():
        terrain.paths.trees.clear()          # plan from scratch each time
        t0 = time.perf_counter()
        for _side, u in sc.units():
            if u.orders.type != "hold":
                terrain.reachable(u.at, u.orders.to)     # the load-time check
                terrain.path(u.at, u.orders.to)          # the route the battle walks
        return time.perf_counter() - t0, None

    def simulate():
        b = Battle(sc, 1)
        return timed_run(b), b

    t_plan, _, t_sim, b = side_by_side(plan, simulate, repeat)
    arrived = len(b.log.where(event="arrive"))
    return {"nodes": terrain.graph.number_of_nodes(), "plan_s": t_plan, "sim_s": t_sim,
            "ratio": t_plan / t_sim, "arrived": arrived, "events": events_of(b.env)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="a,b,b2,c,d,e,f", help="cases, e.g. b2,e (default: every one)")
    args = ap.parse_args(argv)
    q, rep = args.quick, args.rounds
    only = set(re.findall(r"b2|[a-f]", args.only))
    rows = []
    if "a" in only:
        a = bench_a(q, rep)
        print(f"(a) engine run {a['engine_s']:.3f} s for {a['events']} events ({a['records']} log records): "
              f"{1e6 * a['engine_s'] / a['events']:.2f} us/event; bare SimPy {a['bare_s']:.3f} s for "
              f"{a['bare_events']} events: {1e6 * a['bare_s'] / a['bare_events']:.2f} us/event")
        rows.append(("(a) engine / bare SimPy per event", f"{a['ratio']:.2f}x", "<= 2.5x", a["ratio"] <= 2.5))
    if "b" in only:
        b = bench_b(q, rep)
        print(f"(b) exact referee {1e3 * b['exact_s']:.2f} ms ({b['halts']} halts, max halt error "
              f"{b['err_exact']:.1e} cm); time-stepped dt={b['dt']:.4f} (2.9 cm steps) "
              f"{b['stepped_s']:.3f} s, max halt error {b['err_step']:.2f} cm, missed halts {b['missed']}")
        print(f"    context, detection alone: the referee {1e3 * b['referee_s']:.2f} ms (index + exact entries); "
              f"the stepped check with the same grid index {1e3 * b['grid_stepped_s']:.1f} ms "
              f"({b['grid_stepped_s'] / b['referee_s']:.0f}x; without it {b['stepped_s'] / b['referee_s']:.0f}x)")
        rows.append(("(b) time-stepped / exact wall time", f"{b['ratio']:.1f}x", ">= 30x", b["ratio"] >= 30))
        rows.append(("(b) halt error exact / stepped", f"{b['err_exact']:.1e} / {b['err_step']:.2f} cm",
                     "stepped <= 3 cm", b["err_step"] <= 3.0))
    if "c" in only:
        c = bench_c(q, rep)
        print(f"(c) 50 enemies {c['t50']:.3f} s ({c['halts50']} halts); 500 enemies {c['t500']:.3f} s "
              f"({c['halts500']} halts)")
        rows.append(("(c) 500 enemies / 50 enemies", f"{c['ratio']:.2f}x", "<= 1.2x", c["ratio"] <= 1.2))
    if "d" in only:
        d = bench_d(q, rep)
        print(f"(d) {d['nodes']} nodes, 1000 movers: planning {d['plan_s']:.3f} s, simulation "
              f"{d['sim_s']:.3f} s ({d['events']} events, {d['arrived']} arrived)")
        rows.append(("(d) planning / simulation", f"{d['ratio']:.2f}x", "<= 1x", d["ratio"] <= 1.0))
    rows += fighting_rows(only, q, rep)
    print()
    w = max(len(r[0]) for r in rows)
    print(f"{'figure':<{w}}  {'value':>22}  {'target':>16}  met")
    for name, value, target, ok in rows:
        print(f"{name:<{w}}  {value:>22}  {target:>16}  {'yes' if ok else 'NO'}")


def fighting_rows(only, q, rep):
    """Run and print cases (b2), (e) and (f); their rows of the closing table."""
    rows = []
    if "b2" in only:
        f = fighting.bench_b2(q, rep)
        mix = f["mix"]
        print(f"(b2) fighting battle {f['fight_s']:.3f} s for {f['events']} events ({f['records']} log records; "
              f"{mix['Process']} process starts, {mix['Timeout']} timeouts, {mix['Interruption']} interrupts): "
              f"{1e6 * f['fight_s'] / f['events']:.2f} us/event; bare SimPy, same mix, {f['bare_s']:.3f} s for "
              f"{f['bare_events']} events: {1e6 * f['bare_s'] / f['bare_events']:.2f} us/event")
        print(f"     its log as JSON Lines (floats at full precision) {1e3 * f['json_s']:.1f} ms against "
              f"{1e3 * f['run_s']:.1f} ms for the battle")
        rows.append(("(b2) fighting battle / bare SimPy per event", f"{f['ratio']:.2f}x", "<= 4x", f["ratio"] <= 4))
        rows.append(("(b2) JSON log writing / battle time", f"{100 * f['json_share']:.1f} %", "<= 10 %",
                     f["json_share"] <= 0.10))
    if "e" in only:
        try:
            e = fighting.bench_e(q, rep, grid_scenario)
        except ImportError:
            print("(e) skipped: Mesa is not installed (pip install -e '.[bench]', or make bench)")
        else:
            print(f"(e) {e['moves']} moves ({e['records']} records, the same in both: {e['same_log']}): "
                  f"sim {e['sim_s']:.3f} s ({1e6 * e['sim_s'] / e['moves']:.2f} us/move), Mesa 3 NetworkGrid "
                  f"{e['mesa_s']:.3f} s ({1e6 * e['mesa_s'] / e['moves']:.2f} us/move)")
            rows.append(("(e) movement: sim / Mesa 3, same log", f"{e['ratio']:.2f}x", "<= 1x",
                         e["ratio"] <= 1 and e["same_log"]))
    if "f" in only:
        f = fighting.bench_f(q, rep)
        for r in f["rows"]:
            print(f"(f) {r['n']:>5} a side: {r['s']:.3f} s, {r['events']} events, {r['records']} records "
                  f"({1e6 * r['s'] / r['records']:.1f} us/record); peak {r['kib_per_unit']:.1f} KiB/unit, "
                  f"of which the log's records {r['log_kib_per_unit']:.1f} ({r['bytes_per_record']:.0f} bytes "
                  f"a record in memory)")
        rows.append(("(f) dense battle: time exponent in N", f"{f['slope']:.2f}", "<= 1.05", f["slope"] <= 1.05))
        rest = max(r["kib_per_unit"] - r["log_kib_per_unit"] for r in f["rows"][1:])
        per_record = max(r["bytes_per_record"] for r in f["rows"][1:])
        # The log's records stay to the battle's end (they grow with its length, not its
        # size): its state is held to the target, the log's share reported.
        rows.append(("(f) dense battle: state per unit (less the log)", f"{rest:.1f} KiB", "<= 4 KiB", rest <= 4))
        rows.append(("(f) ... the log's records, per record", f"{per_record:.0f} bytes", "(reported)", True))
    return rows


if __name__ == "__main__":
    main()
