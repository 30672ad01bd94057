"""Every lesson, and every exercise of it, in a real JupyterLab driven by headless Chromium at
1280 × 720, as a student drives it.

One JupyterLab server (``tests/lab_server.py``) serves a temporary copy of ``notebooks/`` and
``scenarios/`` (what the lessons read), its kernels' ``TMPDIR`` a temporary folder too, so
nothing in the checkout is written; autosave is off and a lesson is never saved (its copy on
disk is checked unchanged). For each lesson, in a fresh notebook tab:

- the lesson is run top to bottom as a student does, by mouse clicks on the *Run* menu's
  *Run All Cells*; when its kernel is idle no cell may show an error (an ``error`` output in
  the notebook's model, or a traceback on the page); other text on stderr (a warning) is
  reported, not failed;
- each exercise (the metadata ``exercise`` of its markdown cell, ``tests/test_lesson_exercises.py``
  says what it holds) is done as its text tells the student: a real click in the changed
  cell's editor, each old text selected in the editor (its ``setSelection``) and the new
  text typed (``Input.insertText``), then the changed cell and the exercise's cells after it
  run one by one, each selected by a click and run with Shift+Enter (real key events); the
  code the exercise adds, if any, is typed into a cell added below (Esc, B) and run. No cell
  of the notebook may then show an error, every cell run must have run (a new execution
  count), and must still show every kind of output it showed before the change (a figure or
  a live control the exercise is about is still there, drawn). A cell added below prints
  the exercise's value and check, read from the page: the value must be the stated answer
  within its tolerance and the check true (the nbclient test's very checks);
- the lesson is put back for the next exercise: the changed cell's source restored, the
  added cells deleted, the changed cell and those after it run again.

Every wait is bounded (a cell that runs ``LIMIT`` seconds has hung); the server, its kernels
(each lesson's kernel is shut down when its tab closes) and the browser end with the test.
``SIM_LESSON_SHOTS=DIR`` keeps a screenshot of each lesson after Run All and of each exercise
after its run, scrolled to what the exercise shows.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from browser import SHIFT, Page
from conftest import ROOT, need_chromium

pytest.importorskip("jupyterlab")
pytest.importorskip("anywidget")
from lab_server import Lab, gone  # noqa: E402 - after the skips
from mouse import chromium  # noqa: E402
from test_lesson_exercises import EXERCISES, LIMIT, cells_run, changed, check_answer, probe  # noqa: E402

LESSONS = sorted((ROOT / "notebooks").glob("0*.ipynb"))
WIDTH, HEIGHT = 1280, 720
SETTINGS = {"@jupyterlab/docmanager-extension/plugin": {"autosave": False}}   # never save a lesson
STDERR = "application/vnd.jupyter.stderr"
PICTURES = {"image/png", "application/vnd.jupyter.widget-view+json"}   # what an exercise's screenshot shows first

# The page's view of the lesson's notebook (window.simPanel): its cells, their outputs as the
# model holds them and as the page shows them, and the kernel's state.
HELPERS = """
window.simLesson = (() => {
  const WIDGET = 'application/vnd.jupyter.widget-view+json';
  const panel = () => window.simPanel;
  const cells = () => panel().content.widgets;
  const kernel = () => panel().sessionContext.session?.kernel;
  const idle = () => kernel()?.status === 'idle'
    && !cells().some((c) => c.model.type === 'code' && c.model.executionState === 'running');
  // an output's kind: its MIME type (a live control's view, a panel, has none on the page)
  const kind = (o) => o.dataset.mimeType || (o.matches('.lm-Panel') ? WIDGET : 'unknown');
  const drawn = (o) => {
    const box = o.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    if (kind(o).startsWith('image/')) {
      return [...o.querySelectorAll('img')].some((i) => i.complete && i.naturalWidth > 0) || !!o.querySelector('svg');
    }
    if (kind(o) === WIDGET) return !/Error displaying widget|Loading widget/.test(o.textContent)
      && [...o.querySelectorAll('*')].some((e) => e.tagName !== 'STYLE' && e.getBoundingClientRect().height > 20);
    return true;
  };
  return {
    index: (id) => cells().findIndex((c) => c.model.id === id),
    ids: () => cells().map((c) => c.model.id),
    codeIds: () => cells().filter((c) => c.model.type === 'code').map((c) => c.model.id),
    source: (i) => cells()[i].model.sharedModel.getSource(),
    count: (i) => cells()[i].model.executionCount ?? null,
    dead: () => ['dead', 'unknown'].includes(kernel()?.status),
    idle,
    // the kernel is idle and cell i has run since it showed count `before` (or the kernel died)
    ran: (i, before) => ['dead', 'unknown'].includes(kernel()?.status)
      || (idle() && cells()[i].model.executionCount != null && cells()[i].model.executionCount !== before),
    errors: () => cells().flatMap((c) => c.model.type !== 'code' ? [] : c.model.outputs.toJSON()
      .filter((o) => o.output_type === 'error')
      .map((o) => `cell ${c.model.id}: ${o.ename}: ${o.evalue}`)),
    stderr: () => cells().flatMap((c) => [...c.node.querySelectorAll(
      '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')]
      .map((o) => ({cell: c.model.id, text: o.textContent}))),
    // the kinds of output cell i shows on the page, drawn (an image loaded, a control not failed)
    shown: (i) => [...new Set([...cells()[i].node.querySelectorAll('.jp-OutputArea-output')]
      .filter(drawn).map(kind))].sort(),
    printed: (i) => cells()[i].outputArea.node.textContent,
    select: (i, old) => {
      const editor = cells()[i].editor, text = editor.model.sharedModel.getSource();
      const start = text.indexOf(old);
      if (start < 0 || text.lastIndexOf(old) !== start) return false;
      editor.setSelection({start: editor.getPositionAt(start), end: editor.getPositionAt(start + old.length)});
      return editor.hasFocus();
    },
    editing: (i) => panel().content.mode === 'edit' && panel().content.activeCellIndex === i
      && cells()[i].editor.hasFocus(),
    commanding: (i) => panel().content.mode === 'command' && panel().content.activeCellIndex === i,
    // cell i's source back to `source`, the cells `added` deleted
    putBack: (i, source, added) => {
      for (const k of [...added].sort((a, b) => b - a)) panel().content.model.sharedModel.deleteCell(k);
      cells()[i].model.sharedModel.setSource(source);
      return true;
    },
    // cell i's outputs (or the cell) in view: in the middle, or their top at the top if taller than the window
    reveal: (i) => {
      const c = cells()[i], node = c.model.outputs?.length ? c.outputArea.node : c.node;
      node.scrollIntoView({block: node.getBoundingClientRect().height < innerHeight - 100 ? 'center' : 'start'});
      return true;
    },
  };
})();
true
"""


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab on 127.0.0.1 serving a copy of the lessons (and the scenarios they load),
    with autosave off and a temporary TMPDIR; it and its kernels end with the module."""
    need_chromium()
    base = tmp_path_factory.mktemp("lessons-lab")
    root, home, tmp = base / "root", base / "home", base / "tmp"
    shutil.copytree(ROOT / "notebooks", root / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    shutil.copytree(ROOT / "scenarios", root / "scenarios")
    tmp.mkdir()
    for plugin, values in SETTINGS.items():
        extension, name = plugin.rsplit("/", 1)
        where = home / "settings" / extension / f"{name}.jupyterlab-settings"
        where.parent.mkdir(parents=True)
        where.write_text(json.dumps(values), encoding="utf-8")
    server = Lab(root, home, env={"TMPDIR": str(tmp)})
    try:
        yield server
    finally:
        server.close()
    assert server.proc.returncode is not None
    assert gone(str(home / "runtime"), 10) == [], "a kernel outlived the server"


@pytest.fixture(scope="module")
def page(lab):
    """JupyterLab's page in a headless Chromium at 1280 × 720 (reaching 127.0.0.1 alone); ended with the module."""
    with chromium(WIDTH, HEIGHT) as b:
        b.send("Page.navigate", {"url": lab.url("lab")}, session=True)
        b.wait_for("!!(window.jupyterapp && document.querySelector('#jp-main-dock-panel'))", 120)
        b.evaluate("window.jupyterapp.restored.then(() => true)")
        shots = os.environ.get("SIM_LESSON_SHOTS")
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
        yield Page(b, shots)


# -- the student's moves ------------------------------------------------------------------

def _cell(page: Page, cid: str) -> int:
    i = page.js(f"simLesson.index({json.dumps(cid)})")
    assert i >= 0, f"no cell {cid}"
    return i


def _edit(page: Page, i: int) -> None:
    """A click in cell ``i``'s editor: the cell is active, in edit mode, its editor focused."""
    page.click_on(f"simPanel.content.widgets[{i}].editorWidget.node", f"the editor of cell {i}")
    page.wait(f"simLesson.editing({i})", 10)


def _run(page: Page, i: int) -> None:
    """Run cell ``i`` as a student does: a click in it, Shift+Enter; wait (bounded) until it has run."""
    before = page.js(f"simLesson.count({i})")
    _edit(page, i)
    page.press("Enter", SHIFT)
    page.wait(f"simLesson.ran({i}, {json.dumps(before)})", LIMIT)
    assert not page.js("simLesson.dead()"), f"the kernel died running cell {i}"


def _add_below(page: Page, i: int, code: str) -> int:
    """A cell added below cell ``i`` (Esc, B), ``code`` typed into it and run; its index."""
    n = page.js("simLesson.ids().length")
    _edit(page, i)
    page.press("Escape")
    page.wait(f"simLesson.commanding({i})", 10)
    page.press("b")
    page.wait(f"simLesson.ids().length === {n + 1} && simLesson.commanding({i + 1})", 10)
    _edit(page, i + 1)
    page.type(code)
    assert page.js(f"simLesson.source({i + 1})") == code, "the typed code is not the cell's"
    _run(page, i + 1)
    return i + 1


def _run_all(page: Page) -> None:
    """Run → Run All Cells, by mouse; wait (bounded) until the last code cell has run or one failed."""
    page.click_on("[...document.querySelectorAll('#jp-menu-panel .lm-MenuBar-item')]"
                  ".find((e) => e.textContent.trim() === 'Run')", "the Run menu")
    page.click(".lm-Menu-item[data-command='runmenu:run-all']")
    last = page.js("simPanel.content.widgets.map((c) => c.model.type).lastIndexOf('code')")
    page.wait(f"simLesson.dead() || simLesson.errors().length > 0 || simLesson.ran({last}, null)", LIMIT)
    page.wait("simLesson.dead() || simLesson.idle()", LIMIT)
    assert not page.js("simLesson.dead()"), "the kernel died"


# -- what the page shows ------------------------------------------------------------------

def _failures(page: Page) -> list[str]:
    """Every error a cell shows: an error output in the model, a traceback on the page."""
    shown = [f"cell {o['cell']}: {o['text'][-600:]}" for o in page.js("simLesson.stderr()") if "Traceback" in o["text"]]
    return page.js("simLesson.errors()") + shown


def _report_stderr(page: Page, where: str) -> None:
    for o in page.js("simLesson.stderr()"):
        print(f"{where}: stderr of cell {o['cell']}: {o['text'][:300]!r}", file=sys.stderr)


def _shown(page: Page, i: int) -> set[str]:
    page.js(f"simLesson.reveal({i})")
    return set(page.js(f"simLesson.shown({i})")) - {STDERR}


def _shot(page: Page, i: int, name: str) -> None:
    if page.shots:
        page.js(f"simLesson.reveal({i})")
        page.js("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        page.shot(name)


# -- a lesson -----------------------------------------------------------------------------

def _open(page: Page, name: str) -> None:
    """The lesson in a fresh notebook tab, its kernel started and idle."""
    page.js(f"window.jupyterapp.commands.execute('docmanager:open', {{path: 'notebooks/{name}', factory: 'Notebook'}})"
            ".then((w) => { window.simPanel = w; return true; })")
    page.js(HELPERS)
    page.wait("simPanel.context.isReady && simPanel.content.widgets.length > 0 && simLesson.idle()", 120)


def _close(page: Page) -> None:
    """The lesson's tab closed without saving, its kernel shut down."""
    page.js("(async () => { const p = window.simPanel; await p.sessionContext.shutdown();"
            " p.context.model.dirty = false; p.close(); return true; })()")
    page.wait("window.simPanel.isDisposed", 30)


def _exercise(page: Page, name: str, spec: dict, order: list[str], again: bool) -> None:
    """One exercise done as its text says, its answer read from the page; the lesson put back after it if ``again``."""
    where = f"{name} exercise on cell {spec['cell']}"
    run = cells_run(order, spec)
    todo = [cid for cid in run if order.index(cid) >= order.index(spec["cell"])]   # the changed cell and after
    at = [_cell(page, cid) for cid in todo]
    before = {i: _shown(page, i) for i in at}
    counts = {i: page.js(f"simLesson.count({i})") for i in at}
    i = at[0]
    original = page.js(f"simLesson.source({i})")
    _edit(page, i)
    for old, new in spec["replace"]:
        assert page.js(f"simLesson.select({i}, {json.dumps(old)})"), f"{where}: cannot select {old!r}"
        page.type(new)
    assert page.js(f"simLesson.source({i})") == changed(original, spec), f"{where}: the typed change is not the cell's"
    for j in at:
        _run(page, j)
    added = [_add_below(page, at[-1], spec["code"])] if spec.get("code") else []
    added.append(_add_below(page, added[-1] if added else at[-1], probe(spec)))

    assert _failures(page) == [], f"{where}: a cell shows an error"
    _report_stderr(page, where)
    for j in at:
        assert page.js(f"simLesson.count({j})") != counts[j], f"{where}: cell {j} did not run"
        lost = before[j] - _shown(page, j)
        assert not lost, f"{where}: cell {j} no longer shows {sorted(lost)}"
    figure = next((j for j in at if before[j] & PICTURES), i)
    _shot(page, figure, f"{name[:2]}-{spec['cell']}")
    check_answer(page.js(f"simLesson.printed({added[-1]})"), spec, where)

    if again:   # the lesson's own state for the next exercise
        page.js(f"simLesson.putBack({i}, {json.dumps(original)}, {json.dumps(added)})")
        assert page.js(f"simLesson.source({i})") == original
        for j in at:
            _run(page, j)
        assert _failures(page) == [], f"{where}: a cell shows an error once the lesson is put back"


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_and_its_exercises_in_jupyterlab(path, lab, page):
    exercises = [spec for p, _, spec in EXERCISES if p == path]
    saved = (lab.folder / "notebooks" / path.name).read_bytes()
    _open(page, path.name)
    try:
        _run_all(page)
        assert _failures(page) == [], f"{path.stem}: a cell shows an error after Run All"
        _report_stderr(page, path.stem)
        order = page.js("simLesson.codeIds()")
        _shot(page, _cell(page, exercises[0]["cell"]), f"{path.stem[:2]}-lesson")
        for n, spec in enumerate(exercises):
            _exercise(page, path.stem, spec, order, again=n + 1 < len(exercises))
    finally:
        _close(page)
    assert (lab.folder / "notebooks" / path.name).read_bytes() == saved, "the lesson was saved"
    assert gone(str(lab.home / "runtime"), 10) == [], "the lesson's kernel outlived its tab"
