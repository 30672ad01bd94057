"""Every teaching notebook runs top to bottom, without errors, in a fresh kernel.

The notebooks are committed without outputs; this runs each one with nbclient in the
current interpreter's ``python3`` kernel, from the ``notebooks/`` folder as a teacher
would. A notebook writes only into its own temporary directory (``OUT``) and removes it
at the end; lessons 01 and 04 show live controls (ipywidgets), whose callbacks the
notebooks also call themselves, so they are exercised headless too, and lesson 09 shows the
play board and the editor (anywidgets), which it drives through their Python interfaces.

A lesson's own checks are not in the cells a student reads and changes: no code cell holds
an ``assert`` (an exercise that changes a value would stop its own cell, or hide the
picture it is about). A code cell's checks are Python statements in its metadata, under
the key ``checks`` (``{"checks": "assert halt['dist'] == halt['radius']"}``); this test
runs them in the lesson's kernel right after that cell, so the claims the lesson's text
makes of its results are checked where they are made, and a check that fails names its
cell. JupyterLab shows them under the cell's metadata (property inspector); the docs site
does not run them.

Every picture a notebook shows is checked as it is shown: a first cell (``HOOK``, run
before the lesson's own) makes the kernel's PNG formatter pass each matplotlib Figure to
``sim.viz.check_legible`` (at 1280 px wide, 100 dpi: the inline pictures' dpi) before
drawing it, and the test fails naming each problem with the cell that drew it.
"""
from __future__ import annotations

import ast
import json
import re
import sys
import time
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
LIMIT = 600  # seconds: a cell that runs this long has hung (not a speed target)
WIDGETS = {"01_snap_fire", "04_what_if_study", "09_play_and_draw"}   # the lessons with live controls
KEEPS_TEMP: set[str] = set()   # notebooks allowed to leave their temporary folder (none)

# Run first in the kernel: the PNG formatter (whatever backend registered it, now or later
# in the lesson) checks every Figure it draws, appending {cell, figure, problems} as one
# JSON line to RECORD; with KEEP a folder, it also saves each picture there.
HOOK = """\
def _check_every_figure(record, keep):
    import itertools, json
    from matplotlib.figure import Figure
    from sim.viz import check_legible
    shell = get_ipython()
    png = shell.display_formatter.formatters["image/png"]
    count = itertools.count(1)

    class Checking(type(png)):
        def __call__(self, obj):
            if isinstance(obj, Figure):
                # the shell has counted past the running cell already
                cell, k = shell.execution_count - 1, next(count)
                with open(record, "a") as out:
                    out.write(json.dumps({"cell": cell, "figure": k,
                                          "problems": check_legible(obj)}) + "\\n")
                if keep:
                    obj.savefig(f"{keep}/cell{cell:02d}_{k}.png", dpi=100, bbox_inches="tight")
            return super().__call__(obj)

    png.__class__ = Checking

_check_every_figure(RECORD, KEEP)
del _check_every_figure
"""


CHECK = "lesson-check"   # the metadata mark of a check cell this module inserts (and removes)


def with_checks(nb):
    """The notebook with each code cell's ``checks`` run in a cell of their own after it."""
    cells = []
    for c in nb.cells:
        cells.append(c)
        if c.cell_type == "code" and c.metadata.get("checks"):
            check = nbformat.v4.new_code_cell(f"# the checks of cell {c.get('id')}\n{c.metadata['checks']}")
            check.metadata[CHECK] = c.get("id")
            cells.append(check)
    nb.cells = cells
    return nb


