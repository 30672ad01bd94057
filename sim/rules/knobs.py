"""Every rule knob a scenario may set, one model per rule system.

A scenario may only set knobs of the systems its ruleset uses (plus ``base``): a knob
that would be ignored is an error, never silently dropped.
"""
from __future__ import annotations

import math
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict, field_validator

Finite = dict(allow_inf_nan=False)


class _Knobs(BaseModel):
    # strict: no coercion, so `radius: true` or `radius: "10"` is an error.
    model_config = ConfigDict(extra="forbid", validate_assignment=True, strict=True)


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


class H17Withdraw(_Knobs):
    """H17.3 withdrawal policy: ``never``; ``enemy_within`` (an enemy unit within ``hexes``
    of the sniper's hex); ``after_attacks`` (the sniper has made ``attacks`` attacks since
    it was placed)."""

    when: Literal["never", "enemy_within", "after_attacks"] = "never"
    hexes: int = Field(2, ge=0, le=100)
    attacks: int = Field(2, ge=1, le=1000)


class H17Knobs(_Knobs):
    """H17.* and the small hex base game around it (BASE.H.*); see ``sim.rules.h17``."""

    placement: Literal["best_cover", "random", "nearest"] = "best_cover"
    withdraw: H17Withdraw = H17Withdraw()
    withdraw_phase: Literal["any", "own"] = "any"
    ap_range: int = Field(6, ge=1, le=100)
    ap_need: int = Field(8, ge=2, le=30)
    cp_per_step: int = Field(1, ge=1, le=20)


class FowRelocate(_Knobs):
    """FOW.RELOCATE policy: ``never``; ``when_spotted``; ``enemy_within`` (an enemy team
    within ``cm`` of the sniper)."""

    when: Literal["never", "when_spotted", "enemy_within"] = "when_spotted"
    cm: float = Field(20.0, ge=0, le=10_000, **Finite)


class FowKnobs(_Knobs):
    """FOW.* and the small tabletop base game around it (BASE.F.*); see ``sim.rules.fow``."""

    relocate: FowRelocate = FowRelocate()
    redeploy: Literal["best_cover", "random"] = "best_cover"
    reserve_delay: int = Field(1, ge=1, le=50)
    deploy_clearance: float = Field(20.0, ge=0, le=10_000, **Finite)
    spot_range: float = Field(40.0, ge=0, le=10_000, **Finite)
    shoot_range: float = Field(40.0, gt=0, le=10_000, **Finite)
    sniper_range: float = Field(80.0, gt=0, le=10_000, **Finite)
    assault_range: float = Field(10.0, ge=0, le=10_000, **Finite)
    firepower: int = Field(6, ge=1, le=7)
    sniper_firepower: int = Field(2, ge=1, le=7)


# The base knobs every ruleset reads; the rest belong to the snap-fire base game.
BASE_FOR_ALL = {"phase_length"}

# Which knob sections each ruleset reads; the others must be left unset.
SECTIONS = {
    "snapfire": {"base", "snapfire"},
    "h17": {"base", "h17"},
    "fow": {"base", "fow"},
    "too": {"base", "too"},
}


