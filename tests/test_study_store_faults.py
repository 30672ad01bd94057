"""Issue 13, items 1 and 5: a results database that cannot be used is refused in one line
(exit 2), before anything is written to it: another program's SQLite file, tables with
other columns, damaged pages, rows this store never writes, a read-only file, a device
such as /dev/null, an empty path. A disk that fills up while batches are stored stops the
study in one line with every committed batch kept, and --resume finishes it.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import sim
from conftest import SCENARIOS, err_line, tmpfs
from sim.cli import main
from sim.errors import InputError
from sim.study.run.store import ResultStore

STUDY_TEXT = """\
study: store
scenario: open_ground_advance.yaml
seed: 3
replications: {n}
variants:
  sf: {{}}
  zoc: {{rules.snapfire.reaction: zoc}}
metrics: [attacker_won, end_time]
"""


def study_file(directory: Path, n: int = 20) -> Path:
    shutil.copy(SCENARIOS / "open_ground_advance.yaml", directory / "open_ground_advance.yaml")
    path = directory / "study.yaml"
    path.write_text(STUDY_TEXT.format(n=n))
    return path


def run_json(argv) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([str(a) for a in argv])
    return code, out.getvalue()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sql(db: Path, *statements: str) -> list:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        rows = []
        for s in statements:
            rows = conn.execute(s).fetchall()
        conn.commit()
    return rows


@pytest.fixture
def stored_study(tmp_path):
    """A study file and a finished store of it."""
    path, db = study_file(tmp_path), tmp_path / "r.db"
    code, _ = run_json(["study", path, "--db", db, "--json", "--quiet", "--task-size", "5"])
    assert code == 0
    return path, db


def test_another_programs_database_is_refused_untouched(tmp_path, capsys):
    path, db = study_file(tmp_path), tmp_path / "app.db"
    sql(db, "PRAGMA journal_mode=DELETE", "CREATE TABLE users (id INTEGER, name TEXT)",
        "INSERT INTO users VALUES (1, 'ann')")
    before = digest(db)
    line = err_line(capsys, ["study", path, "--db", db, "--quiet"])
    assert f"{db}: --db: holds users, which a results database does not" in line
    assert digest(db) == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("app.db")) == ["app.db"]
    assert sql(db, "PRAGMA journal_mode") == [("delete",)]
    assert sql(db, "SELECT name FROM sqlite_master") == [("users",)]


def test_tables_with_other_columns_are_refused(tmp_path, capsys):
    path, db = study_file(tmp_path), tmp_path / "r.db"
    sql(db, "CREATE TABLE replications (study_hash TEXT, rep INTEGER)")
    before = digest(db)
    line = err_line(capsys, ["study", path, "--db", db, "--quiet"])
    assert "table replications has columns (study_hash, rep) (expected study_hash, variant" in line
    assert digest(db) == before


def test_damaged_pages_with_an_intact_header_are_refused(stored_study, capsys):
    path, db = stored_study
    data = bytearray(db.read_bytes())
    assert len(data) > 3 * 4096 and data.startswith(b"SQLite format 3\x00")
    for i in range(4096, len(data)):  # every page after the first: garbage
        data[i] = (i * 131 + 7) % 251
    db.write_bytes(bytes(data))
    line = err_line(capsys, ["study", path, "--db", db, "--resume", "--quiet"])
    assert f"{db}: --db: " in line and ("damaged" in line or "malformed" in line), line


@pytest.mark.parametrize("metrics, part", [
    ("{oops", "a row of table replications holds a metrics that is not JSON (got '{oops')"),
    ("[1, 2]", "a row of table replications is not one this store writes"),
    ('{"end_time": "late"}', "a row of table replications is not one this store writes"),
])
def test_stored_rows_this_store_never_writes_are_refused(stored_study, capsys, metrics, part):
    path, db = stored_study
    sql(db, f"UPDATE replications SET metrics = '{metrics}' WHERE rowid = 3")
    line = err_line(capsys, ["study", path, "--db", db, "--resume", "--quiet"])
    assert f"{db}: --db: {part}" in line


def test_a_read_only_database_is_refused_before_any_battle(stored_study, capsys, monkeypatch):
    """Opened read-only (as SQLite opens a file it may not write): refused at once."""
    path, db = stored_study
    connect = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda p, timeout=5.0: connect(
        f"file:{p}?mode=ro", uri=True, timeout=timeout))
    line = err_line(capsys, ["study", path, "--db", db, "--resume", "--replications", "40",
                             "--quiet"])
    assert f"{db}: --db: cannot open it as a results database (attempt to write a readonly " \
           "database)" in line


def test_a_store_whose_permissions_let_no_one_write_it_is_refused_for_root_too(stored_study, capsys):
    """Root writes a chmod 0444 file all the same: the permission bits refuse it (and a
    folder whose bits let no one write in it), before any battle, the store untouched."""
    path, db = stored_study
    before = digest(db)
    os.chmod(db, 0o444)
    try:
        for argv in (["study", path, "--db", db, "--resume", "--replications", "40", "--quiet"],
                     ["select", path, "--db", db, "--resume", "--metric", "end_time", "--direction",
                      "minimise", "--delta", "3", "--quiet"]):
            line = err_line(capsys, argv)
            assert f"{db}: --db: is read-only, or in a read-only directory" in line, line
        with pytest.raises(InputError, match="is read-only"):
            ResultStore(db)
    finally:
        os.chmod(db, 0o644)
    assert digest(db) == before and not Path(f"{db}-wal").exists()
    folder = db.parent / "locked"
    folder.mkdir(mode=0o555)
    try:
        line = err_line(capsys, ["study", path, "--db", folder / "new.db", "--quiet"])
        assert f"{folder / 'new.db'}: --db: is read-only, or in a read-only directory" in line
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)


@pytest.mark.parametrize("db, part", [("/dev/null", "/dev/null: is not a regular file"),
                                      ("", "--db: empty path")])
def test_a_device_or_an_empty_path_is_refused(tmp_path, capsys, db, part):
    path = study_file(tmp_path)
    with contextlib.suppress(FileNotFoundError):
        os.remove("/dev/null-journal")
    line = err_line(capsys, ["study", path, "--db", db, "--quiet"])
    assert part in line
    assert not os.path.exists("/dev/null-journal")
    assert not os.path.exists("/dev/null-wal")


def test_an_empty_address_is_refused(tmp_path, capsys):
    line = err_line(capsys, ["study", study_file(tmp_path), "--address", "", "--quiet"])
    assert "--address: expected a Dask scheduler address tcp://HOST:PORT" in line


class FullDisk:
    """A connection whose writes fail with SQLITE_FULL after ``batches`` stored batches."""

    def __init__(self, conn, batches: int):
        self.conn, self.left = conn, batches

    def __getattr__(self, name):
        return getattr(self.conn, name)

    def __enter__(self):
        return self.conn.__enter__()

    def __exit__(self, *exc):
        return self.conn.__exit__(*exc)

    def executemany(self, statement, rows):
        if "INTO replications" in statement:
            if self.left == 0:
                raise sqlite3.OperationalError("database or disk is full")
            self.left -= 1
        return self.conn.executemany(statement, rows)


def test_a_full_disk_stops_the_study_in_one_line_and_keeps_the_batches(
        tmp_path, capsys, monkeypatch):
    path, db = study_file(tmp_path), tmp_path / "r.db"
    code, reference = run_json(["study", path, "--json", "--quiet"])
    assert code == 0
    opened = ResultStore.__init__

    def full_after_three(self, p):
        opened(self, p)
        self._conn = FullDisk(self.conn, 3)

    monkeypatch.setattr(ResultStore, "__init__", full_after_three)
    line = err_line(capsys, ["study", path, "--db", db, "--json", "--quiet", "--task-size", "5"])
    assert line == (f"sim: error: {db}: --db: cannot store a finished batch (database or disk "
                    "is full); the batches stored before are kept: rerun with --resume once it "
                    "is fixed")
    monkeypatch.undo()
    assert sql(db, "SELECT COUNT(*) FROM replications") == [(15,)]
    code, resumed = run_json(["study", path, "--db", db, "--json", "--quiet", "--resume"])
    assert code == 0 and resumed == reference


def test_a_full_disk_under_a_temporary_store_names_it_and_leaves_nothing(tmp_path, capsys, monkeypatch):
    """Without --db the study stores into TMPDIR: a fault there names that store and the
    way out (--db), not a --db the user never gave, nor a --resume of a store that is gone."""
    path, tmp = study_file(tmp_path), tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    opened = ResultStore.__init__

    def full_after_one(self, p, **kw):
        opened(self, p, **kw)
        self._conn = FullDisk(self.conn, 1)

    monkeypatch.setattr(ResultStore, "__init__", full_after_one)
    line = err_line(capsys, ["study", path, "--json", "--quiet", "--task-size", "5"])
    store = next(iter(re.findall(r"sim: error: (\S+): ", line)), "")
    assert store.startswith(str(tmp)) and store.endswith("results.sqlite"), line
    assert line.endswith(": the study's temporary store (TMPDIR; --db FILE stores it elsewhere): "
                         "cannot store a finished batch (database or disk is full)"), line
    assert list(tmp.iterdir()) == []  # the temporary store went with the run


@pytest.fixture
def tiny_fs(tmp_path):
    """An 8 MiB tmpfs (needs the right to mount, as root has here)."""
    with tmpfs(tmp_path / "fs") as mount:
        yield mount


def test_a_really_full_filesystem_stops_cleanly_and_resumes(tmp_path, tiny_fs, sim_env):
    path, db = study_file(tmp_path, n=600), tiny_fs / "r.db"
    filler = tiny_fs / "filler"
    filler.write_bytes(b"\0" * (8192 - 400) * 1024)  # leave about 400 KiB
    cmd = [sys.executable, "-m", "sim", "study", str(path), "--db", str(db), "--json",
           "--quiet", "--task-size", "5"]
    full = subprocess.run(cmd, env=sim_env, capture_output=True, text=True, timeout=600)
    assert full.returncode == 2 and full.stdout == ""
    assert full.stderr == (f"sim: error: {db}: --db: cannot store a finished batch (database "
                           "or disk is full); the batches stored before are kept: rerun with "
                           "--resume once it is fixed\n")
    kept = sql(db, "SELECT COUNT(*) FROM replications")[0][0]
    assert 0 < kept < 1200 and kept % 5 == 0
    filler.unlink()
    done = subprocess.run(cmd + ["--resume"], env=sim_env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert sql(db, "SELECT COUNT(*), COUNT(DISTINCT variant || rep) FROM replications") \
        == [(1200, 1200)]


def test_a_read_only_filesystem_is_refused_at_resume(tmp_path, tiny_fs, capsys):
    path, db = study_file(tmp_path), tiny_fs / "r.db"
    code, _ = run_json(["study", path, "--db", db, "--quiet", "--replications", "10"])
    assert code == 0
    subprocess.run(["mount", "-o", "remount,ro", str(tiny_fs)], check=True)
    line = err_line(capsys, ["study", path, "--db", db, "--resume", "--quiet"])
    assert f"{db}: --db: is read-only, or in a read-only directory" in line


def corrupt_page_one(db: Path, where: str) -> None:
    """Random bytes (a fixed seed) over page 1 after its 100-byte file header: over each
    table's name in the schema (the page's structure intact, so SQLite reads it and reports
    a malformed schema in a message that is not UTF-8), over the name of an index of one
    (the same), or over the whole rest of the page."""
    data = bytearray(db.read_bytes())
    size = int.from_bytes(data[16:18], "big")
    assert data.startswith(b"SQLite format 3\x00") and len(data) > size
    rng = random.Random(22)
    spans = []
    if where == "whole page":
        spans = [(100, size)]
    for name in (b"studies", b"replications", b"failures"):
        at = data.index(b"table" + name + name, 100, size) + len(b"table")
        index = data.index(b"indexsqlite_autoindex_" + name, 100, size) + len(b"indexsqlite_")
        spans += [(at, at + len(name))] if where == "table names" else \
            [(index, index + len(b"autoindex_") + len(name))] if where == "index names" else []
    for start, end in spans:
        for i in range(start, end):
            data[i] = rng.randrange(0x80, 0x100)
    db.write_bytes(bytes(data))


@pytest.fixture
def small_store(tmp_path, sim_env):
    """A study file and a store of it, made by `sim study --db` as a user would."""
    path, db = study_file(tmp_path, n=3), tmp_path / "r.db"
    made = subprocess.run([sys.executable, "-m", "sim", "study", str(path), "--db", str(db),
                           "--quiet", "--json"], env=sim_env, capture_output=True, text=True,
                          timeout=300)
    assert made.returncode == 0, made.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["open_ground_advance.yaml", "r.db",
                                                          "study.yaml"]
    return path, db


@pytest.mark.parametrize("where", ["table names", "index names", "whole page"])
def test_a_damaged_schema_page_is_one_line_naming_the_db(small_store, sim_env, where):
    """Issue 22, item 9: was a UnicodeDecodeError traceback (exit 1) while reading table names."""
    path, db = small_store
    corrupt_page_one(db, where)
    out = subprocess.run([sys.executable, "-m", "sim", "study", str(path), "--db", str(db),
                          "--resume", "--quiet"], env=sim_env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith(f"sim: error: {db}: --db: cannot open it as a results "
                                 "database (") and out.stderr.count("\n") == 1, out.stderr
    assert "damaged" in out.stderr or "malformed" in out.stderr
    with pytest.raises(InputError) as err:       # the Python API: the same one error
        sim.run_study(str(path), db=str(db), resume=True)
    assert err.value.file == str(db) and err.value.place == "--db"
    assert str(err.value) == out.stderr.removeprefix("sim: error: ").strip()
