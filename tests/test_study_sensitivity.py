"""Sensitivity indices and metamodels against known answers: Ishigami's Sobol' indices,
Morris effects of a linear function, a metamodel of a known function, and the study
pipeline (design rows -> stored replications -> responses) end to end."""
from __future__ import annotations

import math
import shutil
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from sim.study.analysis.metamodel import fit
from sim.study.analysis.responses import analyse
from sim.study.analysis.sensitivity import complete_prefix, indices, morris_indices, ranking, sobol_indices
from sim.study.plan.factors import Factor
from sim.study.plan.placing import make_plan
from sim.study.plan.study_file import load_study
from sim.study.run.runner import run_study

ROOT = Path(__file__).resolve().parents[1]
# Two-sided normal quantile for a false-alarm rate of 1e-6, and the one SALib's 95 %
# intervals use: a half-width h is 1.96 bootstrap standard errors.
Z_TEST = float(stats.norm.ppf(1 - 0.5e-6))
Z_95 = float(stats.norm.ppf(0.975))


def ishigami(x: np.ndarray, a: float = 7.0, b: float = 0.1) -> np.ndarray:
    """Ishigami & Homma's function on [-pi, pi]^3."""
    return np.sin(x[:, 0]) + a * np.sin(x[:, 1]) ** 2 + b * x[:, 2] ** 4 * np.sin(x[:, 0])


def ishigami_indices(a: float = 7.0, b: float = 0.1) -> tuple[list[float], list[float]]:
    """The exact first-order and total indices (Sobol' & Levitan 1999)."""
    pi4, pi8 = math.pi ** 4, math.pi ** 8
    v1 = 0.5 * (1 + b * pi4 / 5) ** 2
    v2 = a * a / 8
    v13 = 8 * b * b * pi8 / 225
    v = v1 + v2 + v13
    return [v1 / v, v2 / v, 0.0], [(v1 + v13) / v, v2 / v, v13 / v]


def test_sobol_indices_of_ishigami_within_their_bootstrap_intervals():
    factors = [Factor(f"x{i}", "real", -math.pi, math.pi) for i in (1, 2, 3)]
    plan = make_plan("saltelli", factors, seed=3, samples=4096)
    x = np.array([plan.points[r] for r in plan.rows])
    found = sobol_indices(plan.keys, ishigami(x))
    assert found == sobol_indices(plan.keys, ishigami(x))  # a seeded bootstrap
    s1, st = ishigami_indices()
    assert [round(v, 4) for v in s1 + st] == [0.3139, 0.4424, 0.0, 0.5576, 0.4424, 0.2437]
    for i in found:
        true = (s1 if i.name == "S1" else st)[plan.keys.index(i.factor)]
        half = (i.ci_high - i.ci_low) / 2
        assert 0 < half < 0.05  # an interval narrow enough to tell the indices apart
        # The estimate is within 4.9 bootstrap standard errors of the truth.
        assert abs(i.value - true) <= Z_TEST / Z_95 * half, i
    assert ranking(found) == ["x1", "x2", "x3"]


def test_morris_effects_of_a_linear_function_are_its_slopes_over_the_range():
    factors = [Factor("a", "real", 0.0, 1.0), Factor("b", "real", 0.0, 2.0),
               Factor("c", "integer", 0, 3)]
    plan = make_plan("morris", factors, seed=5, samples=12, levels=4)
    x = np.array([plan.points[r] for r in plan.rows], dtype=float)
    y = 3 * x[:, 0] - 2 * x[:, 1] + 0 * x[:, 2]
    got = {(i.factor, i.name): i for i in morris_indices(plan.keys, plan.unit, y, 4)}
    assert got[("a", "mu_star")].value == pytest.approx(3.0)  # slope x range 1
    assert got[("b", "mu_star")].value == pytest.approx(4.0)  # |-2| x range 2
    assert got[("b", "mu")].value == pytest.approx(-4.0)
    assert got[("c", "mu_star")].value == pytest.approx(0.0)
    assert all(got[(f, "sigma")].value == pytest.approx(0.0, abs=1e-12) for f in "abc")


