"""The scenario editor in a real JupyterLab, in headless Chromium: a server started on
127.0.0.1 in a temporary folder, a notebook whose cell makes ``sim.viz.editor()``, run as
the Run menu runs it. Real mouse events draw a woods area corner by corner, put a waypoint
and a unit of each side; the keyboard types a bad turn limit, and the check's line (the one
``sim validate`` prints) and the field of the key it names must show it at once, then go
when it is fixed; Save writes a file that ``sim run`` runs, holding what was drawn; Run shows
the battle's summary. The server, its kernel and the browser end with the test."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("anywidget")
pytest.importorskip("jupyterlab")
import sim  # noqa: E402 - after the skips
from browser import LOCAL, Browser  # noqa: E402
from conftest import need_chromium  # noqa: E402
from lab_server import Lab, notebook  # noqa: E402

EDITOR = "document.querySelector('.sim-editor')"
CHECK = f"{EDITOR}.querySelector('.check').textContent"
KERNEL_IDLE = ("(() => { const p = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
               " const k = p && p.sessionContext && p.sessionContext.session && p.sessionContext.session.kernel;"
               " return Boolean(k && k.status === 'idle'); })()")


@pytest.fixture
def lab():
    """A JupyterLab serving a fresh folder with the drawing notebook; ended with the test."""
    need_chromium()
    with tempfile.TemporaryDirectory(prefix="sim-editor-") as tmp:
        work, home = Path(tmp, "work"), Path(tmp, "home")
        work.mkdir()
        home.mkdir()
        notebook(work / "draw.ipynb", "from sim.viz import editor\ne = editor(ground='table')\ne",
                 "editor(ground='hex')")
        server = Lab(work, home)
        try:
            yield server
        finally:
            server.close()
        with pytest.raises(ProcessLookupError):   # nothing of the server's group is left
            os.killpg(server.proc.pid, 0)


def _centre(b: Browser, selector: str) -> tuple[float, float]:
    box = b.evaluate(f"(() => {{ const r = {EDITOR}.querySelector({selector!r}).getBoundingClientRect();"
                     " return [r.x + r.width / 2, r.y + r.height / 2]; })()")
    return box[0], box[1]


def _click(b: Browser, x: float, y: float) -> None:
    b.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y}, session=True)
    for kind in ("mousePressed", "mouseReleased"):
        b.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1,
                                            "buttons": 1 if kind == "mousePressed" else 0}, session=True)


def _on_table(b: Browser, x: float, y: float) -> tuple[float, float]:
    """Where the point (x, y) cm of the table is on the screen (y up: the table's rectangle's bottom is 0)."""
    box = b.evaluate(f"(() => {{ const r = {EDITOR}.querySelector('svg .ground rect').getBoundingClientRect();"
                     " return [r.x, r.y, r.width, r.height]; })()")
    left, top, width, height = box
    return left + x * width / 120, top + height - y * height / 80


def _type(b: Browser, selector: str, text: str) -> None:
    """Click a field, replace what it holds with ``text`` as typed, and press Enter."""
    _click(b, *_centre(b, selector))
    b.evaluate(f"{EDITOR}.querySelector({selector!r}).select()")
    b.send("Input.insertText", {"text": text}, session=True)
    for kind in ("keyDown", "keyUp"):
        b.send("Input.dispatchKeyEvent", {"type": kind, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13,
                                          **({"text": "\r"} if kind == "keyDown" else {})}, session=True)


def _choose(b: Browser, selector: str, value: str) -> None:
    b.evaluate(f"(() => {{ const s = {EDITOR}.querySelector({selector!r}); s.value = {value!r};"
               " s.dispatchEvent(new Event('change')); })()")


def test_a_scenario_drawn_with_the_mouse_is_checked_saved_and_run(lab):
    with Browser(timeout=60, loopback=True) as b:
        b.send("Emulation.setDeviceMetricsOverride", {"width": 1400, "height": 2600, "deviceScaleFactor": 1,
                                                      "mobile": False}, session=True)
        b.events.clear()
        b.send("Page.navigate", {"url": lab.url("lab/tree/draw.ipynb")}, session=True)
        b.wait_for("document.querySelector('.jp-NotebookPanel') !== null", 90)
        b.wait_for(KERNEL_IDLE, 90)
        b.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        b.wait_for(f"{EDITOR} !== null && {EDITOR}.querySelector('svg .ground rect') !== null", 90)
        # both cells run and drawn before any click: the hex editor's output, drawn later, would
        # move the page under the mouse
        b.wait_for(f"document.querySelectorAll('.sim-editor svg .ground').length === 2 && {KERNEL_IDLE}", 90)
        # a new table: no unit yet, and the check says so, marking the blue force's own field
        b.wait_for(f"{CHECK}.includes(\"key forces.blue: force 'blue' is empty\")")
        assert b.evaluate(f"{EDITOR}.querySelector('.bad-key').dataset.key") == "forces.blue"
        # on a hex map a node's field suggests every hex, "q,r" (12 x 10 of them), not only waypoints
        hexes = b.evaluate("[...document.querySelectorAll('.sim-editor')[1].querySelectorAll('datalist option')]"
                           ".map((o) => o.value)")
        assert len(hexes) == 120 and len(set(hexes)) == 120 and {"0,0", "-4,9", "11,0"} <= set(hexes)

        # An area: woods, cover 2, four corners clicked, closed on the first.
        _click(b, *_centre(b, "button[data-tool=area]"))
        _choose(b, ".area-kind", "woods")
        _type(b, ".area-cover", "2")
        corners = [(40, 20), (70, 20), (70, 50), (40, 50)]
        for x, y in corners:
            _click(b, *_on_table(b, x, y))
        assert b.evaluate(f"{EDITOR}.querySelectorAll('.sketch .corner, .sketch .first-corner').length") == 4
        _click(b, *_on_table(b, *corners[0]))
        b.wait_for(f"{EDITOR}.querySelectorAll('.area').length === 1")
        assert b.evaluate(f"{EDITOR}.querySelector('.area text').textContent") == "area1 · cover 2"

        # A waypoint, then a unit of each side on grid places.
        _click(b, *_centre(b, "button[data-tool=waypoint]"))
        _click(b, *_on_table(b, 110, 40))
        b.wait_for(f"{EDITOR}.querySelector('.waypoint[data-name=W1]') !== null")
        _click(b, *_centre(b, "button[data-tool=unit]"))
        _click(b, *_on_table(b, 10.5, 40.5))              # snaps to the grid place "1,4"
        _choose(b, ".unit-side", "red")
        _click(b, *_on_table(b, 60, 30))                  # "6,3", in the woods
        b.wait_for(f"{EDITOR}.querySelectorAll('.unit').length === 2")
        b.wait_for(f"{CHECK} === '✓ valid scenario'")

        # Under red's unit lie the unit and the woods: a click chooses the unit, the next the
        # woods, the next the unit again, and the form says how many marks lie there.
        _click(b, *_centre(b, "button[data-tool=select]"))
        red_unit = _on_table(b, 60, 30)
        for heading, note in (("Unit r1 (red)", "1 of 2"), ("Area area1", "2 of 2"), ("Unit r1 (red)", "1 of 2")):
            _click(b, *red_unit)
            b.wait_for(f"{EDITOR}.querySelector('.selection h3').textContent === {heading!r}")
            assert b.evaluate(f"{EDITOR}.querySelector('.under-pointer').textContent").startswith(note + " marks here")
        assert b.evaluate(f"{EDITOR}.querySelector('.bad-key')") is None   # a force with a unit is no error

        # The blue unit advances to W1, the objective; a turn limit of 0 is refused, then mended.
        _click(b, *_centre(b, ".unit[data-id=b1] circle"))
        b.wait_for(f"{EDITOR}.querySelector('.selection h3').textContent === 'Unit b1 (blue)'")
        _choose(b, "[data-key='forces.blue.0.orders.type']", "advance")
        _type(b, "[data-key='forces.blue.0.orders.to']", "W1")
        _type(b, "[data-key='victory.objective']", "W1")
        _type(b, "[data-key='turns']", "0")
        b.wait_for(f"{CHECK}.includes('key turns:')")
        error = b.evaluate(CHECK)
        assert error.startswith("<editor>: line ") and "greater than or equal to 1" in error
        assert b.evaluate(f"{EDITOR}.querySelector('.bad-key').dataset.key") == "turns"
        _type(b, "[data-key='turns']", "8")
        b.wait_for(f"{CHECK} === '✓ valid scenario'")
        assert b.evaluate(f"{EDITOR}.querySelectorAll('.bad-key').length") == 0

        # Save, then run: the status and the battle's summary come back from the kernel.
        _type(b, ".path", "drawn.yaml")
        _click(b, *_centre(b, ".save-button"))
        b.wait_for(f"{EDITOR}.querySelector('.status').textContent === 'saved drawn.yaml: valid scenario'")
        _click(b, *_centre(b, ".run-button"))
        b.wait_for(f"{EDITOR}.querySelector('.summary') !== null", 60)
        assert b.evaluate(f"{EDITOR}.querySelector('.summary p').textContent").startswith("one battle, seed 1: ")
        assert b.evaluate(f"{EDITOR}.querySelectorAll('.summary tbody tr').length") > 3
        outside = [u for u in b.requests if not u.startswith((*LOCAL, f"http://127.0.0.1:{lab.port}/"))]
        assert outside == []

    saved = lab.folder / "drawn.yaml"
    scenario = sim.load_scenario(saved)
    (area,) = scenario.terrain["areas"]
    assert (area["terrain"], area["cover"]) == ("woods", 2)
    assert [[round(x), round(y)] for x, y in area["polygon"]] == [list(c) for c in corners]
    assert scenario.terrain["waypoints"]["W1"] == pytest.approx([110, 40], abs=0.2) and scenario.turns == 8
    blue, red = scenario.forces["blue"], scenario.forces["red"]
    assert [(u.id, u.at, u.orders.type, u.orders.to) for u in blue] == [("b1", "1,4", "advance", "W1")]
    assert [(u.id, u.at) for u in red] == [("r1", "6,3")] and scenario.victory.objective == "W1"
    ran = subprocess.run([sys.executable, "-m", "sim", "run", str(saved)], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
