"""A study of branches: ``branch: {at: ...}`` makes every variant a branch of the battle.

Each replication of a variant is the battle of the study's scenario at the replication's
seed, replayed to the decision point ``at`` and continued under the variant's overrides
(which may change only orders, plans and policies: ``sim.decide.changes``). Common random
numbers then pair the branches as they pair any variants: every branch of replication i
is the same battle up to the point.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sim.decide.branch import BranchJob, branching
from sim.decide.points import at_point
from sim.decide.replay import refuse_planners
from sim.errors import InputError
from sim.scenario.yamlfile import place_of
from sim.study.plan.cells import Recipe, Resolver

#: The study's battle function when it branches.
BRANCH_BATTLE = "sim.decide.branch:run_branch"


@dataclass(frozen=True)
class BranchRecipe(Recipe):
    """How a worker builds a branch cell: the base scenario, the branch's overrides, the point."""

    at: Any = None

    def resolve(self) -> Any:
        """The cell as a ``BranchJob`` (the trunk, the point, the branch's orders)."""
        return BranchJob(branching(self.base.build(), self.at, {"branch": self.overrides}), "branch")


@dataclass
class BranchResolver(Resolver):
    """A branch study's resolver: every cell ships a ``BranchRecipe``."""

    at: Any = None

    def recipe(self, overrides: dict[str, Any]) -> Any:
        """The cell's ``BranchRecipe``."""
        return BranchRecipe(self.light, dict(overrides), self.source, self.at)


def hashed(digest: str, at: Any) -> str:
    """A branch cell's hash: its scenario's with the decision point."""
    text = json.dumps([digest, at], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def check_branch(spec: Any, base: Any, path: str, lines: dict) -> None:
    """The branch point and every variant as a branch, checked against the scenario."""
    if spec.factors is not None:
        raise InputError("a study that branches varies its branches, not factors", file=path,
                         place=place_of(("factors",), lines))
    try:
        at_point(spec.branch.at, base, "branch.at")
    except InputError as err:
        raise InputError(err.detail, file=path, place=place_of(tuple(str(err.place).split(".")), lines)) from None
    refuse_planners(base)   # named in the scenario's own file
    for name, overrides in spec.variants.items():
        try:
            branching(base, spec.branch.at, {name: overrides}, source=f"variants.{name}")
        except InputError as err:
            raise InputError(err.detail, file=path, place=place_of(("variants", name), lines)) from None
