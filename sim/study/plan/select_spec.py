"""The ``select`` section of a study file: how ``sim select`` picks the best cell.

``sim select`` runs Kim and Nelson's fully sequential procedure KN
(``sim.study.analysis.kn``) over the study's cells; this section gives its metric,
direction, indifference zone δ, confidence 1 − α and first stage n0 (each can also be
given, or overridden, on the command line). ``sim study`` does not read it.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from sim.arguments import MAX_REPLICATIONS

#: The first-stage size n0 and the cap: at most this many replications per cell.
MAX_N0 = 100_000


class Select(BaseModel):
    """What ``sim select`` picks the best cell by: one metric, a direction, and KN's
    indifference zone, confidence and first stage."""

    model_config = ConfigDict(extra="forbid", strict=True)

    metric: str = Field(min_length=1, description="the metric the best cell is best by")
    direction: Literal["maximise", "minimise"] = Field(description=(
        "`maximise` (the best has the largest mean) or `minimise` (the smallest)"))
    delta: float = Field(gt=0, allow_inf_nan=False, description=(
        "the indifference zone δ: the smallest difference of means worth detecting, in "
        "the metric's units"))
    alpha: float = Field(0.05, gt=0, lt=1, allow_inf_nan=False, description=(
        "1 − the confidence: the best is selected with probability ≥ 1 − alpha when it "
        "leads every other by δ (alpha < 1 − 1/k for k cells)"))
    n0: int = Field(10, ge=2, le=MAX_N0, description=(
        "replications of every cell in the first stage (its variances are estimated from them)"))
    max_replications: int | None = Field(None, ge=2, le=MAX_REPLICATIONS, description=(
        "a cap on any cell's replications (not set: the procedure's own maximum); a "
        "selection stopped by it has no guarantee"))
