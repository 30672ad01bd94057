"""``rules.snapfire`` and the snap-fire base game's ``rules.base`` knobs."""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from sim.systems.knobs import BaseKnobs, Knobs
from sim.toolkit.reactions import ReactionPolicy


class SnapFireKnobs(Knobs):
    """SF.*: the reaction radius, the two variants the seed leaves open, and each side's
    policy for the snap fire it *may* take (``take_reactions``: side -> policy; a side
    not named takes every one)."""

    radius: float = Field(10.0, gt=0, le=1000, allow_inf_nan=False, description=(
        "SF.TRIGGER: the snap-fire radius in cm; a mover halts exactly where it first comes "
        "within it (SF.HALT)"))
    reaction: Literal["snap_fire", "zoc"] = Field("snap_fire", description=(
        "SF.ZOC: `snap_fire` (halt and roll) or `zoc` (no dice: a non-charging unit stops on "
        "an enemy zone's edge; one starting inside must leave it)"))
    zoc_radius: float = Field(5.0, gt=0, le=1000, allow_inf_nan=False, description=(
        "SF.ZOC: the zone's radius in cm (only with `reaction: zoc`)"))
    march_halt: Literal["rest_of_phase", "this_move"] = Field("rest_of_phase", description=(
        "SF.MARCH: on `march` orders a halt ends the rest of the phase (`rest_of_phase`) or "
        "only the current move of three (`this_move`)"))
    take_reactions: dict[str, ReactionPolicy] = Field(default_factory=dict, max_length=2, description=(
        "SF.TRIGGER's *may*: side -> its policy for the snap fire it may take (a side not "
        "named takes every one; a unit's own `policies.WHO.take_reaction` comes first)"))


class SnapBaseKnobs(BaseKnobs):
    """``rules.base`` of the snap-fire base game (BASE.S.*): ranges and the hit's effect."""

    shoot_range: float = Field(40.0, ge=0, le=10_000, allow_inf_nan=False, description=(
        "BASE.S.SHOOT: a unit shoots an enemy it sees within this many cm (the nearest, or "
        "as its `target` policy says)"))
    charge_range: float = Field(15.0, ge=0, le=10_000, allow_inf_nan=False, description=(
        "BASE.S.ASSAULT: a `charge` unit charges the nearest visible enemy within this many cm"))
    steps_per_hit: int = Field(1, ge=1, le=100, description="BASE.S.HIT: steps a hit removes")
