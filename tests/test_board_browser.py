"""The live board's front end (``sim/data/board.js``) in headless Chromium: a page that
imports it as a module from a data: URL and renders it over a stand-in for the widget's
model (get, set, save_changes, on/off). A real pointer drags the firer and the model must
be sent its new place, at once; the Python widget computes the result for that place,
and when it is set on the model the halt marker and the table of rolls must show it."""
from __future__ import annotations

import base64
import json
from typing import Any

import pytest

pytest.importorskip("anywidget")
from sim.viz.board import DERIVED, WIDTH, Board  # noqa: E402 - after the skip

BOARD = "document.querySelector('.sim-board')"

# The widget's model as anywidget hands it to render(): set() fires change:NAME, and
# save_changes() sends what was set since the last one (kept in window.sent); receive() is
# a message from the kernel (fires change:NAME, sends nothing back).
HARNESS = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>board harness</title>
<style>body {{ font-family: serif; margin: 1em; }} table, th, td {{ border: 3px solid red; }}</style>
</head><body>
<h1>The live board</h1>
<div id="host"></div>
<script type="application/json" id="state">{state}</script>
<script type="module">
const state = JSON.parse(document.getElementById("state").textContent);
const listeners = {{}};
let dirty = {{}};
window.sent = [];
window.model = {{
  get: (k) => state[k],
  receive: (k, v) => {{ state[k] = v; (listeners["change:" + k] || []).forEach((f) => f()); }},
  set: (k, v) => {{ dirty[k] = v; window.model.receive(k, v); }},
  save_changes: () => {{ window.sent.push(JSON.parse(JSON.stringify(dirty))); dirty = {{}}; }},
  on: (e, f) => {{ (listeners[e] = listeners[e] || []).push(f); }},
  off: (e, f) => {{ listeners[e] = (listeners[e] || []).filter((g) => g !== f); }},
  listening: () => Object.values(listeners).reduce((n, l) => n + l.length, 0),
}};
const board = await import("data:text/javascript;base64,{module}");
window.cleanup = board.default.render({{ model: window.model, el: document.getElementById("host") }});
document.body.dataset.ready = "1";
</script></body></html>
"""


def harness(board: Any) -> str:
    """The harness page for a board's (any anywidget's) present state."""
    state = {k: v for k, v in board.get_state().items() if not k.startswith("_")}
    module = board._esm.encode("utf-8")
    return HARNESS.format(state=json.dumps(state).replace("</", "<\\/"),
                          module=base64.b64encode(module).decode("ascii"))


def _centre(browser, selector: str) -> tuple[float, float]:
    box = browser.evaluate(f"(() => {{ const b = document.querySelector({selector!r}).getBoundingClientRect();"
                           " return [b.x + b.width / 2, b.y + b.height / 2]; })()")
    return box[0], box[1]


def _mouse(browser, kind: str, x: float, y: float) -> None:
    browser.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                              "buttons": 0 if kind == "mouseReleased" else 1,
                                              "clickCount": 1}, session=True)


def _key(browser, key: str, code: int) -> None:
    for kind in ("rawKeyDown", "keyUp"):
        browser.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": key,
                                                "windowsVirtualKeyCode": code}, session=True)


def _result(board: Board) -> dict:
    return {k: v for k, v in board.get_state().items() if k in DERIVED - {"width", "height"}}


def _show(browser, result: dict) -> None:
    """Set a result on the model, as the kernel's message would."""
    browser.evaluate(f"(() => {{ const r = {json.dumps(result)};"
                     " for (const k in r) window.model.receive(k, r[k]); })()")


def _cells(browser) -> list[list[str]]:
    return browser.evaluate("[...document.querySelectorAll('.sim-board table.rolls tbody tr')]"
                            ".map((tr) => [...tr.cells].map((c) => c.textContent))")


