"""Issue 13, item 4: no output path (--log, --csv, the plots in --plot DIR, --db) may be
one of the command's inputs (the scenario, the study, the study's scenario, the results
database), however it is spelt (a symbolic link, a hard link, ./); the check comes
before any battle runs, and the inputs are left as they were.

Issue 22, items 2 and 6: every output is also checked, before any battle, for its kind
(a regular file; not a FIFO or a device) and by trying whether it can be written (a
read-only file, folder or file system; permission bits do not stop root's writes, so /sys,
/proc, an immutable file and a read-only mount stand in, and a file or folder whose bits
let no one write it is refused by them, for root too); a write that still fails at the end
names its file; a refusal is the only output.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess

import pytest

import sim.replication as battle
import sim.study.run.runner as runner
from conftest import SCENARIOS, err_line, tmpfs
from sim.cli import main

STUDY_TEXT = """\
study: outputs
scenario: open_ground_advance.yaml
seed: 3
replications: 4
variants:
  sf: {}
  zoc: {rules.snapfire.reaction: zoc}
"""


@pytest.fixture
def files(tmp_path, monkeypatch):
    """A scenario, a study of it and a results database in tmp_path (the working
    directory); no battle may run (a refusal must come first)."""
    shutil.copy(SCENARIOS / "open_ground_advance.yaml", tmp_path / "scenario.yaml")
    (tmp_path / "study.yaml").write_text(STUDY_TEXT.replace("open_ground_advance", "scenario"))
    assert main(["study", str(tmp_path / "study.yaml"), "--db", str(tmp_path / "r.db"),
                 "--quiet"]) == 0
    monkeypatch.chdir(tmp_path)

    def no_battle(*a, **k):
        raise AssertionError("a battle ran before the outputs were checked")

    monkeypatch.setattr(battle, "run_battle", no_battle)
    monkeypatch.setattr(runner, "run_study", no_battle)
    return tmp_path


def digests(directory) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(directory.iterdir()) if p.is_file() and not p.is_symlink()}


def refused(capsys, files, argv, *parts):
    before = digests(files)
    line = err_line(capsys, argv)
    for part in parts:
        assert part in line, line
    assert digests(files) == before
    return line


def test_run_log_over_the_scenario_is_refused(files, capsys):
    os.symlink("scenario.yaml", files / "link.yaml")
    os.link(files / "scenario.yaml", files / "hard.yaml")
    for log in ("scenario.yaml", "./scenario.yaml", str(files / "scenario.yaml"), "link.yaml",
                "hard.yaml", "sub/../scenario.yaml"):
        (files / "sub").mkdir(exist_ok=True)
        line = refused(capsys, files, ["run", "scenario.yaml", "--log", log],
                       f"{log}: --log: is the scenario (scenario.yaml); an output never "
                       "replaces an input")
        assert line.startswith("sim: error: ")


@pytest.mark.parametrize("option, target, what", [
    ("--csv", "study.yaml", "the study file"),
    ("--csv", "scenario.yaml", "the study's scenario"),
    ("--csv", "r.db", "the results database"),
    ("--db", "study.yaml", "the study file"),
    ("--db", "scenario.yaml", "the study's scenario"),
])
def test_study_outputs_over_its_inputs_are_refused(files, capsys, option, target, what):
    argv = ["study", "study.yaml", "--quiet", option, target]
    if option != "--db":
        argv += ["--db", "r.db", "--resume"]
    refused(capsys, files, argv, f"{target}: {option}: is {what} (")


def test_a_plot_over_an_input_is_refused(files, capsys):
    plots = files / "plots"
    plots.mkdir()
    os.symlink(files / "study.yaml", plots / "means.png")
    refused(capsys, files, ["study", "study.yaml", "--plot", "plots", "--quiet"],
            "plots: --plot: a plot would be written over means.png, which is the study file")
    refused(capsys, files, ["study", "study.yaml", "--plot", "study.yaml", "--quiet"],
            "study.yaml: --plot: is the study file (")
    refused(capsys, files, ["demo", "--out", "study.yaml", "--fast"],
            "study.yaml: --out: is not a directory")


@pytest.mark.parametrize("argv, part", [
    (["run", "scenario.yaml", "--log", "."], ".: --log: is a directory"),
    (["run", "scenario.yaml", "--log", "nowhere/log.jsonl"],
     "nowhere/log.jsonl: --log: its directory does not exist"),
    (["run", "scenario.yaml", "--log", ""], "--log: empty path"),
    (["study", "study.yaml", "--csv", "nowhere/r.csv"], "--csv: its directory does not exist"),
    (["study", "study.yaml", "--csv", ""], "--csv: empty path"),
    (["study", "study.yaml", "--plot", ""], "--plot: empty path"),
])
def test_unusable_output_paths_are_refused_before_any_battle(files, capsys, argv, part):
    refused(capsys, files, argv + ["--quiet"] if argv[0] == "study" else argv, part)


def test_existing_outputs_that_are_not_inputs_are_replaced(files, capsys, monkeypatch):
    monkeypatch.undo()  # battles may run here
    monkeypatch.chdir(files)
    (files / "old.jsonl").write_text("old\n")
    assert main(["run", "scenario.yaml", "--log", "old.jsonl"]) == 0
    text = (files / "old.jsonl").read_text()
    assert not text.startswith("old") and text.count("\n") > 10


# -- Issue 22, items 2 and 6: every output writable and of the right kind, checked first -----
@pytest.mark.parametrize("option", ["--csv", "--report", "--plot"])
@pytest.mark.parametrize("target, part", [
    ("/dev/full", "is not a regular file but a character device"),
    ("/sys/sim-output", "cannot be made there: Permission denied"),
    ("/proc/sim-output", "cannot be made there: No such file or directory"),
])
def test_outputs_no_file_can_be_written_to_are_refused_before_any_battle(files, capsys, option,
                                                                         target, part):
    if option == "--plot":  # a folder: made inside /sys or /proc, or a device
        part = {"/dev/full": "is not a directory", "/sys/sim-output": "cannot be written in /sys",
                "/proc/sim-output": "cannot be written in /proc"}[target]
    refused(capsys, files, ["study", "study.yaml", "--quiet", option, target],
            f"{target}: {option}: {part}")


@pytest.mark.parametrize("option", ["--csv", "--report"])
@pytest.mark.parametrize("target", ["/proc/version", "/proc/self/status"])
def test_an_existing_proc_file_is_refused_before_any_battle(files, capsys, option, target):
    # Root may open /proc/version for writing; only a write fails (after every battle).
    refused(capsys, files, ["study", "study.yaml", "--quiet", option, target],
            f"{target}: {option}: cannot be written")


def test_run_log_on_a_device_or_a_read_only_path_is_refused_before_the_battle(files, capsys):
    refused(capsys, files, ["run", "scenario.yaml", "--log", "/dev/full"],
            "/dev/full: --log: is not a regular file but a character device")
    refused(capsys, files, ["run", "scenario.yaml", "--log", "/sys/kernel/notes"],
            "/sys/kernel/notes: --log: cannot be written: Permission denied")
    refused(capsys, files, ["run", "scenario.yaml", "--log", "/proc/version"],
            "/proc/version: --log: cannot be written")


def test_an_immutable_existing_output_is_refused(files, capsys):
    os.mkdir("plots")
    for name in ("old.csv", "plots/means.png"):
        (files / name).write_text("old\n")
    if subprocess.run(["chattr", "+i", "old.csv", "plots/means.png"],
                      capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here")
    try:
        refused(capsys, files, ["study", "study.yaml", "--quiet", "--csv", "old.csv"],
                "old.csv: --csv: cannot be written: Operation not permitted")
        refused(capsys, files, ["study", "study.yaml", "--quiet", "--plot", "plots"],
                "plots: --plot: means.png cannot be written: Operation not permitted")
    finally:
        subprocess.run(["chattr", "-i", "old.csv", "plots/means.png"], capture_output=True)


def test_a_plot_folder_holding_a_fifo_under_a_plot_name_is_refused(files, capsys):
    os.mkdir("plots")
    os.mkfifo("plots/response_x.png")
    refused(capsys, files, ["demo", "--out", "plots", "--fast"],
            "plots: --out: response_x.png is not a regular file but a FIFO")


def test_a_read_only_folder_or_file_is_refused_for_root_too(files, capsys):
    """By its permission bits (0555, 0444), which root's writes ignore; as any user."""
    os.mkdir("ro")
    os.mkdir("plots")
    for name in ("old.csv", "old.html", "old.jsonl", "plots/means.png"):
        (files / name).write_text("old\n")
        os.chmod(name, 0o444)
    os.chmod("ro", 0o555)
    try:
        for option in ("--csv", "--report", "--plot"):
            refused(capsys, files, ["study", "study.yaml", "--quiet", option, "ro/out"],
                    f"ro/out: {option}: ", "read-only (mode 0555)")
        refused(capsys, files, ["study", "study.yaml", "--quiet", "--plot", "ro"],
                "ro: --plot: is read-only (mode 0555)")
        for option, name in (("--csv", "old.csv"), ("--report", "old.html")):
            refused(capsys, files, ["study", "study.yaml", "--quiet", option, name],
                    f"{name}: {option}: is read-only (mode 0444)")
        refused(capsys, files, ["run", "scenario.yaml", "--log", "old.jsonl"],
                "old.jsonl: --log: is read-only (mode 0444)")
        refused(capsys, files, ["study", "study.yaml", "--quiet", "--plot", "plots"],
                "plots: --plot: means.png is read-only (mode 0444)")
    finally:
        os.chmod("ro", 0o755)


