"""The menu of a side's decisions: what each of its units may be told at a movement phase.

At the start of one of its side's movement phases (its plans brought up to date, its
rules not yet begun) a unit may be told one of ``MENU``:

* ``plan``: what its plan and policies say (nothing changes);
* ``hold``: it stands this phase, then its plan's step starts again from where it is;
* ``fall_back``: it moves back to the last node it passed (the ``fall_back`` policy);
* ``seek_cover``: it moves to the nearest node with cover within one move (``seek_cover``);
* ``next_step``: it leaves its plan's current step for the next (which starts now if its
  condition holds; a plan of one step goes on as it is).

Every choice but ``plan`` is a ``decide`` record (its ``policy`` names who chose). The
units' plans are kept as they were (``Plans.take_over``), so after a choice the plan goes
on from where the unit stands. An agent (``sim.gym``) and a planner choose from the same menu.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from sim.agents.choices import REACTION_MOVE, Response
from sim.events import DECIDE
from sim.scenario.orders import MovePolicy
from sim.systems.behaviours import behaviour

__all__ = ["MENU", "take_over", "tell"]

#: The choices, in the order an action's numbers name them.
MENU: tuple[str, ...] = ("plan", "hold", "fall_back", "seek_cover", "next_step")


def take_over(battle: Any, side: str) -> None:
    """Keep the side's plans up to date at each of its phases, so they follow its choices."""
    runners = battle.plans.runners
    battle.plans.take_over(*(runners[unit.id] for unit in battle.units_of(side)))


def tell(battle: Any, units: Sequence[str], choice: str, trigger: str, policy: str = "agent",
         phase: Any = None) -> None:
    """Tell ``units`` (those still on the board) ``choice`` (one of ``MENU``) now, at the
    start of ``phase`` (default: the clock's current one), one of their movement phases."""
    if choice not in MENU:
        raise ValueError(f"'{choice}' is not on the menu {MENU}")
    if choice == "plan":
        return
    plans = battle.plans
    phase = phase if phase is not None else battle.clock.current
    for uid in units:
        unit = battle.units[uid]
        if not unit.on_board:
            continue
        r = plans.runners[uid]
        if choice == "next_step":
            battle.record(DECIDE, unit=uid, pos=unit.pos, node=unit.node, policy=policy,
                          choice=f"{choice}: {plans.skip(r, phase)}", trigger=trigger)
            continue
        if choice == "hold":
            response = Response.stand(1, "hold")
        else:
            response = behaviour(REACTION_MOVE, choice).choose(battle, unit, _policy(choice))
        if response.hold:
            plans.hold(r, response.hold)
        elif response.to is not None:
            plans.detour(r, response.to)
        battle.record(DECIDE, unit=uid, pos=unit.pos, node=unit.node, policy=policy,
                      choice=f"{choice}: {response.choice}", trigger=trigger)


@cache
def _policy(choice: str) -> MovePolicy:
    # One read-only policy a choice, checked once: an agent tells it at every step.
    return MovePolicy(policy=choice)
