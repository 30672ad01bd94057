"""``sim play``: the play board as a plain web page with a live kernel (Voilà), in headless
Chromium at 1280 × 720 with real mouse clicks: the page shows the board and nothing of
JupyterLab; an order the unit cannot carry out is refused on the board, by End phase, and
the orders go back to what Python holds; then a phase is played and the planner's answer
read; class mode puts the orders and what happened beside the map. ``sim play`` ends on
Ctrl-C, or dies, and its server and kernel end with it. Bad input is one line, exit 2,
before any server starts (a missing extra: ``tests/test_import_cost.py``).
``SIM_PLAY_SHOTS=DIR`` keeps a screenshot of each step there."""
from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
import time

import pytest
import yaml

from browser import Page
from conftest import PY, ROOT, SCENARIOS
from sim.cli import main

pytest.importorskip("anywidget")
pytest.importorskip("voila")
from lab_server import gone, processes_with  # noqa: E402
from mouse import chromium, give, mouse_page  # noqa: E402 - after the skips

PLAY = ".sim-play"
#: kill_zone_play with a pond: the grid's node 13,1 stands alone inside it, out of every unit's reach
POND = {"name": "pond", "polygon": [[61, 1], [69, 1], [69, 9], [61, 9]], "terrain": "impassable"}


def _scenario(folder) -> str:
    data = yaml.safe_load((SCENARIOS / "kill_zone_play.yaml").read_text(encoding="utf-8"))
    data["terrain"]["areas"].append(POND)
    data["name"] = "pond_play"
    path = folder / "pond_play.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return str(path)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Served:
    """``sim play`` running in a process group of the test's own, its temporary files under ``tmp``."""

    def __init__(self, tmp_path, *args: str):
        self.tmp = tmp_path / "tmp"
        home = tmp_path / "home"
        self.tmp.mkdir()
        home.mkdir()
        self.port = _free_port()
        env = {**os.environ, "TMPDIR": str(self.tmp), "JUPYTER_CONFIG_DIR": str(home / "config"),
               "IPYTHONDIR": str(home / "ipython"), "JUPYTER_PLATFORM_DIRS": "1",
               "PYDEVD_DISABLE_FILE_VALIDATION": "1"}
        self.proc = subprocess.Popen([PY, "-m", "sim", "play", *args, "--port", str(self.port), "--no-browser"],
                                     cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, start_new_session=True)
        deadline = time.monotonic() + 150
        while not select.select([self.proc.stdout], [], [], 1)[0]:
            assert self.proc.poll() is None and time.monotonic() < deadline, self.proc.stderr.read()
        self.line = self.proc.stdout.readline()

    def open(self, page: Page) -> None:
        """Open the page at the address ``sim play`` printed, until the board is shown."""
        page.b.send("Page.navigate", {"url": self.line.split(" at ", 1)[1].split(" ", 1)[0]}, session=True)
        page.wait(f"!!document.querySelector('{PLAY} .sp-end')", timeout=120)

    def stop(self, sig: int) -> tuple[int, str]:
        """Send ``sig`` to ``sim play`` alone; its exit status and what it said on stderr."""
        if self.proc.poll() is None:
            os.kill(self.proc.pid, sig)
        try:
            code = self.proc.wait(timeout=60)
        finally:
            try:   # whatever is left of the test's group
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        return code, self.proc.stderr.read() if sig != signal.SIGKILL else ""


@pytest.fixture
def served(tmp_path):
    """``sim play`` on the pond scenario as blue at seed 4; stopped by Ctrl-C after the test, when
    it must say so (exit 130) and leave no server, kernel or file behind."""
    s = Served(tmp_path, _scenario(tmp_path), "--side", "blue", "--seed", "4")
    try:
        yield s
    finally:
        code, err = s.stop(signal.SIGINT)
    assert (code, err) == (130, "sim: interrupted\n")
    assert gone(str(s.tmp)) == [], "the page's server or its kernel outlived sim play"
    assert list(s.tmp.iterdir()) == []


@pytest.fixture(scope="module")
def chrome():
    with chromium() as b:
        yield b


