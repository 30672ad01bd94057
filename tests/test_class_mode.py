"""Class mode and links that survive a reload, in headless Chromium at 1280 × 720: in class
mode the replay's inspector, the board's readout and the play board's orders, story and
answer sit beside their map, both in the window, with text of 16 CSS px or more (more, not
less, under JupyterLab's Presentation Mode font size); a real click on a halt opens the
halt, not the shot drawn to it (in the play board's phase replay too); a replay's
``#t=`` comes back after a reload, even once the host page dropped it from the URL; a
figure made in class mode shows its smallest text at 16 px or more. A unit's name on the play
board stands under its marker (over it at the map's foot), wholly on the map, in either mode."""
from __future__ import annotations

import json
import time

import pytest

from conftest import SCENARIOS
from sim import viz
from sim.errors import InputError
from sim.replication import run_battle
from sim.scenario.load import load_scenario
from sim.viz import classroom
from sim.viz.board import Board
from test_board_browser import harness

ROOT = "document.querySelector('.sim-replay')"
RECT = "(s => {{ const r = document.querySelector(s).getBoundingClientRect(); " \
       "return [r.left, r.top, r.right, r.bottom]; }})({!r})"


@pytest.fixture(scope="module")
def battle():
    sc = load_scenario(SCENARIOS / "open_ground_advance.yaml")
    log = run_battle(sc, 1).log
    return sc, log, log.where(event="halt")[0]


@pytest.fixture
def screen(browser):
    browser.screen(1280, 720)
    try:
        yield browser
    finally:
        browser.send("Emulation.clearDeviceMetricsOverride", session=True)


def _load(browser, url: str | None, ready: str = f"{ROOT} && {ROOT}.dataset.ready === '1'") -> None:
    """Navigate to ``url`` (None: reload the page) and wait until ``ready``."""
    def loaded() -> None:
        deadline = time.monotonic() + browser.timeout
        while not any(e.get("method") == "Page.loadEventFired" for e in browser.events):
            browser._read(deadline)

    if url is not None:   # through a blank page: a URL that differs by its hash alone would not load
        browser.events.clear()
        browser.send("Page.navigate", {"url": "about:blank"}, session=True)
        loaded()
    browser.events.clear()
    if url is None:
        browser.send("Page.reload", {}, session=True)
    else:
        browser.send("Page.navigate", {"url": url}, session=True)
    loaded()
    browser.wait_for(ready)


def _rect(browser, selector: str) -> list[float]:
    return browser.evaluate(RECT.format(selector))


def _smallest_map_text(browser, svg: str) -> float:
    """The smallest text drawn on an SVG, in CSS px on the screen."""
    return browser.evaluate(f"Math.min(...[...document.querySelector({svg!r}).querySelectorAll('text')]"
                            ".filter(t => t.textContent && t.getAttribute('visibility') !== 'hidden')"
                            ".map(t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a))")


def test_in_class_mode_the_inspector_is_beside_the_map_in_the_window(battle, screen, tmp_path):
    sc, log, halt = battle
    for mode in (False, True):
        page = tmp_path / f"replay{mode}.html"
        page.write_text(viz.replay_html(sc, log, frames=20, classroom=mode), encoding="utf-8")
        _load(screen, page.as_uri() + f"#t={halt['t']}")
        screen.evaluate(f"{ROOT}.querySelector('g[data-mark=halt]').dispatchEvent(new MouseEvent('click'))")
        svg, box = _rect(screen, ".sim-replay svg.sr-svg"), _rect(screen, ".sim-replay .sr-inspector")
        if not mode:   # as before: the inspector under the map, below the window
            assert box[1] >= svg[3] and box[1] > 720
            continue
        assert box[0] >= svg[2]                                  # beside the map, on its right
        for r in (svg, box):                                     # both wholly in the window
            assert r[0] >= 0 and r[1] >= 0 and r[2] <= 1280 and r[3] <= 720, (svg, box)
        assert screen.evaluate(f"getComputedStyle({ROOT}.querySelector('.sr-inspector')).fontSize") == "16.1px"
        assert _smallest_map_text(screen, ".sim-replay svg.sr-svg") >= 16 - 0.01
        # the button turns it off: the inspector goes under the map again
        screen.evaluate(f"{ROOT}.querySelector('button.class-mode').click()")
        assert _rect(screen, ".sim-replay .sr-inspector")[1] >= _rect(screen, ".sim-replay svg.sr-svg")[3]
        assert screen.evaluate(f"{ROOT}.querySelector('button.class-mode').getAttribute('aria-pressed')") == "false"


