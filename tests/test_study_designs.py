"""Designs for data farming: NOLH tables against their published properties, the qmc and
SALib plans, factorials, factor kinds, extension by prefix, validation, lazy cells."""
from __future__ import annotations

import itertools
import math
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import qmc

from sim.errors import InputError
from sim.study.plan.designs import nolh
from sim.study.plan.designs.fractional import fractional
from sim.study.plan.factors import Factor
from sim.study.plan.placing import make_plan
from sim.study.plan.quality import properties
from sim.study.plan.study_file import load_study

ROOT = Path(__file__).resolve().parents[1]
VILLAGE = ROOT / "scenarios" / "village_sniper.yaml"

HEAD = """\
study: d
scenario: village_sniper.yaml
seed: 11
replications: 2
variants: {a: {}}
"""


def write(tmp_path, text: str, name: str = "study.yaml") -> Path:
    shutil.copy(VILLAGE, tmp_path / VILLAGE.name)
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("points", sorted(nolh.TABLES))
def test_nolh_tables_have_the_published_nearly_orthogonal_properties(points):
    width, _ = nolh.TABLES[points]
    levels = nolh.table(points)
    assert levels.shape == (points, width)
    for j in range(width):  # a Latin hypercube: every level once per column
        assert sorted(levels[:, j]) == list(range(1, points + 1))
    unit = (levels - 1) / (points - 1)
    p = properties(unit)
    # Cioppa & Lucas (2007) call a design nearly orthogonal when the largest absolute
    # pairwise correlation is at most 0.03 and the correlation matrix's condition
    # number at most 1.13; their tables meet both.
    assert p.max_abs_correlation <= 0.03
    assert p.condition_number <= 1.13
    # Space filling: better than random Latin hypercubes of the same size and width.
    rng = np.random.default_rng(points)
    rivals = [properties(qmc.LatinHypercube(d=width, rng=rng).random(points)) for _ in range(20)]
    assert p.centred_discrepancy < min(r.centred_discrepancy for r in rivals)
    assert p.maximin > np.median([r.maximin for r in rivals])


def test_nolh_uses_the_first_columns_and_stacks_rotations_with_one_centre():
    one = nolh.nolh(5)
    assert one.shape == (17, 5)
    assert np.array_equal(one, (nolh.table(17)[:, :5] - 1) / 16)
    three = nolh.nolh(5, stacks=3)
    assert three.shape == (3 * 17 - 2, 5)  # the all-middle centre row kept once
    assert np.array_equal(three[:17], one)  # more stacks extend, never change, a design
    rotated = (nolh.table(17)[:, [1, 2, 3, 4, 5]] - 1) / 16
    assert np.array_equal(three[17:33], rotated[~np.all(rotated == 0.5, axis=1)])
    assert nolh.smallest(8) == 33 and nolh.smallest(29) == 257 and nolh.nolh(3, 65).shape == (65, 3)


def test_properties_match_a_direct_computation():
    x = np.array([[0.0, 0.1], [0.5, 0.9], [1.0, 0.4], [0.25, 0.6]])
    p = properties(x)
    dists = [math.dist(a, b) for a, b in itertools.combinations(x, 2)]
    assert p.maximin == pytest.approx(min(dists))
    a, b = x[:, 0] - x[:, 0].mean(), x[:, 1] - x[:, 1].mean()
    assert p.max_abs_correlation == pytest.approx(abs(a @ b) / math.sqrt((a @ a) * (b @ b)))
    assert p.centred_discrepancy == pytest.approx(qmc.discrepancy(x, method="CD"))
    assert p.points == 4


def test_factor_kinds_map_unit_coordinates_evenly():
    real = Factor("k", "real", 2.0, 10.0)
    assert real.value(0) == 2.0 and real.value(1) == 10.0 and real.value(0.25) == 4.0
    whole = Factor("k", "integer", 2, 4)  # three values, a third of [0, 1] each
    assert [whole.value(u) for u in (0, 0.33, 0.34, 0.66, 0.67, 1.0)] == [2, 2, 3, 3, 4, 4]
    cat = Factor("k", "categorical", levels=("a", "b"))
    assert [cat.value(u) for u in (0, 0.49, 0.5, 1)] == ["a", "a", "b", "b"]
    assert whole.spread(2) == [2, 4] and whole.spread(5) == [2, 3, 4] and real.spread(3) == [2, 6, 10]


