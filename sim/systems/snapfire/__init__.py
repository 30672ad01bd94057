"""SF — snap fire (seed 004) and its zone-of-control variant: a rule module, and a ruleset.

Snap fire: in a phase in which units move only (SF.TRIGGER, SF.NOASSAULT), an enemy unit
that comes within ``radius`` of one of yours is halted at the exact point it first came
within it (SF.HALT) and you roll d6 >= its Armour for a hit (SF.ROLL), whose effect is the
base game's (``battle.services.hit``). Its reactions are kinds, one module each in
``sim.systems.snapfire.reactions`` (``snap_fire``; ``zoc``, SF.ZOC's zone of control), which
``rules.snapfire.reaction`` chooses between; each module's docstring gives its readings.
The module joins any base game with a moving phase and a hit service; ``ruleset: snapfire``
is the skirmish base game (BASE.S, ``sim.systems.skirmish``) with it.
"""
from __future__ import annotations

from typing import Any, cast

from sim.engine.clock import PhaseRole
from sim.engine.services import Service
from sim.systems.games import Checks, ReactionKind, RuleModule, Ruleset
from sim.systems.registry import REGISTRY
from sim.systems.snapfire import titles  # noqa: F401 - its rule IDs and titles
from sim.systems.snapfire.events import RECORDS
from sim.systems.snapfire.game import SnapFirePlay
from sim.systems.snapfire.knobs import MarchOrders, SnapFireKnobs, SnapUnitKeys
from sim.systems.snapfire.metrics import SNAP_FIRE_METRICS
from sim.systems.snapfire.reactions import discover
from sim.toolkit.reactions import ReactionPolicies, check_sides


def _kind(sf: SnapFireKnobs) -> ReactionKind[Any, Any]:
    return REGISTRY.reactions.get(sf.reaction)


def check(c: Checks) -> None:
    """Load-time checks: reaction policies name sides of the scenario, and are set only
    where there is a reaction to take (a zone of control is not one a side may decline)."""
    check_sides(c, "snapfire")
    sf = c.scenario.rules.snapfire
    kind = _kind(sf)
    declinable = [k.name for k in REGISTRY.reactions if k.module == MODULE.name and k.declinable]
    never = (f"is set but reaction '{kind.name}' ({kind.doc}) is never declined; it applies to the "
             f"reactions a side may decline ({declinable})")
    if not kind.declinable and sf.take_reactions:
        c.fail(never, "rules", "snapfire", "take_reactions")
    for who, p in c.scenario.policies.items():
        # the scenario's policies are snap fire's own model: the common keys and these
        if not kind.declinable and cast(ReactionPolicies, p).take_reaction is not None:
            c.fail(never, "policies", who, "take_reaction")


def _radius(sf: SnapFireKnobs) -> tuple[float, str]:
    return _kind(sf).radius(sf)


MODULE = RuleModule(
    name="snapfire",
    title="Snap fire (SF), with the zone-of-control variant",
    play=SnapFirePlay,
    needs=frozenset({PhaseRole.MOVING, Service.HIT}),
    knobs=SnapFireKnobs,
    policy_keys=ReactionPolicies,
    order_keys=MarchOrders,
    unit_keys=SnapUnitKeys,
    step_moves={"march": 3},
    check=check,
    metrics=(SNAP_FIRE_METRICS,),
    records=RECORDS,
    rules=("SF.TRIGGER", "SF.HALT", "SF.ROLL", "SF.ONCE", "SF.AFTER", "SF.INSIDE",
           "SF.NOASSAULT", "SF.MARCH", "SF.ZOC"),
    source="seed 004",
    reaction_radius=_radius,
    reactions=discover(),
)

RULESET = Ruleset("snapfire", "Snap fire (SF), with the zone-of-control variant, on the small skirmish "
                  "base game", base="skirmish", modules=("snapfire",), default=True)
