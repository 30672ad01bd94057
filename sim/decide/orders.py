"""A person's orders at a decision point: what a player of one side gives each of its units
or groups at the start of one of the side's movement phases, written to the log so that
the battle can be played again from the log alone (a planner's rollouts do).

An order is a choice of the menu (``sim.decide.menu.MENU``: ``plan``, ``hold``,
``fall_back``, ``seek_cover``, ``next_step``) or ``to NODE``: the unit moves to the map's
node ``NODE`` by the least-cost route (a group's members each to the node nearest their
place in its formation), then its plan goes on from there, as after falling back or seeking
cover (``Plans.detour``; a unit told ``hold`` there at its next phase stays). The decision
is one ``decide`` record of policy ``player`` (``orders``: control -> order, without the
controls that keep to their plans; ``choice``: the same in words), then each unit's own
record, as an agent's choices are (``sim.decide.menu.tell``).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sim.decide.menu import MENU, tell
from sim.errors import InputError
from sim.events import DECIDE
from sim.space import route_planners as routes
from sim.space.path_trees import NoPath

__all__ = ["PLAYER", "TO", "Control", "again", "check_order", "controls", "give", "past_orders", "targets"]

#: The ``policy`` of a person's records (the decision's summary and its units' choices).
PLAYER = "player"
#: How an order to go somewhere is written: ``to NODE``.
TO = "to "


@dataclass(frozen=True)
class Control:
    """What one order tells: a group of the side (``name`` the group's) or a unit alone."""

    name: str
    units: tuple[str, ...]
    group: bool


def controls(scenario: Any, side: str) -> list[Control]:
    """The side's controls: each group with units of the side (only those), then each unit in no group."""
    own = [spec.id for s, spec in scenario.units() if s == side]
    mine = set(own)
    out, grouped = [], set()
    for g, grp in scenario.groups.items():
        members = tuple(u for u in grp.units if u in mine)
        if members:
            out.append(Control(g, members, True))
            grouped |= set(members)
    out += [Control(u, (u,), False) for u in own if u not in grouped]
    return out


def targets(battle: Any, control: Control, node: str) -> dict[str, str]:
    """Where each of the control's units on the board goes when it is sent to ``node``."""
    terrain = battle.terrain
    formation = battle.scenario.groups[control.name].formation if control.group else {}
    out = {}
    for uid in control.units:
        if battle.units[uid].on_board:
            offset = formation.get(uid)
            out[uid] = str(routes.offset_node(terrain, node, offset) if offset is not None else node)
    return out


def check_order(order: Any, battle: Any, control: Control, place: str) -> str:
    """``order`` if it is a choice of the menu, or ``to NODE`` of a node of the map that
    the control's units can reach; else an ``InputError``."""
    if isinstance(order, str):
        if order in MENU:
            return order
        node = order[len(TO):]
        if order.startswith(TO) and node in {str(n) for n in battle.terrain.nodes}:
            for uid, to in targets(battle, control, node).items():
                try:
                    routes.shortest(battle.terrain, battle.units[uid].node, [], to)
                except NoPath:
                    raise InputError(f"{uid} cannot reach {to} from {battle.units[uid].node}", place=place) from None
            return order
    raise InputError(f"expected one of {', '.join(MENU)} or 'to NODE' with a node of the map (got {order!r})",
                     place=place)


def words(orders: Mapping[str, str]) -> str:
    """The orders in the words of the ``decide`` record's ``choice``."""
    return "; ".join(f"{name}: {order}" for name, order in orders.items()) or "plan"


def give(battle: Any, side: str, orders: Mapping[str, str], phase: Any, trigger: str) -> None:
    """Give the side's controls their ``orders`` (name -> order; a control not named keeps to
    its plan) at the start of ``phase``, one of the side's movement phases: the summary
    record, then each unit's."""
    by_name = {c.name: c for c in controls(battle.scenario, side)}
    given = {name: orders[name] for name in by_name if orders.get(name, "plan") != "plan"}
    battle.record(DECIDE, policy=PLAYER, choice=words(given), trigger=trigger, orders=given)
    plans = battle.plans
    for name, order in given.items():
        control = by_name[name]
        if not order.startswith(TO):
            tell(battle, control.units, order, trigger, policy=PLAYER, phase=phase)
            continue
        for uid, to in targets(battle, control, order[len(TO):]).items():
            unit = battle.units[uid]
            choice = plans.detour(plans.runners[uid], to)
            battle.record(DECIDE, unit=uid, pos=unit.pos, node=unit.node, policy=PLAYER, choice=choice,
                          trigger=trigger)


def past_orders(records: Sequence[Mapping[str, Any]], side: str) -> dict[tuple[int, str], dict[str, str]]:
    """A side's orders so far, read from the log: (turn, phase) -> orders."""
    return {(r["turn"], r["phase"]): dict(r["orders"]) for r in records
            if r["event"] == DECIDE and r.get("policy") == PLAYER and r["side"] == side and "orders" in r}


def again(side: str, past: Mapping[tuple[int, str], Mapping[str, str]]) -> Callable[[Any, Any], None]:
    """An action for ``Replay.every_turn``: the side's ``past`` orders given again at their
    phases, records and all (after them the side keeps to its plans)."""

    def act(battle: Any, phase: Any) -> None:
        orders = past.get((phase.turn, phase.phase))
        if orders is not None:
            give(battle, side, orders, phase, f"turn {phase.turn} {phase.phase}")

    return act