def test_fractional_factorial_is_the_generated_half_fraction():
    x = fractional(["a", "b", "c", "abc"])
    assert x.shape == (8, 4)
    assert np.array_equal(x[:, 3], x[:, 0] * x[:, 1] * x[:, 2])  # D = ABC
    assert np.array_equal(x.T @ x, 8 * np.eye(4))  # main effects orthogonal
    assert sorted(map(tuple, x[:, :3])) == sorted(itertools.product([-1, 1], repeat=3))


@pytest.mark.parametrize("method,small,large", [("sobol", 8, 16), ("halton", 5, 12),
                                                ("saltelli", 4, 8), ("morris", 3, 5)])
def test_extendable_designs_keep_their_first_rows(method, small, large):
    factors = [Factor("x", "real", 0.0, 1.0), Factor("n", "integer", 1, 6),
               Factor("c", "categorical", levels=("p", "q", "r"))]
    a = make_plan(method, factors, 5, samples=small)
    b = make_plan(method, factors, 5, samples=large)
    assert np.array_equal(b.unit[:len(a.unit)], a.unit)
    assert b.points[:len(a.points)] == a.points
    if method in ("saltelli", "morris"):
        rows = len(factors) + (2 if method == "saltelli" else 1)
        assert len(a.rows) == small * rows and b.rows[:len(a.rows)] == a.rows
        assert [a.points[i] for i in a.rows] == [tuple(f.value(u) for f, u in zip(factors, r))
                                                 for r in a.unit]


# The points of two small Latin hypercube studies as the code before the two Latin
# hypercubes became one (``designs.unit_rows``) gave them: a study's cells never change.
LHS_POINTS = {
    "lhs": (6, [(6, "nearest", 2.352148758626064), (6, "best_cover", 2.9647856080414803),
                (3, "random", 2.001397403381936), (4, "nearest", 3.3085548013627983),
                (5, "random", 3.5784978340716256), (7, "best_cover", 3.998465758297047)]),
    "optimal_lhs": (5, [(6, "random", 3.953709958773715), (3, "random", 2.3375754819220016),
                        (8, "best_cover", 2.708000640794144), (6, "nearest", 2.8253287157458304),
                        (4, "best_cover", 3.317410782913063)]),
}


@pytest.mark.parametrize("design", sorted(LHS_POINTS))
def test_latin_hypercube_points_are_pinned(tmp_path, design):
    samples, points = LHS_POINTS[design]
    study = load_study(write(tmp_path, HEAD + f"""\
factors:
  design: {design}
  samples: {samples}
  vary:
    rules.h17.ap_range: [3, 8]
    rules.h17.placement: [best_cover, random, nearest]
    forces.blue.0.move: [2.0, 4.0]
"""))
    got = [tuple(v for _, v in c.point) for c in study.cells]
    assert got == points
    assert [type(v) for p in got for v in p] == [type(v) for p in points for v in p]


def test_every_design_gives_typed_distinct_points_in_range(tmp_path):
    for design, extra in [("nolh", ""), ("optimal_lhs", "\n  samples: 9"),
                          ("factorial", "\n  levels: 3"), ("sobol", "\n  samples: 8")]:
        study = load_study(write(tmp_path, HEAD + f"""\
factors:
  design: {design}{extra}
  vary:
    rules.h17.ap_range: [3, 8]
    rules.h17.placement: [best_cover, random, nearest]
    forces.blue.0.move: [2.0, 4.0]
""", f"{design}.yaml"))
        points = [dict(c.point) for c in study.cells]
        assert len({c.point_json for c in study.cells}) == len(points) >= 8
        assert all(isinstance(p["rules.h17.ap_range"], int) and 3 <= p["rules.h17.ap_range"] <= 8
                   for p in points)
        assert {p["rules.h17.placement"] for p in points} == {"best_cover", "random", "nearest"}
        assert all(2.0 <= p["forces.blue.0.move"] <= 4.0 for p in points)
        cell = study.cells[-1]
        assert cell.scenario.forces["blue"][0].move == cell.overrides["forces.blue.0.move"]
        assert "scenario" not in vars(cell)  # built on demand, never kept


