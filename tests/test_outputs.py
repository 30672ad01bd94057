"""Issue 13, item 4: no output path (--log, --csv, the plots in --plot DIR, --db) may be
one of the command's inputs (the scenario, the study, the study's scenario, the results
database), however it is spelt (a symbolic link, a hard link, ./); the check comes
before any battle runs, and the inputs are left as they were.
"""
from __future__ import annotations

import hashlib
import os
import shutil

import pytest

import sim.replication as battle
import sim.study.runner as runner
from conftest import SCENARIOS, err_line
from sim.cli import main

STUDY_TEXT = """\
study: outputs
scenario: open_ground_advance.yaml
seed: 3
replications: 4
variants:
  sf: {}
  zoc: {rules.snapfire.reaction: zoc}
"""


@pytest.fixture
def files(tmp_path, monkeypatch):
    """A scenario, a study of it and a results database in tmp_path (the working
    directory); no battle may run (a refusal must come first)."""
    shutil.copy(SCENARIOS / "open_ground_advance.yaml", tmp_path / "scenario.yaml")
    (tmp_path / "study.yaml").write_text(STUDY_TEXT.replace("open_ground_advance", "scenario"))
    assert main(["study", str(tmp_path / "study.yaml"), "--db", str(tmp_path / "r.db"),
                 "--quiet"]) == 0
    monkeypatch.chdir(tmp_path)

    def no_battle(*a, **k):
        raise AssertionError("a battle ran before the outputs were checked")

    monkeypatch.setattr(battle, "run_battle", no_battle)
    monkeypatch.setattr(runner, "run_study", no_battle)
    return tmp_path


def digests(directory) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(directory.iterdir()) if p.is_file() and not p.is_symlink()}


def refused(capsys, files, argv, *parts):
    before = digests(files)
    line = err_line(capsys, argv)
    for part in parts:
        assert part in line, line
    assert digests(files) == before
    return line


def test_run_log_over_the_scenario_is_refused(files, capsys):
    os.symlink("scenario.yaml", files / "link.yaml")
    os.link(files / "scenario.yaml", files / "hard.yaml")
    for log in ("scenario.yaml", "./scenario.yaml", str(files / "scenario.yaml"), "link.yaml",
                "hard.yaml", "sub/../scenario.yaml"):
        (files / "sub").mkdir(exist_ok=True)
        line = refused(capsys, files, ["run", "scenario.yaml", "--log", log],
                       f"{log}: --log: is the scenario (scenario.yaml); an output never "
                       "replaces an input")
        assert line.startswith("sim: error: ")


@pytest.mark.parametrize("option, target, what", [
    ("--csv", "study.yaml", "the study file"),
    ("--csv", "scenario.yaml", "the study's scenario"),
    ("--csv", "r.db", "the results database"),
    ("--db", "study.yaml", "the study file"),
    ("--db", "scenario.yaml", "the study's scenario"),
])
def test_study_outputs_over_its_inputs_are_refused(files, capsys, option, target, what):
    argv = ["study", "study.yaml", "--quiet", option, target]
    if option != "--db":
        argv += ["--db", "r.db", "--resume"]
    refused(capsys, files, argv, f"{target}: {option}: is {what} (")


def test_a_plot_over_an_input_is_refused(files, capsys):
    plots = files / "plots"
    plots.mkdir()
    os.symlink(files / "study.yaml", plots / "means.png")
    refused(capsys, files, ["study", "study.yaml", "--plot", "plots", "--quiet"],
            "plots: --plot: a plot would be written over means.png, which is the study file")
    refused(capsys, files, ["study", "study.yaml", "--plot", "study.yaml", "--quiet"],
            "study.yaml: --plot: is the study file (")
    refused(capsys, files, ["demo", "--out", "study.yaml", "--fast"],
            "study.yaml: --out: is not a directory")


@pytest.mark.parametrize("argv, part", [
    (["run", "scenario.yaml", "--log", "."], ".: --log: is a directory"),
    (["run", "scenario.yaml", "--log", "nowhere/log.jsonl"],
     "nowhere/log.jsonl: --log: its directory does not exist"),
    (["run", "scenario.yaml", "--log", ""], "--log: empty path"),
    (["study", "study.yaml", "--csv", "nowhere/r.csv"], "--csv: its directory does not exist"),
    (["study", "study.yaml", "--csv", ""], "--csv: empty path"),
    (["study", "study.yaml", "--plot", ""], "--plot: empty path"),
])
def test_unusable_output_paths_are_refused_before_any_battle(files, capsys, argv, part):
    refused(capsys, files, argv + ["--quiet"] if argv[0] == "study" else argv, part)


def test_existing_outputs_that_are_not_inputs_are_replaced(files, capsys, monkeypatch):
    monkeypatch.undo()  # battles may run here
    monkeypatch.chdir(files)
    (files / "old.jsonl").write_text("old\n")
    assert main(["run", "scenario.yaml", "--log", "old.jsonl"]) == 0
    text = (files / "old.jsonl").read_text()
    assert not text.startswith("old") and text.count("\n") > 10
