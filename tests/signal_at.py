"""Run the `sim` command line with a signal sent to itself at a named stage, for
tests/test_signals.py: ``python tests/signal_at.py STAGE SIGNAL ARGS...``.

The stage's function is wrapped so that the signal is sent just as it runs (``load``,
``scenario``, ``battle``, ``report``; ``mid-battle``: inside a battle's own process), from
a ``__del__`` just before loading, where Python drops the ``Stopped`` that the handler
raises (``dropped``), or, for the start of workers, once the first worker is up and the
rest are still starting (``dask-start``, ``pool-start``). SIGINT goes to the whole process
group, as Ctrl-C in a terminal does; SIGTERM and SIGHUP to this process.
A thread that does not block signals runs meanwhile, as OpenBLAS's own threads do.
"""
from __future__ import annotations

import functools
import os
import signal
import sys
import threading
import time

STAGES = {
    "load": ("sim.study.plan.study_file", "load_study"),
    "scenario": ("sim.scenario.load", "load_scenario"),
    "battle": ("sim.replication", "run_battle"),
    "report": ("sim.study.reports.html_report", "write_report"),
    # Inside a battle's SimPy process (a serial study), which SimPy re-raises as a copy.
    "mid-battle": ("sim.agents.movement", "plan_move"),
}
sent: list[int] = []


def send(sig: int) -> None:
    """Send the signal, once."""
    if not sent:
        sent.append(sig)
        (os.killpg if sig == signal.SIGINT else os.kill)(os.getpid(), sig)


def before(fn, sig: int):
    @functools.wraps(fn)
    def wrapped(*args, **kwargs):
        send(sig)
        return fn(*args, **kwargs)
    return wrapped


class Dropped:
    """Sends the signal as it is collected: Python drops what its handler raises then."""

    def __init__(self, sig: int):
        self.sig = sig

    def __del__(self):
        send(self.sig)
        sum(range(3))  # the handler runs here, inside __del__


def dropped_first(fn, sig: int):
    @functools.wraps(fn)
    def wrapped(*args, **kwargs):
        Dropped(sig)
        time.sleep(2)  # the signal, sent again, ends this wait
        return fn(*args, **kwargs)
    return wrapped


def arm(stage: str, sig: int) -> None:
    """Wrap the stage's function so that it sends ``sig``."""
    if stage == "dropped":
        import sim.study.plan.study_file as study_file

        study_file.load_study = dropped_first(study_file.load_study, sig)
    elif stage == "dask-start":
        from distributed.nanny import Nanny

        start = Nanny.start_unsafe

        async def start_unsafe(self):
            up = await start(self)
            send(sig)
            return up
        Nanny.start_unsafe = start_unsafe  # type: ignore[method-assign]
    elif stage == "pool-start":
        from concurrent.futures import ProcessPoolExecutor

        submit = ProcessPoolExecutor.submit

        def submitted(self, *args, **kwargs):
            future = submit(self, *args, **kwargs)
            if not sent:
                send(sig)
                time.sleep(0.5)  # as long as a pool takes to start on a busy machine
            return future
        ProcessPoolExecutor.submit = submitted  # type: ignore[method-assign]
    else:
        import importlib

        module, name = STAGES[stage]
        mod = importlib.import_module(module)
        setattr(mod, name, before(getattr(mod, name), sig))


if __name__ == "__main__":
    threading.Thread(target=threading.Event().wait, daemon=True).start()
    arm(sys.argv[1], getattr(signal, sys.argv[2]))
    from sim.cli import main

    sys.exit(main(sys.argv[3:]))
