"""``rules.snapfire`` and the snap-fire base game's ``rules.base`` knobs."""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from sim.systems.knobs import BaseKnobs, Knobs
from sim.systems.reactions import ReactionPolicy


class SnapFireKnobs(Knobs):
    """SF.*: the reaction radius, the two variants the seed leaves open, and each side's
    policy for the snap fire it *may* take (``take_reactions``: side -> policy; a side
    not named takes every one)."""

    radius: float = Field(10.0, gt=0, le=1000, allow_inf_nan=False)
    reaction: Literal["snap_fire", "zoc"] = "snap_fire"
    zoc_radius: float = Field(5.0, gt=0, le=1000, allow_inf_nan=False)
    march_halt: Literal["rest_of_phase", "this_move"] = "rest_of_phase"
    take_reactions: dict[str, ReactionPolicy] = Field(default_factory=dict, max_length=2)


class SnapBaseKnobs(BaseKnobs):
    """``rules.base`` of the snap-fire base game (BASE.S.*): ranges and the hit's effect."""

    shoot_range: float = Field(40.0, ge=0, le=10_000, allow_inf_nan=False)
    charge_range: float = Field(15.0, ge=0, le=10_000, allow_inf_nan=False)
    steps_per_hit: int = Field(1, ge=1, le=100)
