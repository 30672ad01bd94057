"""A designed study of many cells is summarised in a screenful (its factors' ranges, the
cells of the lowest and highest means, the paired differences in a line a metric, where
the full table went), and ``--quiet`` prints nothing on stdout."""
from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

from sim.cli import main
from sim.study.reports.summary import FULL_TABLE_CELLS

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "open_ground_advance.yaml"
RADII = [round(2.0 + 0.5 * i, 1) for i in range(24)]   # 24 points x 2 variants = 48 cells

STUDY = f"""\
study: many
scenario: open_ground_advance.yaml
seed: 9
replications: 3
baseline: sf
variants:
  sf: {{}}
  zoc: {{rules.snapfire.reaction: zoc}}
factors:
  vary:
    rules.snapfire.radius: {RADII}
metrics: [attacker_won, end_time, sf_halts]
"""


def study(tmp_path):
    shutil.copy(SCENARIO, tmp_path / SCENARIO.name)
    path = tmp_path / "many.yaml"
    path.write_text(STUDY)
    return path


def test_a_study_of_many_cells_is_summarised(tmp_path, capsys):
    path = study(tmp_path)
    assert 2 * len(RADII) > FULL_TABLE_CELLS
    assert main(["study", str(path), "--json"]) == 0
    whole = json.loads(capsys.readouterr().out)
    csv_path = tmp_path / "all.csv"
    assert main(["study", str(path), "--csv", str(csv_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) < 30                        # a screenful, not a line per cell and metric
    assert lines[2] == "Design grid: 24 points x 2 variant(s) = 48 cells, too many to list here"
    assert f"every replication is in {csv_path}" in lines[3] and "--json" in lines[3]
    assert lines[6].split() == ["rules.snapfire.radius", "2", "..", "13.5", "(24", "distinct",
                                "values)"]
    order = list(whole["variants"])               # design order: ties go to the first cell
    for variant in ("sf", "zoc"):
        at = lines.index(f"Variant {variant}, over its 24 cells (lowest and highest mean):")
        for row, metric in zip(lines[at + 1:at + 4], ["attacker_won", "end_time", "sf_halts"]):
            means = {c: v[metric]["mean"] for c, v in whole["variants"].items()
                     if c.split("@")[0] == variant}
            lo, hi = min(means.values()), max(means.values())
            words = row.split()
            assert words[0] == metric
            if lo == hi:
                assert words[2:] == ["in", "every", "cell"] and math.isclose(float(words[1]), lo)
                continue
            assert words[1] == "lowest" and math.isclose(float(words[2]), lo, abs_tol=5e-4)
            assert words[4] == next(c for c in order if means.get(c) == lo)
            high = words.index("highest")
            assert math.isclose(float(words[high + 1]), hi, abs_tol=5e-4)
            assert words[high + 3] == next(c for c in order if means.get(c) == hi)
    assert any(line.endswith("in every cell") for line in lines)   # zoc never halts
    diffs = lines[lines.index("Paired differences (variant - baseline at the same point):") + 1:]
    halts = next(line for line in diffs if line.split()[0] == "sf_halts")
    real = sum(1 for per in whole["differences"].values()
               if per["sf_halts"]["ci_low"] > 0 or per["sf_halts"]["ci_high"] < 0)
    assert f"{real} of 24 intervals exclude 0" in halts


def test_quiet_prints_nothing_on_stdout(tmp_path, capsys):
    path = study(tmp_path)
    assert main(["study", str(path), "--quiet", "--replications", "2"]) == 0
    assert capsys.readouterr().out == ""
    assert main(["study", str(path), "--quiet", "--json", "--replications", "2"]) == 0
    assert set(json.loads(capsys.readouterr().out)) == {"study", "variants", "differences"}


def test_demo_quiet_prints_nothing_and_writes_its_plots(tmp_path, capsys):
    out = tmp_path / "demo"
    assert main(["demo", "--fast", "--workers", "1", "--out", str(out), "--quiet"]) == 0
    assert capsys.readouterr().out == ""
    assert sorted(p.name for p in out.iterdir()) == ["differences.png", "means.png"]


def test_the_report_of_a_study_of_many_cells_carries_the_summary_not_a_row_a_cell(tmp_path):
    from sim.study.plan.study_file import load_study
    from sim.study.reports.html_report import report_html
    from sim.study.reports.summary import summary_table
    from sim.study.run.runner import run_study
    from sim.viz.html import escape

    run = run_study(load_study(study(tmp_path)), replications=2)
    page = report_html(run, ["sim", "study", "many.yaml"])
    assert escape(summary_table(run, "")).split("\n", 1)[1].split("Every cell:")[0] in page
    assert "48 cells: too many for a table here" in page
    assert page.count("<tr>") < 30     # the rule counts' first cells, not 48 x 3 result rows
