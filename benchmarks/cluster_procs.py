"""The child processes of benchmarks/cluster.py: a Dask scheduler, its workers and the
``sim study`` commands, each started with its own command line, and all of them gone when
the benchmark is, however it ends.

Three guards, because each covers what the others cannot: every child is the leader of
its own process group, killed with its group when the benchmark leaves its ``with`` block
(an exception, Ctrl-C, SIGTERM or SIGHUP, which are turned into ``KeyboardInterrupt``);
an ``atexit`` hook does the same if the interpreter exits another way; and on Linux each
child is started with a parent-death signal (SIGKILL), so a benchmark that is itself
SIGKILLed takes its children with it.
"""
from __future__ import annotations

import atexit
import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

PR_SET_PDEATHSIG = 1


class Failure(Exception):
    """A step of the benchmark failed: its message is the one line printed."""


def _die_with_parent(parent: int):
    """The child's first act (before exec): die when the benchmark does."""
    def guard() -> None:
        if sys.platform.startswith("linux"):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the parent died before the guard was set
            os._exit(1)
    return guard


def _stop_signal(signum, frame):
    raise KeyboardInterrupt(signal.Signals(signum).name)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mib(pid: int) -> float:
    """A process's resident memory (VmRSS), in MiB; 0 if it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user + system), in seconds; 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (a pool's workers), from /proc's children lists."""
    out, todo = [], [pid]
    while todo:
        try:
            found = [int(c) for t in Path(f"/proc/{todo.pop()}/task").iterdir()
                     for c in (t / "children").read_text().split()]
        except OSError:
            continue
        out += found
        todo += found
    return out


class Children:
    """Every process the benchmark starts; ``with Children(dir):`` kills what is left."""

    def __init__(self, logs: Path, env: dict[str, str]):
        self.logs, self.env = logs, env
        self.procs: dict[str, subprocess.Popen] = {}

    def __enter__(self) -> Children:
        atexit.register(self.kill_all)
        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, _stop_signal)
        return self

    def __exit__(self, *exc) -> None:
        self.kill_all()
        atexit.unregister(self.kill_all)

    def start(self, name: str, argv: list[str]) -> subprocess.Popen:
        """Start ``argv`` as child ``name``; its output goes to ``logs/name.log``."""
        with open(self.logs / f"{name}.log", "wb") as log:
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log,
                                    stderr=subprocess.STDOUT, env=self.env,
                                    start_new_session=True, preexec_fn=_die_with_parent(os.getpid()))
        self.procs[name] = proc
        return proc

    def log(self, name: str) -> str:
        """What child ``name`` has printed so far."""
        return (self.logs / f"{name}.log").read_text(errors="replace")

    def kill(self, name: str) -> None:
        """SIGKILL child ``name`` (its whole process group) and reap it."""
        proc = self.procs.pop(name)
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()

    def kill_all(self) -> None:
        """Kill every child still known, newest first."""
        for name in reversed(list(self.procs)):
            self.kill(name)

    def wait_for(self, name: str, text: str, timeout: float) -> None:
        """Until child ``name`` prints ``text``; Failure if it exits or times out first."""
        proc, deadline = self.procs[name], time.monotonic() + timeout
        while text not in self.log(name):
            if proc.poll() is not None:
                last = (self.log(name).strip().splitlines() or ["no output"])[-1]
                raise Failure(f"{name} exited with status {proc.returncode}: {last[:200]}")
            if time.monotonic() > deadline:
                raise Failure(f"{name} did not say {text!r} within {timeout:g} s")
            time.sleep(0.05)

    def run(self, name: str, argv: list[str], timeout: float) -> float:
        """Run ``argv`` to its end as child ``name``: its wall time (Failure unless it exits 0)."""
        t0 = time.perf_counter()
        proc = self.start(name, argv)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise Failure(f"{name} did not finish within {timeout:g} s") from None
        self.finished(name)
        return time.perf_counter() - t0

    def finished(self, name: str) -> None:
        """Forget child ``name``, which has exited; Failure unless it exited 0."""
        proc = self.procs.pop(name)
        if proc.returncode != 0:
            last = (self.log(name).strip().splitlines() or ["no output"])[-1]
            raise Failure(f"{name} exited with status {proc.returncode}: {last[:200]}")