def test_a_phase_played_with_the_mouse_on_the_plain_page(served, chrome):
    start = f"sim play: pond_play at http://127.0.0.1:{served.port}/?token="
    assert served.line.startswith(start) and served.line.endswith(" (Ctrl-C stops it)\n"), served.line
    page = mouse_page(chrome)
    served.open(page)
    page.shot("page")
    # a page of its own: the board and its heading, no JupyterLab and no code
    assert page.js("!document.querySelector('.jp-MenuBar, .jp-FileBrowser, .jp-NotebookPanel-toolbar, "
                   ".jp-CodeCell .jp-InputArea, .cm-editor, .CodeMirror')")
    assert "sim.viz.play(" not in page.js("document.body.innerText")
    assert page.text("h1").startswith("pond_play: you play blue, red plans (seed 4)")
    status = f"{PLAY} .sp-status"
    assert page.text(status) == "Turn 1, blue's movement: give each unit an order, then End phase."
    assert page.rect(f"{PLAY} .sp-end")[3] <= 720   # End phase in the window, unscrolled

    # b1 sent into the pond: refused on the board, by End phase; the orders back to Python's
    give(page, PLAY, "b1", "to 13,1")
    page.click(f"{PLAY} .sp-end")
    alert = f"{PLAY} .sp-error[role=alert]"
    page.wait(f"document.querySelector('{alert}').textContent !== ''")
    assert page.text(alert) == "Not taken: orders.b1: b1 cannot reach 13,1 from START"
    end, told = page.rect(f"{PLAY} .sp-end"), page.rect(alert)
    assert 0 <= told[1] - end[3] < 20 and told[3] <= 720, (end, told)   # just under End phase
    assert page.text(f"{PLAY} .sp-control[data-control='b1'] .sp-order") == "plan"
    assert page.js(f"document.querySelector('{PLAY} .sp-end').disabled") is False
    assert page.text(status).startswith("Turn 1, ")
    assert page.js(f"document.querySelector('{PLAY}').dataset.ended") == "0"
    page.shot("refused")

    # then a phase by the mouse: the planner's answer, and the refusal gone
    give(page, PLAY, "b1", "to SAFE")
    page.click(f"{PLAY} .sp-end")
    page.wait(f"document.querySelector('{PLAY}').dataset.ended === '1'", timeout=120)
    assert page.text(alert) == "" and page.js(f"getComputedStyle(document.querySelector('{alert}')).display") == "none"
    assert page.text(status) == "Turn 3, blue's movement: give each unit an order, then End phase."
    assert page.text(f"{PLAY} .sp-story .sp-line") == "Your orders: b1 go to SAFE."
    answer = page.text(f"{PLAY} .sp-answer")
    assert answer.startswith("Red's planner, turn 2: it chose ") and "in 8 rollouts" in answer, answer
    page.wait(f"!!document.querySelector('{PLAY} .sp-replay .sim-replay[data-ready]')")
    page.shot("phase")

    # class mode, by its button: the orders and what happened beside the map, all in the window
    page.click(f"{PLAY} button.sp-class-mode")
    page.wait(f"!!document.querySelector('{PLAY}.sp-class .sp-side .sp-news')"
              f" && !!document.querySelector('{PLAY} .sp-replay .sim-replay.sr-class[data-ready]')")
    page.js("window.scrollTo(0, 0)")
    svg, side, news = (page.rect(f"{PLAY} {s}") for s in (".sp-map svg", ".sp-side", ".sp-news"))
    assert side[0] >= svg[2] and news[0] >= svg[2]
    for r in (svg, side):
        assert r[0] >= 0 and r[1] >= 0 and r[2] <= 1280 and r[3] <= 720, (svg, side)
    assert page.js(f"parseFloat(getComputedStyle(document.querySelector('{PLAY} .sp-line')).fontSize)") >= 16
    page.shot("class-mode")


def test_sim_play_dying_takes_its_server_and_kernel_with_it(tmp_path, chrome):
    served = Served(tmp_path, str(SCENARIOS / "kill_zone_play.yaml"))
    try:
        served.open(mouse_page(chrome))
        assert len(processes_with(str(served.tmp))) >= 2   # the server, and the page's kernel
    finally:
        served.stop(signal.SIGKILL)   # no handler runs: the server is told by the kernel of the machine
    assert gone(str(served.tmp), 30) == [], "the page's server or its kernel outlived sim play"


def _refused(capsys, argv: list[str]) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert (code, out) == (2, ""), (argv, code, out, err)
    assert len(err.splitlines()) == 1 and err.startswith("sim: error: ") and "Traceback" not in err, err
    return err.strip()


@pytest.fixture
def no_server(monkeypatch):
    """A server started would fail the test: bad input is refused before."""
    import sim.play.page

    def started(*args, **kwargs):
        raise AssertionError("a server was started")

    monkeypatch.setattr(sim.play.page.Page, "__init__", started)


def test_bad_input_is_one_line_and_exit_2_before_any_server(tmp_path, capsys, no_server):
    play = str(SCENARIOS / "kill_zone_play.yaml")
    missing = str(tmp_path / "missing.yaml")
    assert _refused(capsys, ["play", missing]) == f"sim: error: {missing}: no such file (expected a YAML file)"
    assert _refused(capsys, ["play", play, "--side", "green"]) == (
        f"sim: error: command line: --side 'green': {play} has no such side (expected one of blue, red)")
    assert "policies.red.decide: red has a planner" in _refused(capsys, ["play", play, "--side", "red"])
    assert "policies.red.decide: no other side has a planner" in _refused(
        capsys, ["play", str(SCENARIOS / "kill_zone_run.yaml")])
    assert _refused(capsys, ["play", play, "--seed", "x"]) == (
        "sim: error: command line: --seed 'x' is not an integer (expected 0 .. 2**63-1)")
    for port, told in (("x", "--port 'x' is not an integer (expected 1 .. 65535)"),
                       ("0", "--port 0 is out of range (expected 1 .. 65535)"),
                       ("65536", "--port 65536 is out of range (expected 1 .. 65535)")):
        assert _refused(capsys, ["play", play, "--port", port]) == f"sim: error: command line: {told}"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert _refused(capsys, ["play", play, "--port", str(port)]) == (
            f"sim: error: command line: --port {port} cannot be used on 127.0.0.1 (in use; expected a free "
            "port, or no --port for any free one)")
