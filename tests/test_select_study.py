"""``sim select`` on real battles: end to end, the store (resume after an interruption, a
``sim study`` run's rows reused), the ``select`` section, and bad input (exit 2, one line)."""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sim.replication as battle
from sim.arguments import MAX_REPLICATIONS
from sim.cli import main
from sim.cli.parser import build_parser
from sim.cli.select import PLACES
from sim.errors import InputError
from sim.study.analysis.kn import h_squared, own_maximum, zero_one_spread
from sim.study.plan.seeds import replication_seed
from sim.study.plan.study_file import load_study
from sim.study.reports.selection import as_json
from sim.study.run.executors import SerialExecutor, resolve
from sim.study.run.selection import SelectSpec, run_selection, select_spec
from sim.study.run.store import ResultStore

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "open_ground_advance.yaml"

# Three cells: snap fire, a zone of control, and snap fire with a 5 cm radius. By the end
# time (smallest is best), zoc leads snap fire by more than 3 time units.
STUDY = """\
study: pick
scenario: open_ground_advance.yaml
seed: 5
replications: 12
variants:
  sf: {{}}
  zoc: {{rules.snapfire.reaction: zoc}}
  r5: {{rules.snapfire.radius: 5}}
metrics: [attacker_won, end_time, sf_halts]
{extra}"""
ARGS = ["--metric", "end_time", "--direction", "minimise", "--delta", "3", "--n0", "5"]
SPEC = SelectSpec("end_time", False, 3.0, 0.05, 5)


def study_file(tmp_path: Path, extra: str = "") -> Path:
    shutil.copy(SCENARIO, tmp_path / SCENARIO.name)
    path = tmp_path / "pick.yaml"
    path.write_text(STUDY.format(extra=extra))
    return path


def select_json(capsys, *argv) -> dict:
    assert main(["select", *map(str, argv), "--json", "--quiet"]) == 0
    return json.loads(capsys.readouterr().out)


def answer(result: dict) -> tuple:
    """What a selection decided: the cell, how each other left, the replications it used."""
    return (result["selected"], [(e["cell"], e["stage"], e["by"]) for e in result["left"]],
            result["battles"]["used"])


def test_select_end_to_end_stores_every_battle_it_runs(tmp_path, capsys):
    path, db = study_file(tmp_path), tmp_path / "r.db"
    out = select_json(capsys, path, *ARGS, "--db", db)
    assert out["selected"]["cell"] == "zoc" and out["stop"] == "one survivor"
    assert [(e["cell"], e["stage"], e["by"]) for e in out["left"]] == [("sf", 15, "zoc"),
                                                                     ("r5", 25, "zoc")]
    assert out["battles"] == {"used": 65, "run": 65, "from_store": 0}
    assert out["h2"] == pytest.approx(2 * (0.05 ** -0.5 - 1) / 2 * 4)   # (2·0.05/2)^(-2/4)
    assert out["guarantee"][0].startswith("If the best cell's true mean end_time is smaller")
    # every battle is in the study's store, under the study's hash, with sim study's seeds
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT variant, rep, seed, study_hash FROM replications").fetchall()
    assert len(rows) == 65
    assert {h for *_, h in rows} == {load_study(path).key(True)}
    assert all(seed == replication_seed(5, rep) for _, rep, seed, _ in rows)
    assert sorted((v, r) for v, r, _, _ in rows if v == "sf") == [("sf", r) for r in range(15)]


def test_the_text_names_the_selected_cell_the_stages_and_the_fixed_size(tmp_path, capsys):
    assert main(["select", str(study_file(tmp_path)), *ARGS]) == 0
    out = capsys.readouterr().out
    assert "selected: zoc, mean 34.600 over 25 replications (stopped one cell left" in out
    assert "sf         15    37.440  screened out by zoc" in out
    assert "battles: 65 used by the procedure; 65 run now" in out
    assert "a study of fixed size with the same guarantee: 3 x 20 = 60" in out
    assert "guarantee: It promises nothing when another cell is within 3 of the best" in out


