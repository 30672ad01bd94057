"""The figures of benchmarks/cluster.py from its samples, and their printout.

A sample is taken every few seconds while a study runs: the time, the rows stored, and
each watched process's resident memory (MiB) and CPU time (s), by name (``client``, the
``sim study`` command; ``scheduler``; ``worker-N``). From them: the memory of each process
over the run, a timeline, and how many workers one client and its scheduler could feed
(each one's CPU per batch against a worker's CPU per batch).
"""
from __future__ import annotations

import os
import statistics


def _series(samples: list[dict], name: str, key: str = "rss") -> list[tuple[int, float]]:
    """(rows stored, value) of one process, over the samples where it was alive."""
    return [(s["rows"], s[key][name]) for s in samples if s[key].get(name, 0) > 0 and s["rows"] > 0]


def trend(samples: list[dict], name: str) -> dict:
    """One process's memory: first and last quarter's medians, peak, slope per 100,000 rows."""
    pts = _series(samples, name)
    if len(pts) < 4:
        return {"samples": len(pts)}
    q = max(1, len(pts) // 4)
    ys = [p[1] for p in pts]
    return {"samples": len(pts), "first_quarter_mib": statistics.median(ys[:q]),
            "last_quarter_mib": statistics.median(ys[-q:]), "peak_mib": max(ys),
            "slope_mib_per_100k_rows": slope(pts) * 100_000}


def per_batch(samples: list[dict], name: str, batch: int) -> float:
    """A process's CPU seconds per batch stored: the fitted slope of its CPU time."""
    return slope(_series(samples, name, "cpu")) * batch


def cumulative_cpu(samples: list[dict], keep=lambda name: True) -> list[tuple[int, float]]:
    """(rows stored, CPU seconds so far of the processes ``keep`` names): one that has
    exited (a killed worker) counts as last seen."""
    last: dict[str, float] = {}
    out = []
    for s in samples:
        last.update((n, cpu) for n, cpu in s["cpu"].items() if keep(n) and cpu > 0)
        if s["rows"] > 0:
            out.append((s["rows"], sum(last.values())))
    return out


def slope(pts: list[tuple[int, float]]) -> float:
    """The fitted slope of (x, y) points (NaN with fewer than two x): start-up left out."""
    if len({p[0] for p in pts}) < 2:
        return float("nan")
    return statistics.linear_regression([p[0] for p in pts], [p[1] for p in pts]).slope


def feed(samples: list[dict], batch: int) -> dict:
    """How many single-threaded workers one client, and its scheduler, could keep busy."""
    battle = slope(cumulative_cpu(samples, lambda n: n.startswith("worker")))
    client, scheduler = per_batch(samples, "client", batch), per_batch(samples, "scheduler", batch)
    return {"worker_cpu_ms_per_battle": battle * 1e3, "client_cpu_ms_per_batch": client * 1e3,
            "scheduler_cpu_ms_per_batch": scheduler * 1e3,
            "workers_per_client": batch * battle / client if client > 0 else float("inf"),
            "workers_per_scheduler": batch * battle / scheduler if scheduler > 0 else float("inf")}


def cpu_per_battle(samples: list[dict]) -> float:
    """Milliseconds of CPU a battle, of every process of the run together, so that two
    runs at different loads compare."""
    return 1e3 * slope(cumulative_cpu(samples))


def timeline(samples: list[dict], points: int = 12) -> list[dict]:
    """About ``points`` samples evenly through the run, each with the rate since the last."""
    if not samples:
        return []
    step = max(1, len(samples) // points)
    chosen = samples[step - 1::step]
    if chosen[-1] is not samples[-1]:
        chosen.append(samples[-1])
    out, before = [], {"t": 0.0, "rows": 0}
    for s in chosen:
        dt = s["t"] - before["t"]
        out.append({"t": s["t"], "rows": s["rows"], "rate": (s["rows"] - before["rows"]) / dt if dt else 0.0,
                    "rss": dict(s["rss"])})
        before = s
    return out


def print_timeline(rows: list[dict]) -> None:
    """The timeline as a table: elapsed, stored, battles/s, memory of each process."""
    names = sorted({n for r in rows for n in r["rss"]}, key=lambda n: (n != "client", n != "scheduler", n))
    print("  " + "  ".join(["     s", "   stored", "battles/s", *(f"{n:>10}" for n in names)]) + "  (MiB)")
    for r in rows:
        mem = (f"{r['rss'][n]:10.0f}" if r["rss"].get(n, 0) > 0 else f"{'-':>10}" for n in names)
        print("  " + "  ".join([f"{r['t']:6.0f}", f"{r['rows']:9,}", f"{r['rate']:9.0f}", *mem]))


def report(f: dict) -> None:
    """Print the figures."""
    b, s, c, m = f["battles"], f["store"], f["cluster"], f["memory"]
    print(f"Cluster: {b:,} battles of snapfire_vs_zoc ({b // 2:,} replications a variant), "
          f"dask scheduler + 2 dask workers on 127.0.0.1, {f['task_size']} battles a task")
    print(f"  worker-1 SIGKILLed at {c['killed_at_rows']:,} stored, worker-3 started"
          f" ({'joined' if c['replacement_joined'] else 'had not joined'} before the end)")
    print(f"  every battle stored once: {'yes' if s['once'] else 'NO'} ({s['rows']:,} rows, "
          f"{s['duplicated']} duplicated, {s['missing']} missing, {s['failures']} failures)")
    print(f"  identical to serial on {f['serial']['compared']} sampled battles: "
          f"{'yes' if f['serial']['identical'] else 'NO ' + str(f['serial']['differ'])}")
    pb = f.get("pool_battles", b)
    print(f"  identical to the local process pool's store, every row"
          f"{'' if pb == b else f' of its {pb:,} battles (replications 0-{pb // 2 - 1:,})'}: "
          f"{'yes' if f['same_as_pool'] else 'NO'}")
    print(f"  throughput, whole command: cluster {f['cluster_rate']:.0f} battles/s "
          f"({c['seconds']:.1f} s), process pool (--workers 2) {f['pool_rate']:.0f} battles/s "
          f"({pb:,} battles in {f['pool_seconds']:.1f} s): cluster / pool = {f['ratio']:.2f} (target >= 0.90)")
    print(f"  (1-minute load average before each: cluster {c['load_before']:.2f}, "
          f"pool {f['pool_load_before']:.2f}; this machine has {os.cpu_count()} cores)")
    cpu = f["cpu_per_battle_ms"]
    print(f"  CPU of every process a battle, which load does not change: cluster {cpu['cluster']:.2f} ms, "
          f"pool {cpu['pool']:.2f} ms: pool / cluster = {cpu['pool'] / cpu['cluster']:.2f}")
    print("  the cluster's run, over time:")
    print_timeline(f["timeline"])
    for name in ("scheduler", "client", "pool client", "worker-2"):
        t = m.get(name, {})
        if "peak_mib" in t:
            print(f"  {name} RSS over {t['samples']} samples: first quarter median "
                  f"{t['first_quarter_mib']:.1f} MiB, last {t['last_quarter_mib']:.1f} MiB, peak "
                  f"{t['peak_mib']:.1f} MiB, slope {t['slope_mib_per_100k_rows']:+.2f} MiB per 100,000 battles")
    print(f"  store: {f['store_bytes'] / 2**20:.1f} MiB, {f['store_bytes'] / b:.0f} bytes a battle")
    r = f["resume"]
    print(f"  --resume finds where it was: finished store {r['finished_s']:.2f} s "
          f"({r['finished_left']} left), half store {r['half_s']:.2f} s ({r['half_left']:,} left); "
          f"whole --resume command on the finished store {c['resume_command_s']:.1f} s")
    d = f["feed"]
    print(f"  CPU: a battle {d['worker_cpu_ms_per_battle']:.2f} ms on a worker; a batch of {f['task_size']} "
          f"costs the client {d['client_cpu_ms_per_batch']:.1f} ms, the scheduler "
          f"{d['scheduler_cpu_ms_per_batch']:.1f} ms: one client keeps about "
          f"{d['workers_per_client']:.0f} workers busy, one scheduler {d['workers_per_scheduler']:.0f}")
