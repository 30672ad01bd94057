"""Class mode, replay links, glossary links and keys in a real JupyterLab, in headless Chromium
at 1280 × 720: a notebook that turns class mode on and shows a replay puts the replay's inspector
beside its map, both in the window, with text of 16 CSS px or more (more under Presentation
Mode); a real click on a halt opens the halt; the time a student stepped to comes back after
the page is reloaded (the notebook saved, as JupyterLab does before a reload asks); and a
lesson's glossary link opens the glossary at its entry, not at its top; and an arrow key
pressed on a lesson's controls (``sim.viz.Choice``, ``Slider``), a replay or the live board
changes them and never also moves the notebook to another cell. The plain-page
versions of these checks are ``tests/test_class_mode.py``; this file checks them where a
class meets them, inside JupyterLab's own layout, router and sanitizer."""
from __future__ import annotations

import json
import shutil
import time

import pytest

from browser import Page
from conftest import ROOT, need_chromium

pytest.importorskip("jupyterlab")
from lab_server import Lab, gone, notebook  # noqa: E402 - after the skip

REPLAY = ".jp-OutputArea .sim-replay"
READY = f"!!document.querySelector('{REPLAY}') && document.querySelector('{REPLAY}').dataset.ready === '1'"
SOURCE = ("import sim\nfrom IPython.display import HTML\nfrom sim import viz\n"
          "from sim.scenario.load import load_scenario\nfrom sim.replication import run_battle\n"
          "viz.class_mode(True)\n"
          f"sc = load_scenario({str(ROOT / 'scenarios' / 'open_ground_advance.yaml')!r})\n"
          "log = run_battle(sc, 1).log\nhalt = log.where(event='halt')[0]\n"
          "HTML(viz.replay_fragment(sc, log, frames=20))")

KEYS = (SOURCE.replace("viz.class_mode(True)\n", "").replace("HTML(", "from IPython.display import display\n"
                                                              "display(HTML(").replace("=20))", "=20)))")
        + "\nfrom sim.viz.board import Board\n"
        "variant = viz.Choice('variant', ['zone of control', 'snap fire', 'minefield'])\n"
        "replications = viz.Slider('replications', 60, least=20, most=400, step=20)\n"
        "board = Board()\ndisplay(variant, replications, board)\n"
        f"display(viz.play({str(ROOT / 'scenarios' / 'kill_zone_play.yaml')!r}, side='blue', seed=4))")


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server (``tests/lab_server.py``) serving a class-mode replay notebook and
    the lessons' folder; its kernels end with it."""
    root, home = tmp_path_factory.mktemp("root"), tmp_path_factory.mktemp("home")
    notebook(root / "replay.ipynb", SOURCE)
    notebook(root / "keys.ipynb", KEYS, "print(variant.value, replications.value, board.firers[0])")
    shutil.copy(ROOT / "notebooks" / "glossary.md", root / "glossary.md")
    shutil.copy(ROOT / "notebooks" / "01_snap_fire.ipynb", root / "01_snap_fire.ipynb")
    server = Lab(root, home)
    try:
        yield server
    finally:
        server.close()
    assert gone(str(home / "runtime"), 10) == [], "a kernel outlived the server"


@pytest.fixture
def page(lab):
    """A headless Chromium at 1280 × 720 that reaches 127.0.0.1 only; ended with the test."""
    from browser import Browser

    need_chromium()
    with Browser(timeout=60, loopback=True) as b:
        b.screen(1280, 720)
        yield b


def _open(b, lab: Lab, path: str) -> None:
    """Open ``path`` alone: ``?reset`` drops the tabs an earlier test left in the workspace,
    whose outputs would otherwise answer this test's queries first."""
    b.send("Page.navigate", {"url": lab.url(f"lab/tree/{path}") + "&reset"}, session=True)
    b.wait_for("!!document.querySelector('.jp-Notebook .jp-Cell .jp-InputArea')"
               " || !!document.querySelector('.jp-RenderedMarkdown h1')", timeout=120)


