"""How good a design is: the orthogonality and space filling of its distinct points."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Properties:
    """How good a design is: orthogonality and space filling of its distinct points."""

    points: int
    max_abs_correlation: float  # over pairs of factor columns (Pearson)
    condition_number: float  # of the columns' correlation matrix
    maximin: float  # the smallest distance between two points, unit cube
    centred_discrepancy: float  # scipy.stats.qmc.discrepancy, method "CD"

    def describe(self) -> str:
        """One line for people."""
        return (f"{self.points} distinct rows, max |pairwise correlation| {self.max_abs_correlation:.4f}, "
                f"condition number {self.condition_number:.3f}, maximin distance "
                f"{self.maximin:.3f}, centred L2 discrepancy {self.centred_discrepancy:.4g}")


def properties(unit: np.ndarray) -> Properties:
    """Correlation and space-filling measures of a unit-cube design (its distinct rows)."""
    from scipy.spatial.distance import pdist
    from scipy.stats import qmc

    x = np.unique(np.asarray(unit, dtype=float), axis=0)
    n, k = x.shape
    if k > 1 and n > 2 and np.all(x.std(axis=0) > 0):
        corr = np.corrcoef(x, rowvar=False)
        rho = float(np.max(np.abs(corr - np.eye(k))))
        cond = float(np.linalg.cond(corr))
    else:
        rho, cond = 0.0 if k == 1 else math.nan, 1.0 if k == 1 else math.nan
    maximin = float(pdist(x).min()) if n > 1 else math.nan
    cd = float(qmc.discrepancy(np.clip(x, 0, 1), method="CD"))
    return Properties(n, rho, cond, maximin, cd)
