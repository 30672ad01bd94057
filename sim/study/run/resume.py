"""Opening a study's run: its store registered and, with ``resume``, what the store holds
of it, and the rows it adopts from earlier configurations of the study.

The store's rows are read one at a time and only which replications each cell has is
kept (``StudyRun.done``), so a resume of a million stored battles takes no more memory
than a fresh run. Adopted rows are found in one reading and copied in a second, after
the provenance check (a refused resume writes nothing).
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator

from sim.errors import InputError
from sim.metrics import metric_kinds
from sim.study.plan.seeds import replication_seed
from sim.study.plan.study_file import Study, package_version
from sim.study.run import provenance
from sim.study.run.reps import Reps
from sim.study.run.store import ResultStore, Stored, guard, stored_rows
from sim.study.run.study_run import StudyRun, attach_store

ADOPT_BATCH = 5000  # adopted rows copied in one transaction


def open_run(study: Study, crn: bool, store: ResultStore | None, resume: bool,
             allow_changed_code: bool = False) -> StudyRun:
    """A study's run before any battle: registered in ``store`` and, with ``resume``, holding
    what it stores (and the rows it adopts from earlier configurations of the study).
    Without ``resume``, a store that already holds rows of this study is an
    ``InputError``; so is, with it, one whose rows other code made
    (``sim.study.run.provenance``), unless ``allow_changed_code``. Without a store, the
    run gets a temporary one of its own (``attach_store``)."""
    key = study.key(crn)
    run = StudyRun(study, crn, key, 0, list(study.metrics or []), metric_kinds(study.scenario),
                   made_by=provenance.made_by(study))
    given = store
    store = attach_store(run, store)
    if given is None:
        return run
    rows, fails = store.counts(key)
    if (rows or fails) and not resume:
        raise InputError(f"already holds {rows + fails} replications of study "
                         f"'{study.name}' (hash {key}); add --resume to continue it, "
                         f"or give another --db", file=store.path, place="--db")
    others = store.other_hashes(study.name, key)
    codes: list[str] = []
    sources: list[str] = []
    taken: dict[int, Reps] = {}
    if resume:
        versions = _load(run, store)
        taken, sources, more = _adoptable(run, store, others)
        stored = store.codes([key, *sources])
        made = [provenance.loads(c, store.path) for c in stored]
        run.mixed_code = provenance.check(made, run.made_by, study.name, store.path,
                                          allow_changed_code, sorted(versions | more))
        codes = [json.dumps(c, sort_keys=True, separators=(",", ":")) for c in stored]
        versions |= more
    store.register(key, study.name, study.config(crn))
    if resume:
        # The adopted rows under this study's hash, and every code its rows were made by.
        store.add(key, [], codes)
        _adopt(run, store, others, taken)
        run.resumed = sum(len(r) for r in run.done.values())
        run.other_versions = sorted(versions - {package_version()})
        _resume_notes(run, store, sum(len(r) for r in taken.values()), others)
    return run


def _resume_notes(run: StudyRun, store: ResultStore, adopted: int, others: list[str]) -> None:
    name = run.study.name
    if run.mixed_code is not None:
        run.notes.append(f"the results mix code (resumed with {provenance.OPTION}): "
                         f"{run.mixed_code.changes}")
    if adopted:
        run.notes.append(
            f"{adopted} replications of the same cells reused from an earlier "
            f"configuration of '{name}' in {store.path} (a design with fewer "
            "points), not run again")
    elif not run.resumed and others:
        run.notes.append(
            f"nothing to resume: {store.path} holds '{name}' only as another "
            f"configuration (hash {others[-1]}: a changed seed, CRN mode, scenario or "
            "variant), so every replication runs afresh")


def _load(run: StudyRun, store: ResultStore) -> set[str]:
    """Record what the store holds of the run's study; returns the versions that made it."""
    versions = set()
    for s in store.rows(run.study_hash):
        ci = run.index.get((s.variant, s.point))
        if ci is not None:
            run.reps(ci).add(s.rep)
            versions.add(s.version)
    return versions


def _matches(run: StudyRun, s: Stored) -> int | None:
    """The cell of a row stored under another hash of the study, if it is the very battle
    this study would run: the same variant and point, the same resolved scenario (hash)
    and the seed this study gives the replication; else None."""
    ci = run.index.get((s.variant, s.point))
    if ci is None or s.rep in run.reps(ci):
        return None
    cell = run.study.cells[ci]
    seed = replication_seed(run.study.spec.seed, s.rep, crn=run.crn, variant=cell.variant,
                            point=cell.point_json)
    return ci if s.scenario_hash == cell.scenario_hash and s.seed == seed else None


def _adoptable(run: StudyRun, store: ResultStore,
               others: list[str]) -> tuple[dict[int, Reps], list[str], set[str]]:
    """The rows stored under earlier hashes of this study for cells it still has (each
    cell's replications, the newest hash's row first), those hashes and the versions that
    made them. A design extended with more points (or stacks) thereby reruns nothing."""
    taken: dict[int, Reps] = {}
    sources, versions = [], set()
    for other in reversed(others):  # the newest first
        found = False
        for s in store.rows(other):
            ci = _matches(run, s)
            if ci is not None and s.rep not in taken.setdefault(ci, Reps()):
                taken[ci].add(s.rep)
                versions.add(s.version)
                found = True
        if found:
            sources.append(other)
    return taken, sources, versions


def _adopt(run: StudyRun, store: ResultStore, others: list[str], taken: dict[int, Reps]) -> None:
    """Copy the rows ``_adoptable`` found under this study's hash, so the store alone says
    what the study holds, and record them."""
    if not any(taken.values()):
        return
    with guard(store.path, "read it"):
        reader = sqlite3.connect(store.path, timeout=30)
    try:
        batch: list[Stored] = []
        for s in _again(run, reader, store.path, others, taken):
            batch.append(s)
            if len(batch) >= ADOPT_BATCH:
                store.add(run.study_hash, batch)
                batch = []
        store.add(run.study_hash, batch)
    finally:
        reader.close()


def _again(run: StudyRun, conn: sqlite3.Connection, path: str, others: list[str],
           taken: dict[int, Reps]) -> Iterator[Stored]:
    """The rows ``_adoptable`` took, found again in the same order (the first matching row
    of each taken replication), each recorded as it is yielded."""
    for other in reversed(others):
        for s in stored_rows(conn, path, other):
            ci = _matches(run, s)
            if ci is not None and s.rep in taken[ci]:
                run.reps(ci).add(s.rep)
                yield s
