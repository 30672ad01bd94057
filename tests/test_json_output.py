"""Every ``--json`` is strict JSON: a number that is not finite is null, never ``NaN``.

``sim run --json`` printed ``NaN`` and ``Infinity`` for a plug-in's metric that is not
finite, which is not JSON (jq refuses it), and ``sim run`` without ``--json`` failed
with a traceback on it. Every command that prints JSON (``run``, ``study``, ``select``,
``analyse``, ``rules``) now writes null for such a number, as the event log does; what
the results store keeps of such a metric is documented (and checked) here too.
"""
from __future__ import annotations

import json
import math
import shutil
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest

import sim.plugin as sp
from sim.cli import main
from sim.experimental import unregister_metric
from sim.study.run.store import ResultStore

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "open_ground_advance.yaml"
STUDY = """\
study: odd
scenario: open_ground_advance.yaml
seed: 5
replications: 2
variants:
  sf: {}
  zoc: {rules.snapfire.reaction: zoc}
metrics: [attacker_won, odd_nan, odd_inf]
"""


def strict(text: str):
    """JSON as a strict parser reads it: NaN, Infinity and -Infinity are refused."""
    def refuse(constant: str):
        raise ValueError(f"not JSON: {constant}")
    return json.loads(text, parse_constant=refuse)


def _odd(records, scenario):
    return {"odd_nan": math.nan, "odd_inf": math.inf, "odd_minus_inf": -math.inf}


@pytest.fixture
def odd_metrics():
    """A plug-in metric reporter whose metrics are NaN, +infinity and -infinity."""
    sp.register(sp.MetricReporter(
        "odd", {"odd_nan": "real", "odd_inf": "real", "odd_minus_inf": "real"}, _odd, systems=("snapfire",)))
    yield
    unregister_metric("odd")


@pytest.fixture
def study(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(SCENARIO, tmp_path / SCENARIO.name)
    (tmp_path / "odd.yaml").write_text(STUDY)
    return tmp_path / "odd.yaml"


def test_run_json_writes_a_non_finite_metric_as_null(odd_metrics, capsys):
    assert main(["run", str(SCENARIO), "--seed", "3", "--json"]) == 0
    metrics = strict(capsys.readouterr().out)["metrics"]
    assert (metrics["odd_nan"], metrics["odd_inf"], metrics["odd_minus_inf"]) == (None, None, None)
    assert metrics["turns"] > 0


def test_run_summary_shows_a_non_finite_metric(odd_metrics, capsys):
    assert main(["run", str(SCENARIO), "--seed", "3"]) == 0
    assert "  odd: odd_nan nan, odd_inf inf, odd_minus_inf -inf\n" in capsys.readouterr().out


def test_the_store_keeps_the_non_finite_value_and_the_study_json_is_null(odd_metrics, study, capsys):
    """Guard of what the docs say (the store is unchanged): the metrics column holds
    Python's JSON text, NaN and Infinity, which reads back as the same float."""
    assert main(["study", str(study), "--db", "r.db", "--json", "--quiet"]) == 0
    cells = strict(capsys.readouterr().out)["variants"]
    assert cells["sf"]["odd_nan"] == {"mean": None, "ci_low": None, "ci_high": None, "n": 0,
                                      "method": "none"}
    with sqlite3.connect("r.db") as db:
        text = db.execute("SELECT metrics FROM replications LIMIT 1").fetchone()[0]
    assert '"odd_inf": Infinity' in text and '"odd_minus_inf": -Infinity' in text \
        and '"odd_nan": NaN' in text
    with ResultStore("r.db") as store:
        (row, *_) = store.load(store.conn.execute("SELECT study_hash FROM studies").fetchone()[0])
    assert row.metrics is not None and math.isnan(row.metrics["odd_nan"]) and row.metrics["odd_inf"] == math.inf


def _with_nan(make):
    """``make``, with a value that is not finite added to what it returns."""
    return lambda *a, **k: {**make(*a, **k), "odd": [math.nan, math.inf, {"x": -math.inf}]}


JSON_COMMANDS = {
    "study": ["study", "odd.yaml", "--json", "--quiet"],
    "select": ["select", "odd.yaml", "--metric", "attacker_won", "--direction", "maximise", "--delta", "0.5",
               "--n0", "2", "--replications", "2", "--json", "--quiet"],
    "analyse": ["analyse", "odd.yaml", "--db", "r.db", "--json"],
    "rules": ["rules", "--json"],
}


@pytest.mark.parametrize("command", JSON_COMMANDS)
def test_every_json_output_is_strict_whatever_it_holds(odd_metrics, study, capsys, monkeypatch, command):
    """Each command's JSON, given values that are not finite: null, never NaN."""
    import sim.cli.rules as rules
    import sim.study.analysis.study_analysis as analysis
    import sim.study.reports.selection as selection
    import sim.study.reports.summary as summary

    monkeypatch.setattr(summary, "as_json", _with_nan(summary.as_json))
    monkeypatch.setattr(selection, "as_json", _with_nan(selection.as_json))
    real_rows = rules.rule_rows
    monkeypatch.setattr(rules, "rule_rows", lambda: [{**real_rows()[0], "odd": [math.nan, math.inf,
                                                                                {"x": -math.inf}]}])
    stored = SimpleNamespace(to_dict=lambda: {"odd": [math.nan, math.inf, {"x": -math.inf}]})
    monkeypatch.setattr(analysis, "require_extra", lambda names: None)
    monkeypatch.setattr(analysis, "analyse_stored", lambda *a: stored)
    assert main(JSON_COMMANDS[command]) == 0
    got = strict(capsys.readouterr().out)
    assert (got[0] if command == "rules" else got)["odd"] == [None, None, {"x": None}]
