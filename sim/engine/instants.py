"""Events at an exact instant, ordered by a key: how ends of motion are scheduled.

SimPy runs the events of one instant in the order (priority, then the number each event
drew when it was scheduled). A move draws its number when it begins and every end of
motion it schedules carries that number, so at one instant moves end in the order they
began (and moves that began at one instant, in the order their units were set off),
whatever the number of straight runs each was cut into. A referee's reaction is urgent:
due at the very instant a run ends, it comes first, so the mover reacts where it stands.
"""
from __future__ import annotations

from collections.abc import Iterator
from heapq import heappush
from itertools import count

import simpy
from simpy.core import NORMAL, URGENT

__all__ = ["at", "order_key", "order_keys"]

#: A move's runs, numbered after its own number: as many as fit below the next number.
_RUNS = 2.0 ** -20


def order_key(env: simpy.Environment) -> int:
    """A number from the environment's own event counter: later keys sort later."""
    return next(env._eid)


def order_keys(env: simpy.Environment) -> Iterator[float]:
    """Keys for the events of one move, each after the one before, all as if drawn when it began.

    n + k/2^20 lies between the move's own number n and the next one drawn.

    Two events of one move may be due at one instant (a run's end of motion left in the
    queue by a reaction, and the end of the run it re-plans): distinct keys keep SimPy's
    queue from ever comparing two events.
    """
    base = order_key(env)
    return (base + k * _RUNS for k in count())


def at(env: simpy.Environment, t: float, key: float, urgent: bool = False) -> simpy.Event:
    """An event at exactly time ``t``, ranked among that instant's events by ``key``.

    Exactly ``t``: not ``now + delay``, which float addition can move by a unit in the
    last place. ``key`` comes from ``order_key``; ``urgent`` puts it before the instant's
    other events.
    """
    if not t >= env.now:
        raise ValueError(f"at({t!r}) is before now ({env.now!r})")
    event = simpy.Event(env)
    event._ok = True
    event._value = None
    entry: tuple[float, int, float, simpy.Event] = (t, URGENT if urgent else NORMAL, key, event)
    heappush(env._queue, entry)  # type: ignore[misc]  # SimPy types its keys as int
    return event
