"""The replay questioned in headless Chromium: stepping by event lands on each record's
instant, a clicked (or keyboard-chosen) halt shows its roll, what it needed and its rule
with its title, ``#t=`` opens it at a time and follows the clock (a link copied at an
event reopens on it), marks stacked on one spot are each inspected, failed shots look as
the legend says, labels sit by their units, and a host page that embeds the fragment
keeps its own styles."""
from __future__ import annotations

import json
import time

import pytest

from conftest import SCENARIOS
from sim import viz
from sim.catalogue import TITLES
from sim.replication import run_battle
from sim.scenario.load import load_scenario
from sim.viz.replay import replay_fragment

ROOT = "document.querySelector('.sim-replay')"
INSPECTOR = f"{ROOT}.querySelector('.sr-inspector').textContent"


def _written(tmp_path_factory, seed: int):
    """open_ground_advance's battle of ``seed``, its log, and its replay page (30 frames)."""
    sc = load_scenario(SCENARIOS / "open_ground_advance.yaml")
    log = run_battle(sc, seed).log
    path = tmp_path_factory.mktemp(f"inspector{seed}") / "replay.html"
    path.write_text(viz.replay_html(sc, log, frames=30), encoding="utf-8")
    return sc, log, path


@pytest.fixture(scope="module")
def advance(tmp_path_factory):
    sc, log, path = _written(tmp_path_factory, 1)
    return sc, log, path, path.parent


def _open(browser, path, hash_=""):
    """Load ``path`` (with a URL hash) afresh and wait until the replay is ready."""
    browser.send("Page.navigate", {"url": "about:blank"}, session=True)
    browser.events.clear()
    browser.send("Page.navigate", {"url": path.resolve().as_uri() + hash_}, session=True)
    deadline = time.monotonic() + browser.timeout
    while not any(e.get("method") == "Page.loadEventFired" for e in browser.events):
        browser._read(deadline)
    browser.wait_for(f"{ROOT} && {ROOT}.dataset.ready === '1'")


def _hashed(t: float) -> str:
    """``t`` as the hash writes it: nine decimals, trailing zeros trimmed."""
    return f"{t:.9f}".rstrip("0").rstrip(".")


def _time(browser) -> float:
    return float(browser.evaluate(f"{ROOT}.dataset.time"))


def test_stepping_by_event_lands_on_each_next_record_instant(advance, browser):
    sc, log, path, _ = advance
    _open(browser, path)
    instants = sorted({r["t"] for r in log.records})
    for want in instants[1:8]:
        browser.evaluate(f"{ROOT}.querySelector('button.next-event').click()")
        assert _time(browser) == pytest.approx(want, abs=1e-9)
    browser.evaluate(f"{ROOT}.querySelector('button.prev-event').click()")
    assert _time(browser) == pytest.approx(instants[6], abs=1e-9)
    # the keyboard does the same: Shift+Right on the player
    browser.evaluate(f"{ROOT}.dispatchEvent(new KeyboardEvent('keydown', "
                     "{key: 'ArrowRight', shiftKey: true, bubbles: true}))")
    assert _time(browser) == pytest.approx(instants[7], abs=1e-9)


def test_clicking_a_halt_shows_its_roll_what_it_needed_and_its_rules(advance, browser):
    sc, log, path, _ = advance
    halt = log.where(event="halt")[0]
    fire = next(r for r in log.records if r["t"] == halt["t"] and r["event"] == "snap_fire")
    _open(browser, path, f"#t={halt['t']}")
    mark = "document.querySelector('.sim-replay g[data-mark=halt]')"
    assert browser.evaluate(f"{mark}.getAttribute('visibility')") == "visible"
    browser.evaluate(f"{mark}.dispatchEvent(new MouseEvent('click'))")
    text = browser.evaluate(INSPECTOR)
    assert f"rule SF.HALT: {TITLES['SF.HALT']}" in text and f"rule SF.ROLL: {TITLES['SF.ROLL']}" in text
    assert f"dice {json.dumps(fire['dice'])} · mods {fire['mods']} · need {fire['need']}" in text
    outcome = "success" if fire["success"] else "failed"
    assert f"rolled {fire['dice'][0]}; needed {fire['need']} or more: {outcome}" in text
    assert f'firer: "{halt["firer"]}"' in text
    # the log holds the halt's floats at full precision; the inspector shows 3 decimals
    x, y = (f"{round(v, 3):g}" for v in halt["pos"])
    assert halt["pos"][0] != round(halt["pos"][0], 3) and f"pos: [{x},{y}]" in text
    assert f"dist: {round(halt['dist'], 3):g}; radius: {halt['radius']:g}" in text


