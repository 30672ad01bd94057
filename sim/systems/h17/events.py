"""The H17 system's own event names (the rest are ``sim.events``) and the records it writes."""
# No ``from __future__ import annotations`` (see ``sim.records``).
from collections.abc import Mapping
from typing import NotRequired

from sim.events import ACTIVATE, ATTACK, DECIDE, DEPLOY, ELIMINATE, HIT, PIN, RALLY, SPOT, WITHDRAW
from sim.records import Record, Roll, UnitRecord
from sim.toolkit.records import ReactionDecisionRecord, StepsHitRecord, TargetRecord, TeamRecord

SNIPER_ATTACK = "sniper_attack"              # H17.5
OPPORTUNITY_FIRE = "opportunity_fire"        # H17.4: the Fire marker is placed
ELIMINATION_CHECK = "elimination_check"      # H17.6a
NO_ELIMINATION_CHECK = "no_elimination_check"  # H17.6a: no unpinned targeted unit to make it
NO_ACTIVATION = "no_activation"              # H17.2b: no hex qualifies


class ActivateRecord(UnitRecord, Roll):
    """``activate`` (H17.2a): the natural 12 (its ``dice``, at ``attack_t``) ``by`` which units brings the
    sniper into play from ``state_from``."""

    state_from: str
    by: list[str]
    attack_t: float


class H17DeployRecord(TeamRecord):
    """``deploy`` (H17.2b): the hex's ``cover`` modifier and ``dist`` in hexes, the ``policy`` that chose it
    among ``choices``."""

    cover: int
    dist: int
    policy: str
    choices: int


class H17SpotRecord(TeamRecord):
    """``spot`` (H17.2c, H17.4): the sniper's attack reveals it to the units attacked (``by``)."""

    by: list[str]


class WithdrawRecord(TeamRecord):
    """``withdraw`` (H17.3): the sniper leaves the board, as its withdrawal ``policy`` says."""

    policy: str


class H17EliminateRecord(TeamRecord):
    """``eliminate`` of a sniper (H17.6a, H17.6b): ``by`` a unit; ``entered``: it crossed into the hex."""

    by: str
    entered: NotRequired[bool]


class CpHitRecord(StepsHitRecord):
    """``hit`` (BASE.H.CP): ``cp`` casualty points taken, and their ``cause`` (the rule of the attack)."""

    cause: str
    cp: int


class H17PinRecord(UnitRecord):
    """``pin`` (BASE.H.PIN): pinned by the attack of rule ``cause``."""

    cause: str


class H17RallyRecord(UnitRecord, Roll):
    """``rally`` (BASE.H.PIN): a pinned unit's roll against its morale."""


class H17AttackRecord(TargetRecord, Roll):
    """``attack`` (BASE.H.AP): an ``attack`` (AP or AT) from ``node`` at ``target_node`` ``dist`` hexes
    away; ``natural12``: double six."""

    node: str
    target_node: str
    attack: str
    dist: float
    natural12: bool


class SniperAttackRecord(UnitRecord, Roll):
    """``sniper_attack`` (H17.5): the attack at ``target_node`` on ``targets`` (``target``: the first, None if
    none) at ``trigger``; ``cp`` the casualty points."""

    target: str | None
    targets: list[str]
    target_node: str
    trigger: str
    cp: int


class OpportunityFireRecord(TargetRecord):
    """``opportunity_fire`` (H17.4): the sniper puts its Fire ``marker`` on the mover ``dist`` hexes away."""

    node: str
    target_node: str
    dist: float
    marker: str


class EliminationCheckRecord(TargetRecord, Roll):
    """``elimination_check`` (H17.6a): a unit attacked at ``node`` checks against the sniper at ``sniper_node``."""

    node: str
    sniper_node: str


class NoEliminationCheckRecord(Record):
    """``no_elimination_check`` (H17.6a): none of ``targets`` may make the check, and why."""

    unit: str
    targets: list[str]
    reason: str


class NoActivationRecord(Record):
    """``no_activation`` (H17.2b): the natural 12 ``by`` a unit at ``node`` activates no sniper, and why."""

    unit: str
    by: str
    node: str
    reason: str


#: The records the base game writes, by event.
RECORDS: Mapping[str, type] = {
    ACTIVATE: ActivateRecord, DEPLOY: H17DeployRecord, SPOT: H17SpotRecord, WITHDRAW: WithdrawRecord,
    ELIMINATE: H17EliminateRecord, HIT: CpHitRecord, PIN: H17PinRecord, RALLY: H17RallyRecord,
    ATTACK: H17AttackRecord, SNIPER_ATTACK: SniperAttackRecord, OPPORTUNITY_FIRE: OpportunityFireRecord,
    ELIMINATION_CHECK: EliminationCheckRecord, NO_ELIMINATION_CHECK: NoEliminationCheckRecord,
    NO_ACTIVATION: NoActivationRecord, DECIDE: ReactionDecisionRecord,
}
