"""The battle's SimPy environment: events at exact instants, and a bound on one instant's events.

SimPy runs the events of one instant in the order (priority, then the number each event
drew when it was scheduled). A move draws its number when it begins and every end of
motion it schedules carries that number, so at one instant moves end in the order they
began (and moves that began at one instant, in the order their units were set off),
whatever the number of straight runs each was cut into. A referee's reaction is urgent:
due at the very instant a run ends, it comes first, so the mover reacts where it stands.

``Environment`` is the one place that knows how SimPy files an event: its queue is a heap
of ``(time, priority, number, event)`` that ``simpy.Environment.step`` pops (SimPy 4.1's
layout; ``tests/test_instants.py`` fails if it changes, and ``pyproject.toml`` holds SimPy
to the series tested). It overrides ``schedule``, SimPy's documented way to file an event,
so that every event draws its number from the environment's own counter, and
``schedule_at`` files one at an exact instant with a given number.

A battle that never advances its clock (a watch that reacts at once and re-arms at the
same instant, for ever) would run until killed. An instant at which more events are
scheduled than any battle can legitimately have there (``events_bound``: a fixed
allowance and as much again for every unit) stops the battle with ``StalledBattle``.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from heapq import heappop, heappush
from itertools import count
from typing import Any

import simpy
from simpy.core import NORMAL, URGENT, StopSimulation

__all__ = ["EVENTS_AT_AN_INSTANT", "Environment", "StalledBattle", "events_bound", "exact"]

#: A move's runs, numbered after its own number: as many as fit below the next number.
_RUNS = 2.0 ** -20

#: Events one instant may hold, per unit on the scenario and once more for the battle:
#: the busiest instant of any shipped scenario or benchmark battle holds 3 a unit
#: (``benchmarks/instant_load.py`` measures it), so over 300 times as many is no battle's.
EVENTS_AT_AN_INSTANT = 1_000


def events_bound(units: int) -> int:
    """The most events one instant of a battle of ``units`` units may hold."""
    return EVENTS_AT_AN_INSTANT * (units + 1)


class StalledBattle(RuntimeError):
    """A battle whose clock stands still: one instant holds more events than ``events_bound``.

    ``str(err)`` is one line: the instant, the count, and what acted last there; ``log``
    is the battle's event log up to the stall (set by ``Battle.run``).
    """

    def __init__(self, message: str, t: float):
        self.t = t
        self.log: Any = None
        super().__init__(message)


class Environment(simpy.Environment):
    """SimPy's environment, with events at exact instants and a bound on one instant's events.

    ``bound``: the most events one instant may hold (None: no bound; a test harness that
    plays thousands of trials at one instant lifts it); ``blame`` says, in words, what
    acted last when the bound is passed (the battle's referee and log know).
    """

    def __init__(self, initial_time: float = 0.0, bound: int | None = None,
                 blame: Callable[[], str] | None = None):
        super().__init__(initial_time)
        self._numbers = count()       # every event's number: scheduled ones and move keys
        self._slot: tuple[float, int, float] | None = None   # where schedule_at files the next
        self.bound = bound
        self._blame = blame
        self._instant = initial_time  # the instant being counted ...
        self._held = 0                # ... and the events scheduled at it so far

    def schedule(self, event: simpy.Event, priority: Any = NORMAL, delay: Any = 0) -> None:
        """File ``event`` ``delay`` after now (SimPy's ``schedule``), or where ``schedule_at`` says."""
        slot = self._slot
        if slot is not None:
            self._slot = None
            when: float = slot[0]
            heappush(self._queue, (when, slot[1], slot[2], event))  # type: ignore[misc]  # SimPy types its keys as int
        else:
            when = self._now + delay
            heappush(self._queue, (when, priority, next(self._numbers), event))
        if when == self._now and self.bound is not None:   # counted here, not in a call: most events are
            if self._instant != when:                       # due now (a process's start and end)
                self._instant, self._held = when, 0
            self._held += 1
            if self._held > self.bound:
                self._stalled()

    def run(self, until: Any = None) -> Any:
        """SimPy's ``run``; until an event, with ``step`` inlined in the loop.

        A battle's run is a loop over its events; one method call less on each is a few
        per cent of an event's cost. What each event does is ``simpy.Environment.step``'s.
        """
        if not isinstance(until, simpy.Event) or until.processed:
            return super().run(until)
        until.callbacks.append(StopSimulation.callback)
        queue = self._queue
        try:
            while True:
                if not queue:
                    raise RuntimeError(f'No scheduled events left but "until" event was not triggered: {until}')
                self._now, _, _, event = heappop(queue)
                callbacks, event.callbacks = event.callbacks, None  # type: ignore[assignment]
                try:
                    for callback in callbacks:
                        callback(event)
                except StopSimulation:
                    # as step: the rest of the callbacks wait for the run to go on
                    event.callbacks = callbacks[callbacks.index(callback) + 1:]
                    self.schedule(event, -1)
                    raise
                if not event._ok and not hasattr(event, "_defused"):   # read as step reads it
                    self._crash(event)
        except StopSimulation as stop:
            return stop.args[0]

    @staticmethod
    def _crash(event: simpy.Event) -> None:
        """A failed event nobody defused crashes the run, as in SimPy's ``step``."""
        failure = event.value
        assert isinstance(failure, BaseException)
        exc = type(failure)(*failure.args)
        exc.__cause__ = failure
        raise exc

    def _stalled(self) -> None:
        what = f"; {self._blame()}" if self._blame is not None else ""
        raise StalledBattle(f"the battle stands still at t={self._now!r}: more than {self.bound:,} events "
                            f"at one instant (the bound: {EVENTS_AT_AN_INSTANT:,} a unit){what}", self._now)

    def order_key(self) -> int:
        """A number from the environment's own event counter: later keys sort later."""
        return next(self._numbers)

    def numbers_drawn(self) -> int:
        """How many numbers the counter has given: every event scheduled and every move's key."""
        drawn = next(self._numbers)
        self._numbers = count(drawn)   # (reading it does not draw one)
        return drawn

    def order_keys(self, base: int | None = None) -> Iterator[float]:
        """Keys for the events of one move, each after the one before, all as if drawn when it began.

        n + k/2^20 lies between the move's own number n (``base``, drawn with ``order_key``,
        else drawn now) and the next one drawn.

        Two events of one move may be due at one instant (a run's end of motion left in the
        queue by a reaction, and the end of the run it re-plans): distinct keys keep SimPy's
        queue from ever comparing two events.
        """
        first = self.order_key() if base is None else base
        return (first + k * _RUNS for k in count())

    def schedule_at(self, t: float, key: float, urgent: bool = False) -> simpy.Event:
        """An event at exactly time ``t``, ranked among that instant's events by ``key``.

        Exactly ``t``: not ``now + delay``, which float addition can move by a unit in the
        last place. ``key`` comes from ``order_key``; ``urgent`` puts it before the instant's
        other events.
        """
        if not t >= self._now:
            raise ValueError(f"schedule_at({t!r}) is before now ({self._now!r})")
        self._slot = (t, URGENT if urgent else NORMAL, key)
        try:
            return simpy.Event(self).succeed()   # SimPy's own trigger; ``schedule`` files it at the slot
        finally:
            self._slot = None


def exact(env: simpy.Environment) -> Environment:
    """``env`` as the battle's environment, whose events may be at exact instants (else TypeError)."""
    if not isinstance(env, Environment):
        raise TypeError(f"expected sim.engine.instants.Environment, got {type(env).__name__}")
    return env