class TooKnobs(_Knobs):
    """TOO.* (seed 002) and its base game BASE.T.RANGE; tables documented in
    ``sim.rules.too_tables``.

    ``stealth_reading`` (TOO.STEALTH, the text is ambiguous): ``literal`` (default; +2
    whenever a checked move starts or ends in cover), ``exposure`` (+2 only when exactly
    one end is in cover, full moves in cover checked at +0, moves wholly in the open
    reveal) or ``cover_bonus`` (the +2 favours the sniper: −2 on the die).
    ``morale_by_level``: BASE.T.RANGE's level → morale score table.
    ``treatment``: who stops a bleed-out timer: ``medic`` (a figure marked medic within
    ``treat_range``, default), ``buddy`` (any able friend within ``treat_range``) or
    ``none``. ``bleed_clock``: ``player_turns`` (default) or ``own_turns``.
    """

    morale_by_level: dict[Literal["green", "recruit", "seasoned", "veteran", "elite"],
                          int] = Field(default_factory=lambda: {
                              "green": 2, "recruit": 3, "seasoned": 4, "veteran": 5, "elite": 6})
    # Strict(False) on the tuple only: a YAML list [name, up_to, base] is one.
    range_bands: list[Annotated[tuple[str, float | None, int], Strict(False)]] = Field(
        max_length=20, default_factory=lambda: [
        ("point_blank", 5.0, 2), ("close", 20.0, 4), ("medium", 40.0, 6), ("long", 80.0, 8),
        ("extreme", None, 10)])
    acq_cover_mods: dict[Literal["open", "soft", "medium", "hard", "enclosed"], int] = Field(
        default_factory=lambda: {"open": -1, "soft": 0, "medium": 0, "hard": 1, "enclosed": 2})
    save_need: dict[Literal["open", "soft", "medium", "hard", "enclosed"], int] = Field(
        default_factory=lambda: {"open": 6, "soft": 5, "medium": 4, "hard": 3, "enclosed": 2})
    stealth_reading: Literal["literal", "exposure", "cover_bonus"] = "literal"
    facing_half_angle: float = Field(45.0, gt=0, le=180, **Finite)
    facing_bonus_scope: Literal["recheck", "all_searches"] = "recheck"
    fire_arc_half: float = Field(45.0, gt=0, le=180, **Finite)
    treatment: Literal["medic", "buddy", "none"] = "medic"
    treat_range: float = Field(6.0, ge=0, le=10_000, **Finite)
    bleed_clock: Literal["player_turns", "own_turns"] = "player_turns"
    alert_fraction: float = Field(0.5, ge=0, le=1, **Finite)
    alert_rounding: Literal["floor", "ceil"] = "floor"
    opp_range: float = Field(60.0, gt=0, le=10_000, **Finite)
    search_range: float = Field(200.0, gt=0, le=100_000, **Finite)
    snipers_start_hidden: bool = True

    @field_validator("morale_by_level")
    @classmethod
    def _all_levels(cls, v):
        missing = [lv for lv in ("green", "recruit", "seasoned", "veteran", "elite") if lv not in v]
        if missing:
            raise ValueError(f"morale_by_level needs every level, missing {missing}")
        if any(not 1 <= int(x) <= 12 for x in v.values()):
            raise ValueError("morale scores must be 1..12")
        return v

    @field_validator("acq_cover_mods")
    @classmethod
    def _small_mods(cls, v):
        if any(not -12 <= int(x) <= 12 for x in v.values()):
            raise ValueError("acquisition modifiers must be -12..12")
        return v

    @field_validator("acq_cover_mods", "save_need")
    @classmethod
    def _all_classes(cls, v, info):
        missing = [c for c in ("open", "soft", "medium", "hard", "enclosed") if c not in v]
        if missing:
            raise ValueError(f"{info.field_name} needs every cover class, missing {missing}")
        if info.field_name == "save_need" and any(not 2 <= int(x) <= 7 for x in v.values()):
            raise ValueError("save target numbers must be 2..7 (the seed's '1: None': no class saves on 1)")
        return v

    @field_validator("range_bands")
    @classmethod
    def _bands(cls, v):
        if not v or v[-1][1] is not None:
            raise ValueError("range_bands must end with an unlimited band [name, null, base]")
        if any(b[1] is not None and not (math.isfinite(b[1]) and b[1] > 0) for b in v):
            raise ValueError("range band limits must be finite numbers > 0")
        if any(not 1 <= b[2] <= 11 for b in v):
            raise ValueError("range band base numbers must be 1..11 (a d10 roll >= base hits)")
        uppers = [b[1] for b in v[:-1]]
        if any(u is None for u in uppers) or uppers != sorted(uppers):
            raise ValueError("range band limits must increase, only the last is null")
        return v


class RuleKnobs(_Knobs):
    base: BaseKnobs = BaseKnobs()
    snapfire: SnapFireKnobs = SnapFireKnobs()
    h17: H17Knobs = H17Knobs()
    fow: FowKnobs = FowKnobs()
    too: TooKnobs = TooKnobs()

    def check_ruleset(self, ruleset: str) -> None:
        used = SECTIONS[ruleset]
        for name in self.model_fields_set - used:
            raise ValueError(f"rules.{name} is set but ruleset '{ruleset}' does not use it "
                             f"(it reads {sorted(used)})")
        # The snap-fire base game's own numbers mean nothing to the other rulesets.
        if ruleset != "snapfire":
            for name in sorted(self.base.model_fields_set - BASE_FOR_ALL):
                raise ValueError(f"rules.base.{name} is set but ruleset '{ruleset}' does not use it "
                                 f"(it reads only {sorted(BASE_FOR_ALL)} of rules.base)")
