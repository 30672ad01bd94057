"""Taking a reaction or not: "you *may* snap fire", "*may* make one opportunity fire attack".

The texts let a player decline a reaction; a side's policy (a behaviour of kind
``reaction``) decides, given the reaction's chance of success:

* ``always`` (the default, and what a side with no policy does): every reaction is taken;
* ``never``: none is;
* ``threshold``: taken only when its chance of success is at least ``at_least``.

A side, group or unit may have a policy of its own (``policies.<who>.take_reaction``,
which comes before the side's ``take_reactions``). A reactor with a policy logs every
decision as a ``decide`` record (the rule, the reactor, the target, the policy,
``choice`` take or decline, the ``chance`` and ``at_least``); with no policy nothing is
logged, so the default log is what it always was. A declined reaction counts as the
reactor's one chance at that target this turn.
"""
from __future__ import annotations

from typing import Annotated, Any, Protocol

from pydantic import Field

from sim.agents.unit import Unit
from sim.engine.context import BattleContext
from sim.events import DECIDE
from sim.systems.behaviours import Behaviour, BehaviourKind, behaviour
from sim.systems.knobs import Knobs, behaviour_of
from sim.systems.registry import Checks

__all__ = ["BEHAVIOURS", "REACTION", "ReactionChoice", "ReactionPolicies", "ReactionPolicy", "check_sides", "take"]


class ReactionPolicy(Knobs):
    """A side's policy for the reactions it may take: ``policy`` (``always``, ``never``,
    ``threshold`` or a registered one) and, for ``threshold``, ``at_least`` (a chance)."""

    policy: Annotated[str, behaviour_of("reaction")] = Field("always", description=(
        "`always` (take every reaction), `never`, `threshold` (only at a chance of success of "
        "at least `at_least`), or a registered one"))
    at_least: float = Field(0.5, ge=0, le=1, allow_inf_nan=False, description=(
        "`threshold`: the least chance of success (0 to 1) at which the reaction is taken"))


class ReactionPolicies(Knobs):
    """``policies.<who>.take_reaction``: a side's, group's or unit's own reaction policy."""

    take_reaction: ReactionPolicy | None = Field(None, description=(
        "its own policy for the reactions it may take (before its side's `take_reactions`)"))


class ReactionChoice(Protocol):
    """Whether a reactor takes a reaction it may (kind ``reaction``), given its chance of success."""

    def __call__(self, chance: float, policy: ReactionPolicy, /) -> bool:
        """True: it takes it."""


#: The kind of the behaviours that decide whether to take a reaction a side may decline.
REACTION: BehaviourKind[ReactionChoice] = BehaviourKind("reaction")


def take(battle: BattleContext, reactor: Unit, mover: Unit, rule: str, chance: float,
         policies: dict[str, ReactionPolicy]) -> bool:
    """Whether ``reactor`` takes the reaction ``rule`` against ``mover`` (logged when it
    has a policy: its own, its group's or side's ``take_reaction``, else its side's
    ``take_reactions`` knob)."""
    p = battle.plans.policy(reactor, "take_reaction") or policies.get(reactor.side)
    if p is None:
        return True
    taken = bool(behaviour(REACTION, p.policy).choose(chance, p))
    battle.record(DECIDE, rule=rule, unit=reactor.id, target=mover.id, pos=reactor.pos,
                  policy=p.policy, choice="take" if taken else "decline", trigger=rule,
                  chance=chance, at_least=p.at_least)
    return taken


def check_sides(c: Checks, system: str) -> None:
    """Every side a ``take_reactions`` policy names is one of the scenario's."""
    for side in getattr(c.scenario.rules, system).take_reactions:
        if side not in c.scenario.sides:
            c.fail(f"'{side}' is not a side of this scenario (expected one of {c.scenario.sides})",
                   "rules", system, "take_reactions", side)


def _always(chance: float, p: ReactionPolicy) -> bool:
    return True


def _never(chance: float, p: ReactionPolicy) -> bool:
    return False


def _threshold(chance: float, p: ReactionPolicy) -> bool:
    return chance >= p.at_least - 1e-12   # a chance of exactly at_least is taken


#: This module's behaviours, registered with sim's built-in ones.
BEHAVIOURS: list[Behaviour[Any]] = [
    Behaviour(REACTION, "always", _always, "take every reaction (the default)"),
    Behaviour(REACTION, "never", _never, "decline every reaction"),
    Behaviour(REACTION, "threshold", _threshold,
              "take a reaction only when its chance of success is at least `at_least`"),
]
