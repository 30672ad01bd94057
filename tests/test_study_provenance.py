"""The store records what made its rows (``sim`` and each plug-in, by version and code),
and ``--resume`` over other code is refused in one line saying what changed, unless
``--allow-changed-code``, when every output says the results mix code."""
from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import textwrap
from pathlib import Path

import pytest

import sim
from conftest import PY, ROOT, SCENARIOS
from sim.cli import main
from sim.study.plan.study_file import load_study
from sim.study.reports.selection import as_json as select_json
from sim.study.run.runner import run_study
from sim.study.run.selection import SelectSpec, run_selection
from sim.study.run.store import ResultStore

STUDY = """\
study: prov
scenario: {scenario}
seed: 3
replications: 4
variants:
  sf: {{}}
  zoc: {{rules.snapfire.reaction: zoc}}
metrics: [{metrics}]
"""

# A plug-in whose metric is one number: which code made a row is plain in its value.
MODULE = """\
import sim.plugin as sp
def hits(records, scenario):
    return {{"prov_hits": {value}}}
sp.register(sp.MetricReporter("prov", {{"prov_hits": "count"}}, hits))
"""


def study_file(tmp_path: Path, metrics: str = "prov_hits, end_time") -> Path:
    path = tmp_path / "prov.yaml"
    path.write_text(STUDY.format(scenario=SCENARIOS / "open_ground_advance.yaml", metrics=metrics))
    return path


def sim_cmd(tmp_path: Path, *args: str, site: Path | None = None) -> subprocess.CompletedProcess:
    paths = [str(ROOT), str(tmp_path), *([str(site)] if site else [])]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": os.pathsep.join(paths)}
    return subprocess.run([PY, "-m", "sim", *args], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=300)


def refusal(out: subprocess.CompletedProcess) -> str:
    lines = out.stderr.strip().splitlines()
    assert out.returncode == 2 and out.stdout == "", out.stdout + out.stderr
    assert len(lines) == 1 and lines[0].startswith("sim: error:") and "Traceback" not in out.stderr, out.stderr
    return lines[0]


def fingerprint_of(module: str, value: str):
    """``provenance.fingerprint`` with ``module``'s code given as ``value`` (as if edited)."""
    from sim.study.run import provenance

    real = provenance.fingerprint
    return lambda name: value if name == module else real(name)


def test_a_resume_after_a_plugin_module_changed_is_refused_then_allowed_and_said(tmp_path):
    (tmp_path / "prov_mod.py").write_text(MODULE.format(value=1.0))
    study = str(study_file(tmp_path))
    run = ["study", study, "--plugin", "prov_mod", "--db", "r.db"]
    first = sim_cmd(tmp_path, *run, "--replications", "4", "--quiet")
    assert first.returncode == 0, first.stderr
    (tmp_path / "prov_mod.py").write_text(MODULE.format(value=2.0))   # the plug-in is edited
    line = refusal(sim_cmd(tmp_path, *run, "--replications", "8", "--resume", "--quiet"))
    made = re.findall(r"plug-in module prov_mod \(code ([0-9a-f]{12})\)", line)
    assert len(made) == 2 and made[0] != made[1], line
    assert "r.db: --resume: the stored rows of study 'prov' were made by" in line
    assert "sim " not in line.split("made by")[1]   # sim did not change: only the plug-in is named
    assert "--allow-changed-code" in line
    with sqlite3.connect(tmp_path / "r.db") as conn:   # refused before anything is stored
        assert conn.execute("SELECT COUNT(*) FROM replications").fetchone() == (8,)
    mixed = sim_cmd(tmp_path, *run, "--replications", "8", "--resume", "--allow-changed-code",
                    "--json", "--quiet", "--report", "r.html")
    assert mixed.returncode == 0, mixed.stderr
    out = json.loads(mixed.stdout)
    assert out["variants"]["sf"]["prov_hits"]["mean"] == 1.5   # 4 rows of each code: mixed
    assert [f"plug-in module prov_mod (code {made[0]})" in s for s in out["mixed_code"]["stored"]] == [True]
    assert f"plug-in module prov_mod (code {made[1]})" in out["mixed_code"]["this_run"]
    said = "the results mix code (resumed with --allow-changed-code): the stored rows of study 'prov' were made by"
    assert f"note: {said}" in mixed.stderr
    html = (tmp_path / "r.html").read_text()
    assert "The results mix code (resumed with --allow-changed-code)" in html and made[0] in html
    assert f"Code of this run: sim {sim.__version__} (code " in html and f"prov_mod (code {made[1]})</li>" in html
    text = sim_cmd(tmp_path, *run, "--replications", "8", "--resume", "--allow-changed-code")
    assert text.returncode == 0, text.stderr
    assert said in text.stdout


