"""The snap-fire module's own event names (the rest are ``sim.events``) and the records it writes."""
# No ``from __future__ import annotations`` (see ``sim.records``).
from collections.abc import Mapping

from sim.events import DECIDE, HALT, MOVE, STOP
from sim.records import HaltRecord, MoveRecord, Point, Roll, StopRecord
from sim.toolkit.records import ReactionDecisionRecord, TargetRecord

SNAP_FIRE = "snap_fire"   # SF.ROLL: the firer's d6 against the mover's Armour


class SnapFireRecord(TargetRecord, Roll):
    """``snap_fire`` (SF.ROLL): the firer's d6 against the mover's (``target``'s) Armour."""


class SnapHaltRecord(HaltRecord):
    """``halt`` (SF.HALT, SF.ZOC): where the mover first came within ``radius`` of ``firer`` (``inside``:
    it already was), ``dist`` apart."""

    firer: str
    firer_pos: Point
    dist: float
    radius: float
    inside: bool


class LeaveZoneRecord(MoveRecord):
    """``move`` (SF.ZOC): a unit inside an enemy's zone sets off to leave it (``reason``)."""

    reason: str


class LeftZoneRecord(StopRecord):
    """``stop`` (SF.ZOC): the way out ended ``dist`` from the zone's holder (its ``radius``)."""

    dist: float
    radius: float


#: The records the module writes, by event.
RECORDS: Mapping[str, type] = {HALT: SnapHaltRecord, SNAP_FIRE: SnapFireRecord, MOVE: LeaveZoneRecord,
                               STOP: LeftZoneRecord, DECIDE: ReactionDecisionRecord}
