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


def sim_with(hook: str, command: list, tmp_path: Path, sim_env: dict, entry: str = "-m"):
    """The `sim` command itself (``python -m sim``, or the installed script), with ``hook``
    as its sitecustomize."""
    (tmp_path / "sitecustomize.py").write_text(hook)
    env = dict(sim_env, PYTHONPATH=f"{tmp_path}:{sim_env['PYTHONPATH']}")
    start = [sys.executable, "-m", "sim"] if entry == "-m" else [str(SIM_SCRIPT)]
    return subprocess.run([*start, *map(str, command)], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=180, start_new_session=True)


@pytest.mark.parametrize("sig, entry", [
    (signal.SIGINT, "-m"), (signal.SIGTERM, "-m"),
    pytest.param(signal.SIGHUP, "script", marks=pytest.mark.skipif(
        not SIM_SCRIPT.is_file(), reason="sim is not installed in this environment"))])
def test_a_signal_while_sim_is_still_importing_is_one_line_and_its_status(
        tmp_path, sim_env, sig, entry):
    p = sim_with(HOOK.format(sig=sig.name), ["validate", STUDY], tmp_path, sim_env, entry)
    assert (p.returncode, p.stderr, p.stdout) == (128 + sig, f"sim: {LINE[sig]}\n", "")


# The command's last moments, where a signal was ignored (exit 0): its output going out
# (``output``: the first flush of what it wrote to stdout, which happened only as the
# interpreter exited), and the interpreter exiting once the command is done (``exit``:
# the last atexit callback, which waits for the signal); and a bad input's line being
# written (``error``: it ended in a traceback).
LAST = """\
import atexit, io, os, signal, sys, time
SIG, sent = signal.{sig}, []


def send():
    if not sent:
        sent.append(SIG)
        (os.killpg if SIG == signal.SIGINT else os.kill)(os.getpid(), SIG)


class Out(io.TextIOWrapper):
    wrote = False

    def write(self, text):
        self.wrote = True
        return super().write(text)

    def flush(self):
        if self.wrote:
            send()
        super().flush()


class Err(io.TextIOWrapper):
    def write(self, text):
        send()
        return super().write(text)


if "{at}" == "output":
    sys.stdout = Out(sys.stdout.detach(), encoding="utf-8")
elif "{at}" == "error":
    sys.stderr = Err(sys.stderr.detach(), encoding="utf-8", line_buffering=True)
else:
    atexit.register(lambda: (send(), time.sleep(5)))
"""
SELECT = ["select", STUDY, "--metric", "end_time", "--direction", "minimise", "--delta", "5",
          "--n0", "5"]


def factor_study(tmp_path: Path) -> Path:
    """A study of two factor points with its replications stored in f.db (for analyse)."""
    import shutil

    from sim.cli import main

    shutil.copy(Path(scenario_of_study()), tmp_path / "march_column.yaml")
    path = tmp_path / "factors.yaml"
    path.write_text("study: f\nscenario: march_column.yaml\nseed: 1\nreplications: 2\n"
                    "variants: {a: {}}\nmetrics: [end_time]\nfactors: {vary: {turns: [4, 16]}}\n")
    assert main(["study", str(path), "--db", str(tmp_path / "f.db"), "--quiet"]) == 0
    return path


@pytest.mark.parametrize("sig, command", [
    (signal.SIGINT, SELECT),
    (signal.SIGHUP, [*SELECT, "--json"]),
    (signal.SIGTERM, ["study", STUDY, "--replications", "2"]),
    (signal.SIGHUP, ["study", STUDY, "--replications", "2", "--json"]),
    (signal.SIGTERM, ["run", "SCENARIO", "--seed", "3"]),
    (signal.SIGHUP, ["validate", STUDY]),
    (signal.SIGINT, ["rules"]),
    (signal.SIGTERM, ["schema"]),
    (signal.SIGHUP, ["analyse", "FACTORS", "--db", "f.db"]),
    (signal.SIGINT, ["--version"]),
])
def test_a_signal_as_a_command_prints_its_result_is_its_line_and_status(
        tmp_path, sim_env, sig, command):
    args = [scenario_of_study() if a == "SCENARIO" else factor_study(tmp_path) if a == "FACTORS"
            else a for a in command]
    p = sim_with(LAST.format(sig=sig.name, at="output"), args, tmp_path, sim_env)
    assert (p.returncode, p.stderr) == (128 + sig, f"sim: {LINE[sig]}\n"), p.stderr


@pytest.mark.parametrize("sig, command, said", [
    (signal.SIGHUP, SELECT, ""),
    (signal.SIGINT, ["study", STUDY, "--replications", "2", "--quiet"], ""),
    (signal.SIGTERM, ["validate", STUDY], ""),
    (signal.SIGTERM, ["demo", "--fast", "--quiet", "--out", "plots"], ""),
    (signal.SIGINT, ["validate", "nowhere.yaml"], "sim: error: nowhere.yaml: "),
])
def test_a_signal_once_the_command_is_done_is_its_line_and_status_till_the_process_ends(
        tmp_path, sim_env, sig, command, said):
    p = sim_with(LAST.format(sig=sig.name, at="exit"), command, tmp_path, sim_env)
    assert p.returncode == 128 + sig and p.stderr.startswith(said), p.stderr
    assert p.stderr.splitlines()[-1] == f"sim: {LINE[sig]}" and p.stderr.count("sim: ") == 1 + bool(said)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGHUP])
def test_a_signal_as_a_bad_inputs_line_is_written_is_its_line_and_status(tmp_path, sim_env, sig):
    p = sim_with(LAST.format(sig=sig.name, at="error"), ["validate", "nowhere.yaml"], tmp_path,
                 sim_env)
    assert (p.returncode, p.stderr) == (128 + sig, f"sim: {LINE[sig]}\n"), p.stderr
