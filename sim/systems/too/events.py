"""The TOO system's own event names (the rest are ``sim.events``) and the records it writes."""
# No ``from __future__ import annotations`` (see ``sim.records``).
from collections.abc import Mapping
from typing import NotRequired

from sim.events import ATTACK, DECIDE, DEPLOY, ELIMINATE, HIT, REHIDE, REVEAL, SAVE, SPOT, WOUND
from sim.records import Point, Record, Roll, UnitRecord
from sim.toolkit.records import ReactionDecisionRecord, TargetRecord

ALERT = "alert"                  # TOO.ALERT: a figure goes on alert
ALERT_DENIED = "alert_denied"    # TOO.ALERT: over the half-force cap
ALERT_ARMED = "alert_armed"      # TOO.ALERT option B: armed for the next enemy turn
OPP_FIRE = "opp_fire"            # TOO.OPP / TOO.ALERT: opportunity fire at a mover
PICK_UP = "pick_up"              # TOO.DAMAGE: a dropped weapon costs the action
TREAT = "treat"                  # TOO.DAMAGE: a medic or buddy stops a bleed-out
KEEP = "keep"                    # TOO.KEEP: fire at a target kept in sight
LOSE_TARGET = "lose_target"      # TOO.KEEP: sight of the acquired target lost
ACQUIRE = "acquire"              # TOO.ACQ
SCOPE = "scope"                  # TOO.SCOPE: one band closer
STEALTH = "stealth"              # TOO.STEALTH: the check (or why none was needed)
SPOT_CHECK = "spot_check"        # TOO.CONCEAL / COUNTER / FACING / REHIDE


class FigureRecord(Record):
    """What a figure does where it stands."""

    unit: str
    pos: Point


class TooDeployRecord(UnitRecord):
    """``deploy`` (BASE.T.RANGE): a figure's ``level``, ``morale``, ``facing`` (degrees) and what it is."""

    level: str
    morale: int
    facing: float
    sniper: bool
    hidden: bool
    medic: bool


class TooEliminateRecord(UnitRecord):
    """``eliminate`` (TOO.DAMAGE): ``killed`` outright or dead of a ``bleed_out`` (``reason``), hit at
    ``location``; a bleed-out says the turn of the hit (``hit_turn``) and its ``dies_in``."""

    reason: str
    location: str
    hit_turn: NotRequired[int]
    dies_in: NotRequired[int]


class TooHitRecord(Record):
    """``hit`` (TOO.DAMAGE): the d10 and d6 of the damage table ``by`` the firer (no number needed): the hit
    ``location`` and ``body_side``, the turns it ``dies_in`` (0: ``success``, killed) and its ``effect``."""

    unit: str
    target: str
    by: str
    pos: Point
    node: str
    dice: list[int]
    mods: int
    need: None
    success: bool
    location: str
    body_side: str
    dies_in: int
    effect: str


class TooSaveRecord(FigureRecord, Roll):
    """``save`` (TOO.SAVE): the hit figure's save in its ``cover`` class."""

    cover: str


class TooAttackRecord(TargetRecord, Roll):
    """``attack`` (BASE.T.RANGE): a shot in ``band``, ``dist`` away, with its ``weapon``; ``opp``: opportunity fire."""

    target_pos: Point
    band: str
    dist: float
    opp: bool
    weapon: str


class AlertRecord(FigureRecord):
    """``alert`` (TOO.ALERT): on alert with ``option`` over ``arc``, armed from ``armed_turn`` (None: now);
    ``on_alert`` of ``force`` figures, at most ``cap``."""

    option: str
    armed_turn: int | None
    arc: float
    cap: int
    on_alert: int
    force: int


class AlertDeniedRecord(Record):
    """``alert_denied`` (TOO.ALERT): ``on_alert`` of ``force`` figures already are, the ``cap``."""

    unit: str
    option: str
    cap: int
    on_alert: int
    force: int


class AlertArmedRecord(Record):
    """``alert_armed`` (TOO.ALERT option B): armed for turn ``armed_turn`` over ``arc``."""

    unit: str
    option: str
    armed_turn: int
    arc: float


