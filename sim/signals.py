"""How a ``sim`` command stops on a signal: at once, with one line and its status.

From the start of every ``sim`` command, SIGINT, SIGTERM and SIGHUP stop it alike:
``Stopped`` (a ``KeyboardInterrupt``) is raised once, later signals change nothing, the
executor shuts down, the store keeps every committed batch, and the command prints one
line and exits with 128 + the signal's number. Once the command is done (its output
flushed), one arriving before the process ends (its interpreter exiting) still gives that
line and status: the process ends there. While workers or a cluster start or close, a
signal is only remembered, and acted on when that is done. Only the standard library:
``import sim`` loads this first (``sim._start``); the workers' side is
``sim.study.run.lifetime``.
"""
from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
import threading
from collections.abc import Iterator
from typing import NoReturn


class Stopped(KeyboardInterrupt):
    """A study stopped by a signal; ``signum`` says which."""

    def __init__(self, signum: int | str = signal.SIGINT):
        # SimPy re-raises an exception from a process as ``type(e)(*e.args)``: the name.
        sig = signal.Signals[signum] if isinstance(signum, str) else signal.Signals(signum)
        super().__init__(sig.name)
        self.signum = int(sig)


def exit_status(stop: KeyboardInterrupt) -> int:
    """128 + the signal that stopped the study (Ctrl-C: 130, SIGTERM: 143, SIGHUP: 129)."""
    return 128 + getattr(stop, "signum", int(signal.SIGINT))


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_stopping: list[int] = []  # the signal being acted on, within stop_on_signals
_done: list[bool] = []     # the `sim` command's block has ended; its process has not


def stopped_line(stop: KeyboardInterrupt) -> str:
    """What a command prints when a signal stops it: 'interrupted' for Ctrl-C, else
    'stopped by SIGTERM' (or SIGHUP)."""
    signum = getattr(stop, "signum", int(signal.SIGINT))
    return "interrupted" if signum == signal.SIGINT else f"stopped by {signal.Signals(signum).name}"


class _Exit(SystemExit):
    """A command stopped while it is still importing: its status, and the signal."""

    def __init__(self, signum: int):
        super().__init__(128 + signum)
        self.signum = signum


def _stop(signum, frame):
    # Once: a second signal while the first is acted on (the executor shutting down, the
    # line being printed) would only break that off with a traceback.
    if not _stopping:
        _stopping.append(signum)
        if _done:
            _end_process(signum)
        raise Stopped(signum)


def _end_process(signum: int) -> NoReturn:
    # The `sim` command is done and its process is exiting: nothing is left to stop, and
    # raising would only turn the exit into a traceback. Its line, and its status, now.
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, RuntimeError, AttributeError):
            stream.flush()  # RuntimeError: the signal broke into this very flush
    with contextlib.suppress(OSError, ValueError, RuntimeError):
        print(f"sim: {stopped_line(Stopped(signum))}", file=sys.stderr, flush=True)
    os._exit(128 + signum)


def _exit_now(signum, frame):
    if not _stopping:
        _stopping.append(signum)
        print(f"sim: {stopped_line(Stopped(signum))}", file=sys.stderr, flush=True)
        raise _Exit(signum)  # exits without a traceback, output flushed


def _unraisable(hook, unraisable) -> None:
    # A stop raised where Python cannot raise (a __del__, a weakref callback of the
    # import system) is reported and dropped: say nothing, and signal again from outside.
    stop = unraisable.exc_value
    if isinstance(stop, (Stopped, _Exit)) and _stopping:
        _stopping.clear()
        threading.Timer(0.05, signal.pthread_kill,
                        (threading.main_thread().ident, stop.signum)).start()
    else:
        hook(unraisable)


def stop_while_importing() -> None:
    """When this process is the ``sim`` command (``python -m sim``, the ``sim`` script):
    a signal while it is still importing ``sim`` (a second or so) stops it at once, with
    its line and status, until the command installs ``stop_on_signals``."""
    argv, orig = sys.argv, getattr(sys, "orig_argv", [])
    as_module = argv[:1] == ["-m"] and ("-msim" in orig or any(
        a == "-m" and b == "sim" for a, b in zip(orig, orig[1:])))
    main = sys.modules.get("__main__")
    script = getattr(main, "__file__", None)
    as_script = (bool(argv) and os.path.basename(argv[0]) == "sim" and script is not None
                 and os.path.abspath(script) == os.path.abspath(argv[0]))
    if (as_module or as_script) and threading.current_thread() is threading.main_thread():
        sys.unraisablehook = functools.partial(_unraisable, sys.unraisablehook)
        for s in STOP_SIGNALS:
            signal.signal(s, _exit_now)


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, SIGINT, SIGTERM and SIGHUP raise ``Stopped`` in the main thread,
    once; elsewhere (a notebook's thread) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    hook = sys.unraisablehook
    sys.unraisablehook = functools.partial(_unraisable, hook)
    old = {s: signal.signal(s, _stop) for s in STOP_SIGNALS}
    try:
        yield
    finally:
        if old[signal.SIGTERM] is _exit_now:
            # The `sim` command's block: the command is done, but its process is not. A
            # signal until it ends still gives the command's line and status (_stop,
            # once done, ends the process); so the handlers stay, and a stop acted on
            # already stays the only one.
            _done.append(True)
        else:
            for s, handler in old.items():
                signal.signal(s, handler)
            sys.unraisablehook = hook
            if old[signal.SIGTERM] is not _stop:  # the outermost block: the next stop counts
                _stopping.clear()


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Within the block, SIGINT, SIGTERM and SIGHUP (those that a Python handler takes)
    are only remembered; the first is handed to its handler when the block ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[signal.Signals] = []

    def remember(signum: int, frame: object) -> None:
        caught.append(signal.Signals(signum))

    # Not SIG_IGN for SIGINT: a thread that does not block it (OpenBLAS's, a notebook's)
    # would take a Ctrl-C and, ignoring it, lose it.
    old = {s: h for s in STOP_SIGNALS if callable(h := signal.getsignal(s))}
    for s in old:
        signal.signal(s, remember)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a pending Ctrl-C is remembered now
        for s, handler in old.items():
            signal.signal(s, handler)
        if caught:
            old[caught[0]](caught[0], None)
