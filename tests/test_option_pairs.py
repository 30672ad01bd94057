"""An option that takes effect only with another (or only without it) is refused where it
would do nothing, in one line naming both (exit 2), before any plug-in is imported or file
read; every such pair is listed in docs/reference/cli.md."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import SCENARIOS
from sim.cli import main
from sim.cli.pairs import PAIRS, check_pairs
from sim.cli.parser import build_parser

ROOT = Path(__file__).resolve().parents[1]
STUDY = """\
study: pairs
scenario: open_ground_advance.yaml
seed: 3
replications: 2
variants:
  sf: {}
  zoc: {rules.snapfire.reaction: zoc}
metrics: [attacker_won]
"""
SELECT = ["--metric", "attacker_won", "--direction", "maximise", "--delta", "0.5"]

# Each pair as given on a command line, and the words its line must have (both options).
CASES = [
    (["study", "s.yaml", "--resume"], "--resume: --resume needs --db FILE"),
    (["select", "s.yaml", *SELECT, "--resume"], "--resume: --resume needs --db FILE"),
    (["study", "s.yaml", "--db", "r.db", "--allow-changed-code"],
     "--allow-changed-code: --allow-changed-code needs --resume"),
    (["select", "s.yaml", *SELECT, "--db", "r.db", "--allow-changed-code"],
     "--allow-changed-code: --allow-changed-code needs --resume"),
    (["study", "s.yaml", "--workers", "2", "--executor", "serial"],
     "--workers: --workers means nothing with --executor serial"),
    (["select", "s.yaml", *SELECT, "--workers", "1", "--executor", "serial"],
     "--workers: --workers means nothing with --executor serial"),
    (["study", "s.yaml", "--workers", "2", "--address", "tcp://127.0.0.1:1"],
     "--workers: --workers means nothing with --address"),
    (["select", "s.yaml", *SELECT, "--workers", "2", "--address", "127.0.0.1:1"],
     "--workers: --workers means nothing with --address"),
    (["schema", "--check"], "--check: --check needs --docs DIR"),
    (["schema", "study", "--docs", "docs"], "the kind (scenario or study) means nothing with --docs"),
    (["schema", "scenario", "--docs", "docs", "--check"], "the kind (scenario or study) means nothing with --docs"),
    (["schema", "--docs", "docs", "--plugin", "m"], "--plugin: --plugin means nothing with --docs"),
    (["--plugin", "m", "schema", "--docs", "docs", "--check"], "--plugin: --plugin means nothing with --docs"),
]


@pytest.fixture
def files(tmp_path, monkeypatch):
    """A study (s.yaml) and its scenario in the working directory, and a docs folder that
    nothing may touch (a refusal comes first)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SIM_PLUGINS", raising=False)
    shutil.copy(SCENARIOS / "open_ground_advance.yaml", tmp_path)
    (tmp_path / "s.yaml").write_text(STUDY)
    (tmp_path / "docs").mkdir()
    return tmp_path


@pytest.mark.parametrize("argv, words", CASES)
def test_an_option_where_it_does_nothing_is_one_line_exit_2(files, capsys, argv, words):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"sim: error: {err.removeprefix('sim: error: ').strip()}\n", err
    assert words in err, err
    assert list((files / "docs").iterdir()) == []   # nothing written, no battle run


def test_it_is_refused_before_any_plugin_is_imported_or_file_read(files, capsys):
    for argv, words in (
            (["study", "missing.yaml", "--resume", "--plugin", "no_such_module"], "--resume needs --db"),
            (["schema", "--check", "--plugin", "no_such_module"], "--check needs --docs")):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert words in err and "no_such_module" not in err and "missing.yaml" not in err, err


def test_the_options_that_need_another_are_still_taken_together():
    """Guards (these held before): each option where it does something is not refused."""
    parser = build_parser()
    for argv in (["study", "s.yaml", "--db", "r.db", "--resume"],
                 ["study", "s.yaml", "--workers", "2"], ["study", "s.yaml", "--executor", "serial"],
                 ["study", "s.yaml", "--workers", "2", "--executor", "processes"],
                 ["select", "s.yaml", "--address", "tcp://127.0.0.1:1"],
                 ["schema", "--docs", "docs", "--check"], ["schema", "study"], ["--plugin", "m", "schema"]):
        check_pairs(parser.parse_args(argv))


def test_every_pair_is_listed_in_the_command_line_reference():
    text = (ROOT / "docs" / "reference" / "cli.md").read_text()
    section = text.split("## Options that need another")[1].split("<!-- generated")[0]
    rows = re.findall(r"^\| `([^`]+)` \| `([^`]+)` \| (needs|means nothing with) \|", section, re.M)
    assert sorted(rows) == sorted((p.option, p.other, "needs" if p.needs else "means nothing with")
                                  for p in PAIRS)
