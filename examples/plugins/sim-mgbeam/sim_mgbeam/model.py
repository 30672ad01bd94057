"""What sim-mgbeam declares: its rule IDs and titles, its event names, its knobs and unit
keys, and the typed view of a battle its code works with."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from pydantic import Field

import sim
from sim_mgbeam.geometry import Point

RULES = sim.define_rules({
    "MG.BEAM": ("A machine-gun team (a unit with a `bearing`) lays a fixed beam from where it stands "
                "along its bearing, `length` long; it never moves"),
    "MG.HALT": ("An enemy mover whose straight path reaches a beam is halted exactly where it crosses "
                "it, for the rest of the phase"),
    "MG.PIN": "The team's pin roll at the mover it halted: d6 >= pin_need pins it",
    "MG.RALLY": ("A pinned unit does not move; in its side's rally phase it rallies on a d6 >= its "
                 "morale"),
})

BEAM = "beam"                # a team lays its beam (at set-up): ``pos`` to ``end``
BEAM_CROSS = "beam_cross"    # the pin roll at a mover halted on a beam
RALLY_PHASE = "rally"        # the phase in which pinned units try to rally
ADVANCE_PHASE = "advance"    # the phase in which units move


class BeamKnobs(sim.Knobs):
    """``rules.mgbeam``: how long every beam is and what a pin roll needs."""

    length: float = Field(40.0, gt=0, le=10_000, allow_inf_nan=False, description=(
        "the length of every beam, from its team's position along its bearing (MG.BEAM)"))
    pin_need: int = Field(4, ge=1, le=7, description=(
        "a halted mover is pinned on a d6 >= it (MG.PIN; 7: never)"))


class BeamUnitKeys(sim.Knobs):
    """A unit's key under mgbeam: a ``bearing`` makes it a machine-gun team."""

    bearing: float | None = Field(None, ge=-360, le=360, allow_inf_nan=False, description=(
        "the team's beam bearing in degrees counter-clockwise from east (+x; 90 is +y); "
        "a unit with one is a machine-gun team and holds (MG.BEAM)"))


class BeamRules(Protocol):
    """The scenario's ``rules`` as mgbeam reads them: its own section ``rules.mgbeam``."""

    @property
    def mgbeam(self) -> BeamKnobs:
        """``rules.mgbeam``."""
        ...


class BeamUnit(Protocol):
    """A unit spec as an mgbeam scenario gives it: its id, orders and bearing."""

    @property
    def id(self) -> str:
        """The unit's id."""
        ...

    @property
    def bearing(self) -> float | None:
        """Its beam's bearing (None: not a machine-gun team)."""
        ...


@dataclass(frozen=True)
class Beam:
    """One team's beam: from ``start`` (where the team stands) to ``end``."""

    start: Point
    end: Point


@dataclass
class BeamState:
    """What mgbeam keeps during a battle."""

    beams: dict[str, Beam] = field(default_factory=dict)      # team id -> its beam
    halted: dict[str, float] = field(default_factory=dict)    # mover id -> time of its last halt


#: The battle as mgbeam's code sees it: its rules and its state typed.
BeamBattle = sim.BattleContext[BeamRules, BeamState]


def beam_units(scenario: sim.Scenario) -> dict[str, BeamUnit]:
    """Every unit spec of the scenario by id, seen with its mgbeam key."""
    found: dict[str, BeamUnit] = {}
    for _, spec in scenario.units():
        found[spec.id] = spec
    return found
