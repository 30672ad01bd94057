"""The garbage collector around battles: it rests while a battle is made, run and let go.

What a battle makes lives until its end, so a collection in between would only look it
over and find little to free; and its objects hold one another in cycles (SimPy's
environment and processes, the referee's back-references), so only the collector frees
them. Resting from the battle's making to its letting go keeps all of them in the
youngest generation: the first collection after (CPython's own, at the next allocations)
frees them together, at a cost in proportion to the battle, and only what the caller keeps
(the log, the metrics) ages into the older generations. A process's memory then does not
grow with the battles it has run (``tests/test_battle_gc.py``, ``benchmarks/memory.py``).
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["resting"]


@contextmanager
def resting() -> Iterator[None]:
    """The collector off inside the block and back on after it, if it was on before.

    Where the caller has it off already (or an enclosing block does), it is left as it is.
    """
    was_on = gc.isenabled()
    if was_on:
        gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