@pytest.fixture
def read_only_fs(tmp_path):
    """A tmpfs mounted read-only, holding the file old.csv."""
    with tmpfs(tmp_path / "ro", "1m") as mount:
        (mount / "old.csv").write_text("old\n")
        subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
        yield mount


def test_a_read_only_file_system_is_refused_for_every_output(files, capsys, read_only_fs):
    ro = read_only_fs
    for option, name in (("--csv", "new.csv"), ("--csv", "old.csv"), ("--report", "r.html"),
                         ("--plot", "plots")):
        refused(capsys, files, ["study", "study.yaml", "--quiet", option, str(ro / name)],
                f"{ro / name}: {option}: ", "Read-only file system")
    refused(capsys, files, ["run", "scenario.yaml", "--log", str(ro / "old.csv")],
            "Read-only file system")
    assert (ro / "old.csv").read_text() == "old\n"


def test_checking_an_output_leaves_nothing_behind_and_changes_nothing(tmp_path):
    from sim.cli.outputs import check_file, check_plot_dir

    (tmp_path / "old.csv").write_text("old\n")
    os.utime(tmp_path / "old.csv", (1_000_000, 1_000_000))
    check_file("--csv", str(tmp_path / "old.csv"), {})
    check_file("--csv", str(tmp_path / "new.csv"), {})
    check_plot_dir("--plot", str(tmp_path), {})
    check_plot_dir("--plot", str(tmp_path / "a" / "b"), {})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.csv"]
    assert (tmp_path / "old.csv").read_text() == "old\n"
    assert os.stat(tmp_path / "old.csv").st_mtime == 1_000_000


