"""Issue 26, item 2: benchmarks/cluster.py, in its quick form, on a real cluster started
with Dask's own commands (``dask scheduler``, ``dask worker``), one worker SIGKILLed and
replaced part-way: every battle stored once, identical to serial on its sample and to the
process pool's store (of a smaller pool run, on its replications), and no child process
left behind. Its timings are not asserted."""
from __future__ import annotations

import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT


def _env() -> dict[str, str]:
    """This checkout's sim first on the path, for the script and the cluster it starts."""
    return dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))


def _ours(port: int, scratch: str) -> list[str]:
    """Command lines of live processes that belong to that run (its port or its files)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if f"127.0.0.1:{port}" in cmd or f"--port {port}" in cmd or scratch in cmd:
            found.append(cmd)
    return found


def test_quick_cluster_run_stores_every_battle_once_as_serial_and_leaves_nothing(tmp_path):
    out = tmp_path / "figures.json"
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "cluster.py"), "--quick",
                          "--sample", "50", "--pool-battles", "600", "--json", str(out)],
                         capture_output=True, text=True, timeout=300, cwd=ROOT, env=_env())
    assert run.returncode == 0, run.stderr
    f = json.loads(out.read_text())
    assert f["battles"] == 1000
    store = f["store"]
    assert store["once"] and store["rows"] == 1000
    assert store["duplicated"] == store["missing"] == store["failures"] == 0
    assert store["study_hashes"] == 1
    # The kill happened part-way, with battles still to run.
    assert 0 < f["cluster"]["killed_at_rows"] < 1000
    assert f["serial"] == {"compared": 100, "differ": [], "identical": True}
    # The pool ran 600 battles (replications 0-299 of each variant), each row as the cluster's.
    assert f["pool_battles"] == 600 and f["same_as_pool"] is True
    assert f["resume"]["finished_left"] == 0 and f["resume"]["half_left"] > 0
    assert f["store_bytes"] > 1000 * 100  # the rows are on disk, not only in the WAL
    for line in ("every battle stored once: yes", "identical to serial on 100 sampled battles: yes",
                 "cluster / pool =", "scheduler RSS",
                 "every row of its 600 battles (replications 0-299): yes", "(600 battles in",
                 "--resume finds where it was"):
        assert line in run.stdout
    assert _ours(f["cluster"]["port"], f["scratch"]) == []
    assert not Path(f["scratch"]).exists()


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_the_cluster_dies_with_the_benchmark(tmp_path, sig):
    """Killed (even by SIGKILL, which no finally sees) once its cluster is up, the
    benchmark takes its scheduler and workers with it."""
    proc = subprocess.Popen([sys.executable, str(ROOT / "benchmarks" / "cluster.py"), "--battles", "20000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=_env())
    scratch = str(tmp_path / "none")
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 120)
        assert ready, "the benchmark did not start its scheduler"
        first = proc.stdout.readline()
        found = re.fullmatch(r"scheduler at tcp://127\.0\.0\.1:(\d+); scratch (\S+)\n", first)
        assert found, first
        port, scratch = int(found[1]), found[2]
        deadline = time.monotonic() + 120
        while "Registered to:" not in _read(Path(scratch) / "worker-2.log"):
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.1)
        assert len(_ours(port, scratch)) >= 3  # the scheduler and two workers, at least
        proc.send_signal(sig)
        proc.wait(60)
        deadline = time.monotonic() + 30
        while _ours(port, scratch) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _ours(port, scratch) == []
        if sig == signal.SIGTERM:
            assert proc.returncode == 130
            assert proc.stderr.read() == ("cluster.py: stopped (SIGTERM); every child process "
                                          "is ended\n")
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()
        shutil.rmtree(scratch, ignore_errors=True)


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""
