"""Write what every study command shows for every shipped study into a folder, for a
byte-for-byte comparison before and after a change to how studies are run or summarised.

    .venv/bin/python benchmarks/study_outputs.py /tmp/before      # on the old commit
    .venv/bin/python benchmarks/study_outputs.py /tmp/after       # on the new one
    diff -r /tmp/before /tmp/after                                # no output: identical

(The old commit's code without another install: ``PYTHONPATH=OLD_TREE`` before the
command, with this script from the new tree.) Each case runs ``python -m sim`` in the
tree whose ``sim`` is imported, with few replications: ``sim study`` (the table,
``--json``, ``--no-crn``, ``--csv``, ``--report``, ``--plot``, a process pool, a stopped
and resumed ``--db`` run, ``--precision``), ``sim select`` and ``sim analyse`` (its text,
``--json`` and ``--out`` files) on small copies of the designed studies. Paths of the
tree and of the folder are written as ``<ROOT>`` and ``<OUT>``, and the report's time as
``<MADE>``, and the fingerprint of the code that ran (``sim.study.run.provenance``) as
``<CODE>``; stdout, stderr and the exit status of each command are kept. About 5 minutes
on two cores; ``--only NAME`` runs the cases whose name contains NAME.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import sim

ROOT = Path(sim.__file__).resolve().parents[1]
SCENARIOS = ROOT / "scenarios"

#: Replications of each shipped study (its battles are costly in a few).
REPS = {"kill_zone_planner": 3, "platoon_crisis": 4, "march_halt": 6}
REPS_DEFAULT = 8


def _studies() -> list[Path]:
    """The shipped studies but the designed one of thousands of points (``_small_designs``)."""
    return sorted(p for p in SCENARIOS.glob("*.yaml") if p.stem != "fow_farming"
                  and re.search(r"^study:", p.read_text(encoding="utf-8"), re.M))


def _small_designs(inputs: Path) -> list[Path]:
    """Copies of the designed studies with few points: a Saltelli and a Morris design."""
    text = (SCENARIOS / "fow_farming.yaml").read_text(encoding="utf-8")
    text = text.replace("scenario: crossing_sniper.yaml",
                        f"scenario: {SCENARIOS / 'crossing_sniper.yaml'}")
    saltelli = inputs / "farming_saltelli.yaml"
    saltelli.write_text(text.replace("samples: 256", "samples: 4"), encoding="utf-8")
    morris = inputs / "farming_morris.yaml"
    morris.write_text(text.replace("design: saltelli", "design: morris")
                      .replace("samples: 256", "samples: 3"), encoding="utf-8")
    return [saltelli, morris]


def _cases(inputs: Path, out: Path) -> list[tuple[str, list[str]]]:
    cases: list[tuple[str, list[str]]] = []
    for path in _studies():
        name, n = path.stem, str(REPS.get(path.stem, REPS_DEFAULT))
        study = str(path.relative_to(ROOT))
        run = ["study", study, "--replications", n]
        cases += [(f"{name}.table", run), (f"{name}.json", [*run, "--json"]),
                  (f"{name}.nocrn", [*run, "--json", "--no-crn"])]
    snap = "scenarios/snapfire_vs_zoc.yaml"
    files = out / "files"
    db = str(out / "files" / "resume.sqlite")
    cases += [
        ("files.study", ["study", "scenarios/sniper_screen_study.yaml", "--replications", "6",
                         "--csv", str(files / "screen.csv"), "--report", str(files / "screen.html"),
                         "--plot", str(files / "plots")]),
        ("pool.study", ["study", snap, "--replications", "12", "--workers", "2", "--json"]),
        ("resume.first", ["study", snap, "--replications", "5", "--db", db, "--json"]),
        ("resume.more", ["study", snap, "--replications", "12", "--db", db, "--resume",
                         "--csv", str(files / "resumed.csv")]),
        ("precision.study", ["study", snap, "--precision", "0.2", "--replications", "60"]),
        ("select.text", ["select", "scenarios/platoon_tactics.yaml", "--replications", "25"]),
        ("select.json", ["select", snap, "--metric", "attacker_won", "--direction", "maximise",
                         "--delta", "0.1", "--n0", "5", "--replications", "30", "--batch", "3",
                         "--json"]),
    ]
    for path in _small_designs(inputs):
        name, store = path.stem, str(files / f"{path.stem}.sqlite")
        cases += [
            (f"{name}.study", ["study", str(path), "--replications", "2", "--db", store]),
            (f"{name}.analyse", ["analyse", str(path), "--db", store, "--resamples", "50",
                                 "--out", str(files / f"{name}-analysis")]),
            (f"{name}.analyse-json", ["analyse", str(path), "--db", store, "--resamples", "50",
                                      "--json"]),
            (f"{name}.report", ["study", str(path), "--replications", "3", "--db", store,
                                "--resume", "--report", str(files / f"{name}.html")]),
        ]
    return cases


def _clean(text: str, out: Path) -> str:
    text = text.replace(str(out), "<OUT>").replace(str(ROOT), "<ROOT>")
    text = re.sub(r"\(code [0-9a-f]{12}\)", "(code <CODE>)", text)   # the code's fingerprint
    return re.sub(r"Made: \d{4}-\d\d-\d\d \d\d:\d\d UTC", "Made: <MADE>", text)


def main(argv: list[str]) -> int:
    """Run every case; print how many."""
    only = None
    if len(argv) == 3 and argv[1] == "--only":
        only, argv = argv[2], argv[:1]
    if len(argv) != 1 or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    out = Path(argv[0]).resolve()
    shutil.rmtree(out, ignore_errors=True)
    (out / "files").mkdir(parents=True)
    inputs = out / "_inputs"
    inputs.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cases = [c for c in _cases(inputs, out) if only is None or only in c[0]]
    for name, args in cases:
        done = subprocess.run([sys.executable, "-m", "sim", *args], cwd=ROOT, env=env,
                              capture_output=True, text=True)
        (out / f"{name}.out").write_text(
            _clean(f"exit {done.returncode}\n{done.stdout}\n--- stderr\n{done.stderr}", out))
        print(f"{name}: exit {done.returncode}", flush=True)
    for path in sorted((out / "files").rglob("*")):
        if path.suffix in (".html", ".csv", ".json"):
            path.write_text(_clean(path.read_text(encoding="utf-8"), out), encoding="utf-8")
        elif path.suffix == ".sqlite" or path.name.endswith(("-wal", "-shm")):
            path.unlink()   # holds times and rows in arrival order: compared by its outputs
    shutil.rmtree(inputs)
    print(f"{len(cases)} cases in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
