"""``rules.snapfire`` and SF's orders (``march``; the skirmish base game's ``charge``)."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from sim.systems.knobs import Knobs
from sim.systems.registry import reaction_of
from sim.toolkit.reactions import ReactionPolicy
from sim.toolkit.skirmish import ChargeOrders


class SnapFireKnobs(Knobs):
    """SF.*: the reaction radius, the two variants the seed leaves open, and each side's
    policy for the snap fire it *may* take (``take_reactions``: side -> policy; a side
    not named takes every one)."""

    radius: float = Field(10.0, gt=0, le=1000, allow_inf_nan=False, description=(
        "SF.TRIGGER: the snap-fire radius in cm; a mover halts exactly where it first comes "
        "within it (SF.HALT)"))
    reaction: Annotated[str, reaction_of("snapfire")] = Field("snap_fire", description=(
        "SF.ZOC: the reaction to an enemy's move, one of snap fire's reaction kinds (listed below): "
        "`snap_fire` (halt and roll) or `zoc` (no dice: a non-charging unit stops on an enemy "
        "zone's edge; one starting inside must leave it)"))
    zoc_radius: float = Field(5.0, gt=0, le=1000, allow_inf_nan=False, description=(
        "SF.ZOC: the zone's radius in cm (only with `reaction: zoc`)"))
    march_halt: Literal["rest_of_phase", "this_move"] = Field("rest_of_phase", description=(
        "SF.MARCH: on `march` orders a halt ends the rest of the phase (`rest_of_phase`) or "
        "only the current move of three (`this_move`)"))
    take_reactions: dict[str, ReactionPolicy] = Field(default_factory=dict, max_length=2, description=(
        "SF.TRIGGER's *may*: side -> its policy for the snap fire it may take (a side not "
        "named takes every one; a unit's own `policies.WHO.take_reaction` comes first)"))


class MarchOrders(ChargeOrders):
    """SF's orders: the skirmish game's (``charge``), and the step type ``march`` (SF.MARCH)."""

    # A widened Literal: pydantic validates the new one; mypy sees a narrower base.
    type: Literal["hold", "advance", "march", "charge"] = Field("hold", description=(  # type: ignore[assignment]
        "`hold` stays put; `advance` makes one move per own movement phase along its route to "
        "`to`; `march` makes up to three moves a phase, each in its own third of it (SF.MARCH); "
        "`charge` is an `advance` with `charge: true`"))
    charge: bool = Field(False, description=(
        "the unit may enter enemy zones of control (SF.ZOC) and assaults in the assault phase "
        "(BASE.S.ASSAULT)"))


class SnapUnitKeys(Knobs):
    """SF's unit key: the flag ``no_snap_fire`` (a unit that never snap fires)."""

    flags: list[Literal["pinned", "no_snap_fire", "hidden"]] = Field(default_factory=list, description=(
        "starting status: `pinned` units do not move or charge; `hidden` units start unseen; "
        "`no_snap_fire` units never snap fire (SF.TRIGGER)"))
