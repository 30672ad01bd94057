"""What sim-minefield declares: its rule IDs and titles, its record names, its knobs and its
section of the scenario (the minefields and the wire it puts on the map)."""
from __future__ import annotations

from typing import Protocol

from pydantic import Field

import sim.plugin as sp

RULES = sp.define_rules({
    "MF.ENTER": "A mover that passes into a minefield is in it: an `enter_field` record, no roll",
    "MF.STEP": ("Each further `step` cm a mover walks inside a minefield a mine may go off: "
                "d6 >= the field's `need`"),
    "MF.BLAST": "A mine that goes off takes `damage` steps off the mover (the base game's damage)",
    "MF.WIRE": ("A mover that comes to a wire line is halted on it for the rest of the phase and "
                "kept busy cutting it for `wire_turns` of its side's turns (the base game's keep-busy)"),
})

ENTER_FIELD = "enter_field"   # a mover passes into a minefield: ``feature``
MINE = "mine"                 # the MF.STEP roll: ``feature``, ``inside`` (cm walked inside so far)


class FieldSpec(sp.AreaFeature):
    """A minefield: an area whose mines go off on a d6 >= its ``need`` (its density)."""

    need: int = Field(5, ge=2, le=7, description=(
        "MF.STEP: a mine goes off on a d6 >= it (2: dense, 6: thin; 7: never)"))


class WireSpec(sp.LineFeature):
    """A wire obstacle: a line a mover is halted on and must cut through."""


class MinefieldFeatures(sp.Knobs):
    """``features.minefield``: the module's own section, what it puts on the map."""

    fields: list[FieldSpec] = Field(default_factory=list, max_length=200, description=(
        "the minefields (areas): MF.ENTER, MF.STEP, MF.BLAST"))
    wire: list[WireSpec] = Field(default_factory=list, max_length=200, description=(
        "the wire obstacles (lines): MF.WIRE"))


class MinefieldKnobs(sp.Knobs):
    """``rules.minefield``: how often a mine may go off, what one does, how long wire holds."""

    step: float = Field(5.0, gt=0, le=1_000, allow_inf_nan=False, description=(
        "MF.STEP: a mine may go off each further `step` cm a mover walks inside a field"))
    damage: int = Field(1, ge=1, le=100, description="MF.BLAST: the steps a mine that goes off takes off")
    wire_turns: int = Field(1, ge=0, le=20, description=(
        "MF.WIRE: how many of its side's turns a unit halted on wire is kept busy cutting it "
        "(after the rest of the turn it came to it in)"))


class MinefieldRules(Protocol):
    """The scenario's ``rules`` as the module reads them: its own section."""

    @property
    def minefield(self) -> MinefieldKnobs:
        """``rules.minefield``."""
        ...


class MinefieldScenario(Protocol):
    """A scenario as the module reads it: its ``features.minefield``."""

    @property
    def features(self) -> MinefieldSections:
        """``features``."""
        ...


class MinefieldSections(Protocol):
    """``features`` as the module reads it."""

    @property
    def minefield(self) -> MinefieldFeatures:
        """``features.minefield``."""
        ...