def test_a_mark_or_a_unit_chosen_with_the_keyboard_shows_its_records(advance, browser):
    sc, log, path, _ = advance
    fell = log.where(event="eliminate")[0]
    _open(browser, path, f"#t={fell['t']}")
    mark = "document.querySelector('.sim-replay g[data-mark=fell]')"
    browser.evaluate(f"{mark}.focus(); {mark}.dispatchEvent(new KeyboardEvent('keydown', "
                     "{key: 'Enter', bubbles: true}))")
    text = browser.evaluate(INSPECTOR)
    assert text.startswith(f"eliminated at t = {fell['t']:.2f}") and "· eliminate" in text
    unit = "document.querySelector(\"circle[data-unit='b1']\")"
    browser.evaluate(f"{unit}.focus(); {unit}.dispatchEvent(new KeyboardEvent('keydown', "
                     "{key: 'Enter', bubbles: true}))")
    assert browser.evaluate(INSPECTOR).startswith(f"b1 (blue) at t = {fell['t']:.2f}: on the table")


def test_the_url_hash_opens_the_replay_at_a_time_and_follows_the_clock(advance, browser):
    sc, log, path, _ = advance
    _open(browser, path, "#t=12.5")
    assert _time(browser) == 12.5
    assert browser.evaluate(f"{ROOT}.querySelector('.clock').textContent").startswith("t = 12.50 ")
    browser.evaluate(f"{ROOT}.querySelector('button.next-event').click()")
    after = min(r["t"] for r in log.records if r["t"] > 12.5)
    assert browser.evaluate("location.hash") == f"#t={_hashed(after)}"
    browser.evaluate("location.hash = 't=20'")
    browser.wait_for(f"{ROOT}.dataset.time === '20'")


HOST_CSS = ("body { width: 700px; margin: 0 3em; font: 17px Georgia, serif; color: rgb(10, 20, 30); } "
            "h2 { font-size: 30px; margin-top: 9px; } table { border-collapse: separate; width: 400px; } "
            "th { color: rgb(200, 0, 0); text-align: right; padding: 7px; } td { border: 1px solid red; } "
            "button { font-size: 21px; } p { line-height: 2; }")
PROPS = ["width", "margin-left", "font-size", "font-family", "color", "line-height", "border-collapse",
         "text-align", "padding-top", "border-top-width", "margin-top", "max-width", "display"]


def test_a_host_page_keeps_its_own_styles_with_the_fragment_in_it(advance, browser):
    sc, log, path, folder = advance
    host = ("<!DOCTYPE html><html><head><meta charset='utf-8'><style>" + HOST_CSS + "</style></head><body>"
            "<h2>Lesson</h2><p>Text</p><table><tr><th>a</th></tr><tr><td>1</td></tr></table>"
            "<button>host</button>{}</body></html>")
    computed = ("JSON.stringify(['body', 'h2', 'p', 'table', 'th', 'td', 'button'].map(s => {"
                f" const c = getComputedStyle(document.querySelector(s)); return {json.dumps(PROPS)}"
                ".map(p => c.getPropertyValue(p)); }))")
    seen = []
    for i, inner in enumerate(["", replay_fragment(sc, log, frames=10)]):
        page = folder / f"host{i}.html"
        page.write_text(host.replace("{}", inner), encoding="utf-8")
        browser.requests.clear()
        browser.open(page)
        seen.append(json.loads(browser.evaluate(computed)))
        assert browser.outside_requests() == []
    assert seen[0] == seen[1]
    assert browser.evaluate(f"{ROOT}.dataset.ready") == "1"
    # the fragment's player is styled, by its own rules only
    assert browser.evaluate(f"getComputedStyle({ROOT}).fontSize") == "14px"
    assert browser.evaluate(f"getComputedStyle({ROOT}.querySelector('svg')).width") == "700px"


def test_log_text_is_shown_as_text_in_the_inspector(advance, browser):
    sc, log, path, folder = advance
    records = [dict(r) for r in log.records]
    halt = next(i for i, r in enumerate(records) if r["event"] == "halt")
    records[halt]["note"] = "<b>bold</b><img src=x>"
    page = folder / "evil.html"
    page.write_text(viz.replay_html(sc, records, frames=5), encoding="utf-8")
    _open(browser, page)
    browser.evaluate("document.querySelector('.sim-replay g[data-mark=halt]').dispatchEvent(new MouseEvent('click'))")
    assert 'note: "<b>bold</b><img src=x>"' in browser.evaluate(INSPECTOR)
    assert browser.evaluate("document.querySelectorAll('.sr-inspector b, .sr-inspector img').length") == 0