@pytest.fixture
def full_fs(tmp_path):
    """A tmpfs filled to the last byte (files can still be made, not written to)."""
    with tmpfs(tmp_path / "full", "1m") as mount:
        with contextlib.suppress(OSError), open(mount / "filler", "wb", buffering=0) as fh:
            while True:
                fh.write(b"\0" * 4096)
        yield mount


def test_a_write_that_fails_at_the_end_names_its_file(files, capsys, monkeypatch, full_fs):
    monkeypatch.undo()  # battles run here
    monkeypatch.chdir(files)
    report = full_fs / "r.html"
    line = err_line(capsys, ["study", "study.yaml", "--quiet", "--csv", "r.csv",
                             "--report", str(report)])
    assert f"{report}: cannot write the file (No space left on device)" in line
    assert (files / "r.csv").read_text().startswith("study,study_hash,cell")
    line = err_line(capsys, ["run", "scenario.yaml", "--log", str(full_fs / "log.jsonl")])
    assert f"{full_fs / 'log.jsonl'}: cannot write the file (No space left on device)" in line



def test_a_failed_write_leaves_the_file_that_was_there_and_nothing_half_written(
        files, capsys, monkeypatch, full_fs):
    """A full disk: the old CSV, report, log and plot stay as they were; no empty or
    truncated file and no temporary file is left beside them."""
    monkeypatch.undo()  # battles run here
    monkeypatch.chdir(files)
    plots = full_fs / "plots"
    (full_fs / "filler").unlink()
    plots.mkdir()
    for name in ("r.csv", "r.html", "log.jsonl", "plots/means.png"):
        (full_fs / name).write_text("old\n")
    with open(full_fs / "filler", "wb", buffering=0) as fh, contextlib.suppress(OSError):
        while True:
            fh.write(b"\0" * 4096)
    for argv in (["study", "study.yaml", "--quiet", "--csv", str(full_fs / "r.csv")],
                 ["study", "study.yaml", "--quiet", "--report", str(full_fs / "r.html")],
                 ["study", "study.yaml", "--quiet", "--plot", str(plots)],
                 ["run", "scenario.yaml", "--log", str(full_fs / "log.jsonl")]):
        assert "No space left on device" in err_line(capsys, argv)
    for name in ("r.csv", "r.html", "log.jsonl", "plots/means.png"):
        assert (full_fs / name).read_text() == "old\n", name
    assert sorted(p.name for p in full_fs.iterdir()) == ["filler", "log.jsonl", "plots", "r.csv",
                                                         "r.html"]
    assert [p.name for p in plots.iterdir()] == ["means.png"]


def test_a_refusal_is_the_only_output(files, capsys):
    """Item 6: `demo --out FILE` printed its banner first, `validate` the files before a bad one."""
    for argv in (["demo", "--out", "study.yaml", "--fast"],
                 ["demo", "--out", "/dev/full", "--fast"],
                 ["validate", "scenario.yaml", "study.yaml", "missing.yaml"]):
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert out == "" and len(err.strip().splitlines()) == 1, (argv, out, err)


def test_a_plot_folder_that_cannot_be_listed_is_one_line(tmp_path, monkeypatch):
    """A folder one may write but not read (mode 0o300; root reads any, hence the stand-in)."""
    from sim.cli.outputs import check_plot_dir
    from sim.errors import InputError

    listdir = os.listdir

    def unreadable(path="."):
        if os.path.abspath(path) == str(tmp_path):
            raise PermissionError(13, "Permission denied", path)
        return listdir(path)

    monkeypatch.setattr(os, "listdir", unreadable)
    with pytest.raises(InputError, match=r"--plot: cannot be read: Permission denied \(expected"):
        check_plot_dir("--plot", str(tmp_path), {})
