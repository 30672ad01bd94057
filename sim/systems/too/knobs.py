"""``rules.too``: the TOO tables' numbers and the readings of what seed 002 leaves open."""
from __future__ import annotations

import math
from typing import Annotated, Literal

from pydantic import Field, Strict, field_validator

from sim.systems.knobs import Knobs
from sim.systems.too.tables import ACQ_COVER_MODS, MORALE_BY_LEVEL, SAVE_NEED, CoverClass, Level
from sim.toolkit.reactions import ReactionPolicy


class TooKnobs(Knobs):
    """TOO.* (seed 002) and its base game BASE.T.RANGE; tables documented in
    ``sim.systems.too.tables``.

    ``stealth_reading`` (TOO.STEALTH, the text is ambiguous): ``literal`` (default; +2
    whenever a checked move starts or ends in cover), ``exposure`` (+2 only when exactly
    one end is in cover, full moves in cover checked at +0, moves wholly in the open
    reveal) or ``cover_bonus`` (the +2 favours the sniper: −2 on the die).
    ``morale_by_level``: BASE.T.RANGE's level → morale score table.
    ``treatment``: who stops a bleed-out timer: ``medic`` (a figure marked medic within
    ``treat_range``, default), ``buddy`` (any able friend within ``treat_range``) or
    ``none``. ``bleed_clock``: ``player_turns`` (default) or ``own_turns``.
    ``take_reactions``: each side's policy for the opportunity fire it *may* make
    (TOO.OPP, TOO.ALERT), judged on the attack's chance to hit.
    """

    morale_by_level: dict[Level, int] = Field(default_factory=lambda: dict(MORALE_BY_LEVEL), description=(
        "BASE.T.RANGE: the morale score of each level (every level, scores 1–12), used when a "
        "figure gives `level` and no `morale`"))
    # Strict(False) on the tuple only: a YAML list [name, up_to, base] is one.
    range_bands: list[Annotated[tuple[str, float | None, int], Strict(False)]] = Field(
        max_length=20, default_factory=lambda: [
        ("point_blank", 5.0, 2), ("close", 20.0, 4), ("medium", 40.0, 6), ("long", 80.0, 8),
        ("extreme", None, 10)], description=(
        "the range table `[name, up_to_cm, base]`: a shot at a range up to `up_to_cm` hits on "
        "a d10 ≥ `base` (1–11) before modifiers; limits increase, the last band's is `null` "
        "(unlimited)"))
    acq_cover_mods: dict[CoverClass, int] = Field(default_factory=lambda: dict(ACQ_COVER_MODS), description=(
        "TOO.ACQ: the acquisition modifier for the target's cover class (every class, −12..12)"))
    save_need: dict[CoverClass, int] = Field(default_factory=lambda: dict(SAVE_NEED), description=(
        "TOO.SAVE: the d10 score that saves a hit figure in each cover class (every class, "
        "2–7: no class saves on a 1)"))
    stealth_reading: Literal["literal", "exposure", "cover_bonus"] = Field("literal", description=(
        "TOO.STEALTH (the text contradicts itself): `literal` (+2 whenever a checked move "
        "starts or ends in cover), `exposure` (+2 only when exactly one end is in cover; moves "
        "wholly in cover at +0, wholly in the open reveal) or `cover_bonus` (the +2 favours "
        "the sniper: −2 on the die)"))
    facing_half_angle: float = Field(45.0, gt=0, le=180, allow_inf_nan=False, description=(
        "TOO.FACING: a hider within this many degrees either side of a sniper's facing is "
        "in front of it (−1 on the spotting die)"))
    facing_bonus_scope: Literal["recheck", "all_searches"] = Field("recheck", description=(
        "when the facing −1 applies: only on the re-check after the sniper's attack "
        "(`recheck`) or on every search it makes (`all_searches`)"))
    fire_arc_half: float = Field(45.0, gt=0, le=180, allow_inf_nan=False, description=(
        "TOO.ALERT: an alert figure fires only at movers within this many degrees either "
        "side of its facing"))
    treatment: Literal["medic", "buddy", "none"] = Field("medic", description=(
        "who stops a bleed-out timer (TOO.DAMAGE): `medic` (a figure marked `medic` within "
        "`treat_range`), `buddy` (any able friend within it) or `none`"))
    treat_range: float = Field(6.0, ge=0, le=10_000, allow_inf_nan=False, description=(
        "how close (cm) a medic or buddy must be to treat"))
    bleed_clock: Literal["player_turns", "own_turns"] = Field("player_turns", description=(
        "what a wound's \"dies in n turns\" counts: player-turns (a figure hit in turn T dies "
        "at the start of turn T + n) or the wounded side's own turns"))
    alert_fraction: float = Field(0.5, ge=0, le=1, allow_inf_nan=False, description=(
        "TOO.ALERT: at most this share of a side's living figures may be on alert"))
    alert_rounding: Literal["floor", "ceil"] = Field("floor", description=(
        "how that share is rounded to a number of figures"))
    opp_range: float = Field(60.0, gt=0, le=10_000, allow_inf_nan=False, description=(
        "TOO.OPP: an alert figure may fire at a mover first seen within this many cm"))
    search_range: float = Field(200.0, gt=0, le=100_000, allow_inf_nan=False, description=(
        "how far (cm) a figure sees: beyond it no enemy is visible, acquired, searched for "
        "or fired at"))
    snipers_start_hidden: bool = Field(True, description=(
        "snipers start hidden (deployed unseen) even without the `hidden` flag"))
    take_reactions: dict[str, ReactionPolicy] = Field(default_factory=dict, max_length=2, description=(
        "each side's policy for the opportunity fire it *may* make (TOO.OPP, TOO.ALERT), "
        "judged on the attack's chance to hit: side -> {policy, at_least}"))

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
