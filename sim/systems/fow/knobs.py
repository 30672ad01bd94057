"""``rules.fow``: the readings of what seed 001 leaves open, and the base game's numbers."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from sim.systems.knobs import Knobs, behaviour_of


class FowRelocate(Knobs):
    """FOW.RELOCATE policy (a behaviour of kind ``fow.relocate``): ``never``;
    ``when_spotted``; ``enemy_within`` (an enemy team within ``cm`` of the sniper)."""

    when: Annotated[str, behaviour_of("fow.relocate")] = Field("when_spotted", description=(
        "when a deployed sniper tries FOW.RELOCATE (d6 ≥ 4: back to the reserve) in its "
        "owner's Movement Step: `never`; `when_spotted` (it has been revealed: \"the hide was "
        "discovered\"); `enemy_within` (an enemy team within `cm`: \"the tactical situation "
        "changed\")"))
    cm: float = Field(20.0, ge=0, le=10_000, allow_inf_nan=False, description=(
        "with `when: enemy_within`: how close an enemy team must be, in cm"))


class FowPolicies(Knobs):
    """``policies.<who>`` under FOW: ``relocate`` (as ``rules.fow.relocate``, for these
    sniper teams only)."""

    relocate: FowRelocate | None = Field(None, description=(
        "FOW.RELOCATE: when these sniper teams try to change their hide (as `rules.fow.relocate`, "
        "which it replaces for them)"))


class FowKnobs(Knobs):
    """FOW.* and the small tabletop base game around it (BASE.F.*); see ``sim.systems.fow``."""

    relocate: FowRelocate = Field(default_factory=FowRelocate, description=(
        "the FOW.RELOCATE policy `{when, cm}` (FowRelocate, below)"))
    redeploy: Annotated[str, behaviour_of("fow.redeploy")] = Field("best_cover", description=(
        "where FOW.RESERVE places a sniper among its `sniper_team.candidates`: `best_cover` "
        "(the highest terrain cover, then scenario order) or `random` (uniform, from the "
        "sniper's FOW.RESERVE dice)"))
    reserve_delay: int = Field(1, ge=1, le=50, description=(
        "FOW.RESERVE: how many of its owner's turns a sniper waits in the reserve before it "
        "is placed (1: from the next turn)"))
    deploy_clearance: float = Field(20.0, ge=0, le=10_000, allow_inf_nan=False, description=(
        "FOW.RESERVE: a hide is used only with no enemy team within this many cm"))
    spot_range: float = Field(40.0, ge=0, le=10_000, allow_inf_nan=False, description=(
        "FOW.CAMO: an enemy team in sight within this many cm at the start of the enemy's "
        "Shooting Step reveals the sniper; it may be shot at only from within it"))
    shoot_range: float = Field(40.0, gt=0, le=10_000, allow_inf_nan=False, description=(
        "BASE.F.HIT: the range of a team's shots, in cm"))
    sniper_range: float = Field(80.0, gt=0, le=10_000, allow_inf_nan=False, description=(
        "the range of a sniper's shots (FOW.MARKSMAN), in cm"))
    assault_range: float = Field(10.0, ge=0, le=10_000, allow_inf_nan=False, description=(
        "BASE.F.ASSAULT and FOW.CATCH: how close a charging team must be to assault, in cm"))
    firepower: int = Field(6, ge=1, le=7, description=(
        "BASE.F.FP: a team's firepower, the d6 score that destroys a target in bulletproof "
        "cover (7: never)"))
    sniper_firepower: int = Field(2, ge=1, le=7, description=(
        "BASE.F.FP: the sniper's firepower against a target in bulletproof cover"))
    module_hit: Literal["shooting", "save"] = Field("shooting", description=(
        "FOW.SF.HIT: a hit a rule module scores (snap fire's SF.ROLL) on a team is `shooting` (a "
        "shooting hit: its save, or the firepower test at `firepower` in bulletproof cover) or "
        "`save` (\"firepower rules do not apply\": its save wherever it stands)"))
    module_hit_pins: bool = Field(False, description=(
        "FOW.SF.PIN: a team a rule module hits (snap fire) has its platoon Pinned Down before "
        "its save, as FOW.PIN does for a sniper's hit"))
    sniper_reacts: bool = Field(False, description=(
        "FOW.SF.SNIPER: a sniper team takes the reactions a rule module offers (snap fire at a "
        "mover), staying concealed (FOW.CAMO), never with a friendly team within 10 cm "
        "(FOW.FRIENDLY); false: it keeps to its hide"))
