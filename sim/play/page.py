"""The play board as a plain web page with a live kernel (``sim play``): a notebook of one
cell that shows ``sim.viz.play``, served by Voilà, which runs the cell in a kernel of its
own for each visit and shows its output alone: no code, no JupyterLab around it.

``Page(scenario, side, seed, plugins, port)`` writes the notebook in a temporary folder and
starts Voilà on 127.0.0.1 at ``port`` with a random token, in a process group of its own
that is sent SIGTERM (Voilà then shuts its kernels down) if the process that started it
dies, however it dies (Linux's ``PR_SET_PDEATHSIG``); ``close`` ends it, and its kernels
with it (each kernel also ends itself once Voilà is gone: ipykernel watches its parent).
"""
from __future__ import annotations

import ctypes
import html
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sim.signals import signals_deferred

__all__ = ["Page", "notebook"]

START = 120.0   # seconds: the server's start, on a busy machine
STOP = 20.0     # seconds: its shutdown (its kernels first), before it is killed
PR_SET_PDEATHSIG = 1


def notebook(scenario: Path, side: str, seed: int, plugins: list[str], title: str) -> dict[str, Any]:
    """The page's notebook (nbformat 4): a heading, then the cell that shows the board."""
    source = ["import sim.viz\n"]
    if plugins:   # the kernel is another process: it imports the command's plug-ins again
        source += ["from sim.systems.plugins import load_modules\n",
                   f"load_modules({plugins!r}, 'sim play --plugin')\n"]
    source += [f"sim.viz.play({str(scenario)!r}, side={side!r}, seed={seed!r})"]
    return {
        "cells": [{"cell_type": "markdown", "id": "title", "metadata": {}, "source": [html.escape(title)]},
                  {"cell_type": "code", "execution_count": None, "id": "board", "metadata": {}, "outputs": [],
                   "source": source}],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4, "nbformat_minor": 5}


def _dies_with(parent: int) -> Any:
    # run in the child before it becomes Voilà: SIGTERM when the parent dies (Linux)
    def setup() -> None:
        if sys.platform.startswith("linux"):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:   # the parent died before the line above
            os._exit(1)
    return setup


class Page:
    """Voilà serving the play board on 127.0.0.1 (module doc); ``url`` once ``wait`` returns."""

    def __init__(self, scenario: Path, side: str, seed: int, plugins: list[str], port: int, title: str):
        self.folder = Path(tempfile.mkdtemp(prefix="sim-play-"))
        name = re.sub(r"[^A-Za-z0-9_-]+", "_", scenario.stem) or "play"
        path = self.folder / f"{name}.ipynb"
        path.write_text(json.dumps(notebook(scenario, side, seed, plugins, title)), encoding="utf-8")
        self.port = port
        self.token = secrets.token_hex(16)
        self.url = f"http://127.0.0.1:{port}/?token={self.token}"
        self.log_path = self.folder / "voila.log"
        self.log = open(self.log_path, "wb")   # noqa: SIM115 - closed in close()
        # the token by the environment: a command line is seen by every user of the machine
        env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(self.folder / "runtime"), "JUPYTER_TOKEN": self.token}
        with signals_deferred():   # a Ctrl-C now would leave the server without its handle
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "voila", str(path), "--no-browser", "--Voila.ip=127.0.0.1",
                 f"--port={port}", "--Voila.port_retries=0", "--Voila.auto_token=True", "--theme=light",
                 "--show_tracebacks=True", f"--Voila.connection_dir_root={self.folder}"],
                cwd=self.folder, env=env, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
                start_new_session=True, preexec_fn=_dies_with(os.getpid()))

    def wait(self) -> None:
        """Until the server answers on its port; a ``RuntimeError`` if it ends or takes too long."""
        deadline = time.monotonic() + START
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the page's server (voila) ended at once (exit {self.proc.returncode}): "
                                   f"{self.last_line()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=2):
                    return
            except OSError:
                time.sleep(0.3)
        raise RuntimeError(f"the page's server (voila) did not answer in {START:g} s: {self.last_line()}")

    def last_line(self) -> str:
        """The last line the server logged (why it ended)."""
        self.log.flush()
        lines = self.log_path.read_text(encoding="utf-8", errors="replace").strip().splitlines()
        return lines[-1] if lines else "(it logged nothing)"

    def close(self) -> None:
        """End the server (it shuts its kernels down first) and remove the folder."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=STOP)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=STOP)
            except ProcessLookupError:
                pass
        try:   # anything it left in its group
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)