def test_dragging_the_firer_sends_its_place_and_the_engines_answer_is_drawn(tmp_path, browser):
    board = Board()
    page = tmp_path / "board.html"
    page.write_text(harness(board), encoding="utf-8")
    browser.send("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 800, "deviceScaleFactor": 1,
                                                        "mobile": False}, session=True)
    browser.requests.clear()
    browser.open(page)
    browser.wait_for("document.body.dataset.ready === '1'")
    assert browser.evaluate("document.querySelectorAll('.sim-board .halt').length") == 1
    assert browser.evaluate("document.querySelector('.sim-board .halt').dataset.x") == "44"
    assert _cells(browser) == [["F1", "1", "0.440", "2", "0", "≥ 7", "miss", "0"]]

    # A real pointer drags F1 down by 3 cm, in three moves: each move is sent at once.
    scale = browser.evaluate(f"{BOARD}.querySelector('svg rect').getBoundingClientRect().width") / WIDTH  # px a cm
    x, y = _centre(browser, ".sim-board .firer .dot")
    _mouse(browser, "mousePressed", x, y)
    for k in (1, 2, 3):
        _mouse(browser, "mouseMoved", x, y + k * scale)
    _mouse(browser, "mouseReleased", x, y + 3 * scale)
    sent = browser.evaluate("window.sent")
    assert [s["firers"] for s in sent] == [[[50, 57]], [[50, 56]], [[50, 55]]]
    assert browser.evaluate("document.querySelector('.sim-board .firer').dataset.y") == "55"

    # The kernel side: the widget gets what the browser sent, the engine answers.
    board.set_state(sent[-1])
    assert board.halt == pytest.approx([50 - 75**0.5, 50.0])   # 50 - sqrt(10^2 - 5^2)
    _show(browser, _result(board))
    assert float(browser.evaluate("document.querySelector('.sim-board .halt').dataset.x")) == board.halt[0]
    assert _cells(browser) == [["F1", "1", f"{board.entry_time:.3f}", "2", "0", "≥ 7", "miss", "0"]]
    assert "(41.34, 50.00)" in browser.evaluate(f"{BOARD}.querySelector('.readout').textContent")

    # The keyboard moves the focused firer; the slider and the edge handle set the radius.
    browser.evaluate("document.querySelector('.sim-board .firer').focus()")
    _key(browser, "ArrowUp", 38)
    assert browser.evaluate("window.sent.at(-1)") == {"firers": [[50, 56]]}
    browser.evaluate("(() => { const s = document.querySelector('.sim-board input.radius');"
                     " s.value = 15; s.dispatchEvent(new Event('input')); })()")
    assert browser.evaluate("window.sent.at(-1)") == {"radius": 15}
    ring = f"{BOARD}.querySelector('.circles circle').getBoundingClientRect().width"
    assert browser.evaluate(ring) / scale == pytest.approx(2 * 15, abs=0.01)
    hx, hy = _centre(browser, ".sim-board .handle")
    _mouse(browser, "mousePressed", hx, hy)
    _mouse(browser, "mouseMoved", hx + 5 * scale, hy)
    _mouse(browser, "mouseReleased", hx + 5 * scale, hy)
    assert browser.evaluate("window.sent.at(-1)") == {"radius": 20}

    # Firers set from Python are drawn, each with its circle, and taken away again.
    count = f"[{BOARD}.querySelectorAll('.firer').length, {BOARD}.querySelectorAll('.circles circle').length]"
    _show(browser, {"firers": [[50, 56], [70, 45]]})
    assert browser.evaluate(count) == [2, 2]
    assert browser.evaluate(f"{BOARD}.querySelectorAll('.firer text')[1].textContent") == "F2"
    _show(browser, {"firers": [[50, 56]]})
    assert browser.evaluate(count) == [1, 1]

    # No halt: no marker, and the table says so; text from the model is shown as text.
    board.set_state({"radius": 2.0})
    _show(browser, _result(board))
    assert browser.evaluate("document.querySelectorAll('.sim-board .halt').length") == 0
    assert _cells(browser) == [["no snap-fire roll"]]
    assert "No halt" in browser.evaluate(f"{BOARD}.querySelector('.readout').textContent")
    evil = "<img src=x onerror=window.pwned=1>"
    _show(browser, {"rolls": [{**_result(Board())["rolls"][0], "firer": evil}]})
    assert _cells(browser)[0][0] == evil
    assert browser.evaluate("document.querySelectorAll('.sim-board img').length === 0 && !window.pwned")

    # Every label is at least 10 pt (13.3 px) at 1280 px, and the host page is not restyled.
    smallest = browser.evaluate(
        "(() => { const a = document.querySelector('.sim-board svg').getScreenCTM().a;"
        " const svg = [...document.querySelectorAll('.sim-board svg text')].filter((t) => t.textContent)"
        "   .map((t) => parseFloat(getComputedStyle(t).fontSize) * a);"
        " const html = [...document.querySelectorAll('.sim-board th, .sim-board td, .sim-board label,"
        "   .sim-board p')].map((e) => parseFloat(getComputedStyle(e).fontSize));"
        " return Math.min(...svg, ...html); })()")
    assert smallest >= 13.3
    assert browser.evaluate("getComputedStyle(document.querySelector('h1')).fontFamily") == "serif"
    # the host page's borders do not reach the board's table
    assert browser.evaluate(f"getComputedStyle({BOARD}.querySelector('td')).borderLeftWidth") == "0px"
    assert browser.outside_requests() == []
    browser.evaluate("window.cleanup()")
    assert browser.evaluate("window.model.listening()") == 0
