"""Every rule knob a scenario may set, one model per rule system.

A scenario may only set knobs of the systems its ruleset uses (plus ``base``): a knob
that would be ignored is an error, never silently dropped.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Finite = dict(allow_inf_nan=False)


class _Knobs(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class BaseKnobs(_Knobs):
    """The small base game around the seed rules (BASE.* in the catalogue)."""

    phase_length: float = Field(1.0, gt=0, le=1000, **Finite)
    shoot_range: float = Field(40.0, ge=0, le=10_000, **Finite)
    charge_range: float = Field(15.0, ge=0, le=10_000, **Finite)
    steps_per_hit: int = Field(1, ge=1, le=100)


class SnapFireKnobs(_Knobs):
    """SF.*: the reaction radius and the two variants the seed leaves open."""

    radius: float = Field(10.0, gt=0, le=1000, **Finite)
    reaction: Literal["snap_fire", "zoc"] = "snap_fire"
    zoc_radius: float = Field(5.0, gt=0, le=1000, **Finite)
    march_halt: Literal["rest_of_phase", "this_move"] = "rest_of_phase"


# Which knob sections each ruleset reads; the others must be left unset.
SECTIONS = {
    "snapfire": {"base", "snapfire"},
    "h17": {"base"},
    "fow": {"base"},
    "too": {"base"},
}


class RuleKnobs(_Knobs):
    base: BaseKnobs = BaseKnobs()
    snapfire: SnapFireKnobs = SnapFireKnobs()

    def check_ruleset(self, ruleset: str) -> None:
        used = SECTIONS[ruleset]
        for name in self.model_fields_set - used:
            raise ValueError(f"rules.{name} is set but ruleset '{ruleset}' does not use it "
                             f"(it reads {sorted(used)})")
