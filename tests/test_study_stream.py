"""A study's client holds its cells, not its replications: outcomes go to the store and
the statistics, tables and files read them back a cell at a time, to the same output.

The reference implementations here are the ones that held every outcome (the summary
over a mapping of all rows, the CSV made by pandas from all rows at once): the
streamed ones must give the same numbers and the same bytes.
"""
from __future__ import annotations

import gc
import shutil
import tracemalloc
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from sim.study.analysis.blocks import MemoryRows
from sim.study.analysis.responses import analyse
from sim.study.analysis.stats import summarize
from sim.study.plan.study_file import study_from_dict
from sim.study.reports import replications_csv
from sim.study.reports.replications_csv import write_csv
from sim.study.reports.summary import metric_column, table
from sim.study.run.executors import SerialExecutor
from sim.study.run.reps import Reps
from sim.study.run.runner import _summarize, run_study
from sim.study.run.selection import SelectSpec, run_selection
from sim.study.run.store import ResultStore

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "open_ground_advance.yaml"
LOST, WON, TIME = "attacker_steps_lost", "attacker_won", "end_time"   # a count, a 0/1, a real


def stub_battle(scenario, seed):
    """No battle: metrics from the seed alone (a client's own cost, without battles)."""
    if seed % 97 == 3:
        raise RuntimeError(f"stub failure at {seed}")
    out = {LOST: seed % 7, WON: seed % 2, TIME: (seed % 1000) / 7}
    if seed % 11 == 0:
        out[TIME] = float("nan")     # a value that does not count
    if seed % 13 == 0:
        del out[LOST]                # a metric that a battle lacks
    return out


def _study(tmp_path, reps: int, factors: bool = True):
    shutil.copy(SCENARIO, tmp_path / SCENARIO.name)
    data = {"study": "stream", "scenario": SCENARIO.name, "seed": 5, "replications": reps,
            "baseline": "sf", "variants": {"sf": {}, "zoc": {"rules.snapfire.reaction": "zoc"}},
            "metrics": [LOST, WON, TIME]}
    if factors:
        data["factors"] = {"vary": {"rules.snapfire.radius": [6, 12]}}
    return study_from_dict(data, base_dir=str(tmp_path))


def test_the_summary_read_from_the_store_is_the_one_of_all_rows_at_once(tmp_path):
    study = _study(tmp_path, 60)
    for crn in (True, False):
        run = run_study(study, replications=60, crn=crn, battle=f"{__name__}:stub_battle")
        rows = run.rows()
        assert len(rows) < 4 * 60 and run.failures  # some failed, and are left out
        whole = summarize(study.cells, study.baseline, rows, run.metrics, run.kinds, reps=60,
                          paired=crn)
        assert run.summary == whole
        assert {m: run.kinds[m] for m in run.metrics} == {LOST: "count", WON: "binary", TIME: "real"}
        limited = summarize(study.cells, study.baseline, rows, run.metrics, run.kinds, reps=25,
                            paired=crn)
        assert _summarize(run, 25) == limited


def test_groups_of_metrics_give_the_same_summary(monkeypatch):
    from sim.study.analysis import blocks
    from sim.study.analysis.stats import summarize_rows

    cells = [SimpleNamespace(variant=v, point=p, label=f"{v}@{len(p)}")
             for v in ("b", "z") for p in ((), (("k", 1),))]
    rng = np.random.default_rng(3)
    rows = {(ci, r): {m: float(rng.integers(0, 4)) for m in "abcde"}
            for ci in range(4) for r in range(30)}
    metrics, kinds = list("abcde"), {"a": "count"}
    one = summarize(cells, "b", rows, metrics, kinds)
    monkeypatch.setattr(blocks, "BUDGET", 40)   # a metric at a time
    source = MemoryRows(rows)
    assert summarize_rows(cells, "b", source, metrics, kinds, most=30) == one
    assert list(one.differences) == ["z@0 - b@0", "z@1 - b@1"]


def test_a_resumed_study_and_a_selection_read_what_the_store_holds(tmp_path):
    study = _study(tmp_path, 30, factors=False)
    db = str(tmp_path / "s.sqlite")
    battle = f"{__name__}:stub_battle"
    whole = run_study(study, replications=30, battle=battle)
    with ResultStore(db) as store:
        run_study(study, replications=12, store=store, battle=battle)
    with ResultStore(db) as store:
        again = run_study(study, replications=30, store=store, resume=True, battle=battle)
    assert (again.resumed, again.ran) == (24, 36)
    assert table(again).replace("24 replications resumed from the store; ", "") == table(whole)
    assert again.rows() == whole.rows()
    spec = SelectSpec(WON, True, 0.2, 0.1, n0=5, cap=20)
    with ResultStore(db) as store:
        chosen = run_selection(study, spec, store=store, resume=True, battle=battle)
    fresh = run_selection(study, spec, battle=battle)
    assert chosen.selection.counts == fresh.selection.counts
    assert chosen.selection.means == fresh.selection.means
    assert chosen.from_store == sum(min(n, 30) for n in chosen.selection.counts) and chosen.run.ran == 0


