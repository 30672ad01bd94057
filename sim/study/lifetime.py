"""How a study's processes end: together, and cleanly.

- A worker process (a process-pool worker, a Dask worker of our own LocalCluster) exits
  as soon as the process that started it is gone, whatever ended that one (Ctrl-C,
  SIGTERM, SIGKILL, the OOM killer). It does not poll: a thread waits on the pipe that
  ``multiprocessing`` keeps open from the parent, which the kernel closes when the parent
  dies. Once the workers are gone, ``multiprocessing``'s resource tracker, whose pipe the
  parent and the workers hold, sees it close and exits too.
- Workers ignore SIGINT: Ctrl-C in a terminal reaches every process of the group, and it
  is the parent that decides what stops (a worker's own traceback would only be noise).
- In the parent, SIGTERM and SIGHUP stop a study as Ctrl-C does: ``Stopped`` (a
  ``KeyboardInterrupt``) is raised, the executor shuts down, the store keeps every
  committed batch, and the command exits with 128 + the signal's number.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading

ORPHANED = 70  # a worker's exit status when its parent is gone (EX_SOFTWARE)


class Stopped(KeyboardInterrupt):
    """A study stopped by a signal; ``signum`` says which."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(signal.Signals(signum).name)
        self.signum = int(signum)


def exit_status(stop: KeyboardInterrupt) -> int:
    """128 + the signal that stopped the study (Ctrl-C: 130, SIGTERM: 143, SIGHUP: 129)."""
    return 128 + getattr(stop, "signum", int(signal.SIGINT))


def _raise_stopped(signum, frame):
    raise Stopped(signum)


@contextlib.contextmanager
def stop_on_signals():
    """Within the block, SIGTERM and SIGHUP raise ``Stopped`` in the main thread (as
    SIGINT raises KeyboardInterrupt); elsewhere (a notebook's thread) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {s: signal.signal(s, _raise_stopped) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)


@contextlib.contextmanager
def workers_ignore_sigint():
    """Processes started within the block inherit SIGINT ignored (Python keeps an
    inherited SIG_IGN), so they ignore Ctrl-C from their very first instruction. The
    parent holds SIGINT blocked meanwhile: a Ctrl-C in that window is delivered (as
    KeyboardInterrupt) when the block ends, not lost."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _ignore_sigint() -> None:
    # Also unblocked: a child inherits the mask its parent had while starting it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def watch_parent() -> None:
    """In a child process: exit at once when its parent process is gone."""
    parent = multiprocessing.parent_process()
    if parent is None or parent.sentinel is None:
        return

    def wait() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(ORPHANED)

    threading.Thread(target=wait, name="sim-lifeline", daemon=True).start()


def worker_started() -> None:
    """A process-pool worker's initializer: ignore Ctrl-C, die with the parent."""
    _ignore_sigint()
    watch_parent()


def dask_setup(worker) -> None:
    """Dask's preload hook (``distributed.worker.preload``), run in each worker process
    of our LocalCluster, including one its nanny restarts."""
    if threading.current_thread() is threading.main_thread():
        _ignore_sigint()
    watch_parent()
