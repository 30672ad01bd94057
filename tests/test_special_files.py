"""Issue 22, items 3 and 5: only regular files are read or written, reads are bounded,
and a path or a value with a byte that is not UTF-8 is reported, never a traceback.

A FIFO, ``/dev/zero``, ``/dev/full`` or ``/dev/stdin`` from a pipe is refused by its
kind (exit 2, one line, naming the file): it once hung ``run``, ``validate``, ``study`` and
``schema --docs`` (a FIFO), or read without end (``/dev/zero``). Those cases run in a
subprocess with a timeout and a memory cap, so a regression fails instead of hanging the
suite or eating the machine's memory.
"""
from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys

import pytest

import sim.scenario.yamlfile as yamlfile
from conftest import ROOT, SCENARIOS, err_line
from sim.cli import main
from sim.errors import InputError
from sim.files import read_bytes, write_bytes, write_text
from sim.viz.html import escape

STUDY = """\
study: special
scenario: scenario.yaml
seed: 3
replications: 2
variants:
  sf: {}
  zoc: {rules.snapfire.reaction: zoc}
"""
MEMORY_CAP = 3 << 30  # bytes of address space: /dev/zero read whole would pass it at once


def _capped():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def sim(args, sim_env, cwd, stdin=None, input=None):
    """`python -m sim ARGS` with a timeout and a memory cap."""
    return subprocess.run([sys.executable, "-m", "sim", *map(str, args)], cwd=cwd, env=sim_env,
                          capture_output=True, text=True, timeout=60, stdin=stdin,
                          input=input, preexec_fn=_capped)


def one_line(p, *parts):
    assert p.returncode == 2 and p.stdout == "", (p.returncode, p.stdout[:300], p.stderr[-300:])
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sim: error: "), p.stderr[-500:]
    for part in parts:
        assert part in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def here(tmp_path):
    """A scenario, a study of it and a FIFO in tmp_path."""
    shutil.copy(SCENARIOS / "open_ground_advance.yaml", tmp_path / "scenario.yaml")
    (tmp_path / "study.yaml").write_text(STUDY)
    os.mkfifo(tmp_path / "fifo")
    return tmp_path


@pytest.mark.parametrize("command", ["run", "validate", "study"])
@pytest.mark.parametrize("path, kind", [("fifo", "a FIFO"), ("/dev/zero", "a character device")])
def test_an_input_that_is_not_a_regular_file_is_refused_by_its_kind(here, sim_env, command, path,
                                                                   kind):
    p = sim([command, path], sim_env, here)
    one_line(p, f"{path}: is not a regular file but {kind} (expected a YAML file)")


def test_dev_stdin_from_a_pipe_is_refused_and_from_a_file_is_read(here, sim_env):
    p = sim(["validate", "/dev/stdin"], sim_env, here, input=(here / "scenario.yaml").read_text())
    one_line(p, "/dev/stdin: is not a regular file but a FIFO")
    with open(here / "scenario.yaml") as fh:  # a redirect from a file is a regular file
        p = sim(["validate", "/dev/stdin"], sim_env, here, stdin=fh)
    assert p.returncode == 0 and p.stdout == "/dev/stdin: valid scenario\n", p.stderr


@pytest.mark.parametrize("argv, part", [
    (["run", "scenario.yaml", "--log", "fifo"], "fifo: --log: is not a regular file but a FIFO"),
    (["study", "study.yaml", "--quiet", "--csv", "fifo"], "fifo: --csv: is not a regular file"),
    (["study", "study.yaml", "--quiet", "--report", "fifo"], "fifo: --report: is not a regular"),
    (["study", "study.yaml", "--quiet", "--db", "fifo"], "fifo: is not a regular file"),
    (["study", "study.yaml", "--quiet", "--db", "/dev/zero"], "/dev/zero: is not a regular file"),
    (["analyse", "study.yaml", "--db", "fifo"], "fifo: --db: is not a regular file but a FIFO"),
])
def test_an_output_that_is_a_fifo_or_a_device_is_refused_before_any_battle(here, sim_env, argv,
                                                                          part):
    one_line(sim(argv, sim_env, here), part)


def test_schema_docs_never_waits_on_a_fifo(tmp_path, sim_env):
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    shutil.copytree(SCENARIOS, tmp_path / "scenarios")
    (docs / "study.md").unlink()
    os.mkfifo(docs / "study.md")
    for args in (["--docs", docs, "--check"], ["--docs", docs]):
        one_line(sim(["schema", *args], sim_env, tmp_path),
                 "study.md: is not a regular file but a FIFO")
    os.mkfifo(tmp_path / "scenarios" / "a_fifo.yaml")  # the examples are read too
    (docs / "study.md").unlink()
    shutil.copy(ROOT / "docs" / "study.md", docs / "study.md")
    one_line(sim(["schema", "--docs", docs, "--check"], sim_env, tmp_path),
             "a_fifo.yaml: is not a regular file but a FIFO")


def test_a_read_stops_at_the_limit_whatever_the_size_says(tmp_path, capsys, monkeypatch):
    # /proc files say they hold 0 bytes; the read itself is bounded, not the size asked.
    monkeypatch.setattr(yamlfile, "MAX_BYTES", 20)
    line = err_line(capsys, ["validate", "/proc/self/status"])
    assert "/proc/self/status: file is more than 20 bytes (expected at most 20)" in line
    assert read_bytes("/proc/self/status", 10**6, "text").startswith(b"Name:")