def test_presentation_modes_larger_font_makes_class_mode_larger(battle, screen, tmp_path):
    """JupyterLab's Presentation Mode sets --jp-content-font-size1 to 17px in the notebook."""
    sc, log, halt = battle
    fragment = viz.replay_fragment(sc, log, frames=10, classroom=True)
    sizes = []
    for font in ("14px", "17px"):
        page = tmp_path / f"notebook{font}.html"
        page.write_text(f"<!DOCTYPE html><html><body><div class='jp-Notebook' style='--jp-content-font-size1:"
                        f" {font}; width: 1000px'>{fragment}</div></body></html>", encoding="utf-8")
        _load(screen, page.as_uri())
        sizes.append((float(screen.evaluate(f"parseFloat(getComputedStyle({ROOT}).fontSize)")),
                      _smallest_map_text(screen, ".sim-replay svg.sr-svg")))
    assert sizes[0][0] == pytest.approx(16.1) and sizes[1][0] == pytest.approx(19.55)
    assert sizes[0][1] >= 16 - 0.01 and sizes[1][1] >= 19.55 - 0.01


def test_a_real_click_on_a_halt_opens_the_halt_not_the_shot_drawn_to_it(battle, screen, tmp_path):
    sc, log, halt = battle
    page = tmp_path / "replay.html"
    page.write_text(viz.replay_html(sc, log, frames=20), encoding="utf-8")
    _load(screen, page.as_uri() + f"#t={halt['t']}")
    marks = json.loads(screen.evaluate(
        f"JSON.stringify(JSON.parse({ROOT}.querySelector('script.sim-replay-data').textContent).marks)"))
    shown = [int(i) for i in screen.evaluate(
        f"[...{ROOT}.querySelectorAll('g[data-mark]')].filter(g => g.getAttribute('visibility') === 'visible')"
        ".map(g => g.dataset.index)")]
    at = [i for i in shown if marks[i]["k"] == "halt" and marks[i]["t"] == halt["t"]]
    assert len(at) == 1
    x, y = marks[at[0]]["p"]
    shots = [i for i in shown if marks[i]["k"] == "shot" and marks[i]["p"][2:] == [x, y]]
    assert shots   # a shot ends on the halt: its mark covers the halt's spot too
    svg = screen.evaluate(f"(() => {{ const m = {ROOT}.querySelector('svg').getScreenCTM();"
                          f" return [m.a, m.e, m.f]; }})()")
    px, py = svg[1] + svg[0] * x, svg[2] + svg[0] * y
    for kind in ("mousePressed", "mouseReleased"):
        screen.send("Input.dispatchMouseEvent", {"type": kind, "x": px, "y": py, "button": "left",
                                                 "buttons": 1 if kind == "mousePressed" else 0,
                                                 "clickCount": 1}, session=True)
    assert screen.evaluate(f"{ROOT}.dataset.inspected") == f"mark {at[0]}"
    assert screen.evaluate(f"{ROOT}.querySelector('.sr-inspector').textContent").startswith(
        f"halt at t = {halt['t']:.2f}")


def _hashed(t: float) -> str:
    return f"{t:.9f}".rstrip("0").rstrip(".")


def _step(browser, times: int = 2) -> float:
    for _ in range(times):
        browser.evaluate(f"{ROOT}.querySelector('button.next-event').click()")
    return float(browser.evaluate(f"{ROOT}.dataset.time"))


def test_a_replay_page_reloaded_shows_the_same_record(battle, browser, tmp_path):
    sc, log, halt = battle
    page = tmp_path / "replay.html"
    page.write_text(viz.replay_html(sc, log, frames=20), encoding="utf-8")
    _load(browser, page.as_uri() + "#t=12.5")
    t = _step(browser)
    hash_ = browser.evaluate("location.hash")
    assert t > 12.5 and hash_ == f"#t={_hashed(t)}"
    _load(browser, None)
    assert float(browser.evaluate(f"{ROOT}.dataset.time")) == t and browser.evaluate("location.hash") == hash_