def _idle(b) -> None:
    b.wait_for("[...document.querySelectorAll('.jp-StatusBar-Item')].some((e) => / \\| Idle$/.test(e.textContent))"
               " && !document.querySelector('.jp-NotebookPanel .jp-Spinner')", timeout=120)


def _command(b, name: str) -> None:
    """Run a JupyterLab command as its menu entry does."""
    b.evaluate(f"window.jupyterapp.commands.execute({json.dumps(name)})")


def _run_replay(b, lab: Lab) -> None:
    """Open the replay notebook and run its cell by the toolbar's Run button."""
    _open(b, lab, "replay.ipynb")
    _idle(b)
    Page(b).click(".jp-NotebookPanel-toolbar [data-command='notebook:run-cell-and-select-next']")
    b.wait_for(READY, timeout=120)


def test_class_mode_in_jupyterlab_puts_the_inspector_beside_the_map(lab, page):
    _run_replay(page, lab)
    assert page.evaluate(f"document.querySelector('{REPLAY}').classList.contains('sr-class')")
    halt = json.loads(page.evaluate(
        f"JSON.stringify(JSON.parse(document.querySelector('{REPLAY} script.sim-replay-data').textContent)"
        ".marks.map((m, i) => [m.k, i, m.t, m.p]).filter(m => m[0] === 'halt')[0])"))
    _, index, t, (x, y) = halt
    # step to the halt's time with the replay's own controls, then click the halt itself
    for _ in range(60):
        if float(page.evaluate(f"document.querySelector('{REPLAY}').dataset.time")) >= t:
            break
        page.evaluate(f"document.querySelector('{REPLAY} button.next-event').click()")
    page.evaluate(f"document.querySelector('{REPLAY}').scrollIntoView({{block: 'start'}})")
    m = page.evaluate(f"(() => {{ const m = document.querySelector('{REPLAY} svg.sr-svg').getScreenCTM();"
                      " return [m.a, m.e, m.f]; })()")
    Page(page).click_at(m[1] + m[0] * x, m[2] + m[0] * y)
    assert page.evaluate(f"document.querySelector('{REPLAY}').dataset.inspected") == f"mark {index}"
    assert page.evaluate(f"document.querySelector('{REPLAY} .sr-inspector').textContent").startswith(
        f"halt at t = {t:.2f}")
    svg, box = Page(page).rect(f"{REPLAY} svg.sr-svg"), Page(page).rect(f"{REPLAY} .sr-inspector")
    assert box[0] >= svg[2], (svg, box)                           # beside the map, on its right
    for r in (svg, box):                                          # both wholly in the window
        assert r[0] >= 0 and r[2] <= 1280 and r[3] - r[1] <= 720, (svg, box)
    sizes = []
    for presenting in (False, True):
        if presenting:
            _command(page, "application:toggle-presentation-mode")
            page.wait_for("!!document.querySelector('.jp-mod-presentationMode')")
        sizes.append(float(page.evaluate(f"parseFloat(getComputedStyle(document.querySelector("
                                         f"'{REPLAY} .sr-inspector')).fontSize)")))
    _command(page, "application:toggle-presentation-mode")
    assert sizes[0] >= 16 and sizes[1] > sizes[0], sizes


def test_a_replays_time_comes_back_after_jupyterlab_is_reloaded(lab, page):
    _run_replay(page, lab)
    for _ in range(3):
        page.evaluate(f"document.querySelector('{REPLAY} button.next-event').click()")
    t = float(page.evaluate(f"document.querySelector('{REPLAY}').dataset.time"))
    assert t > 0
    _command(page, "docmanager:save")
    page.wait_for("!document.querySelector('.jp-mod-dirty')", timeout=60)
    page.evaluate("window.simBeforeReload = true")
    page.send("Page.reload", {}, session=True)
    page.wait_for(f"!window.simBeforeReload && {READY}", timeout=120)
    assert float(page.evaluate(f"document.querySelector('{REPLAY}').dataset.time")) == t