def test_a_resume_after_a_plugin_distribution_was_upgraded_names_both_versions(tmp_path):
    site = tmp_path / "site"
    meta = site / "prov_plugin-1.0.dist-info"
    meta.mkdir(parents=True)
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: prov-plugin\nVersion: 1.0\n")
    (meta / "entry_points.txt").write_text("[sim.metrics]\nprov = prov_plugin:METRIC\n")
    (site / "prov_plugin.py").write_text(textwrap.dedent("""\
        import sim.plugin as sp
        def hits(records, scenario):
            return {"prov_hits": 1.0}
        METRIC = sp.MetricReporter("prov", {"prov_hits": "count"}, hits)
        """))
    run = ["study", str(study_file(tmp_path)), "--db", "r.db", "--quiet", "--replications", "2"]
    assert sim_cmd(tmp_path, *run, site=site).returncode == 0
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: prov-plugin\nVersion: 1.1\n")
    line = refusal(sim_cmd(tmp_path, *run, "--resume", site=site))
    assert re.search(r"made by plug-in prov-plugin 1\.0 \(code (\w{12})\), this run by "
                     r"plug-in prov-plugin 1\.1 \(code \1\):", line), line


def test_a_resume_after_sim_itself_changed_is_refused_then_allowed(tmp_path, monkeypatch):
    from sim.study.run import provenance

    path = study_file(tmp_path, "end_time")
    db = str(tmp_path / "r.db")
    sim.run_study(str(path), replications=2, db=db)
    ours = provenance.fingerprint("sim")
    monkeypatch.setattr(provenance, "fingerprint", fingerprint_of("sim", "0" * 12))  # an edited checkout
    with pytest.raises(sim.InputError) as info:
        sim.run_study(str(path), replications=3, db=db, resume=True)
    version = sim.__version__
    assert str(info.value) == (
        f"{db}: --resume: the stored rows of study 'prov' were made by sim {version} (code {ours}), "
        f"this run by sim {version} (code 000000000000): resume with --allow-changed-code "
        "(allow_changed_code=True in Python) to mix them in one result, or give another --db")
    done = sim.run_study(str(path), replications=3, db=db, resume=True, allow_changed_code=True)
    assert (done.resumed, done.ran) == (4, 2)
    assert done.mixed_code is not None and done.mixed_code.as_dict() == {
        "stored": [f"sim {version} (code {ours})"], "this_run": f"sim {version} (code 000000000000)"}
    assert any(n.startswith("the results mix code (resumed with --allow-changed-code): ") for n in done.notes)
    # The store keeps both: a later resume, even by the newer code, still mixes them.
    with pytest.raises(sim.InputError, match=f"made by sim {version} \\(code {ours}\\)"):
        sim.run_study(str(path), replications=3, db=db, resume=True)


def test_a_store_from_before_provenance_is_refused_then_allowed_and_stays_marked(tmp_path):
    study = load_study(study_file(tmp_path, "end_time"))
    db = tmp_path / "r.db"
    with ResultStore(db) as store:
        run_study(study, replications=2, store=store)
    with sqlite3.connect(db) as conn:   # as a store an earlier sim wrote, before this table was
        conn.execute("DROP TABLE provenance")
        conn.execute("UPDATE replications SET version = '0.0.9'")
    with ResultStore(db) as store:
        with pytest.raises(sim.InputError) as info:
            run_study(study, replications=3, store=store, resume=True)
        assert (f"were made by sim 0.0.9 before stores recorded the code, this run by "
                f"sim {sim.__version__} (code ") in str(info.value)
        done = run_study(study, replications=3, store=store, resume=True, allow_changed_code=True)
        assert (done.resumed, done.ran, done.other_versions) == (4, 2, ["0.0.9"])
        assert done.mixed_code is not None and done.mixed_code.as_dict()["stored"] == [
            "code not recorded (rows stored before stores recorded it)"]
        with pytest.raises(sim.InputError, match="before stores recorded the code"):
            run_study(study, replications=3, store=store, resume=True)