def test_a_fragments_time_survives_a_reload_after_the_host_dropped_it(battle, browser, tmp_path):
    """JupyterLab writes a notebook's path alone in the URL whenever another tab, then the
    notebook's, is chosen: the time must come back on a reload all the same."""
    sc, log, halt = battle
    page = tmp_path / "notebook.html"
    page.write_text("<!DOCTYPE html><html><body><h1>Lesson</h1>" + viz.replay_fragment(sc, log, frames=20)
                    + "</body></html>", encoding="utf-8")
    _load(browser, page.as_uri())
    rid = browser.evaluate(f"{ROOT}.id")
    t = _step(browser, 3)
    assert browser.evaluate("location.hash") == f"#{rid}-t={_hashed(t)}"
    browser.evaluate("history.pushState({}, '', location.pathname)")   # as JupyterLab's router does
    assert browser.evaluate("location.hash") == ""
    _load(browser, None)
    assert float(browser.evaluate(f"{ROOT}.dataset.time")) == t
    assert browser.evaluate("location.hash") == f"#{rid}-t={_hashed(t)}"
    # a visit that is no reload opens where its URL says: here, at the start
    _load(browser, page.as_uri())
    assert float(browser.evaluate(f"{ROOT}.dataset.time")) == 0


def test_in_class_mode_the_boards_readout_is_beside_the_table(screen, tmp_path):
    page = tmp_path / "board.html"
    for mode in (False, True):
        page.write_text(harness(Board(classroom=mode)), encoding="utf-8")
        _load(screen, page.as_uri(), "document.body.dataset.ready === '1'")
        svg, readout = _rect(screen, ".sim-board svg"), _rect(screen, ".sim-board .readout")
        size = float(screen.evaluate("parseFloat(getComputedStyle(document.querySelector('.sim-board .readout'))"
                                     ".fontSize)"))
        if not mode:
            assert size < 16
            continue
        assert readout[0] >= svg[2] and svg[3] <= 720 and readout[3] <= 720
        assert size >= 16 and _smallest_map_text(screen, ".sim-board svg") >= 16 - 0.01
        assert screen.evaluate("document.querySelector('.sim-board .note').getBoundingClientRect().right") <= 1280
        screen.evaluate("document.querySelector('.sim-board button.class-mode').click()")
        assert screen.evaluate("window.sent.at(-1)") == {"classroom": False}
        assert not screen.evaluate("document.querySelector('.sim-board').classList.contains('sb-class')")


