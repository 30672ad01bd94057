"""The benchmark scripts still run (a smoke test at their smallest size). Their figures
are never asserted here: speed is measured by the scripts, side by side, not by tests."""
from __future__ import annotations

import subprocess
import sys

from conftest import ROOT


def _script(name: str, *args: str) -> str:
    """Run ``benchmarks/<name>`` with ``args`` from the checkout's root; its output (it must exit 0)."""
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / name), *args],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_engine_benchmark_runs_and_prints_every_figure():
    out = _script("engine.py", "--quick", "--rounds", "1")
    for figure in ("(a) engine / bare SimPy per event", "(b) time-stepped / exact wall time",
                   "(b) halt error exact / stepped", "(c) 500 enemies / 50 enemies",
                   "(d) planning / simulation", "missed halts 0", "context, detection alone",
                   "(b2) fighting battle / bare SimPy per event", "(b2) JSON log writing / battle time",
                   "(f) dense battle: time exponent in N", "(f) dense battle: state per unit (less the log)",
                   "(f) ... the log's records, per record"):
        assert figure in out
    # Mesa is a benchmark-only extra: the movement case runs with it, says why not without.
    assert ("(e) movement: sim / Mesa 3, same log" in out
            or "(e) skipped: Mesa is not installed" in out)
    assert "the same in both: False" not in out


def test_map_benchmark_runs_and_prints_every_figure():
    out = _script("maps.py", "--quick", "--rounds", "1")
    for figure in ("(a) load a 50,000-hex map", "(b) load a 50,000-node table",
                   "(c) load a table of 1,000 blocking areas", "load average"):
        assert figure in out


def test_decision_benchmark_runs_and_prints_every_figure():
    out = _script("decisions.py", "--seeds", "2")
    for figure in ("(g) replay to {'turn': 5}", "(g) replay to {'halted': 's1'}", "(g) whole battle",
                   "(g) gym episode", "(g) mcts decision on kill_zone_run"):
        assert figure in out


def test_client_memory_benchmark_runs_and_prints_its_figures():
    out = _script("client_memory.py", "--battles", "40", "--workers", "1")
    assert "client peak MiB" in out and "       40  " in out


def test_study_outputs_script_writes_each_command_output(tmp_path):
    _script("study_outputs.py", str(tmp_path / "o"), "--only", "resume")
    assert sorted(p.name for p in (tmp_path / "o").glob("*.out")) == ["resume.first.out", "resume.more.out"]
    assert (tmp_path / "o" / "resume.more.out").read_text().startswith("exit 0\nStudy snapfire_vs_zoc")


def test_import_benchmark_runs_and_prints_every_figure():
    out = _script("import_time.py", "--rounds", "1", "--modules")
    for figure in ("import sim:", "import simpy, networkx:", "import sim + first battle:",
                   "import sim / import simpy, networkx:", "load average"):
        assert figure in out


def test_gym_benchmark_runs_and_prints_every_figure():
    out = _script("gym_steps.py", "--rounds", "1", "--seconds", "0.2", "--flat")
    for figure in ("CartPole-v1:", "sim.gym platoon_attack, random agent:", "sim.gym platoon_attack, plan kept:",
                   "CartPole / sim.gym platoon_attack, random agent:", "load average"):
        assert figure in out


def test_feed_benchmark_runs_and_prints_every_figure():
    """benchmarks/feed.py at a small size (its Dask part on a real scheduler and two workers)."""
    out = _script("feed.py", "--rows", "4000", "--client-rows", "2000", "--task-size", "100")
    for figure in ("a battle:", "store: 4,000 rows in batches of 100:", "client, no Dask, 2,000 battles:",
                   "one client keeps", "one scheduler"):
        assert figure in out
