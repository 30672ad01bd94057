"""``sim.branch``: one battle, replayed to a decision point, continued under several orders.

Every branch is the battle of the same scenario at the same seed, replayed (``Replay``)
to the point and given its new orders there; up to the point its log is the trunk's
record for record, since nothing differs before it. After it the dice are keyed by
(unit, rule) as always, so branches that give the same orders give the same battle, and
a unit whose orders do not change keeps its rolls for as long as what it rolls for does
not depend on the units that changed.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sim import arguments
from sim.decide.changes import Changes, changes_between
from sim.decide.points import At, at_point
from sim.decide.replay import Decision, Replay, refuse_planners
from sim.errors import InputError
from sim.replication import BattleResult
from sim.scenario.load import apply_overrides
from sim.scenario.schema import Scenario

__all__ = ["BranchResult", "Branching", "branch", "branching", "run_branch"]

NAME = r"^[A-Za-z0-9_][A-Za-z0-9_.\-]*$"


@dataclass
class BranchResult(BattleResult):
    """A branch's battle: its log, metrics, winner and why, and where it branched
    (``decision``: None when the battle ended before the point, so it is the trunk)."""

    decision: Decision | None = None


@dataclass(frozen=True)
class Branching:
    """A battle's branches, ready to run: the trunk's scenario, the point, each branch's orders."""

    scenario: Scenario
    at: At
    changes: dict[str, Changes]

    def run(self, name: str, seed: int) -> BranchResult:
        """Branch ``name`` of the battle at ``seed``."""
        replay = Replay(self.scenario, seed)
        replay.take(self.at, self.changes[name])
        result = replay.run()
        decision = replay.decisions[0] if replay.decisions else None
        return BranchResult(result.log, result.metrics, result.winner, result.reason, decision)


def branching(scenario: Scenario, at: Any, branches: Mapping[str, Any], source: str = "branches") -> Branching:
    """The branches checked: ``at`` a point (``sim.decide.points``), each branch the
    overrides (dotted keys, as ``--set``) of the orders, plans and policies it gives."""
    at = at_point(at, scenario)
    refuse_planners(scenario)
    arguments.mapping(branches, source, keys="branch names")
    if not branches:
        raise InputError("give at least one branch", place=source)
    changes = {}
    for name, overrides in branches.items():
        if not re.match(NAME, name):
            raise InputError("a branch name may only use letters, digits, _ . -", place=f"{source}.{name}")
        arguments.mapping(overrides, f"{source}.{name}", keys="dotted-key strings")
        branched = apply_overrides(scenario, dict(overrides), source=f"{source}.{name}")
        changes[name] = changes_between(scenario, branched, f"{source}.{name}")
    return Branching(scenario, at, changes)


def branch(scenario: Scenario | str, seed: int = 1, *, at: Any,
           branches: Mapping[str, Any]) -> dict[str, BranchResult]:
    """The battle at ``seed``, replayed to ``at`` and continued under each branch's orders.

    ``at``: ``{turn, phase}``, ``{halted: unit}`` or ``{side, when: {...}}``; ``branches``:
    name -> overrides of orders, plans and policies (``{}``: the trunk). One result per
    branch, in order; each log is the trunk's up to the decision.
    """
    from sim.scenario.load import load_scenario

    seed = arguments.seed(seed)
    if not isinstance(scenario, Scenario):
        scenario = load_scenario(arguments.path(scenario, "scenario"))
    b = branching(scenario, at, branches)
    return {name: b.run(name, seed) for name in b.changes}


@dataclass(frozen=True)
class BranchJob:
    """A branch study's cell as a worker runs it: the trunk, the point, the branch's orders."""

    branching: Branching
    name: str


def run_branch(job: BranchJob, seed: int) -> BranchResult:
    """One replication of a branch study's cell (the study's battle function)."""
    return job.branching.run(job.name, seed)
