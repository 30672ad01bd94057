"""The play board in a real JupyterLab, in headless Chromium, with real mouse events: a
JupyterLab server of the test's own on 127.0.0.1 (a temporary root, config and runtime
folder, a token), a notebook that shows ``sim.viz.play`` on ``kill_zone_play``, its cell
run by a click on the toolbar, then a whole battle played with the mouse (orders from the
menu and destinations clicked on the map, End phase), a roll inspected in the phase's
replay, the debrief read, and the log the page offers for download compared byte for byte
with the log of the same orders played from Python. The server, its kernel and the
browser end with the test. ``SIM_PLAY_SHOTS=DIR`` keeps a screenshot of each step there."""
from __future__ import annotations

import base64
import json
import os
import time
from pathlib import Path

import pytest

from conftest import ROOT, need_chromium

pytest.importorskip("anywidget")
pytest.importorskip("jupyterlab")
from lab_server import Lab  # noqa: E402 - after the skips

SCENARIO = ROOT / "scenarios" / "kill_zone_play.yaml"
SEED = 4
#: The battle's orders, phase by phase, as the mouse gives them (the rest: End phase only).
CLICKS = [{"b1": "to SAFE"}, {"b1": "hold"}, {"b1": "hold", "s1": "seek_cover"}, {"b1": "to OBJ"}]
NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": None, "id": "play", "metadata": {}, "outputs": [],
               "source": ["import sim.viz\n",
                          f"board = sim.viz.play({str(SCENARIO)!r}, side='blue', seed={SEED})\n", "board"]}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5}


@pytest.fixture
def lab(tmp_path):
    """A JupyterLab server on 127.0.0.1 (``tests/lab_server.py``) serving ``tmp_path/root``
    with the play notebook; its URL base and token. Its kernel ends with it."""
    root, home = tmp_path / "root", tmp_path / "home"
    root.mkdir()
    home.mkdir()
    (root / "play.ipynb").write_text(json.dumps(NOTEBOOK), encoding="utf-8")
    server = Lab(root, home)
    try:
        yield f"http://127.0.0.1:{server.port}", server.token
    finally:
        server.close()
    assert server.proc.returncode is not None
    deadline = time.monotonic() + 10
    while _processes_with(str(home / "runtime")) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _processes_with(str(home / "runtime")) == [], "the kernel outlived the server"


def _processes_with(text: str) -> list[int]:
    """The processes whose command line names ``text`` (the kernel's, by its runtime folder)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and text in (proc / "cmdline").read_bytes().decode(errors="replace"):
                found.append(int(proc.name))
        except OSError:
            continue
    return found


@pytest.fixture
def chrome():
    """A headless Chromium that reaches 127.0.0.1 (and nothing else); ended with the test."""
    from browser import Browser

    need_chromium()
    b = Browser(timeout=60, loopback=True)
    try:
        b.send("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 720, "deviceScaleFactor": 1,
                                                      "mobile": False}, session=True)
        yield b
    finally:
        b.close()
    assert b.proc.poll() is not None


class Page:
    """The JupyterLab page as the test's mouse sees it."""

    def __init__(self, browser) -> None:
        self.b = browser
        self.shots = os.environ.get("SIM_PLAY_SHOTS")
        self.n = 0

    def js(self, expression: str):
        return self.b.evaluate(expression)

    def wait(self, expression: str, timeout: float = 60) -> None:
        self.b.wait_for(expression, timeout=timeout)

    def click(self, selector: str) -> None:
        """A real click (pressed and released) at the middle of the element, scrolled into view."""
        box = self.js(f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
                      " if (!e) return null; e.scrollIntoView({block: 'center'});"
                      " const b = e.getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; })()")
        assert box is not None, f"nothing to click: {selector}"
        x, y = box
        # what is under the pointer must be the element itself (or inside it): nothing covers it
        assert self.js(f"document.querySelector({json.dumps(selector)})"
                       f".contains(document.elementFromPoint({x}, {y}))"), \
            (f"covered: {selector}", self.js(f"document.elementFromPoint({x}, {y}).outerHTML.slice(0, 200)"))
        for kind, buttons in (("mouseMoved", 0), ("mousePressed", 1), ("mouseReleased", 0)):
            self.b.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                                     "buttons": buttons, "clickCount": 1}, session=True)

    def shot(self, name: str) -> None:
        if self.shots:
            self.n += 1
            data = self.b.send("Page.captureScreenshot", {"format": "png"}, session=True)["data"]
            Path(self.shots, f"{self.n:02d}-{name}.png").write_bytes(base64.b64decode(data))


PLAY = ".jp-OutputArea .sim-play"


def _order(page: Page, control: str, order: str) -> None:
    row = f"{PLAY} .sp-control[data-control='{control}']"
    if order.startswith("to "):
        page.click(f"{row} button[data-choice='to']")
        page.click(f"{PLAY} .node[data-node='{order[3:]}'] .hit")
    else:
        page.click(f"{row} button[data-choice='{order}']")
    shown = "go to " + order[3:] if order.startswith("to ") else order
    assert page.js(f"document.querySelector(\"{row} .sp-order\").textContent") == shown


def _rect(page: Page, selector: str) -> list[float]:
    return page.js(f"(() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
                   " return [r.left, r.top, r.right, r.bottom]; })()")