def test_files_module_refuses_other_kinds_without_waiting(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    for path in (str(tmp_path / "fifo"), "/dev/full", "/dev/null"):
        with pytest.raises(InputError, match="is not a regular file but a"):
            write_text(path, "x")
    with pytest.raises(InputError, match="fifo: is not a regular file but a FIFO"):
        read_bytes(str(tmp_path / "fifo"), 10, "a file")
    with pytest.raises(InputError, match="is a directory"):
        write_bytes(str(tmp_path), b"x")
    with pytest.raises(InputError, match=r"nowhere/x: --csv: cannot write the file \(No such file"):
        write_bytes(str(tmp_path / "nowhere" / "x"), b"x", place="--csv")


# -- Item 5: bytes that are not UTF-8, in paths and values ------------------------------------
def odd(path, name: bytes) -> str:
    """``path/name`` for a name with bytes that are not UTF-8 (as Python sees such a name)."""
    return os.fsdecode(os.fsencode(str(path)) + b"/" + name)


def test_a_report_with_non_utf8_names_everywhere_is_written(tmp_path, capsys):
    shutil.copy(SCENARIOS / "open_ground_advance.yaml", tmp_path / "scenario.yaml")
    study = odd(tmp_path, b"st\xff.yaml")
    with open(study, "w") as fh:
        fh.write(STUDY)
    folder = odd(tmp_path, b"d\xfe")
    os.mkdir(folder)
    report = odd(folder, b"r\xfd<b>.html")
    assert main(["study", study, "--report", report, "--quiet"]) == 0
    capsys.readouterr()
    html = open(report, "rb").read().decode("utf-8")  # valid UTF-8 throughout
    assert html.startswith("<!DOCTYPE html>") and "</html>" in html
    assert "st\\xff.yaml" in html and "d\\xfe/r\\xfd&lt;b&gt;.html" in html  # escaped, both ways
    assert "<b>" not in html


def test_escape_shows_a_non_utf8_byte_and_never_raw_markup():
    assert escape(os.fsdecode(b"caf\xe9 <i>")) == "caf\\xe9 &lt;i&gt;"
    assert escape("\ud800&") == "\\ud800&amp;"
    assert escape("été") == "été"


@pytest.mark.parametrize("assignment", [b"name=a\xffb", b"na\xffme=ab"])
def test_a_set_value_with_a_non_utf8_byte_is_one_line(capsys, assignment):
    line = err_line(capsys, ["run", SCENARIOS / "open_ground_advance.yaml", "--set",
                             os.fsdecode(assignment)])
    assert "--set: " in line and "is not UTF-8 text" in line


def test_a_non_utf8_file_name_in_an_error_is_printable(tmp_path, sim_env):
    p = sim(["run", odd(tmp_path, b"caf\xe9.yaml")], sim_env, tmp_path)
    one_line(p, "caf\\udce9.yaml: no such file")


def test_reading_a_log_back_is_bounded_and_names_a_bad_line(tmp_path, monkeypatch):
    """``EventLog.read_jsonl``: a FIFO is refused without waiting, the read stops at
    ``MAX_LOG_BYTES``, and a line that is not a record names its file and line."""
    import sim.engine.log as log_module
    from sim.engine.log import EventLog
    from sim.scenario.load import load_scenario

    fifo = tmp_path / "log.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="a FIFO .*expected a JSON Lines event log"):
        EventLog.read_jsonl(fifo)
    good = tmp_path / "good.jsonl"
    from sim.replication import run_battle

    sim_log = run_battle(load_scenario(SCENARIOS / "open_ground_advance.yaml"), 2).log
    sim_log.to_jsonl(good)
    assert EventLog.read_jsonl(good).records == EventLog.read_jsonl(str(good)).records
    assert len(EventLog.read_jsonl(good).records) == len(sim_log.records)
    monkeypatch.setattr(log_module, "MAX_LOG_BYTES", good.stat().st_size - 1)
    with pytest.raises(InputError, match="expected at most"):
        EventLog.read_jsonl(good)
    monkeypatch.undo()
    lines = good.read_bytes().split(b"\n")
    for bad, message in ((b"{not json", "line 3: not JSON"), (b"[1, 2]", "line 3: not an event"),
                         (b'{"t": NaN}', "line 3: not an event"), (b"\xff\xfe", "line 3: not UTF-8"),
                         (b"[" * 100_000, "line 3: nested too deep")):
        broken = tmp_path / "broken.jsonl"
        broken.write_bytes(b"\n".join([*lines[:2], bad, *lines[2:]]))
        with pytest.raises(InputError, match=message) as err:
            EventLog.read_jsonl(broken)
        assert str(broken) in str(err.value) and "\n" not in str(err.value)


@pytest.mark.skipif(not os.access("/proc/kmsg", os.R_OK), reason="no readable /proc/kmsg here")
def test_a_regular_file_whose_read_would_wait_is_one_line(tmp_path, sim_env):
    """/proc/kmsg is a 'regular' file that has no bytes until the kernel logs some: a read
    without blocking gives nothing at all (None), which was a TypeError traceback."""
    for _ in range(2):   # the first read may take what the kernel has logged
        p = sim(["run", "/proc/kmsg"], sim_env, tmp_path)
        assert p.returncode == 2 and len(p.stderr.splitlines()) == 1, p.stderr
        assert p.stderr.startswith("sim: error: /proc/kmsg")
    with pytest.raises(InputError, match="cannot be read without waiting|expected"):
        read_bytes("/proc/kmsg", 1000, "a file")
