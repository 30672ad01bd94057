"""Issue 13, item 3: a study's processes end with it. After SIGKILL or SIGTERM of the
`sim study` process alone, its pool or Dask workers and the multiprocessing resource
tracker exit by themselves (looked up in /proc, no psutil); SIGTERM and SIGHUP stop a
study as Ctrl-C does (one line, exit 128 + signal, store consistent, resumable); Ctrl-C
under Dask prints that one line and no worker traceback.
"""
from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import SCENARIOS

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")

STUDY = SCENARIOS / "march_halt.yaml"
N = 400  # replications per cell: far more than are run before the signal


def _stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state, start time) of a process, from /proc; None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return int(fields[1]), fields[0], int(fields[19])


def descendants(pid: int) -> dict[int, int]:
    """Every living descendant of ``pid``: {pid: start time}."""
    table = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            st = _stat(int(entry.name))
            if st is not None:
                table[int(entry.name)] = st
    found, frontier = {}, [pid]
    while frontier:
        parent = frontier.pop()
        for child, (ppid, state, start) in table.items():
            if ppid == parent and state != "Z" and child not in found:
                found[child] = start
                frontier.append(child)
    return found


def alive(pid: int, start: int) -> bool:
    st = _stat(pid)
    return st is not None and st[1] != "Z" and st[2] == start


def wait_until(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def stored(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with contextlib.closing(sqlite3.connect(db, timeout=1)) as conn:
            return conn.execute("SELECT COUNT(*) FROM replications").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def start_study(tmp_path: Path, sim_env, executor: str, *extra: str) -> tuple[subprocess.Popen, Path]:
    db = tmp_path / "r.db"
    cmd = [sys.executable, "-m", "sim", "study", str(STUDY), "--replications", str(N),
           "--executor", executor, "--workers", "2", "--db", str(db), "--quiet", "--json",
           *extra]
    # A session of its own: the test's signals reach only the study process (or, for
    # Ctrl-C, its whole group as a terminal's would), and its clean-up reaches the rest.
    child = subprocess.Popen(cmd, env=sim_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True)
    assert wait_until(lambda: stored(db) > 0 or child.poll() is not None, 120), "no batch stored"
    assert child.poll() is None, child.communicate()
    return child, db


@contextlib.contextmanager
def cleanup(child: subprocess.Popen):
    try:
        yield
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
        if child.poll() is None:
            child.kill()
        child.communicate(timeout=30)


@pytest.mark.parametrize("executor", ["processes", "dask"])
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_workers_and_resource_tracker_exit_when_the_study_dies(tmp_path, sim_env, executor, sig):
    child, db = start_study(tmp_path, sim_env, executor, "--task-size", "5")
    with cleanup(child):
        family = descendants(child.pid)
        # Two workers, and the resource tracker that multiprocessing started.
        assert len(family) >= 3, family
        tracker = [p for p in family
                   if b"resource_tracker" in Path(f"/proc/{p}/cmdline").read_bytes()]
        assert tracker, family
        os.kill(child.pid, sig)  # the study process only, as the OOM killer or `kill` does
        child.wait(timeout=120)
        assert wait_until(lambda: not any(alive(p, s) for p, s in family.items()), 30), \
            {p: _stat(p) for p, s in family.items() if alive(p, s)}
        _, err = child.communicate(timeout=30)
    if sig == signal.SIGKILL:
        assert child.returncode == -signal.SIGKILL
    else:
        assert child.returncode == 128 + sig, err
        assert err.strip() == f"stopped by SIGTERM; the finished batches are in {db}: rerun with --resume"


@pytest.mark.parametrize("sig, name", [(signal.SIGTERM, "stopped by SIGTERM"),
                                       (signal.SIGHUP, "stopped by SIGHUP"),
                                       (signal.SIGINT, "interrupted")])
def test_a_stopped_study_keeps_its_batches_and_resumes(tmp_path, sim_env, sig, name):
    child, db = start_study(tmp_path, sim_env, "processes", "--task-size", "5")
    with cleanup(child):
        # SIGINT to the whole group, as Ctrl-C in a terminal; the others to the parent.
        (os.killpg if sig == signal.SIGINT else os.kill)(child.pid, sig)
        child.wait(timeout=120)
        out, err = child.communicate(timeout=30)
    assert child.returncode == 128 + sig, err
    assert err.strip() == f"{name}; the finished batches are in {db}: rerun with --resume"
    assert out == ""
    kept = stored(db)
    assert 0 < kept < 2 * N
    with contextlib.closing(sqlite3.connect(db)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    done = subprocess.run([sys.executable, "-m", "sim", "study", str(STUDY), "--replications",
                           "60", "--db", str(db), "--resume", "--quiet"], env=sim_env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    with contextlib.closing(sqlite3.connect(db)) as conn:
        total, distinct = conn.execute(
            "SELECT COUNT(*), COUNT(DISTINCT variant || '/' || point || '/' || rep) "
            "FROM replications").fetchone()
    assert total == distinct >= 2 * 60


def test_ctrl_c_under_dask_prints_one_line_and_no_worker_traceback(tmp_path, sim_env):
    # Dask's own task size (large): the workers are mid-task when Ctrl-C comes.
    child, db = start_study(tmp_path, sim_env, "dask")
    with cleanup(child):
        family = descendants(child.pid)
        os.killpg(child.pid, signal.SIGINT)  # every process of the group, as a terminal does
        child.wait(timeout=120)
        out, err = child.communicate(timeout=30)
        assert wait_until(lambda: not any(alive(p, s) for p, s in family.items()), 30)
    assert child.returncode == 130
    assert err == f"interrupted; the finished batches are in {db}: rerun with --resume\n"
