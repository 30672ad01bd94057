"""``sim study --csv FILE``: every stored replication of a study, one row each, written a
few thousand rows at a time from the store, never the study's rows at once.

The file is what pandas writes of the whole table: a column's type is the one pandas
gives the whole column (a count column with a failure's gap is a float column, 3.0), so
each part is made by pandas with the types that a first reading of the rows found
(``column_types``); the text of a value is then the same in any part.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import numpy as np

from sim.files import write_parts
from sim.study.reports.summary import metric_column
from sim.study.run.rows import StoreRows
from sim.study.run.study_run import StudyRun

#: Rows made into one part of the file.
PART = 5000


def _rows(run: StudyRun, rows: StoreRows) -> Iterator[dict[str, Any]]:
    """Each stored replication (failures too) as a row, in (cell, rep) order."""
    for ci, cell in enumerate(run.study.cells):
        for rec in rows.records(ci):
            row = {"study": run.study.name, "study_hash": run.study_hash, "cell": cell.label,
                   "variant": cell.variant, **dict(cell.point), "rep": rec.rep,
                   "seed": rec.seed, "status": "ok" if rec.metrics is not None else "failed",
                   "version": rec.version, "scenario_hash": rec.scenario_hash}
            row.update({metric_column(m): v for m, v in rec.metrics.items()}
                       if rec.metrics is not None else {"error": rec.error})
            yield row


def column_types(rows: Iterable[Mapping[str, Any]]) -> tuple[int, dict[str, Any]]:
    """How many rows there are, and the type pandas gives each column of them all: found
    from one value of each Python type a column holds (its least and largest integers),
    and a gap where a row lacks it, which decide the type as all its values would."""
    import pandas as pd

    seen: dict[str, dict[Any, Any]] = {}
    present: dict[str, int] = {}
    count = 0
    for row in rows:
        count += 1
        for col, v in row.items():
            kinds = seen.setdefault(col, {})
            present[col] = present.get(col, 0) + 1
            if type(v) is int:
                low, high = kinds.get("low", v), kinds.get("high", v)
                kinds["low"], kinds["high"] = min(low, v), max(high, v)
            else:
                kinds.setdefault(type(v), v)
    types = {}
    for col, kinds in seen.items():
        sample: list[dict[str, Any]] = [{col: v} for v in kinds.values()]
        if present[col] < count:
            sample.append({})
        types[col] = pd.DataFrame(sample, columns=[col])[col].dtype
    return count, types


def _parts(rows: Iterator[dict[str, Any]], columns: list[str], types: dict[str, Any]) -> Iterator[bytes]:
    import pandas as pd

    first = True
    while True:
        part = [row for _, row in zip(range(PART), rows)]
        if not part and not first:
            return
        frame = pd.DataFrame(part).reindex(columns=columns)
        for col in columns:
            want = types.get(col)
            if want is not None and frame[col].dtype != want:
                # From the values as they came (ints stay ints in an object column).
                frame[col] = pd.Series([row.get(col, np.nan) for row in part], dtype=want)
        yield frame.to_csv(index=False, header=first).encode("utf-8", "backslashreplace")
        first = False


def write_csv(run: StudyRun, path: str) -> int:
    """Every recorded replication of the study (failures too), one row each; returns
    the row count (InputError naming the file if it cannot be written)."""
    keys = [k for k, _ in run.study.cells[0].point] if run.study.cells else []
    lead = ["study", "study_hash", "cell", "variant", *keys, "rep", "seed", "status",
            "version", "scenario_hash"]
    with run.reader() as rows:
        count, types = column_types(_rows(run, rows))
        columns = lead + sorted(c for c in types if c not in lead)
        write_parts(path, _parts(_rows(run, rows), columns, types))
    return count