def test_the_player_fills_its_container_and_its_text_is_readable_at_1280_px(advance, browser):
    sc, log, path, folder = advance
    try:
        browser.send("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 900,
                                                           "deviceScaleFactor": 1, "mobile": False}, session=True)
        _open(browser, path, "#t=13")
        svg = f"{ROOT}.querySelector('svg')"
        width = browser.evaluate(f"{svg}.getBoundingClientRect().width")
        assert width == browser.evaluate(f"{ROOT}.querySelector('.sr-map').getBoundingClientRect().width") > 900
        # every label on the map is at least 10 pt (13.3 CSS px) on the screen
        smallest = browser.evaluate(f"Math.min(...[...{svg}.querySelectorAll('text')].map(t => "
                                    "parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a))")
        assert smallest >= 40 / 3
        # in a narrow column it narrows with it (no fixed width)
        host = folder / "narrow.html"
        host.write_text("<!DOCTYPE html><html><body><div style='width:480px'>"
                        + replay_fragment(sc, log, frames=5) + "</div></body></html>", encoding="utf-8")
        browser.open(host)
        assert browser.evaluate(f"{svg}.getBoundingClientRect().width") == 480
    finally:
        browser.send("Emulation.clearDeviceMetricsOverride", session=True)


def test_two_fragments_on_one_page_keep_their_own_clocks_in_the_hash(advance, browser):
    sc, log, path, folder = advance
    other = run_battle(sc, 2).log
    page = folder / "two.html"
    page.write_text("<!DOCTYPE html><html><body>" + replay_fragment(sc, log, frames=10)
                    + replay_fragment(sc, other, frames=10) + "</body></html>", encoding="utf-8")
    _open(browser, page)
    ids = browser.evaluate("[...document.querySelectorAll('.sim-replay')].map(r => r.id)")
    assert len(set(ids)) == 2 and browser.evaluate("location.hash") == ""    # opening writes nothing
    second = "document.querySelectorAll('.sim-replay')[1]"
    browser.evaluate(f"{second}.querySelector('button.next-event').click()")
    t = float(browser.evaluate(f"{second}.dataset.time"))
    assert browser.evaluate("location.hash") == f"#{ids[1]}-t={_hashed(t)}"
    assert browser.evaluate(f"{ROOT}.dataset.time") == "0"                    # the first did not move
    _open(browser, page, f"#{ids[0]}-t=7&{ids[1]}-t=3")
    times = [browser.evaluate(f"document.querySelectorAll('.sim-replay')[{i}].dataset.time") for i in (0, 1)]
    assert times == ["7", "3"]


# -- the trial's frame: open_ground_advance seed 3 at the halts of t = 12.800047146 --------
MARKS_SHOWN = (f"JSON.stringify([...{ROOT}.querySelectorAll('g[data-mark]')]"
               ".filter(g => g.getAttribute('visibility') === 'visible').map(g => g.dataset.index))")
DATA = f"JSON.parse({ROOT}.querySelector('script.sim-replay-data').textContent)"
LABELS = f"JSON.stringify([...{ROOT}.querySelectorAll('g.labels text')].map(t => t.textContent))"


@pytest.fixture(scope="module")
def halts(tmp_path_factory):
    _, log, path = _written(tmp_path_factory, 3)
    at = sorted({r["t"] for r in log.where(event="halt")})
    assert at[1] == pytest.approx(12.800047146) and len(log.where(event="halt", t=at[1])) == 2
    return log, path, at[1]


def _step_to(browser, t):
    while _time(browser) < t - 1e-9:
        browser.evaluate(f"{ROOT}.querySelector('button.next-event').click()")


def test_a_link_copied_at_an_event_instant_reopens_on_that_frame(halts, browser):
    log, path, t = halts
    _open(browser, path)
    _step_to(browser, t)
    assert _time(browser) == t
    seen = browser.evaluate(MARKS_SHOWN), browser.evaluate(LABELS)
    marks = json.loads(browser.evaluate(f"JSON.stringify({DATA}.marks)"))
    assert [marks[int(i)]["k"] for i in json.loads(seen[0])].count("halt") == 3
    hash_ = browser.evaluate("location.hash")
    assert hash_ == "#t=12.800047146"
    _open(browser, path, hash_)
    assert _time(browser) == t          # the record instant itself, not the rounded time
    assert (browser.evaluate(MARKS_SHOWN), browser.evaluate(LABELS)) == seen
    assert "b3 (halted), b5 (halted)" in json.loads(seen[1])


