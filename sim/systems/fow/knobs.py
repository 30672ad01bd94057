"""``rules.fow``: the readings of what seed 001 leaves open, and the base game's numbers."""
from __future__ import annotations

from typing import Annotated

from pydantic import Field

from sim.systems.knobs import Knobs, behaviour_of


class FowRelocate(Knobs):
    """FOW.RELOCATE policy (a behaviour of kind ``fow.relocate``): ``never``;
    ``when_spotted``; ``enemy_within`` (an enemy team within ``cm`` of the sniper)."""

    when: Annotated[str, behaviour_of("fow.relocate")] = "when_spotted"
    cm: float = Field(20.0, ge=0, le=10_000, allow_inf_nan=False)


class FowPolicies(Knobs):
    """``policies.<who>`` under FOW: ``relocate`` (as ``rules.fow.relocate``, for these
    sniper teams only)."""

    relocate: FowRelocate | None = None


class FowKnobs(Knobs):
    """FOW.* and the small tabletop base game around it (BASE.F.*); see ``sim.systems.fow``."""

    relocate: FowRelocate = FowRelocate()
    redeploy: Annotated[str, behaviour_of("fow.redeploy")] = "best_cover"
    reserve_delay: int = Field(1, ge=1, le=50)
    deploy_clearance: float = Field(20.0, ge=0, le=10_000, allow_inf_nan=False)
    spot_range: float = Field(40.0, ge=0, le=10_000, allow_inf_nan=False)
    shoot_range: float = Field(40.0, gt=0, le=10_000, allow_inf_nan=False)
    sniper_range: float = Field(80.0, gt=0, le=10_000, allow_inf_nan=False)
    assault_range: float = Field(10.0, ge=0, le=10_000, allow_inf_nan=False)
    firepower: int = Field(6, ge=1, le=7)
    sniper_firepower: int = Field(2, ge=1, le=7)