class OppFireRecord(TargetRecord):
    """``opp_fire`` (TOO.OPP, TOO.ALERT): at a mover at ``target_pos``, ``dist`` away; a sniper's
    ``acquired_turn`` (None: not a sniper)."""

    target_pos: Point
    option: str
    dist: float
    acquired_turn: int | None


class PickUpRecord(FigureRecord):
    """``pick_up`` (TOO.DAMAGE): picking up a dropped weapon costs the action."""


class TreatRecord(TargetRecord):
    """``treat`` (TOO.DAMAGE): a medic or buddy (``mode``) stops the bleed-outs due at the turns ``stopped``."""

    mode: str
    stopped: list[int]


class KeepRecord(Record):
    """``keep`` (TOO.KEEP): fire at the ``target`` acquired in turn ``acquired_turn``."""

    unit: str
    target: str
    acquired_turn: int


class LoseTargetRecord(TargetRecord):
    """``lose_target`` (TOO.KEEP): sight of the target at ``target_pos`` lost (``hidden``: it hid)."""

    target_pos: Point
    hidden: bool


class AcquireRecord(TargetRecord, Roll):
    """``acquire`` (TOO.ACQ): the roll and its modifier's ``terms``; ``reacquire``: a target lost before."""

    terms: dict[str, int]
    reacquire: bool


class ScopeRecord(Record):
    """``scope`` (TOO.SCOPE): the target ``dist`` away in ``band`` is shot at as in ``shot_band``."""

    unit: str
    target: str
    dist: float
    band: str
    shot_band: str


class WoundRecord(FigureRecord):
    """``wound`` (TOO.DAMAGE): at ``location`` and ``body_side``; it dies in ``dies_in`` turns (at turn
    ``dies_at_turn``) unless treated; its ``effect``."""

    location: str
    body_side: str
    dies_in: int
    dies_at_turn: int
    effect: str


class StealthMoveRecord(UnitRecord):
    """A hidden figure's move from ``start_cover`` to ``end_cover`` (``full_move``), under the stealth ``reading``."""

    start_cover: bool
    end_cover: bool
    full_move: bool
    reading: str


class StealthRecord(StealthMoveRecord):
    """``stealth`` (TOO.STEALTH): the move's check; ``checked``: the roll was made (and its keys given)."""

    checked: bool
    dice: NotRequired[list[int]]
    mods: NotRequired[int]
    need: NotRequired[int]
    success: NotRequired[bool]


class RevealRecord(StealthMoveRecord):
    """``reveal`` (TOO.STEALTH): the figure gives itself away on its move, and why (``reason``)."""

    reason: str


class RehideRecord(UnitRecord):
    """``rehide`` (TOO.STEALTH): a revealed stealthy figure out of every enemy's sight hides again."""


class SpotCheckRecord(TargetRecord, Roll):
    """``spot_check`` (TOO.CONCEAL, COUNTER, FACING, REHIDE): a ``conceal`` or ``counter`` ``check`` and its
    modifier's ``terms``, against the hider's level and morale."""

    check: str
    terms: dict[str, int]
    hider_level: str
    hider_morale: int


class TooSpotRecord(TargetRecord):
    """``spot``: the hider (``target``) is seen at ``pos``, ``node``."""

    node: str


#: The records the base game writes, by event.
RECORDS: Mapping[str, type] = {
    DEPLOY: TooDeployRecord, ELIMINATE: TooEliminateRecord, HIT: TooHitRecord, SAVE: TooSaveRecord,
    ATTACK: TooAttackRecord, ALERT: AlertRecord, ALERT_DENIED: AlertDeniedRecord, ALERT_ARMED: AlertArmedRecord,
    OPP_FIRE: OppFireRecord, PICK_UP: PickUpRecord, TREAT: TreatRecord, KEEP: KeepRecord,
    LOSE_TARGET: LoseTargetRecord, ACQUIRE: AcquireRecord, SCOPE: ScopeRecord, WOUND: WoundRecord,
    STEALTH: StealthRecord, REVEAL: RevealRecord, REHIDE: RehideRecord, SPOT_CHECK: SpotCheckRecord,
    SPOT: TooSpotRecord, DECIDE: ReactionDecisionRecord,
}
