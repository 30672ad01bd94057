"""Every teaching notebook runs top to bottom, without errors, in a fresh kernel.

The notebooks are committed without outputs; this runs each one with nbclient in the
current interpreter's ``python3`` kernel, from the ``notebooks/`` folder as a teacher
would. A notebook writes only into its own temporary directory (``OUT``) and removes it
at the end; lessons 01 and 04 show live controls (ipywidgets), whose callbacks the
notebooks also call themselves, so they are exercised headless too.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
LIMIT = 600  # seconds: a cell that runs this long has hung (not a speed target)
WIDGETS = {"01_snap_fire", "04_what_if_study"}   # the lessons with live controls
KEEPS_TEMP: set[str] = set()   # notebooks allowed to leave their temporary folder (none)


def test_there_are_six_notebooks():
    assert [p.name[:2] for p in NOTEBOOKS] == ["01", "02", "03", "04", "05", "06"]


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
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=LIMIT, kernel_name="python3", allow_errors=False,
        resources={"metadata": {"path": str(path.parent)}})
    client.kernel_manager_class  # noqa: B018 - resolve before timing
    start = time.perf_counter()
    client.execute()
    took = time.perf_counter() - start  # reported, never asserted (LIMIT only stops a hang)
    images = sum("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code"
                 for o in c.outputs)
    assert images >= 2, f"{path.name} shows {images} pictures"
    widgets = sum("application/vnd.jupyter.widget-view+json" in o.get("data", {})
                  for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert (widgets > 0) == (path.stem in WIDGETS), f"{path.name} shows {widgets} widgets"
    left = [p.name for p in tmp_path.iterdir() if p.name.startswith("sim-")]
    assert path.stem in KEEPS_TEMP or left == [], f"{path.name} left {left} behind"
    print(f"{path.name}: {took:.1f} s, {images} pictures", file=sys.stderr)
