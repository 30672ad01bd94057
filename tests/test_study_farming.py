"""Data farming end to end: extending a stored design with --resume, `sim analyse` (text,
JSON, files, plots, bad input), and the shipped study's findings."""
from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pytest

from sim.cli import main
from sim.study.plan.study_file import load_study
from sim.study.reports.summary import as_json
from sim.study.run.runner import run_study
from sim.study.run.store import ResultStore

ROOT = Path(__file__).resolve().parents[1]

FARM = """\
study: farm
scenario: village_sniper.yaml
seed: 21
replications: 3
variants: {a: {}}
factors:
  design: sobol
  samples: SAMPLES
  vary:
    rules.h17.ap_range: [3, 9]
    rules.h17.ap_need: [6, 10]
    rules.h17.placement: [best_cover, random, nearest]
    forces.blue.0.move: [2.0, 4.0]
metrics: [attacker_won, attacker_steps_lost, end_time]
"""


def farm(tmp_path: Path, samples: int, name: str = "farm.yaml") -> Path:
    shutil.copy(ROOT / "scenarios" / "village_sniper.yaml", tmp_path)
    path = tmp_path / name
    path.write_text(FARM.replace("SAMPLES", str(samples)))
    return path


def test_a_design_extended_with_more_points_reruns_nothing_stored(tmp_path):
    small = load_study(farm(tmp_path, 8, "small.yaml"))
    large = load_study(farm(tmp_path, 16, "large.yaml"))
    assert [c.point for c in large.cells[:len(small.cells)]] == [c.point for c in small.cells]
    with ResultStore(tmp_path / "r.db") as store:
        first = run_study(small, store=store)
        grown = run_study(large, store=store, resume=True)
        more = run_study(large, store=store, resume=True, replications=5)
        counts = store.counts(grown.study_hash)
    fresh = run_study(large)
    assert first.ran == 8 * 3
    assert (grown.resumed, grown.ran) == (8 * 3, 8 * 3)  # only the new points ran
    assert any("reused" in n for n in grown.notes)
    assert json.dumps(as_json(grown)) == json.dumps(as_json(fresh))  # as if run at once
    assert (more.resumed, more.ran) == (16 * 3, 16 * 2)  # and then only the new replications
    assert counts == (16 * 5, 0)


