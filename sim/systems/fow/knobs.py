"""``rules.fow``: the readings of what seed 001 leaves open, and the base game's numbers."""
from __future__ import annotations

from pydantic import Field

from sim.systems.knobs import Knobs, choice


class FowRelocate(Knobs):
    """FOW.RELOCATE policy (a behaviour of kind ``fow.relocate``): ``never``;
    ``when_spotted``; ``enemy_within`` (an enemy team within ``cm`` of the sniper)."""

    when: choice("fow.relocate") = "when_spotted"  # type: ignore[valid-type]
    cm: float = Field(20.0, ge=0, le=10_000, allow_inf_nan=False)


class FowKnobs(Knobs):
    """FOW.* and the small tabletop base game around it (BASE.F.*); see ``sim.systems.fow``."""

    relocate: FowRelocate = FowRelocate()
    redeploy: choice("fow.redeploy") = "best_cover"  # type: ignore[valid-type]
    reserve_delay: int = Field(1, ge=1, le=50)
    deploy_clearance: float = Field(20.0, ge=0, le=10_000, allow_inf_nan=False)
    spot_range: float = Field(40.0, ge=0, le=10_000, allow_inf_nan=False)
    shoot_range: float = Field(40.0, gt=0, le=10_000, allow_inf_nan=False)
    sniper_range: float = Field(80.0, gt=0, le=10_000, allow_inf_nan=False)
    assault_range: float = Field(10.0, ge=0, le=10_000, allow_inf_nan=False)
    firepower: int = Field(6, ge=1, le=7)
    sniper_firepower: int = Field(2, ge=1, le=7)