def test_only_complete_blocks_of_a_partly_stored_plan_are_analysed():
    rows = [0, 1, 2, 3, 0, 4, 5, 6, 7, 8, 9, 10]  # three blocks of 4
    assert complete_prefix(rows, set(range(11)), 4) == 3
    assert complete_prefix(rows, set(range(11)) - {5}, 4) == 1
    assert complete_prefix(rows, set(range(11)) - {1}, 4) == 0
    factors = [Factor("x", "real", 0.0, 1.0), Factor("y", "real", 0.0, 1.0)]
    plan = make_plan("saltelli", factors, seed=1, samples=16)
    responses = {p: v[0] + 2 * v[1] for p, v in enumerate(plan.points)}
    whole, n = indices(plan, responses)
    assert n == 16 and ranking(whole) == ["y", "x"]
    cut = {p: v for p, v in responses.items() if p not in plan.rows[8 * 4:]}
    assert indices(plan, cut)[1] == 8


def test_metamodels_recover_a_known_function():
    factors = [Factor("rules.alpha", "real", 0.0, 10.0), Factor("rules.bravo", "integer", 1, 5),
               Factor("rules.charlie", "categorical", levels=("p", "q")), Factor("rules.delta", "real", 0.0, 1.0)]
    plan = make_plan("nolh", factors, seed=1, stacks=3)
    coded = [(2 * a / 10 - 1, (b - 1) / 2 - 1, c == "q", 2 * d - 1) for a, b, c, d in plan.points]
    # 1 + 2 a + 0.5 b - 1.5 [c = q] + 1.25 a d, on the coded scales: no noise at all.
    y = [1 + 2 * a + 0.5 * b - 1.5 * c + 1.25 * a * d for a, b, c, d in coded]
    m = fit(factors, plan.points, y, "y")
    got = {e.term: e for e in m.effects}
    assert got["alpha"].effect == pytest.approx(4.0)  # twice the coded slope: low to high
    assert got["bravo"].effect == pytest.approx(1.0)
    assert got["charlie=q"].effect == pytest.approx(-1.5)
    assert got["alpha x delta"].effect == pytest.approx(5.0)  # a's effect: 4 - 2.5 at low d, 4 + 2.5 at high d
    named = ("alpha", "bravo", "charlie=q", "alpha x delta")
    assert all(abs(e.effect) < 1e-9 for t, e in got.items() if t not in named)
    assert m.linear_r2 == pytest.approx(1.0) and m.linear_fit_r2 == pytest.approx(1.0)
    assert "alpha from its low to its high end changes y by +4 " in got["alpha"].words("y")
    # A step in one knob: the tree's first split finds it, in the knob's own units.
    step = [5.0 if v[0] > 6.0 else 0.0 for v in plan.points]
    root = fit(factors, plan.points, step, "y").splits[0]
    below = max(v[0] for v in plan.points if v[0] <= 6.0)
    above = min(v[0] for v in plan.points if v[0] > 6.0)
    assert root.rule == f"alpha <= {(below + above) / 2:.4g}"
    assert (root.left_mean, root.right_mean) == (0.0, 5.0) and root.gain == pytest.approx(1.0)


def knob_battle(scenario, seed):
    """A stand-in battle whose only metric is a known function of three knobs."""
    r = scenario.rules
    x = np.array([[r.snapfire.radius - 1 - math.pi, r.snapfire.zoc_radius - 1 - math.pi,
                   r.base.charge_range - 1 - math.pi]])
    return {"y": float(ishigami(x)[0])}


def test_a_saltelli_study_feeds_its_rows_to_the_estimator_in_plan_order(tmp_path):
    shutil.copy(ROOT / "scenarios" / "open_ground_advance.yaml", tmp_path)
    path = tmp_path / "s.yaml"
    path.write_text("""\
study: ishigami
scenario: open_ground_advance.yaml
seed: 4
replications: 2
variants: {a: {}}
factors:
  design: saltelli
  samples: 16
  vary:
    rules.snapfire.radius: [1.0, 7.283185307179586]
    rules.snapfire.zoc_radius: [1.0, 7.283185307179586]
    rules.base.charge_range: [1.0, 7.283185307179586]
""")
    study = load_study(path)
    run = run_study(study, battle=f"{__name__}:knob_battle")
    stored = [run.records[k] for k in sorted(run.records)]
    result = analyse(study, stored, {}, ["y"])
    (r,) = result.results
    assert result.replications == {"a": 2} and r.blocks == 16
    x = np.array([[v - 1 - math.pi for v in study.plan.points[p]] for p in study.plan.rows])
    direct = sobol_indices(study.plan.keys, ishigami(x))
    assert [(i.factor, i.name, i.value) for i in r.indices] == \
        [(i.factor, i.name, pytest.approx(i.value, abs=1e-12)) for i in direct]
    assert r.model is not None and r.model.points == len(study.plan.points)
    again = analyse(study, stored, {}, ["y"]).results[0]
    assert again.indices == r.indices and again.model.effects == r.model.effects