def _old_csv(run) -> str:
    """The CSV as it was made: pandas, from every row at once."""
    keys = [k for k, _ in run.study.cells[0].point]
    rows = []
    for (ci, rep), rec in sorted(run.records.items()):
        cell = run.study.cells[ci]
        row = {"study": run.study.name, "study_hash": run.study_hash, "cell": cell.label,
               "variant": cell.variant, **dict(cell.point), "rep": rep, "seed": rec.seed,
               "status": "ok" if rec.metrics is not None else "failed",
               "version": rec.version, "scenario_hash": rec.scenario_hash}
        row.update({metric_column(m): v for m, v in rec.metrics.items()} if rec.metrics is not None
                   else {"error": rec.error})
        rows.append(row)
    frame = pd.DataFrame(rows)
    lead = ["study", "study_hash", "cell", "variant", *keys, "rep", "seed", "status",
            "version", "scenario_hash"]
    return frame.reindex(columns=lead + sorted(c for c in frame.columns if c not in lead)) \
        .to_csv(index=False)


@pytest.mark.parametrize("part", [1, 2, 7, 5000])
def test_the_csv_written_in_parts_is_the_csv_of_all_rows_at_once(tmp_path, monkeypatch, part):
    study = _study(tmp_path, 15)
    run = run_study(study, replications=15, battle=f"{__name__}:stub_battle")
    monkeypatch.setattr(replications_csv, "PART", part)
    path = str(tmp_path / "rows.csv")
    assert write_csv(run, path) == len(run.records)
    assert Path(path).read_text() == _old_csv(run)


def test_column_types_are_those_of_the_whole_column():
    rows = [{"a": 1, "b": True, "c": "x", "d": 1, "e": 2 ** 63, "f": None, "g": [1]},
            {"a": 2.5, "b": False, "d": 3, "e": 1, "f": 2, "g": "s"},
            {"a": 3, "c": 4, "e": 5}]
    count, types = replications_csv.column_types(rows)
    whole = pd.DataFrame(rows)
    assert count == 3 and types == dict(whole.dtypes)


def test_analyse_from_the_store_is_analyse_of_its_rows(tmp_path):
    study = _study(tmp_path, 9)
    db = str(tmp_path / "a.sqlite")
    with ResultStore(db) as store:
        run = run_study(study, replications=9, store=store, battle=f"{__name__}:stub_battle")
        stored = store.load(run.study_hash)
    with run.reader() as rows:
        streamed = analyse(study, rows, run.kinds, [LOST, WON, TIME], resamples=20)
    whole = analyse(study, stored, run.kinds, [LOST, WON, TIME], resamples=20)
    assert streamed.replications == whole.replications
    assert [(r.metric, r.responses, r.note) for r in streamed.results] == \
        [(r.metric, r.responses, r.note) for r in whole.results]


def test_reps_keeps_a_prefix_and_what_lies_beyond_it():
    reps = Reps([0, 1, 3, 5])
    assert (reps.prefix, reps.beyond, len(reps)) == (2, {3, 5}, 4)
    assert list(reps.missing(7)) == [2, 4, 6] and reps.below(4) == 3
    later = reps.missing(7)
    assert next(later) == 2
    reps.add(2)
    reps.add(4)   # the prefix takes in 3, 4, 5: none of them is missing now
    assert (reps.prefix, reps.beyond) == (6, set()) and list(later) == [6]
    assert 5 in reps and 6 not in reps and -1 not in reps


class _Watched(SerialExecutor):
    """Counts the objects the collector tracks once the last batch is in."""

    def run(self, tasks):
        yield from super().run(tasks)
        gc.collect()
        self.tracked = len(gc.get_objects())


def _client(tmp_path, reps: int) -> tuple[int, int]:
    """(objects tracked after the last batch, peak bytes the run allocated) of a study
    of ``reps`` replications of each of 2 cells whose battles cost nothing."""
    study = _study(tmp_path, reps, factors=False)
    executor = _Watched()
    gc.collect()
    tracemalloc.start()
    try:
        run_study(study, executor=executor, replications=reps, battle=f"{__name__}:stub_battle")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return executor.tracked, peak


def test_the_client_keeps_no_outcome_per_replication(tmp_path):
    n = 1000
    _client(tmp_path, 50)   # what is imported and cached once is not counted
    small, big = _client(tmp_path, n), _client(tmp_path, 10 * n)
    extra = 9 * n   # battles the larger study ran beyond the smaller one's
    # An outcome kept per battle is at least a row object and its metrics (1 tracked
    # object and about 600 bytes a battle, as the client kept them before). What may grow
    # is one cell's column of values while it is summed: 8 bytes a value.
    assert big[0] - small[0] < extra / 100, (small, big)
    assert big[1] - small[1] < extra * 250, (small, big)