BAD = [
    ("design: latin\n  vary: {rules.h17.ap_range: [3, 8]}", "line 7, key factors.design",
     "unknown design 'latin'"),
    ("design: sobol\n  samples: 12\n  vary: {rules.h17.ap_range: [3, 8]}",
     "line 8, key factors.samples", "power of two"),
    ("design: nolh\n  samples: 20\n  vary: {rules.h17.ap_range: [3, 8]}",
     "line 8, key factors.samples", "NOLH table sizes"),
    ("design: nolh\n  samples: 17\n  vary: {" + ", ".join(f"forces.blue.{i}.move: [1.0, 4.0]"
                                                          for i in range(6))
     + ", rules.h17.ap_range: [3, 8], rules.h17.ap_need: [6, 10]}",
     "line 8, key factors.samples", "fewer than the 8 factors"),
    ("design: sobol\n  samples: 8\n  vary: {rules.h17.placement: [best_cover, best_cover]}",
     "line 9, key factors.vary.rules.h17.placement", "listed twice"),
    ("design: sobol\n  samples: 8\n  vary: {rules.h17.placement: {levels: [random]}}",
     "line 9, key factors.vary.rules.h17.placement", "at least two levels"),
    ("design: sobol\n  samples: 8\n  vary: {rules.h17.ap_range: [3, 5, 8]}",
     "line 9, key factors.vary.rules.h17.ap_range", "{levels: [...]}"),
    ("design: sobol\n  samples: 8\n  vary: {rules.h17.ap_range: [8, 3]}",
     "line 9, key factors.vary.rules.h17.ap_range", "low < high"),
    ("design: grid\n  stacks: 2\n  vary: {rules.h17.ap_range: [3, 8]}",
     "line 8, key factors.stacks", "only for design nolh"),
    ("design: morris\n  samples: 4\n  levels: 5\n  vary: {rules.h17.ap_range: [3, 8]}",
     "line 9, key factors.levels", "even number"),
    ("design: fractional\n  vary: {rules.h17.ap_range: [3, 8]}", "line 6, key factors",
     "needs 'generators'"),
    ("design: fractional\n  generators: a ab\n  vary: {rules.h17.ap_range: [3, 8], "
     "rules.h17.ap_need: [6, 9]}", "line 8, key factors.generators", "'b' is not a base factor"),
    ("design: saltelli\n  vary: {rules.h17.ap_range: [3, 8]}", "line 6, key factors",
     "needs 'samples'"),
    ("design: saltelli\n  samples: 524288\n  vary: {rules.h17.ap_range: [3, 8]}",
     "line 6, key factors", "expected at most 1000000"),
    ("design: lhs\n  samples: 20000\n  vary: {rules.h17.ap_range: [3, 8]}",
     "line 8, key factors.samples", "at most 10000 samples"),
    ("design: sobol\n  samples: 8\n  vary: {rules.h17.ap_range: [3, 300]}",
     "line 9, key factors.vary.rules.h17.ap_range", "less than or equal to 100"),
    ("design: sobol\n  samples: 8\n  vary: {rules.h17.placement: [best_cover, anywhere]}",
     "line 9, key factors.vary.rules.h17.placement", "'anywhere' is not a h17.placement behaviour"),
]


@pytest.mark.parametrize("body,place,message", BAD)
def test_bad_factors_are_blamed_on_their_line(tmp_path, body, place, message):
    path = write(tmp_path, HEAD + "factors:\n  " + body + "\n")
    with pytest.raises(InputError) as info:
        load_study(path)
    assert info.value.file == str(path)
    assert place in info.value.place, info.value
    assert message in info.value.detail, info.value


def test_missing_analysis_extra_is_one_line_saying_what_to_install(tmp_path, monkeypatch):
    nolh.table.cache_clear()
    monkeypatch.setitem(sys.modules, "pycubedoe", None)  # as if not installed
    try:
        with pytest.raises(InputError) as info:
            load_study(write(tmp_path, HEAD + "factors: {design: nolh, vary: {rules.h17.ap_range: [3, 8]}}\n"))
    finally:
        nolh.table.cache_clear()
    assert "pip install 'sim[analysis]'" in info.value.detail
    assert info.value.place == "line 6, key factors.design"


# Hashes of the shipped studies as they were before cells became lazy: stored results
# are keyed by them, so building cells differently must not change them.
# The study hashes of the shipped studies as eager cell building gives them (every cell
# built in full). They change when a scenario's canonical form does: when each rule
# system got a schema of its own (no other system's defaults), and when snap fire got
# its take_reactions knob, and when scenarios got plans, groups and policies, and (FOW)
# when the FOW base got its knobs for rule modules (module_hit, module_hit_pins, sniper_reacts).
PINNED = {"snapfire_vs_zoc.yaml": ("ee8edd0527171206b4cd", "af0aee4eb72b48feeb49"),
          "march_halt.yaml": ("68d087574f85bd3eaadd", "c7e61648e8798a4d4459"),
          "fow_relocation.yaml": ("b572dbb3c643d4eaed7f", "a4b374f93589e715f5ed")}