def test_rows_of_another_seed_are_never_adopted(tmp_path):
    small = load_study(farm(tmp_path, 8, "small.yaml"))
    other = farm(tmp_path, 16, "other.yaml")
    other.write_text(other.read_text().replace("seed: 21", "seed: 22"))
    with ResultStore(tmp_path / "r.db") as store:
        run_study(small, store=store)
        grown = run_study(load_study(other), store=store, resume=True)
    assert (grown.resumed, grown.ran) == (0, 16 * 3)


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A stored 16-point study with its db."""
    tmp = tmp_path_factory.mktemp("farm")
    path, db = farm(tmp, 16), tmp / "r.db"
    assert main(["study", str(path), "--db", str(db), "--quiet"]) == 0
    return path, db


def test_sim_analyse_prints_indices_metamodels_and_writes_files_and_plots(stored, tmp_path, capsys):
    path, db = stored
    capsys.readouterr()
    out_dir = tmp_path / "out"
    assert main(["analyse", str(path), "--db", str(db), "--out", str(out_dir)]) == 0
    text = capsys.readouterr().out
    assert "Design sobol over 4 factors: 16 distinct rows, max |pairwise correlation|" in text
    assert "Regression tree: out-of-sample R^2" in text and "Linear model with interactions" in text
    assert "Replications averaged at every point: a: 3" in text
    names = sorted(p.name for p in out_dir.iterdir())
    for metric in ("attacker_won", "attacker_steps_lost", "end_time"):
        for kind in ("main_effects", "interactions", "tornado", "tree"):
            assert f"{kind}_{metric}.png" in names
    data = json.loads((out_dir / "analysis.json").read_text())
    assert data["design"] == "sobol" and data["design_properties"]["points"] == 16
    assert {r["metric"] for r in data["results"]} == {"attacker_won", "attacker_steps_lost",
                                                      "end_time"}
    with open(out_dir / "responses.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 16 and "rules.h17.ap_range" in rows[0]
    # The responses are the means of the stored replications at each point.
    with ResultStore(db) as store:
        recs = store.load(load_study(path).key(True))
    cell = load_study(path).cells[int(rows[0]["point"])]
    mine = [r.metrics["attacker_steps_lost"] for r in recs if r.point == cell.point_json]
    assert float(rows[0]["metric:attacker_steps_lost"]) == pytest.approx(sum(mine) / len(mine))
    assert main(["analyse", str(path), "--db", str(db), "--json", "--metric", "attacker_won"]) == 0
    assert json.loads(capsys.readouterr().out)["results"][0]["metric"] == "attacker_won"


@pytest.mark.parametrize("extra,message", [
    (["--db", "NOFILE"], "none.db: --db: no such results database"),
    (["--db", "EMPTY"], "holds no replications of study 'farm'"),
    (["--db", "DB", "--metric", "atacker_won"], "--metric: unknown metric 'atacker_won'"),
    (["--db", "DB", "--resamples", "0"], "expected a number from 1 to 100000"),
])
def test_sim_analyse_bad_input_is_one_line_exit_2(stored, tmp_path, capsys, extra, message):
    path, db = stored
    (tmp_path / "empty.db").write_bytes(b"")
    subst = {"NOFILE": str(tmp_path / "none.db"), "EMPTY": str(tmp_path / "empty.db"), "DB": str(db)}
    capsys.readouterr()
    assert main(["analyse", str(path), *[subst.get(a, a) for a in extra]]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0] and "Traceback" not in err[0]


def test_sim_analyse_without_the_extra_says_what_to_install(stored, capsys, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "SALib" else real(name, *a))
    path, db = stored
    capsys.readouterr()
    assert main(["analyse", str(path), "--db", str(db)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["sim: error: command line: sim analyse needs SALib: pip install 'sim[analysis]'"]


# The shipped study: docs/background/data-farming.md states its ranking; a small run at a fixed seed must
# re-derive the factors it names as mattering, in the same order, and as not mattering.
SHIPPED = ROOT / "scenarios" / "fow_farming.yaml"


def _page_ranking() -> tuple[list[str], list[str]]:
    text = (ROOT / "docs" / "background" / "data-farming.md").read_text(encoding="utf-8")
    top = re.search(r"<!-- farming-ranking: (.*?) -->", text).group(1).split(", ")
    low = re.search(r"<!-- farming-negligible: (.*?) -->", text).group(1).split(", ")
    return top, low


def test_shipped_study_rederives_the_ranking_the_docs_state(tmp_path):
    """The shipped study's first 32 Saltelli blocks (its design's prefix) with 4
    replications, at its own seed: the factors the data-farming page ranks first come first, and
    the ones it calls negligible have total indices below 0.01, at the bottom."""
    from sim.study.analysis.responses import analyse
    from sim.study.run.executors import ProcessExecutor

    top, low = _page_ranking()
    shutil.copy(ROOT / "scenarios" / "crossing_sniper.yaml", tmp_path)
    small = tmp_path / "fow_farming.yaml"
    text = SHIPPED.read_text()
    assert "samples: 256" in text and "replications: 16" in text and "seed: 1942" in text
    small.write_text(text.replace("samples: 256", "samples: 32").replace("replications: 16",
                                                                           "replications: 4"))
    study = load_study(small)
    with ProcessExecutor(2) as ex:
        run = run_study(study, executor=ex)
    result = analyse(study, list(run.records.values()), run.kinds, ["sniper_hits"])
    (r,) = result.results
    assert r.blocks == 32
    ranked = [i for i in r.indices if i.name == "ST"]
    ranked.sort(key=lambda i: -i.value)
    assert [i.factor for i in ranked[:len(top)]] == top
    assert {i.factor for i in ranked[-len(low):]} == set(low)
    assert all(i.value < 0.01 for i in ranked[-len(low):])
    assert ranked[0].ci_low > max(i.ci_high for i in ranked[-len(low):])


def test_a_farming_study_on_dask_gives_identical_rows_and_analysis(tmp_path):
    from sim.study.analysis.responses import analyse
    from sim.study.reports.farming import as_dict
    from sim.study.run.executors import DaskExecutor, SerialExecutor

    study = load_study(farm(tmp_path, 8))
    out = {}
    for name, ex in (("serial", SerialExecutor()), ("dask", DaskExecutor(2))):
        with ex:
            run = run_study(study, executor=ex, per_task=2)
        rows = {k: (r.seed, json.dumps(r.metrics, sort_keys=True)) for k, r in run.records.items()}
        found = analyse(study, [run.records[k] for k in sorted(run.records)], run.kinds)
        out[name] = (rows, json.dumps(as_json(run)), json.dumps(as_dict(found)))
    assert out["dask"] == out["serial"]
    assert len(out["serial"][0]) == 8 * 3


def test_sim_analyse_never_writes_over_an_input(stored, tmp_path, capsys):
    path, db = stored
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    named = out_dir / "analysis.json"  # a study file that happens to bear an output's name
    named.write_text(path.read_text())
    shutil.copy(path.parent / "village_sniper.yaml", out_dir)
    capsys.readouterr()
    assert main(["analyse", str(named), "--db", str(db), "--out", str(out_dir)]) == 2
    out, err = capsys.readouterr()
    err = err.strip().splitlines()
    assert len(err) == 1 and out == ""  # refused before the analysis is printed
    assert "--out: an output would be written over analysis.json, which is the study file" in err[0]
    assert named.read_text() == path.read_text()


@pytest.mark.parametrize("out", ["a_file", "/dev/full", "/sys/sim-analysis"])
def test_sim_analyse_refuses_an_unusable_out_before_printing_anything(stored, tmp_path, capsys, out):
    """Issue 22, item 6: the refusal is the only output (the analysis was printed first)."""
    path, db = stored
    (tmp_path / "a_file").write_text("keep\n")
    capsys.readouterr()
    code = main(["analyse", str(path), "--db", str(db), "--out", out.replace("a_file", str(tmp_path / "a_file"))])
    stdout, err = capsys.readouterr()
    assert code == 2 and stdout == "", stdout[:200]
    assert len(err.strip().splitlines()) == 1 and "--out: " in err and "(expected a directory" in err
    assert (tmp_path / "a_file").read_text() == "keep\n"


def test_study_plots_of_a_designed_study_leave_out_the_per_cell_rows(stored, tmp_path, monkeypatch):
    from sim.viz import study_plots

    path, db = stored
    monkeypatch.setattr(study_plots, "MAX_CELL_ROWS", 10)  # the 16 points are "many" here
    assert main(["study", str(path), "--db", str(db), "--resume", "--quiet",
                 "--plot", str(tmp_path / "p")]) == 0
    names = sorted(p.name for p in (tmp_path / "p").iterdir())
    assert "means.png" not in names and "response_rules_h17_ap_range.png" in names


def test_the_flat_api_analyses_a_stored_study_as_sim_analyse_does(stored, tmp_path, capsys):
    """``sim.analyse_study``: the same text, object and files as the command, and frames."""
    import sim

    path, db = stored
    capsys.readouterr()
    assert main(["analyse", str(path), "--db", str(db), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    a = sim.analyse_study(str(path), str(db))
    assert a.to_dict() == printed
    assert main(["analyse", str(path), "--db", str(db)]) == 0
    assert capsys.readouterr().out.rstrip("\n") == a.text()
    written = a.write(str(tmp_path / "out"))
    assert {Path(p).name for p in written} >= {"analysis.json", "indices.csv", "responses.csv"}
    frame = a.responses()
    assert len(frame) == 16 and list(frame.columns[:2]) == ["variant", "point"]
    assert {"rules.h17.ap_range", "metric:end_time"} <= set(frame.columns)
    with open(tmp_path / "out" / "responses.csv") as fh:
        written_rows = list(csv.DictReader(fh))
    assert frame["metric:end_time"].tolist() == pytest.approx(
        [float(r["metric:end_time"]) for r in written_rows], rel=1e-12)
    assert frame["rules.h17.placement"].tolist() == [r["rules.h17.placement"] for r in written_rows]
    assert a.indices().empty   # a sobol design has no Saltelli blocks: metamodels only
    one = sim.analyse_study(load_study(path), str(db), metrics=["end_time"])
    assert [r.metric for r in one.results] == ["end_time"]


@pytest.mark.parametrize("kwargs, name", [
    ({"db": "/nonexistent.db"}, "db"),
    ({"metrics": "end_time"}, "metrics"),
    ({"metrics": ["no_such_metric"]}, "metrics"),
    ({"resamples": 0}, "resamples"),
    ({"resamples": True}, "resamples"),
])
def test_the_flat_analysis_names_a_bad_argument(stored, kwargs, name):
    import sim

    path, db = stored
    args = {"db": str(db), **kwargs}
    with pytest.raises(sim.InputError, match=f"(^|: ){name}: "):
        sim.analyse_study(str(path), **args)


def test_the_flat_analysis_gives_the_indices_sim_analyse_writes(tmp_path):
    """A Saltelli design's indices as a DataFrame: the rows of ``indices.csv``."""
    import sim

    path = farm(tmp_path, 4)
    text = path.read_text().replace("design: sobol", "design: saltelli").replace(
        "replications: 3", "replications: 2")
    path.write_text(text.replace("    rules.h17.placement: [best_cover, random, nearest]\n", "")
                    .replace("    forces.blue.0.move: [2.0, 4.0]\n", ""))
    db = tmp_path / "s.db"
    assert main(["study", str(path), "--db", str(db), "--quiet"]) == 0
    a = sim.analyse_study(str(path), str(db), resamples=50)
    frame = a.indices()
    a.write(str(tmp_path / "out"))
    with open(tmp_path / "out" / "indices.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert len(frame) == len(rows) > 0
    assert frame[["metric", "factor", "name"]].values.tolist() == [
        [r["metric"], r["factor"], r["name"]] for r in rows]
    assert set(frame["name"]) == {"S1", "ST"}
