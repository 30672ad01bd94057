"""The headline of a study states the measured difference of its primary metric with its
interval, level, method and n, and says "cannot tell apart" (never "no effect", never "a
real effect") when the interval contains 0; the report asks the study's question once."""
from __future__ import annotations

import re
import shutil
from types import SimpleNamespace
from typing import Any

from conftest import SCENARIOS
from sim.study.analysis.stats import Estimate, Summary
from sim.study.plan.study_file import load_study
from sim.study.reports.html_report import report_html
from sim.study.run.runner import run_study


def _headline():
    from sim.study.reports import headline  # a module of its own since the headline was fixed

    return headline


def _run(diff: Estimate, a: float, b: float, metric: str = "attacker_won", crn: bool = True) -> Any:
    """A finished study's stand-in: two cells, one difference, as the analysis makes them."""
    cells = {"B": {metric: Estimate(a, 0, 1, diff.n)}, "A": {metric: Estimate(b, 0, 1, diff.n)}}
    return SimpleNamespace(summary=Summary(cells, {"B - A": {metric: diff}}), crn=crn)


def test_a_proportion_s_difference_is_stated_in_points_with_its_interval_method_and_n():
    run = _run(Estimate(0.123, 0.081, 0.165, 300, "newcombe-paired"), 0.6, 0.477)
    assert _headline().measured(run, "B", "A", "attacker_won") == (
        "B's attacker_won rate is 12.3 percentage points higher than A's (60.0% against 47.7%; "
        "95% interval of the difference +8.1 to +16.5 points; Newcombe's paired score interval, "
        "n = 300 pairs on common random numbers).")


def test_a_mean_s_difference_is_stated_with_its_paired_t_interval():
    run = _run(Estimate(-4.299, -4.838, -3.76, 300, "t"), 34.376, 38.675, "end_time")
    assert _headline().measured(run, "B", "A", "end_time") == (
        "B's mean end_time is 4.299 lower than A's (34.376 against 38.675; 95% interval of the "
        "difference -4.838 to -3.760; paired t interval on the per-replication differences, "
        "n = 300 pairs on common random numbers).")


def test_an_interval_containing_zero_says_the_study_cannot_tell_them_apart_at_that_n():
    run = _run(Estimate(0.01, -0.02, 0.04, 80, "newcombe"), 0.5, 0.49, crn=False)
    words = _headline().measured(run, "B", "A", "attacker_won")
    assert words == ("At n = 80 the study cannot tell B from A on attacker_won (50.0% against "
                     "49.0%): the 95% interval of the difference -2.0 to +4.0 points contains 0 "
                     "(Newcombe's score interval for independent proportions, n = 80 replications "
                     "a side on independent seeds (--no-crn)).")
    assert "no effect" not in words and "real" not in words


def test_a_constant_difference_and_too_few_pairs_claim_no_interval():
    same = _headline().measured(_run(Estimate(0.0, 0.0, 0.0, 12, "constant"), 0.0, 0.0, "arrived"), "B", "A", "arrived")
    assert same == "B's arrived equals A's in every one of the 12 pairs (no spread, so no interval)."
    nan = float("nan")
    few = _headline().measured(_run(Estimate(1.0, nan, nan, 1, "none"), 1, 0), "B", "A", "attacker_won")
    assert few.startswith("Too few pairs (1) for an interval: the study cannot yet tell B from A")


STUDY = """\
# Question: can a zone of control replace snap fire? Does a 5 cm zone of control (SF.ZOC)
# stall blue's advance as much as snap fire (SF.HALT, SF.ROLL) does?
study: twins
description: Can a zone of control replace snap fire against an advance across open ground?
scenario: open_ground_advance.yaml
seed: 5
replications: 8
baseline: sf
variants:
  sf: {}
  same: {rules.snapfire.radius: 10.0}
metrics: [attacker_won, sf_halts]
"""


def _study(tmp_path, text: str = STUDY):
    shutil.copy(SCENARIOS / "open_ground_advance.yaml", tmp_path)
    (tmp_path / "study.yaml").write_text(text)
    return load_study(tmp_path / "study.yaml")


def test_the_headline_reads_the_first_metric_and_cannot_tell_identical_variants_apart(tmp_path):
    run = run_study(_study(tmp_path), replications=8)
    assert _headline().primary_metric(run) == "attacker_won"
    kinds, lines = zip(*_headline().headline(run))
    assert kinds == ("note", "measured")
    assert lines[0].startswith("The headline reads attacker_won, the first of the study's metrics")
    assert lines[1].startswith("At n = 8 the study cannot tell same from sf on attacker_won")
    page = report_html(run, ["sim", "study", "study.yaml"])
    assert "real effect" not in page and "dice noise" not in page and "no effect" not in page
    assert page.count(lines[1].replace("'", "&#x27;")) == 1   # the headline once, not again below


def test_the_report_asks_the_study_s_question_once(tmp_path):
    study = _study(tmp_path)
    page = report_html(run_study(study, replications=2), ["sim", "study", "study.yaml"])
    question = page.split("<h2>The question</h2>")[1].split("<h2>")[0]
    assert len(re.findall("can a zone of control replace snap fire", question, re.I)) == 1
    assert "Does a 5 cm zone of control (SF.ZOC) stall blue&#x27;s advance" in question
    from sim.study.reports.html_report import asked

    assert asked(study.spec.description, ["Question: can a zone of control replace snap fire? "
                                          "Does it stall?"]) == [study.spec.description, "Does it stall?"]


def test_a_question_only_in_comments_or_only_in_the_description_is_kept():
    from sim.study.reports.html_report import asked

    assert asked("", ["Does the zone stall it?", "Both see the same dice."]) == \
        ["Does the zone stall it? Both see the same dice."]
    assert asked("Does the zone stall it?", []) == ["Does the zone stall it?"]


def test_every_user_text_in_the_report_is_escaped(tmp_path):
    shutil.copy(SCENARIOS / "open_ground_advance.yaml", tmp_path)
    path = tmp_path / "s<script>x.yaml"
    path.write_text(STUDY.replace("# Question:", "# <script>alert(1)</script> Question:")
                    .replace("description: Can", "description: <script>alert(2)</script> Can"))
    page = report_html(run_study(load_study(path), replications=2), ["sim", "study", str(path)])
    assert "<script" not in page.lower()
    assert page.count("&lt;script&gt;alert(1)&lt;/script&gt;") == 1
    assert page.count("&lt;script&gt;alert(2)&lt;/script&gt;") == 1
    assert "s&lt;script&gt;x.yaml" in page
