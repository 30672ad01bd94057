"""The turn clock: player-turns alternate between the sides; each is split into phases.

Turn ``k`` (k >= 1) belongs to ``sides[(k - 1) % 2]`` and starts at
``(k - 1) * len(phases) * phase_length``. Each phase lasts ``phase_length``. At the start
of every phase the clock succeeds the event it handed out for that phase, so processes
simply ``yield clock.next_phase()`` (any phase), ``clock.wait(phase, side)`` or
``clock.wait_moving(side)``. A rule system declares its phases as ``PhaseSpec``s: a name
and whether units make their moves in it (plans start steps, watches watch movers); the
clock never reads more into a name (a plain name is a phase without moves).

>>> import simpy
>>> env = simpy.Environment()
>>> clock = TurnClock(env, ["blue", "red"], ["advance", "volley"], 1.0, turns=2)
>>> seen = []
>>> def watch():
...     while True:
...         p = yield clock.next_phase()
...         seen.append((env.now, p.turn, p.side, p.phase))
>>> _ = env.process(watch()); _ = env.process(clock.run()); env.run()
>>> seen
[(0, 1, 'blue', 'advance'), (1.0, 1, 'blue', 'volley'), (2.0, 2, 'red', 'advance'), (3.0, 2, 'red', 'volley')]
"""
from __future__ import annotations

import enum
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

import simpy


class PhaseRole(enum.Enum):
    """What a phase is for: what a rule module may need of a base game's phases.

    ``MOVING`` is a phase in which units move (a ``PhaseSpec`` with ``moves=True``); a
    phase's ``role`` is ``SHOOTING``, ``ASSAULT`` or None.
    """

    MOVING = "a phase in which units move"
    SHOOTING = "a shooting phase"
    ASSAULT = "an assault phase"


@dataclass(frozen=True)
class PhaseSpec:
    """A phase a base game declares: its name, whether units make their moves in it, and its role.

    ``role``: a shooting or an assault phase (None: neither), for the modules that need one.
    """

    name: str
    moves: bool = False
    role: PhaseRole | None = None


@dataclass(frozen=True)
class Phase:
    """One phase of one player-turn: whose turn, which phase, when it starts and ends.

    ``moves``: whether units make their moves in it (its ``PhaseSpec``'s).
    """

    turn: int
    side: str
    phase: str
    start: float
    end: float
    moves: bool = False


class TurnClock:
    """The process that announces every phase of every player-turn, in order."""

    def __init__(self, env: simpy.Environment, sides: Sequence[str], phases: Sequence[str | PhaseSpec],
                 phase_length: float, turns: int):
        self.env = env
        self.sides = list(sides)
        self.phases = [p if isinstance(p, PhaseSpec) else PhaseSpec(p) for p in phases]
        self.phase_length = float(phase_length)
        self.turns = int(turns)
        self.current = Phase(1, self.sides[0], "setup", 0.0, 0.0)
        self._any = env.event()
        self._waiting: dict[tuple[str, str | None], simpy.Event] = {}
        self._moving: dict[str | None, simpy.Event] = {}   # side (None: any) -> its waiter
        self.finished = env.event()
        self.stopped = False

    @property
    def turn(self) -> int:
        """The current player-turn (1 before the first phase)."""
        return self.current.turn

    @property
    def side(self) -> str:
        """The side whose turn it is."""
        return self.current.side

    @property
    def phase(self) -> str:
        """The current phase's name (``setup`` before the first phase)."""
        return self.current.phase

    def side_of_turn(self, turn: int) -> str:
        """The side that player-turn ``turn`` belongs to."""
        return self.sides[(turn - 1) % len(self.sides)]

    def next_phase(self) -> simpy.Event:
        """An event that succeeds with the next Phase to start."""
        return self._any

    def wait(self, phase: str, side: str | None = None) -> simpy.Event:
        """An event that succeeds at the next start of ``phase`` (of ``side``'s turn)."""
        key = (phase, side)
        ev = self._waiting.get(key)
        if ev is None:
            ev = self._waiting[key] = self.env.event()
        return ev

    def wait_moving(self, side: str | None = None) -> simpy.Event:
        """An event that succeeds at the next start of a phase in which units move (of ``side``'s turn)."""
        ev = self._moving.get(side)
        if ev is None:
            ev = self._moving[side] = self.env.event()
        return ev

    def stop(self) -> None:
        """End the battle after the current instant (victory reached)."""
        self.stopped = True

    def run(self) -> Generator[simpy.Event, Any, None]:
        """The clock's SimPy process: every phase of every turn, until the limit or a stop."""
        L = self.phase_length
        for turn in range(1, self.turns + 1):
            side = self.side_of_turn(turn)
            for spec in self.phases:
                if self.stopped:
                    break
                now, name = self.env.now, spec.name
                self.current = Phase(turn, side, name, now, now + L, spec.moves)
                fired, self._any = self._any, self.env.event()
                fired.succeed(self.current)
                for key in ((name, side), (name, None)):
                    ev = self._waiting.pop(key, None)
                    if ev is not None:
                        ev.succeed(self.current)
                if spec.moves:
                    for who in (side, None):
                        ev = self._moving.pop(who, None)
                        if ev is not None:
                            ev.succeed(self.current)
                yield self.env.timeout(L)
                # Let everything already due at the phase's last instant (a move that
                # ends exactly then) happen inside this phase before the next begins.
                yield self.env.timeout(0)
            if self.stopped:
                break
        if not self.finished.triggered:
            self.finished.succeed()