def _class_mode(page: Page) -> None:
    """Class mode by its button: the orders and what happened beside the map, in the notebook's
    panel at 1280 x 720, the text 16 CSS px or more; the phase's replay made again in class mode."""
    page.click(f"{PLAY} button.sp-class-mode")
    page.wait(f"!!document.querySelector('{PLAY}.sp-class .sp-side .sp-news')"
              f" && !!document.querySelector('{PLAY} .sp-replay .sim-replay.sr-class[data-ready]')")
    page.js(f"document.querySelector('{PLAY}').scrollIntoView()")
    panel = _rect(page, ".jp-NotebookPanel .jp-WindowedPanel-outer")
    svg, side, end = (_rect(page, f"{PLAY} {s}") for s in (".sp-map svg", ".sp-side", ".sp-end"))
    assert side[0] >= svg[2], (svg, side)
    for r in (svg, side, end):   # (to a pixel: the panel's border)
        assert panel[0] - 1 <= r[0] and panel[1] - 1 <= r[1] and r[2] <= panel[2] + 1 and r[3] <= panel[3] + 1, r
    assert page.js(f"parseFloat(getComputedStyle(document.querySelector('{PLAY} .sp-line')).fontSize)") >= 16
    page.shot("class-mode")


def _python_log() -> str:
    import sim.viz

    board = sim.viz.play(str(SCENARIO), side="blue", seed=SEED)
    phase = 0
    while not board.state["over"]:
        board.end_phase(CLICKS[phase] if phase < len(CLICKS) else {})
        phase += 1
    return board.log_jsonl


def test_a_battle_played_with_the_mouse_in_jupyterlab(lab, chrome):
    base, token = lab
    page = Page(chrome)
    chrome.send("Page.navigate", {"url": f"{base}/lab/tree/play.ipynb?token={token}"}, session=True)
    page.wait("!!document.querySelector('.jp-Notebook .jp-Cell .jp-InputArea')", timeout=120)
    page.wait("[...document.querySelectorAll('.jp-StatusBar-Item')].some((e) => / \\| Idle$/.test(e.textContent))"
              " && !document.querySelector('.jp-NotebookPanel .jp-Spinner')", timeout=120)
    page.shot("notebook")
    page.click(".jp-NotebookPanel-toolbar [data-command='notebook:run-cell-and-select-next']")
    page.wait(f"!!document.querySelector('{PLAY} .sp-end')", timeout=120)
    page.shot("board")
    status = f"document.querySelector('{PLAY} .sp-status').textContent"
    assert page.js(status) == "Turn 1, blue's movement: give each unit an order, then End phase."

    phase = 0
    while page.js(f"document.querySelector('{PLAY}').dataset.over") == "false":
        for control, order in (CLICKS[phase] if phase < len(CLICKS) else {}).items():
            _order(page, control, order)
        if phase == 0:
            page.shot("orders")
        page.click(f"{PLAY} .sp-end")
        phase += 1
        page.wait(f"document.querySelector('{PLAY}').dataset.ended === '{phase}'", timeout=60)
        page.wait(f"!!document.querySelector('{PLAY} .sp-replay .sim-replay[data-ready]')")
        story = page.js(f"document.querySelector('{PLAY} .sp-story')?.textContent || ''")
        assert story.startswith("Your orders: "), story
        if phase == 3:
            # s1's shot of turn 5 hits r1: stepped to in the phase's replay, clicked, its roll told
            assert "s1 rolled against r1" in story and "success" in story, story
            page.shot("phase")
            replay = f"{PLAY} .sp-replay .sim-replay"
            shot = f"{replay} [data-mark='shot'][visibility='visible']"
            for _ in range(40):
                if page.js(f"!!document.querySelector(\"{shot}\")"):
                    break
                page.click(f"{replay} button.next-event")
            page.click(shot)
            inspector = page.js(f"document.querySelector('{replay} .sr-inspector').textContent")
            assert "rolled 6" in inspector and "needed 6 or more" in inspector, inspector
            page.shot("inspected")
        if phase == 1:
            answer = page.js(f"document.querySelector('{PLAY} .sp-answer').textContent")
            assert answer.startswith("Red's planner, turn 2: it chose "), answer
            assert "in 8 rollouts" in answer and "mean " in answer, answer
            _class_mode(page)   # the rest of the battle as a class sees it on a projector
    assert page.js(status) == "The battle is over: blue wins (objective)."
    debrief = page.js(f"document.querySelector('{PLAY} .sp-debrief').textContent")
    page.shot("debrief")
    assert debrief.count("The planner would have chosen") == phase, debrief
    assert "Turn 1: you ordered: b1 go to SAFE" in debrief and "Turn 3: you ordered: b1 hold where it stands" in debrief
    assert page.js(f"document.querySelector('{PLAY} .sp-replay-title').textContent") == "The whole battle"
    assert page.js(f"document.querySelector('{PLAY} .sp-replay .sim-replay[data-ready]').dataset.frame") == "0"
    assert page.js(f"document.querySelectorAll('{PLAY} .sp-replay .sim-replay').length") == 1
    downloaded = page.js(f"fetch(document.querySelector('{PLAY} a.sp-log').href).then((r) => r.text())")
    assert downloaded == _python_log()
