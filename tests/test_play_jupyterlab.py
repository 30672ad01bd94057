"""The play board in a real JupyterLab, in headless Chromium, with real mouse events: a
JupyterLab server of the test's own on 127.0.0.1 (a temporary root, config and runtime
folder, a token), a notebook that shows ``sim.viz.play`` on ``kill_zone_play``, its cell
run by a click on the toolbar, then a whole battle played with the mouse (orders from the
menu and destinations clicked on the map, End phase), a roll inspected in the phase's
replay, the debrief read, and the log the page offers for download compared byte for byte
with the log of the same orders played from Python. The server, its kernel and the
browser end with the test. ``SIM_PLAY_SHOTS=DIR`` keeps a screenshot of each step there."""
from __future__ import annotations

import json

import pytest

from browser import Page
from conftest import ROOT
from mouse import chromium, give, mouse_page

pytest.importorskip("anywidget")
pytest.importorskip("jupyterlab")
from lab_server import Lab, gone  # noqa: E402 - after the skips

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
    assert gone(str(home / "runtime"), 10) == [], "the kernel outlived the server"


@pytest.fixture
def chrome():
    """A headless Chromium at 1280 x 720 that reaches 127.0.0.1 (and nothing else); ended with the test."""
    with chromium() as b:
        yield b


PLAY = ".jp-OutputArea .sim-play"


def _class_mode(page: Page) -> None:
    """Class mode by its button: the orders and what happened beside the map, in the notebook's
    panel at 1280 x 720, the text 16 CSS px or more; the phase's replay made again in class mode."""
    page.click(f"{PLAY} button.sp-class-mode")
    page.wait(f"!!document.querySelector('{PLAY}.sp-class .sp-side .sp-news')"
              f" && !!document.querySelector('{PLAY} .sp-replay .sim-replay.sr-class[data-ready]')")
    page.js(f"document.querySelector('{PLAY}').scrollIntoView()")
    panel = page.rect(".jp-NotebookPanel .jp-WindowedPanel-outer")
    svg, side, end = (page.rect(f"{PLAY} {s}") for s in (".sp-map svg", ".sp-side", ".sp-end"))
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
    page = mouse_page(chrome)
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
            give(page, PLAY, control, order)
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
