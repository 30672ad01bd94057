"""Load-time checks of orders: plans, groups, conditions and policies name what exists,
every step can start and every route can be walked; each problem an ``InputError``
with the file and the line of the key at fault."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from sim.errors import InputError
from sim.events import HALT, HIT, PIN
from sim.scenario.yamlfile import place_of
from sim.space.route_planners import offset_node
from sim.systems.behaviours import behaviours
from sim.systems.knobs import BehaviourOf
from sim.systems.registry import events_of

EVENT_FACTS = ("fired_on", "halted", "pinned", "lost_steps")
# The event a condition waits for, where a rule system may never write it.
NEEDS = {"halted": (HALT, "halts a unit"), "pinned": (PIN, "pins a unit"), "lost_steps": (HIT, "hits a unit")}
NodeCheck = Callable[[str, tuple[Any, ...]], None]


class _Fail:
    def __init__(self, scenario: Any) -> None:
        self.file, self.lines = scenario.file, scenario._lines

    def __call__(self, message: str, path: tuple[Any, ...]) -> None:
        raise InputError(message, file=self.file, place=place_of(path, self.lines))


def check_orders(scenario: Any, need_node: NodeCheck) -> None:
    """Every unit's orders, and the scenario's groups and policies (module docstring)."""
    fail = _Fail(scenario)
    ids = {spec.id: (side, i) for side, spec in scenario.units() for i in
           [[u.id for u in scenario.forces[side]].index(spec.id)]}
    grouped: dict[str, str] = {}
    for g, grp in scenario.groups.items():
        if g in ids or g in scenario.sides:
            fail(f"group '{g}' has the name of a unit or a side (expected a name of its own)", ("groups", g))
        for k, uid in enumerate(grp.units):
            if uid not in ids:
                fail(f"'{uid}' is not a unit of the scenario", ("groups", g, "units", k))
            if uid in grouped:
                fail(f"unit '{uid}' is in groups '{grouped[uid]}' and '{g}' (expected one)",
                     ("groups", g, "units", k))
            side, i = ids[uid]
            spec = scenario.forces[side][i]
            if spec.plan is not None or "orders" in spec.model_fields_set:
                fail(f"unit '{uid}' has orders of its own and group '{g}''s plan (expected one)",
                     ("forces", side, i, "plan" if spec.plan is not None else "orders"))
            grouped[uid] = g
        for uid in grp.formation:
            if uid not in grp.units:
                fail(f"'{uid}' is not a unit of group '{g}'", ("groups", g, "formation", uid))
    for side, spec in scenario.units():
        i = ids[spec.id][1]
        if spec.id in grouped:
            g = grouped[spec.id]
            _check_plan(scenario, fail, need_node, spec, scenario.groups[g].plan, ("groups", g, "plan"),
                        scenario.groups[g].formation.get(spec.id))
        elif spec.plan is not None:
            _check_plan(scenario, fail, need_node, spec, spec.plan, ("forces", side, i, "plan"), None)
        else:
            _check_steps(scenario, fail, need_node, spec, [spec.orders], ("forces", side, i, "orders"),
                         None, single=True)
    kinds = sorted({spec.kind for _, spec in scenario.units()})
    events = events_of(scenario.composition)
    for who, policies in scenario.policies.items():
        if who not in ids and who not in scenario.groups and who not in scenario.sides:
            fail(f"'{who}' is not a side, group or unit of the scenario", ("policies", who))
        if policies.on_halted is not None and HALT not in events:
            fail(f"ruleset '{scenario.ruleset}' never halts a unit, so this policy would never act",
                 ("policies", who, "on_halted"))
        if policies.decide is not None and who not in scenario.sides:
            fail(f"'{who}' is not a side: a side's decisions are its own (expected one of {scenario.sides})",
                 ("policies", who, "decide"))
        p = policies.target
        if p is not None and p.policy == "priority" and not p.kinds:
            fail("policy 'priority' needs 'kinds': unit kinds, first choice first", ("policies", who, "target"))
        for k, kind in enumerate(p.kinds if p is not None else []):
            if kind not in kinds:
                fail(f"no unit of kind '{kind}' in the scenario (expected one of {kinds})",
                     ("policies", who, "target", "kinds", k))
        _check_behaviours(scenario, fail, who, policies)


def _check_behaviours(scenario: Any, fail: _Fail, who: str, policies: BaseModel) -> None:
    """What each policy's behaviour checks of the scenario (``Behaviour.check``): what it
    would refuse in the battle, refused now."""
    for key, policy in policies:
        field = type(policy).model_fields.get("policy") if isinstance(policy, BaseModel) else None
        kind = next((m.kind for m in field.metadata if isinstance(m, BehaviourOf)), None) if field else None
        found = behaviours(kind).get(policy.policy) if kind is not None else None
        problem = found.check(scenario, who, policy) if found is not None and found.check is not None else None
        if problem is not None:
            fail(problem[1], ("policies", who, key, problem[0]))


def _check_plan(scenario: Any, fail: _Fail, need_node: NodeCheck, spec: Any, plan: Any,
                path: tuple[Any, ...], offset: tuple[float, float] | None) -> None:
    steps_path = path if isinstance(_raw_at(scenario.raw, path), list) else path + ("steps",)
    _check_steps(scenario, fail, need_node, spec, list(plan.steps), steps_path, offset)
    if plan.until is not None:
        _check_condition(scenario, fail, need_node, plan.until, path + ("until",), spec, until=True)


def _raw_at(doc: Any, path: tuple[Any, ...]) -> Any:
    """The part of the document as written at a key path (None if it is not there)."""
    for key in path:
        try:
            doc = doc[key]
        except (KeyError, IndexError, TypeError):
            return None
    return doc


def _check_steps(scenario: Any, fail: _Fail, need_node: NodeCheck, spec: Any, steps: list[Any],
                 path: tuple[Any, ...], offset: tuple[float, float] | None, single: bool = False) -> None:
    terrain = scenario.map
    here = spec.at
    for k, step in enumerate(steps):
        where = path if single else path + (k,)
        if step.when is not None:
            _check_condition(scenario, fail, need_node, step.when, where + ("when",), spec)
        if step.type == "hold":
            continue
        stops = [*step.via, step.to]
        for j, node in enumerate(stops):
            need_node(node, where + (("via", j) if j < len(step.via) else ("to",)))
        if offset is not None:   # a formation member goes to the node nearest its offset point
            stops = [offset_node(terrain, n, offset) for n in stops]
        for j, node in enumerate(stops):
            if not terrain.reachable(here, node):
                key = ("via", j) if j < len(step.via) else ("to",)
                whence = "its start" if here == spec.at else "where the step before leaves it"
                fail(f"unit '{spec.id}' cannot reach '{node}' from '{here}' (expected a destination "
                     f"connected to {whence})", where + key)
            here = node


def _check_condition(scenario: Any, fail: _Fail, need_node: NodeCheck, when: Any,
                     path: tuple[Any, ...], spec: Any, until: bool = False) -> None:
    units = {s.id: side for side, s in scenario.units()}
    never = "the loop could never end" if until else "the step could never start"
    first = scenario.sides.index(units[spec.id]) + 1          # the side's turns: first, first + 2, ...
    last = first + (scenario.turns - first) // 2 * 2 if scenario.turns >= first else 0
    if when.from_turn is not None and when.from_turn > last:
        fail(f"turn {when.from_turn} never comes for side '{units[spec.id]}' (its movement phases are "
             f"in turns {first}, {first + 2}, ... {last} of {scenario.turns}): {never}", path + ("from_turn",))
    events = events_of(scenario.composition)
    for fact in EVENT_FACTS:
        who = getattr(when, fact)
        if who is not None and who != "self" and who not in units:
            fail(f"'{who}' is not a unit of the scenario (expected a unit id or 'self')", path + (fact,))
        if who is not None and fact in NEEDS and NEEDS[fact][0] not in events:
            fail(f"ruleset '{scenario.ruleset}' never {NEEDS[fact][1]}: {never}", path + (fact,))
    a = when.arrived
    if a is not None:
        if a.unit is not None and a.unit not in units:
            fail(f"'{a.unit}' is not a unit of the scenario", path + ("arrived", "unit"))
        if a.group is not None and a.group not in scenario.groups:
            fail(f"'{a.group}' is not a group of the scenario", path + ("arrived", "group"))
        need_node(a.at, path + ("arrived", "at"))
        members = [a.unit] if a.unit is not None else list(scenario.groups[a.group].units)
        starts = {s.id: s.at for _, s in scenario.units()}
        formation = scenario.groups[a.group].formation if a.group is not None else {}
        for uid in members:   # a formation member arrives at its own place for the node
            at = offset_node(scenario.map, a.at, formation[uid]) if uid in formation else a.at
            if not scenario.map.reachable(starts[uid], at):
                fail(f"'{uid}' can never reach '{at}' from its start: {never}", path + ("arrived", "at"))
