"""`sim study ... --report FILE.html`: one self-contained page with the question, the
design, rule counts, results, paired differences, plots and provenance, checked in
headless Chromium (every image decodes, no request leaves the page); its path is checked
before any battle runs."""
from __future__ import annotations

import re
import shutil

import pytest

from conftest import SCENARIOS
from sim import __version__
from sim.cli import main
from sim.study.plan.study_file import load_study

STUDY = """\
# yaml-language-server: $schema=../docs/study.schema.json
# Question: does a zone of control stall the advance as snap fire does?
study: report
description: Snap fire against a zone of control.
scenario: open_ground_advance.yaml
seed: 11
replications: 6
baseline: sf
variants:
  sf: {}
  zoc: {rules.snapfire.reaction: zoc}
metrics: [attacker_won, end_time, sf_halts, zoc_halts]
"""

DESIGNED = """\
study: designed
scenario: open_ground_advance.yaml
seed: 12
replications: 2
variants:
  sf: {}
factors:
  design: lhs
  samples: 8
  vary: {rules.snapfire.radius: [5.0, 15.0], forces.blue.0.move: [10.0, 20.0]}
metrics: [attacker_won, sf_halts]
"""


def _study(tmp_path, text=STUDY, name="study.yaml"):
    shutil.copy(SCENARIOS / "open_ground_advance.yaml", tmp_path)
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    path = _study(folder)
    out = folder / "report.html"
    assert main(["study", str(path), "--report", str(out), "--quiet"]) == 0
    return path, out, out.read_text(encoding="utf-8")


def test_report_holds_question_design_counts_results_and_provenance(report):
    path, out, html = report
    study = load_study(path)
    for needle in ("does a zone of control stall the advance as snap fire does?",
                   "Snap fire against a zone of control.", "Rule counts", "SF.HALT", "SF.ZOC",
                   "Results per cell", "Paired differences", study.key(True), __version__,
                   "--report", "replication_seed(11, i)", "newcombe-paired", "constant"):
        assert needle in html, needle
    assert "yaml-language-server" not in html
    assert html.count("data:image/png;base64,") == 2          # means and differences, inline
    assert not re.search(r'(?:src|href)="(?!data:)', html)


def test_report_rule_counts_are_those_of_the_study_battles(report):
    path, _, html = report
    # snap fire acts only in sf, the zone only in zoc: the counts tell the variants apart
    row = re.search(r"<td><code>SF\.HALT</code></td><td>([^<]+)</td><td>([^<]+)</td>", html)
    assert float(row.group(1)) > 0 and float(row.group(2)) == 0
    row = re.search(r"<td><code>SF\.ZOC</code></td><td>([^<]+)</td><td>([^<]+)</td>", html)
    assert float(row.group(1)) == 0 and float(row.group(2)) > 0


def test_report_opens_offline_in_a_browser(report, browser):
    _, out, _ = report
    browser.requests.clear()
    browser.open(out)
    assert browser.evaluate("document.title") == "Study report"
    widths = browser.evaluate("[...document.images].map(i => i.complete ? i.naturalWidth : 0)")
    assert len(widths) == 2 and all(w > 500 for w in widths)
    assert browser.evaluate("document.querySelectorAll('h2').length") >= 6
    assert browser.outside_requests() == []


def test_designed_study_report_includes_the_analysis(tmp_path):
    pytest.importorskip("sklearn")
    path = _study(tmp_path, DESIGNED, "designed.yaml")
    out = tmp_path / "designed.html"
    assert main(["study", str(path), "--report", str(out), "--quiet"]) == 0
    html = out.read_text(encoding="utf-8")
    assert "Analysis of the design" in html and "Regression tree" in html
    assert html.count("data:image/png;base64,") >= 4   # study plots and the analysis's


def test_report_path_is_checked_before_any_battle(tmp_path, capsys):
    path = _study(tmp_path)
    assert main(["study", str(path), "--report", str(tmp_path / "no" / "r.html"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--report" in err and "directory does not exist" in err
    assert main(["study", str(path), "--report", str(path), "--quiet"]) == 2
    assert "is the study file" in capsys.readouterr().err
    assert path.read_text() == STUDY                          # the input is untouched
