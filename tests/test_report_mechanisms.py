"""The report reads the rule counts before the headline's comparison: a variant whose
deciding rule (the one acting most often of those its rival never uses) acts less than
``MECHANISM_RATIO`` times as often as its rival's is flagged in words."""
from __future__ import annotations

import re
import shutil
import statistics
from collections import Counter

from scipy import stats

from conftest import SCENARIOS
from sim.cli import main
from sim.study.plan.study_file import load_study
from sim.study.reports.headline import headline
from sim.study.reports.mechanisms import (
    MECHANISM_RATIO,
    RuleCounts,
    comparisons,
    deciding_rule,
    mechanism_warning,
    rule_counts,
)
from sim.study.run.runner import run_study

SNAP = Counter({"BASE.S.SHOOT": 18.3, "SF.HALT": 10.9, "SF.ROLL": 10.9})
ZONE = Counter({"BASE.S.SHOOT": 21.4, "SF.ZOC": 1.5})


def test_a_deciding_rule_is_the_most_frequent_of_those_the_rival_never_uses():
    assert deciding_rule(ZONE, set(SNAP)) == ("SF.ZOC", 1.5)
    assert deciding_rule(SNAP, set(ZONE)) == ("SF.HALT", 10.9)       # a tie goes to the first ID
    assert deciding_rule(Counter({"SF.HALT": 7.0}), {"SF.HALT"}) is None


def test_a_rare_rule_missing_from_one_rival_cell_is_not_taken_for_a_mechanism():
    # fow_relocation's shape: FOW.CATCH acts under never and, rarely, in one when_spotted cell
    counts = {"never@a": Counter({"FOW.PIN": 8.0, "FOW.CATCH": 0.5}),
              "spotted@a": Counter({"FOW.PIN": 6.0, "FOW.RELOCATE": 3.5}),
              "spotted@b": Counter({"FOW.PIN": 4.0, "FOW.RELOCATE": 2.5, "FOW.CATCH": 0.15})}
    of = {"never@a": "never", "spotted@a": "spotted", "spotted@b": "spotted"}
    assert mechanism_warning("never@a", "spotted@a", counts) is not None   # cell by cell: fooled
    assert mechanism_warning("never@a", "spotted@a", counts, of) is None


def test_a_zone_that_acts_far_less_than_snap_fire_is_flagged_in_words():
    counts = {"zoc": ZONE, "snap_fire": SNAP}
    assert mechanism_warning("zoc", "snap_fire", counts) == (
        "Under zoc its deciding rule SF.ZOC acts 1.50 times a battle against 10.9 for snap_fire's "
        "SF.HALT, less than 25% as often: the difference compares a rule that barely acts with one "
        "that acts often, and cannot say how the two would compare acting equally often.")
    assert "a battle (20 battles re-run) against" in mechanism_warning("zoc", "snap_fire", counts, battles=20)
    # counts kept battle by battle give the rare rule's rate its 95 % t interval
    zone = RuleCounts([Counter({"SF.ZOC": k, "BASE.S.SHOOT": 21}) for k in (0, 1, 2, 3)])
    snap = RuleCounts([Counter({"SF.HALT": 11, "SF.ROLL": 11, "BASE.S.SHOOT": 18})] * 4)
    half = float(stats.t.ppf(0.975, 3)) * statistics.stdev([0, 1, 2, 3]) / 2
    assert zone["SF.ZOC"] == 1.5 and zone.interval("SF.ZOC") == (0.0, 1.5 + half)
    assert (f"SF.ZOC acts 1.50 times a battle (4 battles re-run; 95% interval 0.00 to {1.5 + half:.2f}) "
            "against 11.0 for snap_fire's SF.HALT") in mechanism_warning("zoc", "snap_fire",
                                                                       {"zoc": zone, "snap_fire": snap})
    # the baseline's mechanism may be the one that barely acts: it is named
    flipped = mechanism_warning("snap_fire", "zoc", counts)
    assert flipped is not None and flipped.startswith("Under zoc its deciding rule SF.ZOC")


def test_no_flag_at_the_threshold_for_shared_rules_or_without_counts():
    at = ZONE + Counter({"SF.ZOC": MECHANISM_RATIO * 10.9 - 1.5})
    below = ZONE + Counter({"SF.ZOC": MECHANISM_RATIO * 10.9 - 1.51})
    assert mechanism_warning("zoc", "snap_fire", {"zoc": at, "snap_fire": SNAP}) is None
    assert mechanism_warning("zoc", "snap_fire", {"zoc": below, "snap_fire": SNAP}) is not None
    shared = {"this_move": Counter({"SF.HALT": 1.0}), "rest": Counter({"SF.HALT": 11.6})}
    assert mechanism_warning("this_move", "rest", shared) is None     # one rule, acting less
    assert mechanism_warning("zoc", "snap_fire", {"zoc": ZONE}) is None


STUDY = """\
study: zone
scenario: open_ground_advance.yaml
seed: 3
replications: 6
baseline: snap_fire
variants:
  snap_fire: {}
  zoc: {rules.snapfire.reaction: zoc}
  wide: {rules.snapfire.radius: 14.0}
metrics: [attacker_won, sf_halts, zoc_halts]
"""


def _study(tmp_path):
    shutil.copy(SCENARIOS / "open_ground_advance.yaml", tmp_path)
    (tmp_path / "study.yaml").write_text(STUDY)
    return tmp_path / "study.yaml"


def test_the_headline_flags_the_zone_before_its_comparison_and_not_a_knob_change(tmp_path):
    run = run_study(load_study(_study(tmp_path)), replications=6)
    assert [c[1:] for c in comparisons(run)] == [("zoc", "snap_fire"), ("wide", "snap_fire")]
    rules, counts = rule_counts(run)
    assert {"SF.HALT", "SF.ZOC"} <= set(rules)
    kinds = [k for k, _ in headline(run, counts)]
    # zoc: flagged, then measured; wide (the same rules, a wider radius): measured only
    assert kinds == ["note", "flag", "measured", "measured"]
    flag = headline(run, counts)[1][1]
    assert flag.startswith("Under zoc its deciding rule SF.ZOC acts ")
    assert "for snap_fire's SF.HALT" in flag


def test_the_report_and_the_demo_read_the_rule_counts_first(tmp_path, capsys):
    out = tmp_path / "report.html"
    assert main(["study", str(_study(tmp_path)), "--report", str(out), "--quiet"]) == 0
    page = out.read_text(encoding="utf-8")
    at = page.index('<p class="flag">Under zoc its deciding rule SF.ZOC')
    assert page.index("<h2>Rule counts</h2>") < at < page.index('<p class="measured">zoc&#x27;s')
    assert at < page.index("<h2>Results per cell</h2>")
    assert main(["demo", "--fast", "--workers", "1", "--out", str(tmp_path / "demo")]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "Under zoc its deciding rule SF.ZOC acts" in text
    measured = re.search(r"zoc's attacker_won rate is|cannot tell zoc from snap_fire on attacker_won", text)
    assert measured is not None and text.index("deciding rule SF.ZOC") < measured.start()
    assert "real effect" not in text and "dice noise" not in text
