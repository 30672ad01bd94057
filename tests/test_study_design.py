"""Study files: validation with file and line, cells, factor designs, seeds, hashes."""
from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from sim.cli import main
from sim.errors import InputError
from sim.study.plan.seeds import replication_seed
from sim.study.plan.study_file import load_study

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "open_ground_advance.yaml"

HEAD = """\
study: s
scenario: open_ground_advance.yaml
seed: 7
"""


def write(tmp_path, text: str, name: str = "study.yaml") -> Path:
    shutil.copy(SCENARIO, tmp_path / SCENARIO.name)
    path = tmp_path / name
    path.write_text(text)
    return path


def test_shipped_study_resolves_variants_against_the_scenario():
    study = load_study(ROOT / "scenarios" / "snapfire_vs_zoc.yaml")
    assert [c.label for c in study.cells] == ["snap_fire", "zoc"]
    assert study.baseline == "snap_fire"
    assert study.cells[1].scenario.rules.snapfire.reaction == "zoc"
    assert study.cells[0].scenario.rules.snapfire.reaction == "snap_fire"
    assert study.cells[0].scenario_hash != study.cells[1].scenario_hash
    again = load_study(ROOT / "scenarios" / "snapfire_vs_zoc.yaml")
    assert again.key(True) == study.key(True) != study.key(False)
    config = study.config(True)
    assert config["scenario"]["rules"]["snapfire"]["radius"] == 10
    assert config["cells"][1]["overrides"] == {"rules.snapfire.reaction": "zoc"}
    assert config["study_hash"] == study.key(True) and config["crn"] is True


def test_replication_count_is_not_part_of_the_study_hash(tmp_path):
    a = load_study(write(tmp_path, HEAD + "replications: 5\nvariants: {a: {}}\n", "a.yaml"))
    b = load_study(write(tmp_path, HEAD + "replications: 9\nvariants: {a: {}}\n", "b.yaml"))
    c = load_study(write(tmp_path, HEAD.replace("7", "8") + "replications: 5\nvariants: {a: {}}\n",
                         "c.yaml"))
    assert a.key(True) == b.key(True) != c.key(True)


def test_grid_labels_and_overrides(tmp_path):
    study = load_study(write(tmp_path, HEAD + """\
replications: 3
baseline: sf
variants:
  sf: {}
  zoc: {rules.snapfire.reaction: zoc}
factors:
  design: grid
  vary: {rules.snapfire.radius: [5, 12.5], rules.base.shoot_range: [20, 30]}
"""))
    labels = [c.label for c in study.cells]
    assert labels[:4] == ["sf@radius=5,shoot_range=20", "sf@radius=5,shoot_range=30",
                          "sf@radius=12.5,shoot_range=20", "sf@radius=12.5,shoot_range=30"]
    assert labels[4] == "zoc@radius=5,shoot_range=20" and len(labels) == 8
    cell = study.cells[6]
    assert cell.scenario.rules.snapfire.radius == 12.5
    assert cell.scenario.rules.base.shoot_range == 20
    assert cell.scenario.rules.snapfire.reaction == "zoc"
    assert cell.point_json == '{"rules.base.shoot_range":20,"rules.snapfire.radius":12.5}'


def test_same_short_name_falls_back_to_full_keys(tmp_path):
    study = load_study(write(tmp_path, HEAD + """\
replications: 3
variants: {a: {}}
factors: {vary: {rules.snapfire.radius: [5], rules.snapfire.zoc_radius: [3], \
rules.base.phase_length: [1.0]}}
"""))
    assert study.cells[0].label == "a@radius=5,zoc_radius=3,phase_length=1"


def lhs_study(samples: int, vary: str) -> str:
    """A study text of the Latin hypercube design, ``vary`` its flow mapping."""
    return HEAD + f"replications: 3\nvariants: {{a: {{}}}}\nfactors:\n  design: lhs\n  samples: {samples}\n" \
        f"  vary: {vary}\n"


