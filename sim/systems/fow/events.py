"""The FOW system's own event names (the rest are ``sim.events``) and the records it writes."""
# No ``from __future__ import annotations`` (see ``sim.records``).
from collections.abc import Mapping
from typing import NotRequired

from sim.events import ASSAULT, DEPLOY, ELIMINATE, HIT, MOVE, NO_DEPLOY, PIN, RALLY, SAVE, SHOOT, SPOT, TO_RESERVE
from sim.records import Point, Record, Roll, UnitRecord
from sim.toolkit.records import (
    AssaultRecord,
    ChargeMoveRecord,
    NoDeployRecord,
    ShootRecord,
    StepsHitRecord,
    TargetRecord,
    TeamRecord,
)

RELOCATE = "relocate"                        # FOW.RELOCATE: the owner's d6
ESCAPE = "escape"                            # FOW.ESCAPE: the destroyer's d6
SNIPER_SHOT = "sniper_shot"                  # FOW.MARKSMAN: the to-hit, re-rolled if failed
NO_SHOT = "no_shot"                          # FOW.FRIENDLY: a friend is too close
FIREPOWER = "firepower"                      # BASE.F.FP
CATCH = "catch"                              # FOW.CATCH
ASSAULT_AFTER_CATCH = "assault_after_catch"  # FOW.CATCH: the team still assaults


class FowDeployRecord(TeamRecord):
    """``deploy`` (FOW.RESERVE): the hide's ``cover``, the ``policy`` that chose it among ``choices``;
    ``is_return``: the team was placed before."""

    cover: int
    policy: str
    choices: int
    is_return: bool


class FowSpotRecord(TeamRecord):
    """``spot`` (FOW.CAMO): the hidden sniper is revealed ``by`` a team ``dist`` away."""

    by: str
    dist: float


class FowToReserveRecord(TeamRecord):
    """``to_reserve`` (FOW.RELOCATE, FOW.ESCAPE, FOW.CATCH): back to the reserve; ``by``: the unit that drove it."""

    by: NotRequired[str]


class FowSniperEliminatedRecord(TeamRecord):
    """``eliminate`` of a sniper team: ``by`` its destroyer (FOW.ESCAPE, FOW.CATCH), or a ``reason`` (FOW.IMMOBILE)."""

    by: NotRequired[str]
    reason: NotRequired[str]


class FowHitRecord(StepsHitRecord):
    """``hit``: as the toolkit's; a rule module's hit (FOW.SF.HIT) names the module's rule as its ``cause``."""

    cause: NotRequired[str]


class FowPinRecord(UnitRecord):
    """``pin`` (FOW.PIN, BASE.F.PIN, FOW.SF.PIN): a team of ``platoon`` is pinned, ``by`` a unit (None: no unit)."""

    platoon: str
    by: str | None


class PlatoonRecord(Record):
    """What a team of ``platoon`` does where it stands."""

    unit: str
    platoon: str
    pos: Point


class FowRallyRecord(PlatoonRecord, Roll):
    """``rally`` (BASE.F.PIN): a pinned platoon's roll to rally."""


class FowSaveRecord(TargetRecord, Roll):
    """``save`` (BASE.F.SAVE): the hit team's (``unit`` and ``target``) armour save."""


class FirepowerRecord(TargetRecord, Roll):
    """``firepower`` (BASE.F.FP): the shooter's firepower test against a team in bulletproof cover."""


class RelocateRecord(UnitRecord, Roll):
    """``relocate`` (FOW.RELOCATE): the owner's d6 to send the sniper back to the reserve."""


class EscapeRecord(TargetRecord, Roll):
    """``escape`` (FOW.ESCAPE): the destroyer's (``unit``'s) d6: the team (``target``) is killed, or slips away."""

    node: str


class SniperShotRecord(Record):
    """``sniper_shot`` (FOW.MARKSMAN): the to-hit at ``target`` (None: no target), ``rerolled`` if it failed."""

    unit: str
    target: str | None
    pos: Point
    node: str
    dice: list[int]
    mods: int
    need: int
    success: bool
    rerolled: bool


class NoShotRecord(Record):
    """``no_shot`` (FOW.FRIENDLY): the sniper holds its fire: ``friend`` is ``dist`` away."""

    unit: str
    pos: Point
    friend: str
    dist: float


class CatchRecord(TargetRecord, Roll):
    """``catch`` (FOW.CATCH): a team ``dist`` from the sniper team (``target``) tries to catch it."""

    dist: float


class AssaultAfterCatchRecord(Record):
    """``assault_after_catch`` (FOW.CATCH): the team still assaults ``target``."""

    unit: str
    target: str


#: The records the base game writes, by event.
RECORDS: Mapping[str, type] = {
    DEPLOY: FowDeployRecord, SPOT: FowSpotRecord, TO_RESERVE: FowToReserveRecord,
    ELIMINATE: FowSniperEliminatedRecord, HIT: FowHitRecord, PIN: FowPinRecord, RALLY: FowRallyRecord,
    SAVE: FowSaveRecord, SHOOT: ShootRecord, ASSAULT: AssaultRecord, MOVE: ChargeMoveRecord,
    FIREPOWER: FirepowerRecord, RELOCATE: RelocateRecord, ESCAPE: EscapeRecord, SNIPER_SHOT: SniperShotRecord,
    NO_SHOT: NoShotRecord, CATCH: CatchRecord, ASSAULT_AFTER_CATCH: AssaultAfterCatchRecord,
    NO_DEPLOY: NoDeployRecord,
}