def _smallest_px(fig) -> float:
    """The smallest drawn text of ``fig`` in pixels, shown at most ``SHOWN`` px wide."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from sim.viz.legibility import _drawn_texts

    texts = _drawn_texts(fig, FigureCanvasAgg(fig).get_renderer())
    shown = min(1.0, classroom.SHOWN / (fig.get_figwidth() * fig.dpi))
    return min(t.get_fontsize() for t in texts) * fig.dpi / 72 * shown


def test_class_mode_figures_show_their_smallest_text_at_16_px(battle):
    sc, log, halt = battle
    plain = [viz.plot_map(sc, log, t=halt["t"]), viz.plot_timeline(log, scenario=sc)]
    with viz.class_mode():
        assert viz.class_mode.__module__ == "sim.viz.classroom" and classroom.classroom(None)
        large = [viz.plot_map(sc, log, t=halt["t"]), viz.plot_timeline(log, scenario=sc)]
    assert not classroom.classroom(None)   # the block put it back
    for before, after in zip(plain, large):
        assert _smallest_px(before) < 14 and _smallest_px(after) >= 16 - 1e-6
        assert after.get_figwidth() * after.dpi <= classroom.SHOWN + 1e-6
        assert viz.check_legible(after, width=classroom.SHOWN, dpi=after.dpi) == []


def test_class_mode_is_a_switch_that_replays_and_boards_follow(battle):
    sc, log, halt = battle
    try:
        assert repr(viz.class_mode(True)) == "sim.viz class mode: on"
        assert 'class="sim-replay sr-class"' in viz.replay_fragment(sc, log, frames=3)
        assert Board().classroom is True and Board(classroom=False).classroom is False
        assert 'class="sim-replay"' in viz.replay_fragment(sc, log, frames=3, classroom=False)
    finally:
        viz.class_mode(False)
    assert 'class="sim-replay"' in viz.replay_fragment(sc, log, frames=3) and Board().classroom is False
    for bad in ("yes", 1):
        with pytest.raises(InputError):
            viz.class_mode(bad)
        with pytest.raises(InputError):
            viz.replay_fragment(sc, log, frames=3, classroom=bad)
        with pytest.raises(InputError):
            Board(classroom=bad)


PLAY = "document.querySelector('.sim-play')"
#: every piece of the play board's own text (not the map's, not the replay's)
PLAY_TEXT = ".sp-status, .sp-name, .sp-order, .sp-choices button, .sp-buttons button, .sp-news h3, .sp-line, .sp-sub"


@pytest.fixture(scope="module")
def played():
    """A play board of kill_zone_play at seed 4, three phases on: the third's replay has b1's halt."""
    pytest.importorskip("anywidget")
    from sim.viz import play

    board = play(str(SCENARIOS / "kill_zone_play.yaml"), side="blue", seed=4, debrief_rollouts=2)
    for _ in range(3):
        board.end_phase({})
    return board


def _play_page(browser, board, tmp_path, host: str = "") -> None:
    page = tmp_path / "play.html"
    page.write_text(harness(board).replace('<div id="host">', f'<div id="host" {host}>'), encoding="utf-8")
    _load(browser, page.as_uri(), "document.body.dataset.ready === '1' && !!document.querySelector("
                                  "'.sp-replay .sim-replay[data-ready]')")


def _smallest_play_text(browser) -> float:
    return browser.evaluate(f"Math.min(...[...{PLAY}.querySelectorAll({PLAY_TEXT!r})]"
                            ".map(e => parseFloat(getComputedStyle(e).fontSize)))")


def _real_click(browser, selector: str) -> None:
    """A real click at the middle of ``selector``, which nothing covers there."""
    x, y = browser.evaluate(f"(() => {{ const b = document.querySelector({selector!r}).getBoundingClientRect();"
                            " return [b.x + b.width / 2, b.y + b.height / 2]; })()")
    assert browser.evaluate(f"document.querySelector({selector!r}).contains(document.elementFromPoint({x}, {y}))")
    for kind in ("mousePressed", "mouseReleased"):
        browser.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                                  "buttons": 1 if kind == "mousePressed" else 0,
                                                  "clickCount": 1}, session=True)


def test_in_class_mode_the_play_boards_orders_and_story_are_beside_the_map(played, screen, tmp_path):
    map_ = ".sim-play .sp-map svg"
    for mode in (False, True):
        played.classroom = mode          # as the button does: the picture and the replay made again
        assert ('class="sim-replay sr-class"' in played.replay) is mode
        _play_page(screen, played, tmp_path)
        svg, side, news = _rect(screen, map_), _rect(screen, ".sim-play .sp-side"), _rect(screen, ".sim-play .sp-news")
        if not mode:   # as before: what happened under the map, the text smaller
            assert news[1] >= svg[3] and _smallest_play_text(screen) < 16
            continue
        assert side[0] >= svg[2] and news[0] >= svg[2] and news[1] >= _rect(screen, ".sim-play .sp-end")[3]
        for r in (svg, side, _rect(screen, ".sim-play .sp-end")):   # wholly in the window
            assert r[0] >= 0 and r[1] >= 0 and r[2] <= 1280 and r[3] <= 720, (svg, side)
        assert screen.evaluate(f"{PLAY}.querySelector('.sp-story .sp-line').textContent") == \
            "Your orders: every unit keeps to its plan."
        assert _smallest_play_text(screen) == pytest.approx(16.1)
        assert _smallest_map_text(screen, map_) >= 16 - 0.01
        # the phase's replay: in class mode, its inspector beside its map; a real click on the halt opens it
        replay = ".sp-replay .sim-replay"
        screen.evaluate(f"document.querySelector({replay!r}).scrollIntoView()")
        halt = f"{replay} g[data-mark=halt][visibility=visible]"
        for _ in range(10):
            if screen.evaluate(f"!!document.querySelector({halt!r})"):
                break
            screen.evaluate(f"document.querySelector('{replay} button.next-event').click()")
        _real_click(screen, halt)
        inspector = f"{replay} .sr-inspector"
        assert screen.evaluate(f"document.querySelector({inspector!r}).textContent").startswith("halt at t = 13.00")
        # every unit's name wholly on the picture: r2 stands in its corner, and its name beside it, not cut off
        names = screen.evaluate(f"(() => {{ const s = document.querySelector('{replay} svg.sr-svg'),"
                                " v = s.viewBox.baseVal; return [...s.querySelectorAll('g.labels text')].map(t => {"
                                " const b = t.getBBox(); return [t.textContent, b.x >= 0 && b.y >= 0 &&"
                                " b.x + b.width <= v.width && b.y + b.height <= v.height]; }); })()")
        assert ["r2", True] in names and all(inside for _, inside in names), names
        screen.evaluate(f"document.querySelector({replay!r}).scrollIntoView()")   # the records made the page longer
        rsvg, box = _rect(screen, f"{replay} svg.sr-svg"), _rect(screen, inspector)
        assert box[0] >= rsvg[2]
        for r in (rsvg, box):
            assert r[0] >= 0 and r[1] >= 0 and r[2] <= 1280 and r[3] <= 720, (rsvg, box)
        # the button turns it off: Python is sent the mode, and the page shows it at once
        screen.evaluate(f"{PLAY}.scrollIntoView()")
        _real_click(screen, ".sim-play button.sp-class-mode")
        assert screen.evaluate("window.sent.at(-1)") == {"classroom": False}
        assert screen.evaluate(f"{PLAY}.querySelector('button.sp-class-mode').getAttribute('aria-pressed')") == "false"
        assert _rect(screen, ".sim-play .sp-news")[1] >= _rect(screen, map_)[3]


def test_presentation_modes_larger_font_makes_the_play_board_larger(played, screen, tmp_path):
    played.classroom = True
    sizes = []
    for font in ("14px", "17px"):
        _play_page(screen, played, tmp_path, f"class='jp-Notebook' style='--jp-content-font-size1: {font}'")
        sizes.append((_smallest_play_text(screen), _smallest_map_text(screen, ".sim-play .sp-map svg")))
    assert sizes[0][0] == pytest.approx(16.1) and sizes[1][0] == pytest.approx(19.55)
    assert sizes[0][1] >= 16 - 0.01 and sizes[1][1] >= 19.55 - 0.01


def test_the_play_board_follows_class_mode_and_its_button(played):
    from sim.viz import play

    scenario = str(SCENARIOS / "kill_zone_play.yaml")
    try:
        viz.class_mode(True)
        board = play(scenario, seed=4)
        assert board.classroom is True and play(scenario, classroom=False).classroom is False
    finally:
        viz.class_mode(False)
    assert play(scenario).classroom is False
    # the button's message: the picture's names drawn larger (as a replay's in class mode), the replay too
    played.classroom = False
    plain = played.picture, played.replay
    played.set_state({"classroom": True})
    assert played.refused == "" and played.picture != plain[0] and played.picture == board.picture
    assert 'class="sim-replay sr-class"' in played.replay and 'class="sim-replay"' in plain[1]
    for bad in ("yes", 1):
        with pytest.raises(InputError, match="classroom: expected True or False"):
            play(scenario, classroom=bad)
        with pytest.raises(InputError, match="classroom: expected True or False"):
            board.classroom = bad
        played.set_state({"classroom": bad})
        assert played.refused.startswith("classroom: expected True or False") and played.classroom is True


def test_a_units_name_stands_under_its_marker_over_it_at_the_foot_and_inward_at_the_sides(played, screen, tmp_path):
    w, h = played.size
    #: where each unit is put: in the open, at the right edge, in the open, in the bottom left corner
    places = {"b1": [300, 200], "s1": [w - 4, 120], "r1": [500, h - 60], "r2": [6, h - 6]}
    state = {**played.state, "units": [{**u, "at": places[u["id"]], "on_board": True} for u in played.state["units"]]}
    try:
        for mode in (False, True):   # class mode's names are larger: still wholly on the map
            played.classroom = mode
            _play_page(screen, played, tmp_path)
            screen.evaluate(f"window.model.receive('state', {json.dumps(state)})")
            boxes = screen.evaluate("Object.fromEntries([...document.querySelectorAll('.sim-play g.unit')].map(g => {"
                                    " const b = g.querySelector('text').getBBox();"
                                    " return [g.dataset.unit, [b.x, b.y, b.x + b.width, b.y + b.height]]; }))")
            assert sorted(boxes) == sorted(places), boxes
            for unit, (x0, y0, x1, y1) in boxes.items():
                x, y = places[unit]
                assert 0 <= x0 and x1 <= w and 0 <= y0 and y1 <= h, (unit, boxes[unit])   # wholly on the map
                # the text's box is the font's, a few units taller than its letters: 7, not the marker's radius 11
                if y < h - 50:   # under the marker, not over the names right of their places
                    assert y0 >= y + 7, (unit, boxes[unit])
                else:            # over it at the map's foot
                    assert y1 <= y - 7, (unit, boxes[unit])
                if 30 <= x <= w - 30:   # centred under it in the open
                    assert (x0 + x1) / 2 == pytest.approx(x, abs=0.5), (unit, boxes[unit])
            assert boxes["r2"][0] < 6 < boxes["r2"][2] and boxes["s1"][0] < w - 4 < boxes["s1"][2]
    finally:
        played.classroom = False
