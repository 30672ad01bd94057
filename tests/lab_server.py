"""A real JupyterLab for the browser tests: ``Lab(folder)`` starts one on 127.0.0.1 (a free
port, a random token) serving ``folder``, with every Jupyter setting, runtime and workspace
file in a folder of its own, and the app exposed to the page (``window.jupyterapp``) so a
test can run a notebook's cells as the Run menu does. It is started in a process group of
its own and ``close`` ends that group (the server and its kernels); every wait is bounded.
"""
from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

START = 90.0   # seconds: the server's start, on a busy machine
#: Lab's news and update checks would ask the network (the test's browser could not reach it anyway).
PAGE_CONFIG = {"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def notebook(path: Path, *cells: str) -> Path:
    """Write a notebook of code cells (nbformat 4) at ``path``."""
    path.write_text(json.dumps({
        "cells": [{"cell_type": "code", "execution_count": None, "id": f"cell{i}", "metadata": {},
                   "outputs": [], "source": source} for i, source in enumerate(cells)],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4, "nbformat_minor": 5}), encoding="utf-8")
    return path


def processes_with(text: str) -> list[int]:
    """The processes whose command line names ``text`` (a kernel's, by its runtime folder)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and text in (proc / "cmdline").read_bytes().decode(errors="replace"):
                found.append(int(proc.name))
        except OSError:
            continue
    return found


def gone(text: str, seconds: float = 15) -> list[int]:
    """Wait (at most ``seconds``) until no process names ``text``; those left."""
    deadline = time.monotonic() + seconds
    while processes_with(text) and time.monotonic() < deadline:
        time.sleep(0.2)
    return processes_with(text)


class Lab:
    """One JupyterLab server serving a folder, ended with the test."""

    def __init__(self, folder: Path, home: Path, env: dict[str, str] | None = None):
        """``env``: variables set for the server and its kernels (``TMPDIR``, say)."""
        self.folder, self.home = folder, home
        self.port = _free_port()
        self.token = secrets.token_hex(16)
        config = home / "config"
        (config / "labconfig").mkdir(parents=True)
        (config / "labconfig" / "page_config.json").write_text(json.dumps(PAGE_CONFIG), encoding="utf-8")
        env = {**os.environ, "JUPYTER_CONFIG_DIR": str(config), "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
               "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"), "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
               "IPYTHONDIR": str(home / "ipython"), "JUPYTER_PLATFORM_DIRS": "1", "PYDEVD_DISABLE_FILE_VALIDATION": "1",
               **(env or {})}
        self.log = open(home / "lab.log", "wb")   # noqa: SIM115 - closed in close()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
             f"--ServerApp.port={self.port}", "--ServerApp.port_retries=0", f"--IdentityProvider.token={self.token}",
             f"--ServerApp.root_dir={folder}", "--LabApp.expose_app_in_browser=True",
             "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate", "--LabApp.extension_manager=readonly",
             "--ServerApp.terminals_enabled=False", *(["--allow-root"] if os.geteuid() == 0 else [])],
            cwd=folder, env=env, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True)
        self._wait()

    def _wait(self) -> None:
        deadline = time.monotonic() + START
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyter lab ended at once (exit {self.proc.returncode}); see {self.log.name}")
            try:
                with urllib.request.urlopen(f"{self.url('api/status')}", timeout=5) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.5)
        raise RuntimeError(f"jupyter lab did not answer in {START:g} s; see {self.log.name}")

    def url(self, path: str) -> str:
        """The address of ``path`` on the server, with its token."""
        return f"http://127.0.0.1:{self.port}/{path}?token={self.token}"

    def close(self) -> None:
        """End the server and its kernels (its process group)."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=15)
            except ProcessLookupError:
                pass
        try:   # a kernel left behind in the group
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.log.close()
