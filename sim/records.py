"""The event log's record types: the contract's keys and the kernel's own records, declared once.

A record is a plain dict at run time; its type is a ``TypedDict`` built on ``Record`` (the
contract keys ``t``, ``turn``, ``side``, ``phase``, ``event``, ``rule``, first) and, for a die
roll, ``Roll`` (``dice``, ``mods``, ``need``, ``success``). ``KERNEL_RECORDS`` are the records
any battle may write, by event; each base game and rule module declares the records it
writes the same way (its ``records``), and ``sim.record_check`` says whether a record is one
of its event's declared types.
"""
# No ``from __future__ import annotations`` here: Python 3.11's TypedDict tells a
# ``NotRequired`` key from a required one only when the annotations are evaluated.
from collections.abc import Mapping
from typing import NotRequired, TypedDict

from sim.events import ARRIVE, BUSY, DECIDE, ELIMINATE, END, MOVE, PLACE, READY, STOP

__all__ = ["KERNEL_RECORDS", "ArriveRecord", "BusyRecord", "DecideRecord", "EliminateRecord", "EndRecord",
           "HaltRecord", "MoveRecord", "PlaceRecord", "Point", "ReadyRecord", "Record", "Roll", "StopRecord",
           "UnitRecord"]

#: A point on the map, (x, y).
Point = tuple[float, float]


class Record(TypedDict):
    """The keys every record has, first and in this order (``sim.events.CONTRACT_KEYS``)."""

    t: float
    turn: int
    side: str
    phase: str
    event: str
    rule: str | None


class Roll(TypedDict):
    """The keys of a die roll (``sim.events.ROLL_KEYS``): the faces, the modifier, the number needed, the result."""

    dice: list[int]
    mods: int
    need: int
    success: bool


class UnitRecord(Record):
    """A record of what befalls one unit where it stands."""

    unit: str
    pos: Point
    node: str


class PlaceRecord(Record):
    """``place``: where a unit starts (t = 0, phase ``setup``); ``pos`` and ``node`` are None off the board."""

    unit: str
    pos: Point | None
    node: str | None
    force: str
    kind: str
    steps: int
    on_board: bool
    flags: list[str]


class MoveRecord(UnitRecord):
    """``move``: a unit sets off from ``pos``: its ``move`` of the phase, each waypoint and its planned time."""

    move: int
    waypoints: list[Point]
    times: list[float]


class StopRecord(UnitRecord):
    """``stop``: a move ended short of its destination, and why (``allowance``, ``halted``, ``battle_end``)."""

    reason: str


class ArriveRecord(UnitRecord):
    """``arrive``: a mover reached its destination."""


class EliminateRecord(UnitRecord):
    """``eliminate``: a unit is removed for good, where it fell."""


class HaltRecord(UnitRecord):
    """``halt``: a reaction stopped a mover where it stands (a rule's halt adds its own keys)."""


class EndRecord(Record):
    """``end``: the last record: the winning side (None: no winner) and why the battle ended."""

    winner: str | None
    reason: str


class BusyRecord(UnitRecord):
    """``busy``: a rule keeps a unit busy for ``turns`` of its side's turns, until turn ``until``."""

    turns: int
    until: int


class ReadyRecord(UnitRecord):
    """``ready``: a busy unit acts again."""


class DecideRecord(Record):
    """``decide``: a choice a plan, a policy or a caller made, and what it was taken at.

    A unit's choice says which unit and where (``unit``, ``pos``, ``node``); a target
    policy lists its ``candidates``; a planner's summary gives its ``actions`` (a choice
    per control), ``controls``, the ``rollouts`` it spent and each choice's mean value
    and visits; a person's decision (policy ``player``) its ``orders`` (control -> order).
    """

    policy: str
    choice: str
    trigger: str
    unit: NotRequired[str]
    pos: NotRequired[Point]
    node: NotRequired[str]
    candidates: NotRequired[list[str]]
    actions: NotRequired[list[str]]
    controls: NotRequired[list[list[str]]]
    rollouts: NotRequired[int]
    values: NotRequired[dict[str, float]]
    visits: NotRequired[dict[str, int]]
    orders: NotRequired[dict[str, str]]


#: The records any battle may write, whatever its rules, by event (``sim.events.CORE_EVENTS``).
KERNEL_RECORDS: Mapping[str, type] = {
    PLACE: PlaceRecord, MOVE: MoveRecord, STOP: StopRecord, ARRIVE: ArriveRecord,
    ELIMINATE: EliminateRecord, END: EndRecord, DECIDE: DecideRecord, BUSY: BusyRecord, READY: ReadyRecord,
}
