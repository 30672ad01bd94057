"""Run what the editor drew, at once: one battle (``sim.run``) or a small study of replications
(``sim.run_study``), summed up as rows a page can show."""
from __future__ import annotations

import enum
import math
from typing import Any

from sim import arguments
from sim.scenario.schema import Scenario

MOST_REPLICATIONS = 1000   # a study from the editor runs in the kernel, in one process


class RunKind(enum.StrEnum):
    """What the editor's run button runs."""

    BATTLE = "battle"
    STUDY = "study"


def _number(value: Any) -> float | None:
    number = float(value)
    return number if math.isfinite(number) else None


def run_battle(scenario: Scenario, seed: int) -> dict[str, Any]:
    """One battle at ``seed``: its winner, why, and its metrics."""
    from sim import run

    result = run(scenario, seed=arguments.seed(seed))
    return {"kind": RunKind.BATTLE.value, "title": f"one battle, seed {seed}",
            "winner": result.winner, "reason": result.reason,
            "rows": [[name, _number(value)] for name, value in sorted(result.metrics.items())]}


def run_replications(scenario: Scenario, seed: int, replications: int) -> dict[str, Any]:
    """``replications`` battles (a study of one variant): each metric's mean and 95% interval."""
    from sim import run_study, study_from_dict

    replications = arguments.whole(replications, "replications", 1, MOST_REPLICATIONS)
    study = study_from_dict({"study": "editor", "seed": arguments.seed(seed), "replications": replications,
                             "variants": {"drawn": {}}}, scenario=scenario)
    summary = run_study(study, executor="serial").summary
    assert summary is not None   # a finished study has one
    cells = summary.cells["drawn"]
    return {"kind": RunKind.STUDY.value, "title": f"{replications} battles, seed {seed}",
            "rows": [[name, _number(e.mean), _number(e.ci_low), _number(e.ci_high)]
                     for name, e in sorted(cells.items())]}


def run_drawn(scenario: Scenario, kind: RunKind, seed: int, replications: int) -> dict[str, Any]:
    """What the run button shows: a battle's or a study's summary."""
    if kind is RunKind.BATTLE:
        return run_battle(scenario, seed)
    return run_replications(scenario, seed, replications)


__all__ = ["MOST_REPLICATIONS", "RunKind", "run_battle", "run_drawn", "run_replications"]