class Interrupting(SerialExecutor):
    """The serial executor, stopped as by Ctrl-C after ``tasks`` tasks."""

    def __init__(self, tasks: int):
        super().__init__()
        self.left = tasks

    def run(self, tasks):
        for outcome in super().run(tasks):
            if self.left == 0:
                raise KeyboardInterrupt
            self.left -= 1
            yield outcome


@pytest.mark.parametrize("after", [3, 17, 40])
def test_a_selection_interrupted_part_way_resumes_to_the_same_answer(tmp_path, after):
    study = load_study(study_file(tmp_path))
    whole = as_json(run_selection(study, SPEC))
    db = tmp_path / "part.db"
    with ResultStore(db) as store, pytest.raises(KeyboardInterrupt):
        run_selection(study, SPEC, store=store, executor=Interrupting(after))
    with sqlite3.connect(db) as conn:
        kept = conn.execute("SELECT COUNT(*) FROM replications").fetchone()[0]
    assert 0 < kept < whole["battles"]["used"]
    with ResultStore(db) as store:
        resumed = as_json(run_selection(study, SPEC, store=store, resume=True, batch=3))
    assert answer(resumed) == answer(whole)
    # every stored battle is one the procedure uses (batch 1 runs none in vain)
    assert resumed["battles"]["from_store"] == kept
    assert resumed["battles"]["run"] >= whole["battles"]["used"] - kept


def test_sim_select_stopped_by_ctrl_c_says_so_and_resumes_to_the_same_answer(
        tmp_path, capsys, monkeypatch):
    import sim.study.run.executors as executors

    path, db = study_file(tmp_path), tmp_path / "r.db"
    whole = select_json(capsys, path, *ARGS)
    real = executors.make_executor
    monkeypatch.setattr(executors, "make_executor", lambda *a: Interrupting(4))
    assert main(["select", str(path), *ARGS, "--db", str(db)]) == 130
    out, err = capsys.readouterr()
    assert out == "" and err == (f"interrupted; the finished batches are in {db}: rerun "
                                 "with --resume\n")
    monkeypatch.setattr(executors, "make_executor", real)
    resumed = select_json(capsys, path, *ARGS, "--db", db, "--resume")
    assert answer(resumed) == answer(whole) and resumed["battles"]["from_store"] > 0


def test_a_study_run_stored_first_is_used_and_changes_nothing(tmp_path, capsys):
    path, db = study_file(tmp_path), tmp_path / "r.db"
    fresh = select_json(capsys, path, *ARGS)
    assert main(["study", str(path), "--db", str(db), "--replications", "10", "--quiet"]) == 0
    reused = select_json(capsys, path, *ARGS, "--db", db, "--resume")
    assert answer(reused) == answer(fresh)
    assert reused["battles"]["from_store"] == 30 and reused["battles"]["run"] == 65 - 30


def test_the_select_section_gives_the_parameters_and_options_override_it(tmp_path, capsys):
    section = "select: {metric: end_time, direction: minimise, delta: 3, n0: 5}\n"
    path = study_file(tmp_path, section)
    by_file = select_json(capsys, path)
    (tmp_path / "plain").mkdir()
    assert answer(by_file) == answer(select_json(capsys, study_file(tmp_path / "plain"), *ARGS))
    assert (by_file["metric"], by_file["direction"], by_file["delta"], by_file["n0"]) == \
        ("end_time", "minimise", 3.0, 5)
    over = select_json(capsys, path, "--delta", "20")
    assert over["delta"] == 20.0 and over["battles"]["used"] == 15   # stops after the first stage
    assert main(["study", str(path), "--replications", "2", "--quiet"]) == 0   # sim study runs it


def test_a_replication_that_raises_stops_the_selection_with_the_command_to_replay_it(
        tmp_path, capsys, monkeypatch):
    bad = replication_seed(5, 7)
    real = battle.run_battle

    def failing(scenario, seed):
        if int(seed) == bad:
            raise RuntimeError("internal error")
        return real(scenario, seed)
    monkeypatch.setattr(battle, "run_battle", failing)
    resolve.cache_clear()
    try:
        assert main(["select", str(study_file(tmp_path)), *ARGS]) == 1
    finally:
        monkeypatch.undo()
        resolve.cache_clear()
    err = capsys.readouterr().err.splitlines()
    assert err[0] == ("sim: error: the selection cannot go on: replication 7 of sf raised: "
                      "RuntimeError: internal error")
    assert err[1].startswith("reproduce it with: sim run ") and f"--seed {bad}" in err[1]