@pytest.mark.parametrize("name", sorted(PINNED))
def test_lazy_cells_keep_the_study_hashes(name):
    from sim.scenario.load import scenario_hash

    study = load_study(ROOT / "scenarios" / name)
    assert (study.key(True), study.key(False)) == PINNED[name]
    for cell in study.cells:
        assert scenario_hash(cell.scenario) == cell.scenario_hash


def test_a_large_study_checks_every_cell_cheaply_and_builds_a_sample(tmp_path, monkeypatch):
    import sim.study.plan.study_file as design
    from sim.study.plan.cells import probe_indices

    text = HEAD + """\
factors:
  design: sobol
  samples: 64
  vary: {rules.h17.ap_range: [3, 8], forces.blue.0.move: [1.0, 4.0], rules.h17.placement: [best_cover, random]}
"""
    built = []
    real = design._apply
    monkeypatch.setattr(design, "_apply", lambda scen, base, merged, *a: built.append(merged)
                        or real(scen, base, merged, *a))
    monkeypatch.setattr(design, "FULL_CHECK_CELLS", 10)
    study = load_study(write(tmp_path, text))
    values = [dict(c.point) for c in study.cells]
    probes = probe_indices([c.point for c in study.cells])
    assert sorted(values.index(b) for b in built) == sorted(probes)  # only the sample in full
    assert 3 <= len(probes) <= 1 + 2 * 2 + 2 < len(values) == 64
    for key in ("rules.h17.ap_range", "forces.blue.0.move"):
        got = {values[i][key] for i in probes}
        assert min(v[key] for v in values) in got and max(v[key] for v in values) in got
    assert {values[i]["rules.h17.placement"] for i in probes} == {"best_cover", "random"}
    monkeypatch.setattr(design, "FULL_CHECK_CELLS", 1000)
    built.clear()
    again = load_study(write(tmp_path, text, "again.yaml"))
    assert len(built) == 64  # a small study builds every cell
    assert [c.scenario_hash for c in again.cells] == [c.scenario_hash for c in study.cells]


def test_a_cell_that_fails_its_full_build_where_it_runs_stops_the_study_in_one_line(
        tmp_path, monkeypatch, capsys):
    import sim.study.plan.study_file as design
    from sim.cli import main

    # As if the sample had missed it: only the first cell is built at load time.
    monkeypatch.setattr(design, "FULL_CHECK_CELLS", 0)
    monkeypatch.setattr(design, "probe_indices", lambda points: {0})
    path = write(tmp_path, HEAD + 'factors:\n  vary: {forces.blue.0.at: ["0,1", "NOWHERE"]}\n')
    study = load_study(path)  # the schema takes any node name: the map check is the full build's
    assert [c.label for c in study.cells] == ["a@at=0,1", "a@at=NOWHERE"]
    for where in (["--executor", "serial"], ["--executor", "processes", "--workers", "2"]):
        code = main(["study", str(path), *where, "--quiet"])
        err = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and len(err) == 1, err
        assert str(path) in err[0] and "'NOWHERE' is not on the map" in err[0]


def test_sim_validate_reports_the_designs_quality(tmp_path, capsys):
    from sim.cli import main

    path = write(tmp_path, HEAD + "factors: {design: nolh, vary: {rules.h17.ap_range: [3, 8], "
                 "rules.h17.ap_need: [6, 10]}}\n")
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert "valid study (17 cells; design nolh: 17 distinct rows, max |pairwise correlation| 0.0000" in out


def test_cheap_hashes_equal_full_builds_on_the_shipped_farming_study():
    from sim.scenario.load import scenario_hash
    from sim.study.plan.cells import FULL_CHECK_CELLS

    study = load_study(ROOT / "scenarios" / "fow_farming.yaml")
    assert len(study.cells) == 2619 > FULL_CHECK_CELLS  # so most hashes are the cheap ones
    for cell in study.cells[:: len(study.cells) // 15]:
        assert scenario_hash(cell.scenario) == cell.scenario_hash
