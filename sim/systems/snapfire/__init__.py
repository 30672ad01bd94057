"""SF — snap fire (seed 004), its zone-of-control variant, and the small base game BASE.S.

Snap fire: in the Movement phase only (SF.TRIGGER, SF.NOASSAULT), an enemy unit that
comes within ``radius`` of one of yours is halted at the exact point it first came
within it (SF.HALT) and you roll d6 >= its Armour for a hit (SF.ROLL); see
``sim.systems.snapfire.watches`` for every reading. The toolkit's skirmish base game
(``sim.toolkit.skirmish``) gives the shooting and assault phases around it.
"""
from __future__ import annotations

from typing import cast

from sim.engine.clock import PhaseSpec
from sim.events import ASSAULT, DECIDE, HALT, HIT, SHOOT
from sim.systems.registry import Checks, RuleSystem
from sim.systems.snapfire import titles  # noqa: F401 - the rule IDs, before the code marking them
from sim.systems.snapfire.events import SNAP_FIRE
from sim.systems.snapfire.game import SnapFireGame
from sim.systems.snapfire.knobs import MarchOrders, SnapFireKnobs, SnapUnitKeys
from sim.systems.snapfire.metrics import SNAP_FIRE_METRICS
from sim.toolkit.reactions import ReactionPolicies, check_sides
from sim.toolkit.skirmish import SkirmishKnobs


def check(c: Checks) -> None:
    """Load-time checks: reaction policies name sides of the scenario, and are set only
    where there is a reaction to take (a zone of control is not one a side may decline)."""
    check_sides(c, "snapfire")
    sf = c.scenario.rules.snapfire
    if sf.reaction == "zoc" and sf.take_reactions:
        c.fail("is set but a zone of control (reaction: zoc) is never declined; it applies "
               "to snap fire only", "rules", "snapfire", "take_reactions")
    for who, p in c.scenario.policies.items():
        # the scenario's policies are snap fire's own model: the common keys and these
        if sf.reaction == "zoc" and cast(ReactionPolicies, p).take_reaction is not None:
            c.fail("is set but a zone of control (reaction: zoc) is never declined; it applies "
                   "to snap fire only", "policies", who, "take_reaction")


def _radius(sf: SnapFireKnobs) -> tuple[float, str]:
    if sf.reaction == "zoc":
        return float(sf.zoc_radius), "SF.ZOC zone"
    return float(sf.radius), "SF radius"


SYSTEM = RuleSystem(
    name="snapfire",
    title="Snap fire (SF), with the zone-of-control variant, on a small tabletop base game",
    phases=(PhaseSpec("movement", moves=True), PhaseSpec("shooting"), PhaseSpec("assault")),
    game=SnapFireGame,
    knobs=SnapFireKnobs,
    policy_keys=ReactionPolicies,
    base_knobs=SkirmishKnobs,
    order_keys=MarchOrders,
    unit_keys=SnapUnitKeys,
    step_moves={"march": 3},
    check=check,
    metrics=(SNAP_FIRE_METRICS,),
    events=frozenset({HALT, SNAP_FIRE, SHOOT, ASSAULT, HIT, DECIDE}),
    rules=("SF.TRIGGER", "SF.HALT", "SF.ROLL", "SF.ONCE", "SF.AFTER", "SF.INSIDE",
           "SF.NOASSAULT", "SF.MARCH", "SF.ZOC", "BASE.S.HIT", "BASE.S.SHOOT", "BASE.S.ASSAULT"),
    source="seed 004",
    reaction_radius=_radius,
)
