"""``rules.h17``: the readings of what seed 000 leaves open, and the hex base game's numbers."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from sim.systems.knobs import Knobs, behaviour_of
from sim.toolkit.reactions import ReactionPolicies, ReactionPolicy


class H17Withdraw(Knobs):
    """H17.3 withdrawal policy (a behaviour of kind ``h17.withdraw``): ``never``;
    ``enemy_within`` (an enemy unit within ``hexes`` of the sniper's hex);
    ``after_attacks`` (the sniper has made ``attacks`` attacks since it was placed)."""

    when: Annotated[str, behaviour_of("h17.withdraw")] = Field("never", description=(
        "H17.3: `never`, `enemy_within` (an enemy within `hexes`) or `after_attacks` (after "
        "`attacks` attacks since placed)"))
    hexes: int = Field(2, ge=0, le=100, description="with `enemy_within`: how close, in hexes")
    attacks: int = Field(2, ge=1, le=1000, description="with `after_attacks`: how many attacks")


class H17Policies(ReactionPolicies):
    """``policies.<who>`` under H17: ``withdraw`` (as ``rules.h17.withdraw``, for these
    snipers only) and ``take_reaction``."""

    withdraw: H17Withdraw | None = Field(None, description=(
        "H17.3: when these snipers' owner withdraws them (as `rules.h17.withdraw`, which it "
        "replaces for them)"))


class H17Knobs(Knobs):
    """H17.* and the small hex base game around it (BASE.H.*); see ``sim.systems.h17``.

    ``check_order``: after a sniper attack, ``attack_then_check`` (default: the attack's
    step losses pin first, so a lone target that lost a step cannot check) or
    ``check_then_pin`` (the targets check, then the attack's pins apply).
    ``take_reactions``: each side's policy for the opportunity fire it *may* make (H17.4).
    """

    placement: Annotated[str, behaviour_of("h17.placement")] = "best_cover"
    withdraw: H17Withdraw = H17Withdraw()
    withdraw_phase: Literal["any", "own"] = "any"
    ap_range: int = Field(6, ge=1, le=100, description=(
        "BASE.H.AP: attacks an enemy seen within this many hexes (the nearest, or as its "
        "`target` policy says)"))
    ap_need: int = Field(8, ge=2, le=30, description=(
        "BASE.H.AP: the 2d6 score needed before the target's cover modifier"))
    cp_per_step: int = Field(1, ge=1, le=20, description="BASE.H.CP: casualty points that remove one step")
    check_order: Literal["attack_then_check", "check_then_pin"] = "attack_then_check"
    take_reactions: dict[str, ReactionPolicy] = Field(default_factory=dict, max_length=2)
