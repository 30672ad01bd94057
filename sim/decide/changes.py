"""What a branch changes: units' steps and the policies, read off a branched scenario.

A branch is written as the scenario's own data (overrides of its ``orders``, ``plan``,
``groups.<g>.plan`` and ``formation``, and ``policies``). ``changes_between`` compares the
branched scenario with the trunk's and refuses any other difference (a rule, the map, a
unit's strength: those would make a different battle from its start, not a branch of it).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sim.agents.plan_steps import describe
from sim.errors import InputError
from sim.events import DECIDE

__all__ = ["Changes", "apply_changes", "changes_between"]


@dataclass(frozen=True)
class Changes:
    """A branch's new orders: the units whose steps change, and whether the policies do,
    both as ``scenario`` (the branched scenario) gives them."""

    scenario: Any
    units: tuple[str, ...] = ()
    policies: bool = False

    @property
    def empty(self) -> bool:
        """Whether the branch changes nothing (it is the trunk)."""
        return not self.units and not self.policies


def _rest(scenario: Any) -> dict[str, Any]:
    """The scenario without what a branch may change."""
    doc = scenario.model_dump(mode="json")
    for units in doc["forces"].values():
        for u in units:
            u.pop("orders", None)
            u.pop("plan", None)
    for g in doc["groups"].values():
        g.pop("plan", None)
        g.pop("formation", None)
    doc.pop("policies", None)
    return doc


def _steps(scenario: Any) -> dict[str, str]:
    """Each unit's orders, as the JSON of what makes its steps (its own, its group's)."""
    group_of = {uid: g for g, grp in scenario.groups.items() for uid in grp.units}
    out = {}
    for _, spec in scenario.units():
        g = group_of.get(spec.id)
        grp = scenario.groups[g] if g is not None else None
        made = [spec.orders.model_dump(mode="json"), spec.plan.model_dump(mode="json") if spec.plan else None,
                grp.plan.model_dump(mode="json") if grp is not None else None,
                grp.formation.get(spec.id) if grp is not None else None]
        out[spec.id] = json.dumps(made, sort_keys=True, default=list)
    return out


def _decider(scenario: Any, side: str) -> Any:
    policies = scenario.policies.get(side)
    decide = policies.decide if policies is not None else None
    return decide.model_dump(mode="json") if decide is not None else None


def changes_between(trunk: Any, branched: Any, source: str = "branch") -> Changes:
    """The new orders of ``branched`` against ``trunk``; anything else changed is an ``InputError``."""
    a, b = _rest(trunk), _rest(branched)
    if a != b:
        key = next(k for k in sorted({*a, *b}) if a.get(k) != b.get(k))
        raise InputError(f"a branch changes only orders, plans, groups' plans and formations, and "
                         f"policies (this one changes '{key}')", place=source)
    for side in sorted({*trunk.policies, *branched.policies}):
        # a side's decider is set when its battle is built: one given at a branch would never decide
        if _decider(trunk, side) != _decider(branched, side):
            raise InputError(f"a branch cannot give a side a planner or change it (this one changes "
                             f"policies.{side}.decide)", place=source)
    before, after = _steps(trunk), _steps(branched)
    units = tuple(uid for uid in after if after[uid] != before[uid])
    policies = {k: v.model_dump(mode="json") for k, v in trunk.policies.items()} != \
        {k: v.model_dump(mode="json") for k, v in branched.policies.items()}
    return Changes(branched, units, policies)


def apply_changes(battle: Any, changes: Changes, phase: Any, trigger: str, policy: str = "branch",
                  since: int | None = None) -> None:
    """Give the battle's units the new orders now, each a ``decide`` record (``policy``).

    ``phase``: the phase just begun (its side's units start their new steps at once), or
    None (mid-phase: they start at their side's next movement phase). A unit given a
    reaction it had not reacts to the records from ``since`` on (default: from now).
    """
    plans, scenario = battle.plans, changes.scenario
    specs = {spec.id: spec for _, spec in scenario.units()}
    for uid in changes.units:
        unit = battle.units[uid]
        steps, _, _ = plans.steps_for(scenario, specs[uid])
        if unit.on_board:
            battle.record(DECIDE, unit=uid, pos=unit.pos, node=unit.node, policy=policy,
                          choice="plan: " + "; ".join(describe(s) for s in steps), trigger=trigger)
        plans.replan(scenario, specs[uid], phase)
    if changes.policies:
        given = {k: v.model_dump(mode="json", exclude_none=True) for k, v in scenario.policies.items()}
        battle.record(DECIDE, policy=policy, choice="policies: " + json.dumps(given, sort_keys=True),
                      trigger=trigger)
        plans.set_policies(scenario.policies, since)
