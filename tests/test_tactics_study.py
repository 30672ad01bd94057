"""The shipped tactical study: its variants change plans and policies only, and the table
of what it finds (docs/howto/run-a-study.md) is what it finds (so that text cannot drift)."""
from __future__ import annotations

import re

from conftest import ROOT

STUDY = ROOT / "scenarios" / "platoon_tactics.yaml"


PAGE = ROOT / "docs" / "howto" / "run-a-study.md"


def page_rows() -> dict[str, list[str]]:
    text = PAGE.read_text(encoding="utf-8")
    block = text.split("**What `platoon_tactics` finds.**", 1)[1].split("\n\n", 2)[1]
    rows = {}
    for line in block.splitlines():
        found = re.match(r"\| `(\w+)`[^|]*\|(.*)\|$", line)
        if found:
            rows[found.group(1)] = [c.strip() for c in found.group(2).split("|")]
    return rows


def test_the_variants_change_plans_and_policies_only():
    from sim.study.plan.study_file import load_study

    study = load_study(STUDY)
    cells = {c.label: c.scenario for c in study.cells}
    direct = cells["direct"]
    for label, sc in cells.items():
        same = {"rules", "forces", "terrain", "victory", "turns", "sides"}
        assert sc.model_dump(include=same) == direct.model_dump(include=same), label
        assert sc.model_dump(include={"groups", "policies"}) != direct.model_dump(include={"groups", "policies"}) \
            or label == "direct", label
    assert cells["covered"].groups["assault"].plan.steps[0].route == "covered"
    wait = cells["base_of_fire"].groups["assault"].plan.steps[0].when.arrived
    assert (wait.group, wait.at) == ("support", "FIRE")
    assert cells["base_of_fire"].groups["support"].plan.steps[0].to == "FIRE"
    assert cells["go_to_ground"].policies["blue"].on_fired.policy == "go_to_ground"
    assert direct.groups["assault"].plan.steps[0].charge is True     # `type: charge`


def test_the_docs_report_what_the_study_finds():
    """Re-run the study as the page says (300 replications, its seed) and compare every
    figure of the page's table, as printed."""
    import sim

    run = sim.run_study(sim.load_study(str(STUDY)), workers=2)
    rows = page_rows()
    assert set(rows) == set(run.summary.cells)
    for label, cols in rows.items():
        cell = run.summary.cells[label]
        assert cols[0] == f"{cell['attacker_won'].mean:.3f}", label
        assert cols[2] == f"{cell['attacker_steps_lost'].mean:.2f}", label
        assert cols[4] == f"{cell['end_time'].mean:.1f}", label
        if label == "direct":
            continue
        diff = run.summary.differences[f"{label} - direct"]
        for col, metric, digits in ((1, "attacker_won", 3), (3, "attacker_steps_lost", 2), (5, "end_time", 2)):
            e = diff[metric]
            printed = "{:+.{d}f} [{:+.{d}f}, {:+.{d}f}]".format(e.mean, e.ci_low, e.ci_high, d=digits)
            assert cols[col].replace("−", "-") == printed, (label, metric, cols[col], printed)
