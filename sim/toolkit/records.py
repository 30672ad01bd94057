"""The records the toolkit's shared rules write, for the base games and modules that use them
to declare (each part's ``records``): the small base games' hits, shots, charges and assaults
(``sim.toolkit.skirmish``), a sniper team's lifecycle (``sim.toolkit.sniper_team``: each
system adds the keys of its own commands), its reserve's refusals and a declinable
reaction's decision (``sim.toolkit.reactions``).
"""
# No ``from __future__ import annotations`` (see ``sim.records``).
from sim.records import Point, Record, Roll, UnitRecord

__all__ = ["AssaultRecord", "ChargeMoveRecord", "NoDeployRecord", "ReactionDecisionRecord", "ShootRecord",
           "StepsHitRecord", "TargetRecord", "TeamRecord"]


class TargetRecord(Record):
    """What ``unit``, at ``pos``, does to ``target``: the start of a roll at a target."""

    unit: str
    target: str
    pos: Point


class ShootRecord(TargetRecord, Roll):
    """``shoot``: an ordinary shot's roll."""


class AssaultRecord(TargetRecord, Roll):
    """``assault``: a close-assault roll."""


class StepsHitRecord(Record):
    """``hit``: ``unit`` (its own ``target``) loses ``steps_lost`` steps, ``steps_left`` left; ``by``: the hitter."""

    unit: str
    target: str
    pos: Point
    node: str
    by: str | None
    steps_lost: int
    steps_left: int


class ChargeMoveRecord(UnitRecord):
    """``move``: a charge or an assault into contact, one waypoint, and why (``reason``)."""

    waypoints: list[Point]
    times: list[float]
    reason: str


class TeamRecord(UnitRecord):
    """A sniper team's change of state (``sim.toolkit.sniper_team``): from ``state_from`` to ``state``."""

    state: str
    state_from: str


class NoDeployRecord(Record):
    """``no_deploy``: a reserve found no allowed position for a team, and why."""

    unit: str
    reason: str


class ReactionDecisionRecord(Record):
    """``decide``: whether ``unit`` takes the reaction ``trigger`` against ``target`` (``take`` or ``decline``),
    its ``chance`` of success and its policy's ``at_least``."""

    unit: str
    target: str
    pos: Point
    policy: str
    choice: str
    trigger: str
    chance: float
    at_least: float