def test_a_lessons_glossary_link_opens_the_glossary_at_its_entry(lab, page):
    _open(page, lab, "01_snap_fire.ipynb")
    link = "a[href*='/files/glossary.md'][href*='#']"   # JupyterLab's rewriting of glossary.md#Entry
    page.wait_for(f"!!document.querySelector(\".jp-RenderedMarkdown {link}\")", timeout=60)
    href = page.evaluate(f"document.querySelector(\".jp-RenderedMarkdown {link}\").getAttribute('href')")
    entry = href.split("#", 1)[1]
    assert entry != ""
    Page(page).click(f".jp-RenderedMarkdown {link}")   # scrolled into view, nothing over it
    heading = f".jp-MarkdownViewer [data-jupyter-id={json.dumps(entry)}]"
    page.wait_for(f"!!document.querySelector({json.dumps(heading)})", timeout=60)
    # the entry's heading is scrolled into the glossary's view, not left below its top
    page.wait_for(f"(() => {{ const h = document.querySelector({json.dumps(heading)}).getBoundingClientRect();"
                  " return h.top >= 0 && h.bottom <= 720; })()", timeout=30)
    top = page.evaluate(f"document.querySelector({json.dumps(heading)}).closest('.jp-MarkdownViewer')"
                        ".querySelector('h1, h2').dataset.jupyterId")
    assert top != entry and page.evaluate(
        f"document.querySelector({json.dumps(heading)}).closest('.jp-MarkdownViewer')"
        ".querySelector('h1, h2').getBoundingClientRect().bottom") < 0


def test_an_arrow_key_on_a_control_a_replay_or_the_board_stays_there(lab, page):
    _open(page, lab, "keys.ipynb")
    _idle(page)
    _command(page, "notebook:run-all-cells")
    page.wait_for(f"{READY} && !!document.querySelector('.sim-board g.firer') && "
                  "!!document.querySelector('.sim-control input[type=range]') && "
                  "!!document.querySelector('.sim-play button[data-choice]')", timeout=120)
    _idle(page)
    _command(page, "notebook:enter-command-mode")
    active = "window.jupyterapp.shell.currentWidget.content.activeCellIndex"
    page.evaluate("window.jupyterapp.shell.currentWidget.content.activeCellIndex = 0")
    what = {".sim-control select": "document.querySelector('.sim-control select').value",
            ".sim-control input[type=range]": "document.querySelector('.sim-control output').textContent",
            f"{REPLAY}": f"document.querySelector('{REPLAY}').dataset.frame",
            ".sim-board g.firer": "document.querySelector('.sim-board g.firer').dataset.y",
            ".sim-play button[data-choice]": None}   # the play board's buttons: a key moves nothing there
    keys = Page(page)
    for selector, shown in what.items():
        page.evaluate(f"document.querySelector({json.dumps(selector)}).focus()")
        if shown:
            before = page.evaluate(shown)
            keys.press("ArrowRight" if selector == REPLAY else "ArrowDown")
            page.wait_for(f"{shown} !== {json.dumps(before)}", timeout=10)
        keys.press("ArrowDown")   # a replay leaves ArrowDown alone: the notebook still must not take it
        assert page.evaluate(active) == 0, selector
    # what the keys chose reached Python. A control's second change in a row waits in the page
    # until the kernel has answered its first (ipywidgets sends a widget one message at a time),
    # so a cell run at once may still see the first: it is run again, for at most 30 s
    page.evaluate("window.jupyterapp.shell.currentWidget.content.activeCellIndex = 1")
    last = "document.querySelectorAll('.jp-Cell')[1].querySelector('.jp-OutputArea-output')"
    deadline = time.monotonic() + 30
    while True:
        _command(page, "notebook:clear-cell-output")
        _command(page, "notebook:run-cell")
        page.wait_for(f"!!{last}", timeout=60)
        said = page.evaluate(f"{last}.textContent")
        if said.startswith("minefield 20 ") or time.monotonic() > deadline:
            break
        _idle(page)
    assert said.startswith("minefield 20 "), said
