"""Issue 13, items 1 and 2: `--address` values that are not a scheduler address, servers
that are not a Dask scheduler (silent, another protocol, garbage) and Dask giving up on a
task whose workers keep dying each end in one line, never a traceback or a hang; the
store stays consistent and --resume finishes the study.

The servers here listen on 127.0.0.1 only and stop by themselves.
"""
from __future__ import annotations

import contextlib
import json
import socket
import sqlite3
import struct
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from conftest import SCENARIOS, err_line
from sim.study.plan.seeds import replication_seed
from sim.study.plan.study_file import load_study
from sim.study.run import scheduler

STUDY = SCENARIOS / "march_halt.yaml"
TESTS = Path(__file__).resolve().parent


@pytest.mark.parametrize("address", [
    "garbage", "tcp://", "localhost", "tcp://localhost", "127.0.0.1", "http://host:80",
    "ws://host:80", "tls://host:8786", "inproc://x", "tcp://host:0", "tcp://host:70000",
    "tcp://host:port", "tcp://[zz::1]:8786", "tcp://-bad-.example:8786", "tcp://a b:1",
    "tcp://" + "a" * 5000 + ":8786", "tcp://" + "a" * 64 + ".example:8786", " ", "",
])
def test_what_is_not_a_scheduler_address_is_refused(capsys, address):
    line = err_line(capsys, ["study", STUDY, "--address", address, "--quiet"])
    assert line.startswith("sim: error: --address: expected a Dask scheduler address "
                           "tcp://HOST:PORT (PORT 1-65535), got '")
    assert len(line) < 200


@pytest.mark.parametrize("address, host, port", [
    ("tcp://127.0.0.1:8786", "127.0.0.1", 8786), ("127.0.0.1:1", "127.0.0.1", 1),
    ("tcp://[::1]:8786", "::1", 8786), ("tcp://scheduler.example.org:65535",
                                        "scheduler.example.org", 65535),
])
def test_scheduler_addresses_are_read(address, host, port):
    assert scheduler.parse_address(address) == (host, port)


class Server:
    """A loopback TCP server that answers every connection with ``reply(conn)``, and
    closes itself (and every connection) when the test ends or after 60 s."""

    def __init__(self, reply):
        self.reply = reply
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.stop = threading.Event()
        self.conns: list[socket.socket] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self):
        while not self.stop.wait(0):
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.conns.append(conn)
            with contextlib.suppress(OSError):
                self.reply(conn)

    def __enter__(self):
        self.thread.start()
        threading.Timer(60, self.stop.set).start()
        return f"tcp://127.0.0.1:{self.port}"

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(5)
        for c in self.conns + [self.sock]:
            c.close()


def silent(conn):
    pass


def http(conn):
    conn.settimeout(5)
    conn.recv(1024)  # an HTTP server waits for the request, then answers in HTTP
    conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")


def garbage(conn):
    conn.sendall(b"\xff" * 64)


def huge_length(conn):
    conn.sendall(struct.pack("Q", 1 << 62))  # "read 4 EiB next"


def hangs_up(conn):
    conn.close()


def half_a_message(conn):
    conn.sendall(struct.pack("Q", 100) + b"\x01" * 10)  # then nothing more


SERVERS = {
    "silent": (silent, "the server accepted the connection but sent no Dask handshake within 1 s"),
    "http": (http, "the server answers, but not with the Dask protocol"),
    "garbage": (garbage, "the server answers, but not with the Dask protocol"),
    "huge_length": (huge_length, "the server answers, but not with the Dask protocol"),
    "hangs_up": (hangs_up, "the server closed the connection without a Dask handshake"),
    "half_a_message": (half_a_message, "sent no Dask handshake within 1 s"),
}


@pytest.mark.parametrize("kind", sorted(SERVERS))
def test_a_server_that_is_not_a_dask_scheduler_is_one_line(capsys, monkeypatch, kind):
    monkeypatch.setattr(scheduler, "TIMEOUT", 1.0)
    reply, part = SERVERS[kind]
    with Server(reply) as address:
        line = err_line(capsys, ["study", STUDY, "--address", address, "--quiet"])
    assert line.startswith(f"sim: error: --address '{address}': ") and part in line, line


def test_nothing_listening_is_one_line(capsys):
    with socket.create_server(("127.0.0.1", 0)) as s:
        port = s.getsockname()[1]  # free once closed
    line = err_line(capsys, ["study", STUDY, "--address", f"tcp://127.0.0.1:{port}", "--quiet"])
    assert "cannot connect (Connection refused; expected a Dask scheduler)" in line


def test_a_silent_server_does_not_hang_the_command(sim_env):
    """End to end, with the real timeout: exit 2 and one line, not a hang."""
    with Server(silent) as address:
        p = subprocess.run([sys.executable, "-m", "sim", "study", str(STUDY), "--address",
                            address, "--quiet"], env=sim_env, capture_output=True, text=True,
                           timeout=120)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == (f"sim: error: --address '{address}': the server accepted the "
                        f"connection but sent no Dask handshake within {scheduler.TIMEOUT:g} s "
                        "(expected a Dask scheduler)\n")


# -- Dask gives up on a task whose workers keep dying -------------------------------------

DEADLY_RUN = """\
import functools, sys
import dask
import sim.study.run.runner as runner
from sim.cli import main
runner.run_study = functools.partial(runner.run_study, battle="deadly_battle:run_battle")
with dask.config.set({"distributed.scheduler.allowed-failures": 1}):
    sys.exit(main(sys.argv[1:]))
"""


def test_killed_worker_is_one_line_exit_3_and_the_study_resumes(tmp_path, sim_env):
    db, marker = tmp_path / "r.db", tmp_path / "deadly"
    reps = 60
    # Replication 37 (in both cells: common random numbers) kills its worker every time.
    marker.write_text(str(replication_seed(load_study(STUDY).spec.seed, 37)))
    env = dict(sim_env, SIM_DEADLY_MARKER=str(marker),
               PYTHONPATH=f"{TESTS}:{sim_env['PYTHONPATH']}")
    study = ["study", str(STUDY), "--replications", str(reps), "--db", str(db), "--json",
             "--quiet", "--task-size", "5"]
    dask = ["--executor", "dask", "--workers", "2"]
    run = subprocess.run([sys.executable, "-c", DEADLY_RUN, *study, *dask], env=env,
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 3, run.stderr
    assert run.stdout == ""
    assert run.stderr.startswith("sim: error: Dask gave up on a task whose workers kept dying "
                                 "(KilledWorker: ")
    assert run.stderr.endswith(f"; the finished batches are in {db}: rerun with --resume\n")
    assert len(run.stderr.splitlines()) == 1
    with contextlib.closing(sqlite3.connect(db)) as conn:
        kept, distinct = conn.execute(
            "SELECT COUNT(*), COUNT(DISTINCT variant || '/' || rep) FROM replications").fetchone()
        dead = conn.execute("SELECT COUNT(*) FROM replications WHERE rep = 37").fetchone()[0]
    assert kept == distinct and kept % 5 == 0 and kept < 2 * reps and dead == 0
    marker.unlink()  # the cause is fixed: --resume finishes the study
    done = subprocess.run([sys.executable, "-c", DEADLY_RUN, *study, *dask, "--resume"],
                          env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    whole = subprocess.run([sys.executable, "-m", "sim", "study", str(STUDY), "--replications",
                            str(reps), "--json", "--quiet"],
                           env=sim_env, capture_output=True, text=True, timeout=300)
    assert json.loads(done.stdout) == json.loads(whole.stdout)
