"""Issue 22, item 4: Ctrl-C, SIGTERM and SIGHUP, at any moment of any command (while
`sim` is importing, loading, running a battle, starting a local Dask cluster or a process
pool, writing a report), print their one line and exit with 130, 143 or 129: nothing is
lost, nothing else is printed (no traceback, no atexit noise from Dask).

Each command signals itself at a named stage (tests/signal_at.py), or, for the import,
from an import hook; every subprocess has a timeout.
"""
from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import SCENARIOS

TESTS = Path(__file__).resolve().parent
STUDY = SCENARIOS / "march_halt.yaml"
SCENARIO = SCENARIOS / "march_halt.yaml"
LINE = {signal.SIGINT: "interrupted", signal.SIGTERM: "stopped by SIGTERM",
        signal.SIGHUP: "stopped by SIGHUP"}


def sim_at(stage: str, sig: signal.Signals, args: list[str], env: dict, cwd: Path):
    return subprocess.run([sys.executable, str(TESTS / "signal_at.py"), stage, sig.name,
                           *map(str, args)], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=180, start_new_session=True)


def scenario_of_study() -> str:
    import yaml

    doc = yaml.safe_load(STUDY.read_text())
    return str(STUDY.parent / doc["scenario"])


@pytest.mark.parametrize("stage, sig, command", [
    ("load", signal.SIGTERM, ["study", STUDY, "--quiet"]),
    ("load", signal.SIGHUP, ["study", STUDY, "--quiet"]),
    ("load", signal.SIGINT, ["study", STUDY, "--quiet"]),
    ("load", signal.SIGTERM, ["demo", "--fast", "--quiet", "--out", "plots"]),
    ("load", signal.SIGHUP, ["analyse", STUDY, "--db", "none.db"]),
    ("load", signal.SIGTERM, ["validate", STUDY]),
    ("scenario", signal.SIGHUP, ["validate", "SCENARIO"]),
    ("battle", signal.SIGTERM, ["run", "SCENARIO", "--seed", "3"]),
    ("report", signal.SIGTERM, ["study", STUDY, "--replications", "2", "--quiet",
                                "--report", "r.html"]),
    ("report", signal.SIGHUP, ["study", STUDY, "--replications", "2", "--quiet",
                               "--report", "r.html"]),
    ("dropped", signal.SIGTERM, ["validate", STUDY]),
    ("dropped", signal.SIGINT, ["validate", STUDY]),
])
def test_a_signal_outside_a_study_run_is_one_line_and_its_status(
        tmp_path, sim_env, stage, sig, command):
    args = [scenario_of_study() if a == "SCENARIO" else a for a in command]
    p = sim_at(stage, sig, args, sim_env, tmp_path)
    assert (p.returncode, p.stderr) == (128 + sig, f"sim: {LINE[sig]}\n"), p.stderr


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_while_the_dask_cluster_starts_is_acted_on_quietly(tmp_path, sim_env, sig):
    db = tmp_path / "r.db"
    p = sim_at("dask-start", sig, ["study", STUDY, "--replications", "400", "--executor",
                                   "dask", "--workers", "2", "--db", db, "--quiet"],
               sim_env, tmp_path)
    assert (p.returncode, p.stderr) == (
        128 + sig, f"{LINE[sig]}; the finished batches are in {db}: rerun with --resume\n")
    assert p.stdout == ""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_inside_a_serial_studys_battle_stops_it_and_stores_no_failure(
        tmp_path, sim_env, sig):
    # SimPy re-raised the stop as type(e)(*e.args): Stopped('SIGTERM') raised ValueError,
    # stored as a failed replication that --resume then never ran again.
    import sqlite3

    db = tmp_path / "r.db"
    p = sim_at("mid-battle", sig, ["study", STUDY, "--replications", "50", "--db", db,
                                   "--quiet"], sim_env, tmp_path)
    assert (p.returncode, p.stderr) == (
        128 + sig, f"{LINE[sig]}; the finished batches are in {db}: rerun with --resume\n")
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM failures").fetchone() == (0,)


def test_a_stop_raised_in_a_simpy_process_keeps_its_signal():
    import simpy

    from sim.study.run.lifetime import Stopped

    env = simpy.Environment()

    def proc():
        yield env.timeout(1)
        raise Stopped(signal.SIGTERM)
    env.process(proc())
    with pytest.raises(Stopped) as stop:
        env.run()
    assert stop.value.signum == signal.SIGTERM and str(stop.value) == "SIGTERM"


def test_ctrl_c_while_the_process_pool_starts_is_not_lost(tmp_path, sim_env):
    p = sim_at("pool-start", signal.SIGINT, ["study", STUDY, "--replications", "400",
                                             "--workers", "2", "--quiet"], sim_env, tmp_path)
    assert (p.returncode, p.stderr, p.stdout) == (130, "interrupted\n", "")


HOOK = """\
import os, signal, sys
class SignalOnImport:
    def find_spec(self, name, path=None, target=None):
        if name == "sim.space":
            sys.meta_path.remove(self)
            sig = signal.{sig}
            (os.killpg if sig == signal.SIGINT else os.kill)(os.getpid(), sig)
        return None
sys.meta_path.insert(0, SignalOnImport())
"""


SIM_SCRIPT = Path(sys.executable).parent / "sim"  # the `sim` command an install makes


@pytest.mark.parametrize("sig, entry", [
    (signal.SIGINT, "-m"), (signal.SIGTERM, "-m"),
    pytest.param(signal.SIGHUP, "script", marks=pytest.mark.skipif(
        not SIM_SCRIPT.is_file(), reason="sim is not installed in this environment"))])
def test_a_signal_while_sim_is_still_importing_is_one_line_and_its_status(
        tmp_path, sim_env, sig, entry):
    (tmp_path / "sitecustomize.py").write_text(HOOK.format(sig=sig.name))
    env = dict(sim_env, PYTHONPATH=f"{tmp_path}:{sim_env['PYTHONPATH']}")
    command = [sys.executable, "-m", "sim"] if entry == "-m" else [str(SIM_SCRIPT)]
    p = subprocess.run([*command, "validate", str(STUDY)], env=env,
                       cwd=tmp_path, capture_output=True, text=True, timeout=120,
                       start_new_session=True)
    assert (p.returncode, p.stderr, p.stdout) == (128 + sig, f"sim: {LINE[sig]}\n", "")