def run_checked(path: Path, record: Path, keep: str | None = None):
    """Run the notebook at ``path`` with ``HOOK`` first and each cell's checks after it;
    returns it (without the hook's and the checks' cells), what the hook recorded, each
    problem with the lesson's cell number."""
    nb = with_checks(nbformat.read(path, as_version=4))
    hook = HOOK.replace("RECORD", repr(str(record))).replace("KEEP", repr(keep))
    nb.cells.insert(0, nbformat.v4.new_code_cell(hook))
    client = nbclient.NotebookClient(
        nb, timeout=LIMIT, kernel_name="python3", allow_errors=False,
        resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    hook = nb.cells.pop(0)
    checks = [c for c in nb.cells if CHECK in c.metadata]
    nb.cells = [c for c in nb.cells if CHECK not in c.metadata]
    assert all(c.outputs == [] for c in checks), [c.outputs for c in checks if c.outputs]
    # execution counts: the hook's cell is 1; the lesson's cells are numbered from 0
    cell_of = {c.execution_count: i for i, c in enumerate(nb.cells) if c.cell_type == "code"}
    found = [json.loads(line) for line in record.read_text().splitlines()] if record.exists() else []
    problems = [f"cell {cell_of.get(f['cell'], '?')}, picture {f['figure']}: {p}"
                for f in found for p in f["problems"]]
    assert hook.outputs == [], hook.outputs
    return nb, len(found), problems


def test_there_are_nine_notebooks():
    assert [p.name[:2] for p in NOTEBOOKS] == ["01", "02", "03", "04", "05", "06", "07", "08", "09"]


def _statements(source: str) -> ast.Module:
    # a cell's IPython lines (%matplotlib, !pip) are not Python
    return ast.parse(re.sub(r"(?m)^\s*[%!].*$", "", source))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_no_cell_a_student_runs_asserts(path):
    """Every code cell is one a student may change and re-run: none asserts; the lesson's
    checks are in the cells' metadata, and at least one cell has some."""
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    asserting = [c.get("id") for c in code if any(isinstance(n, ast.Assert) for n in ast.walk(_statements(c.source)))]
    assert asserting == [], f"{path.name}: cells that assert: {asserting}"
    checks = [c.metadata["checks"] for c in code if "checks" in c.metadata]
    assert checks and all(any(isinstance(n, ast.Assert) for n in ast.walk(ast.parse(c))) for c in checks)
    assert all(CHECK not in c.metadata for c in nb.cells)


WORDS = 1550   # a lesson's prose (its markdown cells), read in a class period with its cells run


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_a_lesson_is_read_in_a_class_period(path):
    nb = nbformat.read(path, as_version=4)
    words = sum(len(c.source.split()) for c in nb.cells if c.cell_type == "markdown")
    assert 500 < words <= WORDS, f"{path.name}: {words} words"


def test_the_assert_finder_finds_an_assert():
    cell = "%matplotlib inline\nx = 1\nfor i in range(2):\n    assert i < 2, 'no'"
    assert any(isinstance(n, ast.Assert) for n in ast.walk(_statements(cell)))
    assert not any(isinstance(n, ast.Assert) for n in ast.walk(_statements("x = 'assert'\nprint(x)")))


def test_a_failing_check_fails_the_run(tmp_path):
    nb = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                           "language": "python"}})
    cell = nbformat.v4.new_code_cell("x = 2")
    cell.metadata["checks"] = "assert x == 3, 'the lesson says 3'"
    nb.cells = [cell, nbformat.v4.new_markdown_cell("text")]
    path = tmp_path / "lesson.ipynb"
    nbformat.write(nb, str(path))
    with pytest.raises(nbclient.exceptions.CellExecutionError, match="the lesson says 3"):
        run_checked(path, tmp_path / "record.jsonl")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_is_committed_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(not c.outputs and c.execution_count is None for c in code)
    assert any(c.cell_type == "markdown" for c in nb.cells)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # the notebook's OUT lands under tmp_path
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    start = time.perf_counter()
    nb, figures, problems = run_checked(path, tmp_path / "legibility.jsonl")
    took = time.perf_counter() - start  # reported, never asserted (LIMIT only stops a hang)
    images = sum("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code"
                 for o in c.outputs)
    assert images >= 2, f"{path.name} shows {images} pictures"
    widgets = sum("application/vnd.jupyter.widget-view+json" in o.get("data", {})
                  for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert (widgets > 0) == (path.stem in WIDGETS), f"{path.name} shows {widgets} widgets"
    left = [p.name for p in tmp_path.iterdir() if p.name.startswith("sim-")]
    assert path.stem in KEEPS_TEMP or left == [], f"{path.name} left {left} behind"
    assert figures >= 1, f"{path.name}: no Figure reached the legibility check"
    assert not problems, f"{path.name}: pictures a projector cannot carry:\n" + "\n".join(problems)
    print(f"{path.name}: {took:.1f} s, {images} pictures, {figures} checked", file=sys.stderr)
