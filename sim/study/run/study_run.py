"""A study's run: what it holds in memory (per cell, never per replication) and where its
rows are.

Every finished replication goes to a results store as it arrives: the ``--db`` given, or
else a temporary one of the run's own, removed with it. In memory a run keeps per cell
only which replications are recorded (``Reps``); its summary, tables, files and reports
read the rows back from the store a cell at a time (``StoreRows``), so the client's
memory depends on the study's cells, not on its replications. ``records``, ``rows()``
and ``failures`` read the store on each call, for scripts and tests.
"""
from __future__ import annotations

import os
import shutil
import tempfile
import weakref
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from sim.study.analysis.stats import Summary
from sim.study.plan.study_file import Study
from sim.study.run.provenance import Made, Mixed
from sim.study.run.reps import Reps
from sim.study.run.rows import StoreRows
from sim.study.run.store import ResultStore, Stored
from sim.systems.registry import MetricKind


@dataclass
class StudyRun:
    """What a finished study produced: its summary, and its rows in its store."""

    study: Study
    crn: bool
    study_hash: str
    replications: int  # the N per cell that the summary is computed from
    metrics: list[str]
    kinds: dict[str, MetricKind]
    summary: Summary | None = None
    resumed: int = 0  # replications loaded from the store rather than run
    other_versions: list[str] = field(default_factory=list)  # of resumed rows, if not ours
    notes: list[str] = field(default_factory=list)  # things the user should know
    ran: int = 0
    stop: str = "replications"  # or "precision" (target met) or "cap" (target not met)
    made_by: Made = ()  # the code this run's battles run
    mixed_code: Mixed | None = None  # resumed rows that other code made (--allow-changed-code)
    store: ResultStore | None = field(default=None, repr=False)  # where its rows go
    db: str = ""  # the file of its rows (a temporary one without --db)
    done: dict[int, Reps] = field(default_factory=dict, repr=False)  # recorded, per cell
    owned: bool = field(default=False, repr=False)  # the store is the run's own

    @cached_property
    def index(self) -> dict[tuple[str, str], int]:
        """Each cell's index by (variant, factor point's canonical JSON)."""
        return {(c.variant, c.point_json): i for i, c in enumerate(self.study.cells)}

    def reps(self, ci: int) -> Reps:
        """The recorded replications (run, failed, resumed) of cell ``ci``."""
        return self.done.setdefault(ci, Reps())

    def reader(self) -> StoreRows:
        """The run's rows, for one reading (close it, or use it in ``with``)."""
        return StoreRows(self.db, self.study_hash, self.study.cells)

    def finish(self) -> None:
        """Close the run's own store (its rows stay readable until the run is gone)."""
        if self.owned and self.store is not None:
            self.store.close()

    @property
    def records(self) -> dict[tuple[int, int], Stored]:
        """Every stored replication and failure, keyed (cell, rep), in that order (read
        from the store: as large as the study)."""
        with self.reader() as rows:
            return {(ci, s.rep): s for ci in range(len(self.study.cells))
                    for s in rows.records(ci)}

    @property
    def failures(self) -> list[Stored]:
        """The replications that raised, in (cell, rep) order (read from the store)."""
        with self.reader() as rows:
            return [s for _, s in rows.failures()]

    def rows(self) -> dict[tuple[int, int], dict[str, Any]]:
        """Metrics of the successful replications < N, keyed (cell, rep), in that order
        (read from the store: as large as the study)."""
        with self.reader() as rows:
            return {(ci, s.rep): s.metrics for ci in range(len(self.study.cells))
                    for s in rows.records(ci, 0, self.replications) if s.metrics is not None}


def attach_store(run: StudyRun, store: ResultStore | None) -> ResultStore:
    """Give ``run`` its store: ``store``, or a temporary one that goes with the run."""
    if store is None:
        folder = tempfile.mkdtemp(prefix="sim-study-")
        weakref.finalize(run, shutil.rmtree, folder, True)
        store = ResultStore(os.path.join(folder, "results.sqlite"), temporary=True)
        run.owned = True
    run.store, run.db = store, store.path
    return store