def test_each_of_halts_stacked_on_one_spot_can_be_inspected(halts, browser):
    log, path, t = halts
    _open(browser, path, f"#t={t}")
    stack = [f"{ROOT}.querySelector('g[data-mark][data-index=\"{m}\"]')" for m in json.loads(browser.evaluate(
        f"JSON.stringify([...{ROOT}.querySelectorAll('g[data-mark=halt]')]"
        ".filter(g => g.getAttribute('visibility') === 'visible').map(g => g.dataset.index))"))]
    assert len(stack) == 3
    halted = {r["unit"]: r for r in log.where(event="halt") if r["t"] <= t}
    assert set(halted) == {"b3", "b4", "b5"}
    for mark in (stack[-1], stack[0]):   # the one on top, and the one under the others
        browser.evaluate(f"{mark}.dispatchEvent(new MouseEvent('click'))")
        text = browser.evaluate(INSPECTOR)
        assert text.startswith("3 halt marks on one spot")
        for unit, halt in halted.items():
            assert f"halt at t = {halt['t']:.2f} ({unit})" in text
            fire = next(r for r in log.records if r["t"] == halt["t"] and r["event"] == "snap_fire"
                        and r["target"] == unit)
            assert f'target: "{unit}"' in text and f"dice {json.dumps(fire['dice'])}" in text


def test_a_failed_shot_is_drawn_as_the_legend_says_and_an_older_hit_is_faint(halts, browser):
    log, path, t = halts
    _open(browser, path, f"#t={t}")
    style = ("JSON.stringify(['stroke', 'stroke-dasharray'].map(a => {}.getAttribute(a)))")
    for outcome, ok in (("failed", "false"), ("ok", "true")):
        key = f"{ROOT}.querySelector('.sr-legend [data-key=shot-{outcome}]')"
        legend = json.loads(browser.evaluate(style.format(f"{key}.querySelector('line')")))
        drawn = json.loads(browser.evaluate(
            "JSON.stringify([...document.querySelectorAll('.sim-replay g[data-mark=shot]')].filter(g => "
            f"{DATA}.marks[g.dataset.index].ok === {ok})"
            ".map(g => ['stroke', 'stroke-dasharray'].map(a => g.querySelector('line').getAttribute(a))))"))
        assert drawn and all(d == legend for d in drawn)
        words = browser.evaluate(f"{key}.textContent")
        assert ("failed" in words) == (outcome == "failed")
        assert ("grey dashes" in words) == (legend == ["#555", "7 5"])
    # the 12.52 hit on r1's line fades under the misses of 12.80, which are at full strength
    opacity = ("JSON.stringify([...document.querySelectorAll('.sim-replay g[data-mark]')]"
               ".filter(g => g.getAttribute('visibility') === 'visible' && g.dataset.mark !== 'halt' && "
               "g.dataset.mark !== 'fell').map(g => [g.dataset.mark, g.getAttribute('aria-label'), "
               "parseFloat(g.getAttribute('opacity'))]))")
    seen = json.loads(browser.evaluate(opacity))
    old = [o for kind, label, o in seen if "12.52" in label]
    new = [o for kind, label, o in seen if "12.80" in label]
    assert old and new and max(old) <= 0.3 and min(new) == 1


def test_every_label_is_drawn_next_to_the_units_it_names(halts, browser):
    log, path, t = halts
    _open(browser, path)
    check = (f"JSON.stringify([...{ROOT}.querySelectorAll('g.labels text')].map(t => {{"
             " const b = t.getBBox(), near = [...document.querySelectorAll('.sim-replay circle[data-unit]')]"
             ".filter(c => c.getAttribute('visibility') === 'visible').map(c => {"
             " const x = +c.getAttribute('cx'), y = +c.getAttribute('cy'),"
             " dx = Math.max(b.x - x, 0, x - b.x - b.width), dy = Math.max(b.y - y, 0, y - b.y - b.height);"
             " return [Math.hypot(dx, dy), c.dataset.unit]; }).sort((a, b) => a[0] - b[0]);"
             " return [t.textContent, near[0][1], near[0][0]]; }))")
    instants = sorted({r["t"] for r in log.records if r["t"] <= t + 1})
    for at in instants:
        browser.evaluate(f"location.hash = 't={at!r}'")
        browser.wait_for(f"Math.abs({ROOT}.dataset.time - {at!r}) < 1e-9")
        for text, nearest, gap in json.loads(browser.evaluate(check)):
            named = [w.split(" (")[0] for w in text.split(", ")]
            assert nearest in named and gap < 20, (at, text, nearest, gap)