def test_a_selection_resumed_over_changed_code_is_refused(tmp_path, monkeypatch):
    from sim.study.run import provenance

    study = load_study(study_file(tmp_path, "end_time"))
    spec = SelectSpec("end_time", False, 3.0, 0.05, 3, cap=4)
    with ResultStore(tmp_path / "r.db") as store:
        run_study(study, replications=2, store=store)
        monkeypatch.setattr(provenance, "fingerprint", fingerprint_of("sim", "1" * 12))
        with pytest.raises(sim.InputError, match="this run by sim .* \\(code 111111111111\\)"):
            run_selection(study, spec, store=store, resume=True)
        done = run_selection(study, spec, store=store, resume=True, allow_changed_code=True)
    out = select_json(done)
    assert out["mixed_code"]["this_run"].endswith("(code 111111111111)")
    assert any(n.startswith("the results mix code") for n in out["notes"])


def test_a_design_grown_over_rows_of_changed_code_is_refused(tmp_path, monkeypatch):
    """Data farming: the rows a grown design takes over from its smaller self are checked too."""
    from sim.study.run import provenance

    shutil.copy(SCENARIOS / "open_ground_advance.yaml", tmp_path)
    design = ("study: farm\nscenario: open_ground_advance.yaml\nseed: 2\nreplications: 2\n"
              "variants: {a: {}}\nfactors:\n  design: sobol\n  samples: SAMPLES\n"
              "  vary: {rules.snapfire.radius: [4, 12]}\nmetrics: [end_time]\n")
    (tmp_path / "small.yaml").write_text(design.replace("SAMPLES", "2"))
    (tmp_path / "large.yaml").write_text(design.replace("SAMPLES", "4"))
    with ResultStore(tmp_path / "r.db") as store:
        run_study(load_study(tmp_path / "small.yaml"), store=store)
        monkeypatch.setattr(provenance, "fingerprint", fingerprint_of("sim", "2" * 12))
        with pytest.raises(sim.InputError, match="the stored rows of study 'farm' were made by sim"):
            run_study(load_study(tmp_path / "large.yaml"), store=store, resume=True)


@pytest.mark.parametrize("argv", [["--allow-changed-code"], ["--allow-changed-code", "--db", "x.db"]])
def test_allow_changed_code_without_resume_is_refused(tmp_path, capsys, argv):
    for command in ("study", "select"):
        extra = ["--metric", "end_time", "--direction", "minimise", "--delta", "3"] if command == "select" else []
        assert main([command, str(study_file(tmp_path, "end_time")), *extra, *argv, "--quiet"]) == 2
        err = capsys.readouterr().err
        assert err == ("sim: error: --allow-changed-code: --allow-changed-code needs --resume (it continues "
                       "a stored study whose rows other code made)\n")
    with pytest.raises(sim.InputError, match="^allow_changed_code: allow_changed_code needs resume=True"):
        sim.run_study(str(study_file(tmp_path, "end_time")), db=str(tmp_path / "x.db"), allow_changed_code=True)
    assert not (tmp_path / "x.db").exists()


def test_the_code_is_fingerprinted_once_and_a_changed_file_counts(tmp_path, monkeypatch):
    from sim.study.run import provenance

    (tmp_path / "fp_pkg").mkdir()
    (tmp_path / "fp_pkg" / "__init__.py").write_text("X = 1\n")
    (tmp_path / "fp_pkg" / "helpers.py").write_text("Y = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import fp_pkg  # noqa: F401 - imported so that it is a package of this process

    before = provenance.fingerprint("fp_pkg")
    (tmp_path / "fp_pkg" / "helpers.py").write_text("Y = 2\n")   # a file of the package, not imported
    assert provenance.fingerprint("fp_pkg") == before   # once per process: the code it imported
    provenance.fingerprint.cache_clear()
    assert provenance.fingerprint("fp_pkg") not in (before, "")
    assert re.fullmatch(r"[0-9a-f]{12}", provenance.fingerprint("sim"))
