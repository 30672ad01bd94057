"""The offline replay: one self-contained HTML page, loaded from a file in headless
Chromium with every request recorded; the animation must advance, step and seek, and the
page must ask for nothing but itself and its inline data."""
from __future__ import annotations

import json
import re

import pytest

from conftest import SCENARIOS
from sim import viz
from sim.replication import run_battle
from sim.scenario.load import load_scenario
from sim.viz.replay import replay_data

ROOT = "document.querySelector('.sim-replay')"


@pytest.fixture(scope="module")
def advance(tmp_path_factory):
    sc = load_scenario(SCENARIOS / "open_ground_advance.yaml")
    log = run_battle(sc, 1).log
    path = tmp_path_factory.mktemp("replay") / "replay.html"
    path.write_text(viz.replay_html(sc, log, frames=50), encoding="utf-8")
    return sc, log, path


def _data(html: str) -> dict:
    blob = re.search(r'<script type="application/json" class="sim-replay-data">(.*?)</script>', html, re.S)
    return json.loads(blob.group(1))


def test_replay_is_small_and_self_contained(advance):
    sc, log, path = advance
    html = path.read_text(encoding="utf-8")
    assert len(html.encode()) < 150_000          # 3.3 MB with matplotlib's to_jshtml
    assert "Content-Security-Policy" in html and "default-src 'none'" in html
    # Nothing to fetch: no URL other than inline data: URIs and the SVG namespace.
    urls = re.findall(r'(?:src|href)\s*=\s*"([^"]+)"', html)
    assert urls and all(u.startswith("data:") for u in urls)
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", html)
    data = _data(html)
    assert len(data["t"]) == 50 and data["t"][0] == 0.0 and data["t"][-1] == log.records[-1]["t"]
    assert len([m for m in data["marks"] if m["k"] == "halt"]) == len(log.where(event="halt")) > 0
    assert data["records"] == [json.loads(line) for line in log.lines()]   # the log, as its file has it
    reds = [u for u in data["units"] if u["side"] == "red"]
    assert len(reds) == len(sc.forces["red"]) and all(u["radius"] > 0 for u in reds)
    assert all(u["radius"] == 0 for u in data["units"] if u["side"] == "blue")


def test_replay_frames_put_units_where_their_tracks_say(advance):
    sc, log, path = advance
    data, _, _ = replay_data(sc, log, frames=50)
    tracks = viz.unit_tracks(log, sc)
    # The picture's map is linear: fit it on two keyframes, then check frame 20 everywhere.
    (_, xa, ya), (_, xb, yb) = tracks["b1"][0], tracks["r1"][0]
    pa, pb = data["units"][0]["track"][0][1:], [u for u in data["units"] if u["id"] == "r1"][0]["track"][0][1:]
    sx, sy = (pb[0] - pa[0]) / (xb - xa), (pb[1] - pa[1]) / (yb - ya)
    assert sx > 0 and sy < 0 and sx == pytest.approx(-sy, rel=1e-2)   # y up on a table
    where = viz.positions_at(sc, log, data["t"][20])
    shown = 0
    for i, u in enumerate(data["units"]):
        p = data["pos"][20][i]
        if p is not None:
            x, y = where[u["id"]]
            assert p == pytest.approx([pa[0] + (x - xa) * sx, pa[1] + (y - ya) * sy], abs=0.3)
            shown += 1
    assert shown >= 6


def _drawn(browser):
    """unit id -> the (cx, cy) of its dot where the page shows one."""
    return browser.evaluate("Object.fromEntries([...document.querySelectorAll('.sim-replay circle[data-unit]')]"
                            ".filter(c => c.getAttribute('visibility') === 'visible')"
                            ".map(c => [c.dataset.unit, [+c.getAttribute('cx'), +c.getAttribute('cy')]]))")


def test_replay_plays_steps_and_seeks_in_a_browser_with_no_request_leaving(advance, browser):
    sc, log, path = advance
    browser.requests.clear()
    browser.open(path)
    browser.wait_for(f"{ROOT}.dataset.ready === '1'")
    assert browser.evaluate(f"{ROOT}.dataset.frame") == "0"
    units = browser.evaluate("document.querySelectorAll('.sim-replay circle[data-unit]').length")
    assert units == len(list(sc.units()))
    b1 = "document.querySelector(\"circle[data-unit='b1']\").getAttribute('cx')"
    start_x = float(browser.evaluate(b1))
    browser.evaluate(f"{ROOT}.querySelector('button.play').click()")
    assert browser.evaluate(f"{ROOT}.dataset.playing") == "1"
    browser.wait_for(f"+{ROOT}.dataset.frame >= 10", timeout=30)
    browser.evaluate(f"{ROOT}.querySelector('button.play').click()")   # pause
    assert browser.evaluate(f"{ROOT}.dataset.playing") == "0"
    paused = int(browser.evaluate(f"{ROOT}.dataset.frame"))
    assert float(browser.evaluate(b1)) != start_x                        # b1 has moved
    browser.evaluate(f"{ROOT}.querySelector('button.step').click()")
    assert int(browser.evaluate(f"{ROOT}.dataset.frame")) == paused + 1
    browser.evaluate(f"{ROOT}.querySelector('button.back').click()")
    assert int(browser.evaluate(f"{ROOT}.dataset.frame")) == paused
    # each frame shows the units where replay_data's frames (the tracks) put them
    data, _, _ = replay_data(sc, log, frames=50)
    ids = [u["id"] for u in data["units"]]
    drawn = _drawn(browser)
    want = {u: p for u, p in zip(ids, data["pos"][paused]) if p is not None}
    assert set(drawn) == set(want) and all(drawn[u] == pytest.approx(want[u], abs=0.2) for u in want)
    # the time slider seeks: to the last frame, where every halt and every fall is shown
    browser.evaluate(f"(() => {{ const s = {ROOT}.querySelector('input.time'); s.value = s.max; "
                     "s.dispatchEvent(new Event('input')); })()")
    assert browser.evaluate(f"{ROOT}.dataset.frame") == "49"
    for kind, event in (("halt", "halt"), ("fell", "eliminate")):
        shown = browser.evaluate(f"[...document.querySelectorAll('.sim-replay g[data-mark={kind}]')]"
                                 ".filter(p => p.getAttribute('visibility') === 'visible').length")
        assert shown == len(log.where(event=event)) > 0
    assert "turn" in browser.evaluate(f"{ROOT}.querySelector('.clock').textContent")
    assert browser.requests and browser.requests[0] == path.resolve().as_uri()
    assert browser.outside_requests() == []


def test_the_browser_check_sees_a_request_that_would_leave(tmp_path, browser):
    # The check itself can fail: a page that loads an icon from the web is caught.
    page = tmp_path / "leaky.html"
    page.write_text('<!DOCTYPE html><html><body><img src="https://cdn.invalid/icon.png"></body></html>')
    browser.requests.clear()
    browser.open(page)
    assert browser.outside_requests() == ["https://cdn.invalid/icon.png"]


def test_replay_of_a_hex_battle_draws_rows_top_down(tmp_path):
    sc = load_scenario(SCENARIOS / "village_sniper.yaml")
    data = _data(viz.replay_html(sc, run_battle(sc, 3).log, frames=10))
    ys = {u["id"]: u["segs"][0][0][2] for u in data["units"] if u["segs"]}
    # sq1 starts in row 1, sq6 in row 7: row 1 is nearer the top of the picture
    assert ys["sq1"] < ys["sq6"]
