"""How a study's processes end: together, and cleanly.

- A worker process (a process-pool worker, a Dask worker of our own LocalCluster) exits
  as soon as the process that started it is gone, whatever ended that one (Ctrl-C,
  SIGTERM, SIGKILL, the OOM killer). It does not poll: a thread waits on the pipe that
  ``multiprocessing`` keeps open from the parent, which the kernel closes when the parent
  dies. Once the workers are gone, ``multiprocessing``'s resource tracker, whose pipe the
  parent and the workers hold, sees it close and exits too.
- Workers ignore SIGINT: Ctrl-C in a terminal reaches every process of the group, and it
  is the parent that decides what stops (a worker's own traceback would only be noise).
- In the parent, SIGINT, SIGTERM and SIGHUP stop a command alike, with one line and its
  status (``sim.signals``, whose names are here too).
- While workers or a cluster start or close, a signal is only remembered, and acted on
  when that is done: stopped half-way, a Dask cluster's own clean-up at exit fails with
  a traceback. Workers start with SIGINT blocked, until they ignore it.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
from collections.abc import Iterator
from multiprocessing import resource_tracker

from sim.signals import Stopped as Stopped
from sim.signals import exit_status as exit_status
from sim.signals import signals_deferred as signals_deferred
from sim.signals import stop_on_signals as stop_on_signals
from sim.signals import stopped_line as stopped_line

ORPHANED = 70  # a worker's exit status when its parent is gone (EX_SOFTWARE)


@contextlib.contextmanager
def workers_starting() -> Iterator[None]:
    """``signals_deferred``, for a block that starts worker processes: they start with
    SIGINT blocked, so that a Ctrl-C reaches them only once they ignore it
    (``worker_started``, ``dask_setup``)."""
    # Started here first: starting it unblocks SIGINT in the thread that does, and the
    # processes started after that by this thread would then take Ctrl-C from the start.
    resource_tracker.ensure_running()
    with signals_deferred():
        yield


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
