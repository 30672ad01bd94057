"""The analysis of a stored designed study, in one call: what ``sim analyse`` prints and
writes, for a notebook or a script (``sim.analyse_study``).

``analyse_study(study, db)`` reads the rows the study stored under its hash in ``db`` and
returns a ``StudyAnalysis``: its ``text()`` is ``sim analyse``'s text, ``to_dict()`` its
``--json`` object, ``write(DIR)`` its ``--out`` files, and ``indices()`` and
``responses()`` are DataFrames of the Sobol' indices or Morris effects and of the design
points' mean responses. Every problem (no such store, no rows of this study, an unknown
metric, a missing ``analysis`` extra) is an ``InputError``.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sim import arguments
from sim.errors import InputError
from sim.files import path_problem
from sim.metrics import metric_kinds
from sim.study.analysis.responses import Analysis, MetricAnalysis, analyse, missing_extra
from sim.study.plan.study_file import Study, load_study
from sim.study.reports.farming import as_dict, responses, text, write_files
from sim.study.run.rows import StoreRows
from sim.study.run.store import ResultStore

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["StudyAnalysis", "analyse_study"]


@dataclass(frozen=True)
class StudyAnalysis:
    """A stored designed study's sensitivity indices and metamodels, per variant and metric."""

    analysis: Analysis
    db: str

    @property
    def results(self) -> list[MetricAnalysis]:
        """One entry per (variant, metric): responses, indices, metamodel, note."""
        return self.analysis.results

    def text(self) -> str:
        """The readable report, as ``sim analyse`` prints it."""
        return text(self.analysis, self.db)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready object, as ``sim analyse --json`` prints it."""
        return as_dict(self.analysis)

    def write(self, out_dir: str) -> list[str]:
        """Write the CSV and JSON files and the plots into ``out_dir``; returns their paths."""
        return write_files(self.analysis, out_dir)

    def indices(self) -> pd.DataFrame:
        """One row per (variant, metric, factor, index): value and bootstrap interval."""
        import pandas as pd

        rows = [{"variant": r.variant, "metric": r.metric, "factor": i.factor, "name": i.name,
                 "value": i.value, "ci_low": i.ci_low, "ci_high": i.ci_high}
                for r in self.results for i in r.indices]
        return pd.DataFrame(rows, columns=["variant", "metric", "factor", "name", "value",
                                           "ci_low", "ci_high"])

    def responses(self) -> pd.DataFrame:
        """One row per (variant, design point): the factors' values (by key path) and each
        metric's mean (``metric:NAME``), as ``responses.csv`` holds them."""
        import pandas as pd

        columns, rows = responses(self.analysis)
        return pd.DataFrame(rows, columns=columns)


def analyse_study(study: Study | str, db: str, *, metrics: list[str] | None = None,
                  crn: bool = True, resamples: int = 1000) -> StudyAnalysis:
    """Analyse what ``db`` stores of a designed ``study`` (a loaded one or its file)."""
    return analyse_stored(study, db, metrics, crn, resamples, API_NAMES)


#: Which name each argument has in a message: the Python API's, or ``sim analyse``'s options.
API_NAMES = {"db": "db", "metrics": "metrics", "resamples": "resamples", "call": "analyse_study"}
CLI_NAMES = {"db": "--db", "metrics": "--metric", "resamples": "--resamples",
             "call": "sim analyse"}


def require_extra(names: dict[str, str]) -> None:
    """Refuse at once when a library of the ``analysis`` extra is missing."""
    missing = missing_extra()
    if missing:
        raise InputError(f"{names['call']} needs {', '.join(missing)}: pip install 'sim[analysis]'",
                         file="command line" if names is CLI_NAMES else None,
                         place=None if names is CLI_NAMES else names["call"])


def analyse_stored(study: Study | str, db: str, metrics: list[str] | None, crn: bool,
                   resamples: int, names: dict[str, str]) -> StudyAnalysis:
    """``analyse_study``, its errors naming the arguments as ``names`` says."""
    require_extra(names)
    if not isinstance(study, Study):
        study = load_study(arguments.path(study, "study"))
    db = arguments.path(db, names["db"])
    if not os.path.isfile(db):
        raise InputError(f"{path_problem(db) or 'no such results database'} (expected the "
                         "--db of a `sim study` run)", file=db, place=names["db"])
    if metrics is not None:
        if isinstance(metrics, str) or not isinstance(metrics, (list, tuple)):
            raise arguments.fail(names["metrics"], "a list of metric names", metrics)
        metrics = [arguments.text(m, names["metrics"]) for m in metrics]
    crn = arguments.flag(crn, "crn")
    resamples = arguments.whole(resamples, names["resamples"], 1, 100_000)
    key = study.key(crn)
    ResultStore(db).close()   # its checks: a file that is not a results store is refused
    with StoreRows(db, key, study.cells) as rows:
        if not rows.check():   # every row read once, as the store would load them
            raise InputError(f"holds no replications of study '{study.name}' (hash {key}); "
                             f"run `sim study {study.path} --db {db}` first", file=str(db),
                             place=names["db"])
        kinds: dict[str, str] = dict(metric_kinds(study.scenario))
        unknown = [m for m in metrics or [] if kinds and m not in kinds]
        if unknown:
            raise InputError(f"unknown metric '{unknown[0]}' (expected one of {sorted(kinds)})",
                             place=names["metrics"])
        return StudyAnalysis(analyse(study, rows, kinds, metrics, resamples=resamples,
                                     study_hash=key), db)
