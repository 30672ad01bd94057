"""Metamodels of a designed study: what drives a metric, in plain words.

Fitted to the design points' responses (a metric's mean over the replications stored at
every point), with the factors coded so that effects compare: a numeric factor on
[-1, +1] from its low to its high end, a categorical one as 0/1 indicators of its levels
after the first.

- A **regression tree** (scikit-learn, depth 3, at least 5 % of the points per leaf): its
  splits say where in factor space the metric changes most.
- A **linear model** (statsmodels OLS) with main effects and the two-factor interactions
  of the factors with the largest main effects (as many as the points support: at most
  half as many terms as points), with 95 % intervals on every effect.

Both report an **out-of-sample R²**: 5-fold cross-validation over the points (shuffled
with a fixed seed), the share of the variance between points that a model fitted without
a point predicts at that point.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

FOLDS = 5
DEPTH = 3


@dataclass
class Coded:
    """The design points as model columns: names, matrix, and which factor each is."""

    names: list[str]
    x: np.ndarray
    factor_of: list[str]
    spans: list[tuple[float, float] | None]  # (low, high) of a numeric column's factor

    def raw(self) -> np.ndarray:
        """The columns in the factors' own units (indicators as they are): what the tree
        splits, so that its thresholds read as knob values."""
        out = self.x.copy()
        for j, span in enumerate(self.spans):
            if span is not None:
                out[:, j] = span[0] + (out[:, j] + 1) / 2 * (span[1] - span[0])
        return out


def code(factors: Sequence[Any], points: Sequence[tuple]) -> Coded:
    """Numeric factors on [-1, 1] (low to high), categorical ones as level indicators."""
    names: list[str] = []
    cols: list[list[float]] = []
    owner: list[str] = []
    spans: list[tuple[float, float] | None] = []
    for j, f in enumerate(factors):
        values = [p[j] for p in points]
        if f.kind == "categorical":
            for level in f.levels[1:]:
                names.append(f"{short_name(f.key)}={level}")
                cols.append([1.0 if v == level else 0.0 for v in values])
                owner.append(f.key)
                spans.append(None)
        else:
            names.append(short_name(f.key))
            cols.append([2 * (float(v) - f.low) / (f.high - f.low) - 1 for v in values])
            owner.append(f.key)
            spans.append((float(f.low), float(f.high)))
    x = np.array(cols, dtype=float).T.reshape(len(points), len(names))
    return Coded(names, x, owner, spans)


def short_name(key: str) -> str:
    """How a model names a knob: its last part ('ap_range'), the last two when that part is
    short ('relocate.when'), the whole key for a unit number ('forces.blue.3.move')."""
    parts = key.split(".")
    if key.startswith("forces.") or len(parts) < 2:
        return key
    return parts[-1] if len(parts[-1]) > 4 else ".".join(parts[-2:])


@dataclass
class Effect:
    """One term of the linear model with its 95 % interval: a main effect is the change in
    the metric from the low to the high end of its factor (or from the first level to
    this one); an interaction A x B is how much A's effect changes from B's low to its high
    end (or level)."""

    term: str
    effect: float
    ci_low: float
    ci_high: float
    p_value: float

    def words(self, metric: str) -> str:
        """The effect as a sentence."""
        sure = "" if self.ci_low > 0 or self.ci_high < 0 else "; the interval includes 0"
        ci = f"(95% CI {self.ci_low:+.3g} to {self.ci_high:+.3g}{sure})"
        if " x " in self.term:
            a, b = self.term.split(" x ")
            where = (f"with {b} instead of the first level" if "=" in b
                     else f"from the low to the high end of {b}")
            return f"{self.term}: the effect of {a} on {metric} changes by {self.effect:+.3g} {where} {ci}"
        what = (f"{self.term} instead of the first level" if "=" in self.term
                else f"{self.term} from its low to its high end")
        return f"{what} changes {metric} by {self.effect:+.3g} {ci}"


@dataclass
class Split:
    """A node of the tree: the rule and the mean metric on each side."""

    depth: int
    rule: str
    left_mean: float
    left_n: int
    right_mean: float
    right_n: int
    gain: float  # the drop in squared error this split gives, as a share of the total

    def words(self, metric: str) -> str:
        """The split as a sentence."""
        return (f"{metric} averages {self.left_mean:.3g} where {self.rule} ({self.left_n} points) "
                f"and {self.right_mean:.3g} otherwise ({self.right_n} points)")


@dataclass
class Metamodel:
    """Both metamodels of one metric."""

    metric: str
    points: int
    tree_r2: float
    linear_r2: float
    linear_fit_r2: float
    effects: list[Effect] = field(default_factory=list)
    splits: list[Split] = field(default_factory=list)
    tree: Any = None  # the fitted DecisionTreeRegressor, for the plot
    names: list[str] = field(default_factory=list)


def fit(factors: Sequence[Any], points: Sequence[tuple], y: Sequence[float], metric: str,
        seed: int = 0) -> Metamodel:
    """The tree and the linear model of ``metric`` over the design points."""
    from sklearn.linear_model import LinearRegression
    from sklearn.tree import DecisionTreeRegressor

    coded = code(factors, points)
    ys = np.asarray(y, dtype=float)
    n = len(ys)
    leaf = max(1, math.ceil(0.05 * n))
    tree = DecisionTreeRegressor(max_depth=DEPTH, min_samples_leaf=leaf, random_state=seed)
    raw = coded.raw()
    tree_r2 = _cv_r2(tree, raw, ys, seed)
    tree.fit(raw, ys)
    terms, design = _terms(coded, ys)
    model = _ols(design, ys)
    lin_r2 = _cv_r2(LinearRegression(), design, ys, seed)  # the same least squares as OLS
    effects = _effects(model, terms)
    return Metamodel(metric, n, tree_r2, lin_r2, float(model.rsquared), effects,
                     _splits(tree, coded, ys), tree, coded.names)


def _cv_r2(model, x: np.ndarray, y: np.ndarray, seed: int) -> float:
    from sklearn.metrics import r2_score
    from sklearn.model_selection import KFold, cross_val_predict

    folds = min(FOLDS, len(y))
    if folds < 2 or np.var(y) == 0:
        return math.nan
    pred = cross_val_predict(model, x, y, cv=KFold(folds, shuffle=True, random_state=seed))
    return float(r2_score(y, pred))


def _terms(coded: Coded, y: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Main effects, then interactions among the strongest numeric-or-level columns, as
    many as keep the terms to at most half the points."""
    budget = max(1, len(y) // 2 - 1)
    names = list(coded.names)
    if len(names) > budget:  # too many columns for the points: the strongest mains only
        keep = _strongest(coded.x, y, budget)
        return [names[i] for i in keep], coded.x[:, keep]
    order = _strongest(coded.x, y, len(names))
    room = budget - len(names)
    pairs = []
    for m in range(len(order), 1, -1):
        top = sorted(order[:m])
        cand = [(a, b) for a, b in itertools.combinations(top, 2)
                if coded.factor_of[a] != coded.factor_of[b]]
        if len(cand) <= room:
            pairs = cand
            break
    cols = [coded.x] + [coded.x[:, [a]] * coded.x[:, [b]] for a, b in pairs]
    return _independent(names + [f"{names[a]} x {names[b]}" for a, b in pairs], np.hstack(cols))


def _independent(terms: list[str], design: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Leave out a term whose column the earlier ones (and the intercept) already span: a
    design need not separate every term (a Morris grid, a few points of a category), and
    a least-squares fit cannot say anything about such a term."""
    keep: list[int] = []
    base = np.ones((len(design), 1))
    for j in range(design.shape[1]):
        trial = np.hstack([base, design[:, keep + [j]]])
        if np.linalg.matrix_rank(trial) == trial.shape[1]:
            keep.append(j)
    return [terms[j] for j in keep], design[:, keep]


def _strongest(x: np.ndarray, y: np.ndarray, m: int) -> list[int]:
    """Columns by the absolute correlation of each with the response, strongest first."""
    yc = y - y.mean()
    score = [abs(np.dot(x[:, j] - x[:, j].mean(), yc)) / (np.std(x[:, j]) or 1.0)
             for j in range(x.shape[1])]
    return sorted(range(x.shape[1]), key=lambda j: -score[j])[:m]


def _ols(design: np.ndarray, y: np.ndarray):
    import statsmodels.api as sm

    return sm.OLS(y, sm.add_constant(design, has_constant="add")).fit()


def _effects(model, terms: list[str]) -> list[Effect]:
    """Effects from coefficients: a [-1, 1] column spans 2, a 0/1 indicator 1, so a term's
    effect is its coefficient times the span of each of its columns."""
    ci = np.asarray(model.conf_int(0.05))
    out = []
    for i, term in enumerate(terms, start=1):
        scale = float(np.prod([1.0 if "=" in part else 2.0 for part in term.split(" x ")]))
        lo, hi = ci[i] * scale
        out.append(Effect(term, float(model.params[i] * scale), float(lo), float(hi),
                          float(model.pvalues[i])))
    return sorted(out, key=lambda e: e.p_value if math.isfinite(e.p_value) else 1.0)


def _splits(tree, coded: Coded, y: np.ndarray) -> list[Split]:
    """The tree's splits, root first (breadth first), each with its share of the error."""
    t = tree.tree_
    total = float(np.var(y) * len(y)) or 1.0
    out, queue = [], [(0, 0)]
    while queue:
        node, depth = queue.pop(0)
        left, right = t.children_left[node], t.children_right[node]
        if left < 0:
            continue
        gain = (t.impurity[node] * t.n_node_samples[node]
                - t.impurity[left] * t.n_node_samples[left]
                - t.impurity[right] * t.n_node_samples[right]) / total
        j = int(t.feature[node])
        name = coded.names[j]
        if coded.spans[j] is None:  # a level indicator: left is "not this level"
            factor, level = name.split("=", 1)
            rule = f"{factor} is not {level}"
        else:
            rule = f"{name} <= {float(t.threshold[node]):.4g}"
        out.append(Split(depth, rule, float(t.value[left].ravel()[0]), int(t.n_node_samples[left]),
                         float(t.value[right].ravel()[0]), int(t.n_node_samples[right]),
                         float(gain)))
        queue += [(left, depth + 1), (right, depth + 1)]
    return out