def test_latin_hypercube_is_stratified_reproducible_and_typed(tmp_path):
    text = lhs_study(8, "{rules.snapfire.radius: [2.0, 18.0], rules.base.shoot_range: [10, 50]}")
    study = load_study(write(tmp_path, text, "a.yaml"))
    radius = np.array([dict(c.point)["rules.snapfire.radius"] for c in study.cells])
    assert len(radius) == 8 and ((radius >= 2) & (radius <= 18)).all()
    # One point in each of the 8 equal strata of [2, 18]: the Latin hypercube property.
    assert sorted(((radius - 2) // 2).astype(int)) == list(range(8))
    assert [c.scenario.rules.snapfire.radius for c in study.cells] == list(radius)
    shoot = [dict(c.point)["rules.base.shoot_range"] for c in study.cells]
    assert all(isinstance(v, int) and 10 <= v <= 50 for v in shoot)  # integer bounds
    same = load_study(write(tmp_path, text, "b.yaml"))
    assert [c.point for c in same.cells] == [c.point for c in study.cells]
    other = load_study(write(tmp_path, text.replace("seed: 7", "seed: 8"), "c.yaml"))
    assert [c.point for c in other.cells] != [c.point for c in study.cells]


def test_latin_hypercube_takes_categorical_levels_shared_evenly_over_its_strata(tmp_path):
    """docs/study.md's key table: `lhs` takes categorical levels like every design but
    `grid`. Its 9 strata share the 2 levels 5 and 4 (stratum j: level floor(2 j / 9)),
    paired with the radius by the Latin hypercube; the radius column is the same draw's."""
    from scipy.stats import qmc

    from sim.study.plan.seeds import stable_key

    text = lhs_study(9, "{rules.snapfire.radius: [2.0, 20.0], rules.snapfire.reaction: [snap_fire, zoc], "
                        "rules.snapfire.march_halt: {levels: [rest_of_phase, this_move]}}")
    study = load_study(write(tmp_path, text, "a.yaml"))
    points = [dict(c.point) for c in study.cells]
    rng = np.random.default_rng(np.random.SeedSequence(7, spawn_key=(stable_key("lhs"),)))
    unit = qmc.LatinHypercube(d=3, rng=rng).random(9)
    levels = (["snap_fire", "zoc"], ["rest_of_phase", "this_move"])
    assert [p["rules.snapfire.radius"] for p in points] == [u * 18.0 + 2.0 for u in unit[:, 0]]
    for col, key in ((1, "rules.snapfire.reaction"), (2, "rules.snapfire.march_halt")):
        assert [p[key] for p in points] == [levels[col - 1][int(u * 9) * 2 // 9] for u in unit[:, col]]
        assert sorted(sum(p[key] == v for p in points) for v in levels[col - 1]) == [4, 5]
    assert {c.scenario.rules.snapfire.reaction for c in study.cells} == {"snap_fire", "zoc"}
    same = load_study(write(tmp_path, text, "b.yaml"))
    assert [c.point for c in same.cells] == [c.point for c in study.cells]


def test_latin_hypercube_names_a_repeated_level_as_such(tmp_path):
    text = lhs_study(4, "\n    rules.snapfire.reaction: [zoc, zoc]")
    with pytest.raises(InputError, match="line 10, key factors.vary.rules.snapfire.reaction: a level is listed twice"):
        load_study(write(tmp_path, text))


BAD = [
    ("replicatons: 3\nvariants: {a: {}}\n", "line 4, key replicatons", "unknown key"),
    ("replications: 3\nvariants:\n  a: {}\n  b:\n    rules.snapfire.reacton: zoc\n",
     "line 8, key variants.b.rules.snapfire.reacton", "unknown key"),
    ("replications: 3\nvariants:\n  a: {rules.snapfire.reaction: maybe}\n",
     "line 6, key variants.a.rules.snapfire.reaction",
     "unknown reaction kind 'maybe' (expected one of ['snap_fire', 'zoc']"),
    ("replications: 3\nvariants: {a: {}}\nfactors:\n  vary:\n    rules.snapfire.radius: [5, -1]\n",
     "line 8, key factors.vary.rules.snapfire.radius", "greater than 0"),
    ("replications: 3\nvariants: {a: {}}\nmetrics: [attacker_won, atacker_lost]\n",
     "line 6, key metrics.1", "unknown metric 'atacker_lost'"),
    ("variants: {a: {}}\n", "key (top level)", "exactly one of 'replications' or 'precision'"),
    ("replications: 3\nbaseline: b\nvariants: {a: {}}\n", "line 5, key baseline", "not a variant"),
    ("replications: 0\nvariants: {a: {}}\n", "line 4, key replications", "greater than or equal to 1"),
    ("precision: {half_width: 0.1, batch: 1}\nvariants: {a: {}}\n", "key precision.batch",
     "greater than or equal to 2"),
    ("replications: 3\nvariants:\n  a: {rules.snapfire.radius: 3}\n"
     "factors: {vary: {rules.snapfire.radius: [5]}}\n", "line 6, key variants.a.rules.snapfire.radius",
     "factors.vary also sets"),
    ("replications: 3\nvariants: {a: {}}\nfactors: {design: lhs, vary: {rules.snapfire.radius: [5, 6]}}\n",
     "line 6, key factors", "needs 'samples'"),
    # Issue 22, item 7: a key inside another of the same cell (as --set refuses them)
    ("replications: 3\nvariants:\n  a: {rules.snapfire: {reaction: zoc}, rules.snapfire.radius: 5}\n",
     "line 6, key variants.a.rules.snapfire.radius", "the variant sets rules.snapfire (expected"),
    ("replications: 3\nvariants:\n  a: {rules.snapfire.radius: 5, rules.snapfire: {reaction: zoc}}\n",
     "line 6, key variants.a.rules.snapfire", "the variant sets rules.snapfire.radius (expected"),
    ("replications: 3\nvariants:\n  a: {rules.snapfire: {reaction: zoc}}\n"
     "factors: {vary: {rules.snapfire.radius: [5]}}\n", "line 6, key variants.a.rules.snapfire",
     "factors.vary sets rules.snapfire.radius"),
    ("replications: 3\nvariants: {a: {}}\n"
     "factors: {vary: {rules.snapfire: [{radius: 4}], rules.snapfire.radius: [5]}}\n",
     "key factors.vary.rules.snapfire.radius", "and also rules.snapfire"),
]


@pytest.mark.parametrize("body,place,message", BAD)
def test_bad_study_names_file_line_and_expectation(tmp_path, body, place, message):
    path = write(tmp_path, HEAD + body)
    with pytest.raises(InputError) as info:
        load_study(path)
    assert info.value.file == str(path)
    assert place in info.value.place
    assert message in info.value.detail


def test_missing_scenario_is_blamed_on_the_study_key(tmp_path):
    path = write(tmp_path, HEAD.replace("open_ground_advance", "nowhere") + "replications: 3\nvariants: {a: {}}\n")
    with pytest.raises(InputError) as info:
        load_study(path)
    assert info.value.place == "line 2, key scenario" and "nowhere.yaml" in info.value.detail


def test_sim_validate_accepts_studies_and_exits_2_on_a_misspelt_knob(tmp_path, capsys):
    good = ROOT / "scenarios" / "snapfire_vs_zoc.yaml"
    assert main(["validate", str(good)]) == 0
    bad = write(tmp_path, HEAD + "replications: 3\nvariants:\n  a: {rules.snapfire.radios: 3}\n")
    assert main(["validate", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "line 6, key variants.a.rules.snapfire.radios" in err[0]
    assert "Traceback" not in err[0]


def test_seeds_common_random_numbers_and_independent_streams():
    crn = [replication_seed(2026, i, variant=v, point=p) for i in range(50)
           for v, p in [("a", "{}"), ("b", '{"r":5}')]]
    assert crn[0::2] == crn[1::2]  # every variant and point shares replication i's seed
    assert len(set(crn[0::2])) == 50
    ind_a = [replication_seed(2026, i, crn=False, variant="a", point="{}") for i in range(50)]
    ind_b = [replication_seed(2026, i, crn=False, variant="b", point="{}") for i in range(50)]
    ind_p = [replication_seed(2026, i, crn=False, variant="a", point='{"r":5}') for i in range(50)]
    assert len(set(ind_a) | set(ind_b) | set(ind_p) | set(crn[0::2])) == 200
    assert all(0 <= s < 2**63 for s in crn + ind_a)
    # Pinned: stored results are keyed by these seeds, so the derivation must never drift.
    assert replication_seed(2026, 0) == 7641112973134592134
    assert replication_seed(2026, 0, crn=False, variant="zoc", point="{}") == 5020754644062363240
    with pytest.raises(ValueError):
        replication_seed(-1, 0)


@pytest.mark.parametrize("name", ["snapfire_vs_zoc.yaml", "march_halt.yaml", "fow_relocation.yaml"])
def test_shipped_studies_validate_state_their_question_and_run(name):
    from sim.study.run.runner import run_study

    path = ROOT / "scenarios" / name
    first, second = path.read_text().splitlines()[:2]   # the editor's schema line, then the question
    assert first == "# yaml-language-server: $schema=../docs/study.schema.json" and second.startswith("# Question:")
    study = load_study(path)
    assert len({c.label for c in study.cells}) == len(study.cells) >= 2
    run = run_study(study, replications=3)
    assert not run.failures and run.ran == 3 * len(study.cells)
    assert set(run.summary.cells) == {c.label for c in study.cells}
    assert all(e.n == 3 for per in run.summary.cells.values() for e in per.values())


def test_loading_a_study_leaves_the_callers_dicts_as_they_were(tmp_path):
    # Issue 22, item 7: the variant's `rules.snapfire` mapping got the radius written into it
    # (and so did the provenance stored in --db).
    import copy

    import sim

    data = {"study": "s", "seed": 1, "replications": 1,
            "variants": {"a": {"rules.snapfire": {"reaction": "zoc"}, "rules.snapfire.radius": 5},
                         "b": {"rules.snapfire": {"reaction": "zoc", "radius": 5}}}}
    before = copy.deepcopy(data)
    with pytest.raises(InputError, match="expected each key once"):
        sim.study_from_dict(data, scenario=str(SCENARIO))
    assert data == before
    del data["variants"]["a"]
    before = copy.deepcopy(data)
    study = sim.study_from_dict(data, scenario=str(SCENARIO), base_dir="/")
    data["variants"]["b"]["rules.snapfire"]["radius"] = 9   # the caller's dict, changed later
    assert study.cells[0].scenario.rules.snapfire.radius == 5
    assert study.config(True)["study"]["variants"] == before["variants"]


@pytest.mark.parametrize("factors", [
    "{vary: {" + ", ".join(f"forces.blue.{i}.steps: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]"
                           for i in range(3)) + ", turns: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],"
    " rules.snapfire.radius: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}}",
    "{design: sobol, samples: 524288, vary: {rules.snapfire.radius: [1.0, 20.0]}}",
    "{design: morris, samples: 100000, vary: {rules.snapfire.radius: [1.0, 20.0],"
    " rules.base.phase_length: [0.5, 3.0], forces.blue.0.move: [1.0, 20.0],"
    " forces.blue.1.move: [1.0, 20.0], forces.blue.2.move: [1.0, 20.0],"
    " forces.blue.3.move: [1.0, 20.0], forces.blue.4.move: [1.0, 20.0]}}",
])
def test_a_design_over_the_cell_limit_is_refused_before_a_row_is_made(tmp_path, monkeypatch, factors):
    # Issue 22, item 7: such a study took 33-65 s and gigabytes to be refused.
    import sim.study.plan.study_file as design

    def made(*args, **kwargs):
        raise AssertionError("a design row was made")

    monkeypatch.setattr(design, "points_of", made)   # every design's points, a grid's too
    path = write(tmp_path, HEAD + f"replications: 2\nvariants: {{a: {{}}, b: {{}}}}\nfactors: {factors}\n")
    with pytest.raises(InputError, match=r"cells \(2 variants x \d+ design points; expected at most "
                                         r"10000\)") as info:
        load_study(path)
    assert info.value.place == "line 6, key factors"


def test_a_design_whose_repeated_points_merge_under_the_limit_still_loads(tmp_path):
    # 4096 Sobol' rows over two integer factors: at most 4 x 3 distinct points
    path = write(tmp_path, HEAD + "replications: 2\nvariants: {a: {}, b: {}, c: {}}\nfactors: "
                 "{design: sobol, samples: 4096, vary: {turns: [2, 5], forces.blue.0.steps: [1, 3]}}\n")
    assert len(load_study(path).cells) == 3 * 12


def test_more_variants_than_the_cell_limit_are_refused(tmp_path):
    variants = "".join(f"  v{i}: {{turns: {2 + i % 10}}}\n" for i in range(10_001))
    with pytest.raises(InputError, match="10001 cells") as info:
        load_study(write(tmp_path, HEAD + "replications: 1\nvariants:\n" + variants))
    assert info.value.place == "line 5, key variants"