SECTION = "select: {{metric: end_time, direction: minimise, delta: 3, {}}}\n"


@pytest.mark.parametrize("extra, argv, expected", [
    ("", [], "--metric: give --metric or the study file's select.metric"),
    ("", ["--metric", "end_time", "--direction", "minimise"], "--delta: give --delta or"),
    ("", ["--metric", "won", "--direction", "minimise", "--delta", "3"],
     "--metric: unknown metric 'won' (expected one of ["),
    (SECTION.format("n0: 5").replace("end_time", "won"), [],
     "pick.yaml: line 10, key select.metric: unknown metric 'won'"),
    (SECTION.format("alpha: 0.7"), [],
     "pick.yaml: line 10, key select.alpha: expected 0 < alpha < 1 - 1/k = 0.6667 (k = 3)"),
    (SECTION.format("colour: red"), [], "pick.yaml: line 10, key select.colour: unknown key "
     "(expected one of metric, direction, delta, alpha, n0, max_replications)"),
    (SECTION.format("n0: 1"), [], "pick.yaml: line 10, key select.n0: Input should be "
     "greater than or equal to 2"),
    ("select: {metric: end_time, direction: down, delta: 3}\n", [],
     "pick.yaml: line 10, key select.direction: Input should be 'maximise' or 'minimise'"),
    ("", [*ARGS, "--replications", "4"], "--replications: the cap 4 is below the first stage"),
    ("", [*ARGS, "--alpha", "1.5"], "argument --alpha: expected a number between 0 and 1"),
    ("", [*ARGS, "--n0", "1"], "argument --n0: expected a number from 2 to 100000, got 1"),
    ("", [*ARGS, "--delta", "0"], "argument --delta: expected a finite number > 0, got 0"),
    ("", [*ARGS, "--direction", "up"], "argument --direction: invalid choice: 'up'"),
    ("", [*ARGS, "--resume"], "--resume: --resume needs --db FILE"),
    # KN's constants and maximum at the ends of the floats: refused, naming the options
    ("", [*ARGS, "--alpha", "1e-300", "--n0", "2"],
     "--alpha, --n0: KN's h² = 2η(n0 − 1) is beyond the largest float"),
    ("", [*ARGS, "--delta", "1e-200"], "--delta, --alpha, --n0: KN's own maximum, ⌊h²S²/δ²⌋ + 1 "
     "replications a cell, is beyond the largest float"),
    ("", [*ARGS, "--delta", "1e-200", "--replications", "20"], "--delta, --alpha, --n0: KN's "
     "own maximum, ⌊h²S²/δ²⌋ + 1 replications a cell, is beyond the largest float"),
    ("", [*ARGS, "--alpha", "1e-310"], "--alpha: expected alpha >= (k - 1) x 2.225e-308"),
    ("select: {metric: end_time, direction: minimise, delta: 1.0e-200}\n", [],
     "pick.yaml: line 10, key select.delta, --alpha, --n0: KN's own maximum"),
    (SECTION.format("alpha: 1.0e-300, n0: 2"), [],
     "pick.yaml: line 10, key select.alpha, line 10, key select.n0: KN's h²"),
])
def test_bad_input_exits_2_with_one_line_naming_the_place(tmp_path, capsys, extra, argv,
                                                          expected):
    assert main(["select", str(study_file(tmp_path, extra)), *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and expected in err, err


def test_one_cell_an_input_as_db_and_a_used_store_are_refused(tmp_path, capsys):
    path = study_file(tmp_path)
    single = tmp_path / "one.yaml"
    single.write_text(path.read_text().replace("  zoc: {rules.snapfire.reaction: zoc}\n", "")
                      .replace("  r5: {rules.snapfire.radius: 5}\n", ""))
    assert main(["select", str(single), *ARGS]) == 2
    assert "one.yaml: variants: needs at least 2 to select from, got 1" in \
        capsys.readouterr().err
    assert main(["select", str(path), *ARGS, "--db", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--db" in err and "study file" in err
    db = tmp_path / "r.db"
    select_json(capsys, path, *ARGS, "--db", db)
    assert main(["select", str(path), *ARGS, "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "add --resume to continue it" in err


def test_a_delta_beyond_every_difference_selects_at_the_first_stage(tmp_path, capsys):
    # δ² overflowed (OverflowError); every triangle is closed at once: the best mean wins
    out = select_json(capsys, study_file(tmp_path), *ARGS, "--delta", "1e200")
    assert (out["stop"], out["stage"], out["maximum"]) == ("maximum", 5, 1)
    assert out["fixed_size"]["per_cell"] == 5 and out["known_variances_size"]["per_cell"] == 1


def test_a_zero_one_metric_whose_maximum_could_pass_the_limit_is_refused_before_any_battle(
        tmp_path, capsys):
    db = tmp_path / "r.db"
    argv = ["--metric", "attacker_won", "--direction", "maximise", "--delta", "0.001", "--db", db]
    assert main(["select", str(study_file(tmp_path)), *map(str, argv)]) == 2
    out, err = capsys.readouterr()
    # h² = 8.513 for 3 cells, alpha 0.05, n0 10; S² at most 10/9 for a 0/1 metric
    assert out == "" and err == (
        "sim: error: --delta, --alpha, --n0: KN's own maximum, ⌊h²S²/δ²⌋ + 1 replications a "
        "cell, is 9,458,878: h² = 8.513 (alpha 0.05, n0 10, 3 cells), S² = 1.111 (the most a "
        "0/1 metric's first stage can give), δ = 0.001 (expected at most 1,000,000: a larger "
        "delta, alpha or n0, or a cap on replications, --replications, which leaves a "
        "selection it stops without its guarantee)\n")
    assert not db.exists()   # not one battle


def test_a_maximum_past_the_limit_is_refused_after_the_first_stage_and_before_another_battle(
        tmp_path, capsys):
    db = tmp_path / "r.db"
    assert main(["select", str(study_file(tmp_path)), *ARGS, "--delta", "1e-5", "--n0", "2",
                 "--db", str(db)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(
        "sim: error: --delta, --alpha, --n0: KN's own maximum, ⌊h²S²/δ²⌋ + 1 replications a "
        "cell, is ")
    assert "h² = 399 (alpha 0.05, n0 2, 3 cells)" in err and "(the first stage's largest)" in err
    with sqlite3.connect(db) as conn:   # the first stage, kept for --resume, and no more
        assert conn.execute("SELECT variant, rep FROM replications ORDER BY variant, rep"
                            ).fetchall() == [(v, r) for v in ("r5", "sf", "zoc") for r in (0, 1)]


@pytest.fixture(scope="module")
def pick(tmp_path_factory) -> Path:
    return study_file(tmp_path_factory.mktemp("pick"))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(metric=st.sampled_from(["end_time", "attacker_won"]), delta=st.floats() | st.floats(1e-9, 1),
       alpha=st.floats() | st.floats(0, 1), n0=st.integers(-2, 200_000) | st.integers(2, 40),
       cap=st.none() | st.integers(-2, 2 * MAX_REPLICATIONS))
def test_any_option_values_are_a_selection_within_the_limit_or_one_line_before_any_battle(
        pick, metric, delta, alpha, n0, cap):
    # what `sim select` does before its first battle, on options anywhere in the floats
    argv = ["select", str(pick), "--metric", metric, "--direction", "maximise", "--delta",
            repr(delta), "--alpha", repr(alpha), "--n0", str(n0)]
    try:
        args = build_parser().parse_args([*argv, *([] if cap is None else ["--replications", str(cap)])])
        spec = select_spec(load_study(pick), {"metric": args.metric, "direction": args.direction,
                                              "delta": args.delta, "alpha": args.alpha,
                                              "n0": args.n0, "max_replications": args.replications},
                           PLACES)
    except InputError as err:
        assert "\n" not in str(err)
        return
    if metric == "attacker_won" and spec.cap is None:   # its first stage is bounded: checked now
        bound = own_maximum(h_squared(3, spec.n0, spec.alpha), np.array([zero_one_spread(spec.n0)]),
                            spec.delta)
        assert bound is not None and bound <= MAX_REPLICATIONS
