"""What the replay page is given, checked against the log it comes from: one mark per
shot, hit, halt, pin and elimination; each roll told in words by the test its rule
really uses; units off the table neither drawn nor trailing; titles of the log's rules
only; log text that cannot break out of the page; styles that touch the replay only."""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from conftest import SCENARIOS
from sim import viz
from sim.catalogue import TITLES
from sim.replication import run_battle
from sim.scenario.load import load_scenario
from sim.viz.marks import groups
from sim.viz.replay import replay_data, replay_fragment
from sim.viz.rolls import COMPARE, NOT_A_TEST, TESTS, explain, learn_tests
from sim.viz.tracks import state_at

BATTLES = [("open_ground_advance", 1), ("village_sniper", 2), ("crossing_sniper", 1),
           ("stalingrad_bookstore", 1), ("march_column", 1)]


@pytest.fixture(scope="module")
def battles():
    out = {}
    for name, seed in BATTLES:
        sc = load_scenario(SCENARIOS / f"{name}.yaml")
        log = run_battle(sc, seed).log
        out[name] = (sc, log, replay_data(sc, log, frames=20)[0])
    return out


def _blob(html: str) -> dict:
    return json.loads(re.search(r'class="sim-replay-data">(.*?)</script>', html, re.S).group(1))


@pytest.mark.parametrize("name", [n for n, _ in BATTLES])
def test_every_shot_hit_halt_pin_and_fall_has_its_mark(battles, name):
    sc, log, data = battles[name]
    recs = log.records
    want = Counter({
        "shot": sum(1 for r in recs if r.get("dice") and isinstance(r.get("target"), str)
                    and r.get("unit") and r["target"] != r["unit"]),
        "halt": len(log.where(event="halt")), "hit": len(log.where(event="hit")),
        "pin": len(log.where(event="pin")), "fell": len(log.where(event="eliminate"))})
    got = Counter(m["k"] for m in data["marks"])
    assert +got == +want and sum(got.values()) > 0
    for m in data["marks"]:
        r = recs[m["g"]]
        assert m["t"] == r["t"] and m["g"] in m["r"] and all(recs[j]["t"] == r["t"] for j in m["r"])
    # a halt's records are the halt, its firer's snap fire at the mover, and what followed
    for m in (m for m in data["marks"] if m["k"] == "halt"):
        k = m["r"].index(m["g"])
        halt, fire = recs[m["r"][k]], recs[m["r"][k + 1]]
        assert halt["event"] == "halt" and fire["rule"] == "SF.ROLL"
        assert (fire["unit"], fire["target"]) == (halt["firer"], halt["unit"])


def test_every_built_in_roll_passes_exactly_as_its_words_say(battles):
    """The test each rule's words state (``TESTS``) gives every logged roll its success."""
    seen = set()
    for _sc, log, data in battles.values():
        for i, r in enumerate(log.records):
            if not (r.get("dice") and "success" in r):
                continue
            seen.add(r["rule"])
            if r["rule"] in NOT_A_TEST:
                assert data["why"][str(i)].endswith(NOT_A_TEST[r["rule"]][1 if r["success"] else 2])
                continue
            assert data["why"][str(i)].endswith("success" if r["success"] else "failed")
            op, mods = TESTS[r["rule"]]           # every built-in rule that rolls is there
            value = r["dice"][-1] if op == "last>=" else sum(r["dice"]) + (r["mods"] if mods == "add" else 0)
            assert COMPARE[op.replace("last", "")](value, r["need"]) == r["success"], r
    assert {"SF.ROLL", "BASE.H.AP", "TOO.ACQ", "FOW.MARKSMAN", "BASE.F.HIT"} <= seen


def _roll(rule, dice, need, success, mods=0):
    return {"t": 1.0, "turn": 1, "side": "a", "phase": "p", "event": "x", "rule": rule,
            "dice": dice, "mods": mods, "need": need, "success": success}


def test_need_is_told_in_words_as_each_rule_counts_it():
    tests = learn_tests([])
    assert explain(_roll("SF.ROLL", [3], 4, False), tests) == "rolled 3; needed 4 or more: failed"
    assert explain(_roll("H17.5", [3], 2, True), tests) == "rolled 3; needed more than 2 (3 or more): success"
    assert explain(_roll("TOO.ACQ", [2], 5, True, mods=2), tests) == \
        "rolled 2, mods +2 → 4; needed 5 or less (after mods): success"
    assert explain(_roll("BASE.H.AP", [4, 5], 11, False, mods=1), tests) == \
        "rolled 4+5 = 9, mods +1 → 10; needed 11 or more (after mods): failed"
    assert "already counted" in explain(_roll("BASE.F.HIT", [5], 5, True, mods=1), tests)
    # a plug-in's d100 that kills below ``need``: the log shows 40 kills and 41 misses
    d100 = [_roll("X.KILL", [40], 41, True), _roll("X.KILL", [41], 41, False), _roll("X.KILL", [7], 41, True)]
    assert explain(d100[0], learn_tests(d100)) == "rolled 40; needed less than 41 (40 or less): success"
    # ... and one whose log cannot tell "< 41" from "<= 41": no test is claimed
    vague = d100[2:] + [_roll("X.KILL", [90], 41, False)]
    assert "this rule's own test" in explain(vague[0], learn_tests(vague))


def test_a_sniper_off_the_table_is_not_drawn_and_its_trail_starts_where_it_deploys(battles):
    # H17: off the board until its activation, then at its deploy hex
    sc, log, data = battles["village_sniper"]
    (act,) = log.where(event="activate")
    sniper = next(u for u in data["units"] if u["id"] == "sniper")
    assert sniper["looks"][0][:2] == [0.0, "gone"] and sniper["segs"][0][0][0] == act["t"]
    assert all(row[1] == "gone" for row in sniper["looks"] if row[0] < act["t"])
    shot = next(m for m in data["marks"] if m["k"] == "shot" and log.records[m["g"]]["unit"] == "sniper")
    assert sniper["segs"][0][0][1:] == pytest.approx(shot["p"][:2])        # no glide from t = 0
    # FOW: in the Sniper Reserve between its to_reserve and its next deploy
    sc, log, data = battles["crossing_sniper"]
    sniper = next(u for u in data["units"] if u["id"] == "sniper")
    away = log.where(event="to_reserve", unit="sniper")[0]["t"]
    back = next(r["t"] for r in log.where(event="deploy", unit="sniper") if r["t"] > away)
    assert [seg[0][0] for seg in sniper["segs"]][:2] == [log.where(event="deploy")[0]["t"], back]
    assert sniper["segs"][0][-1][0] == away            # a trail piece ends as it leaves the table
    ids = [u["id"] for u in data["units"]]
    for t, row in zip(data["t"], data["pos"]):
        if away <= t < back:
            assert row[ids.index("sniper")] is None


@pytest.mark.parametrize("name", [n for n, _ in BATTLES])
def test_how_a_unit_looks_is_what_its_lifecycle_says_at_every_record(battles, name):
    sc, log, data = battles[name]
    spans = viz.unit_states(log, sc)
    for u in data["units"]:
        for t in sorted({r["t"] for r in log.records}):
            look = [row for row in u["looks"] if row[0] <= t][-1][1]
            state = state_at(spans, t).get(u["id"])
            want = ("gone" if state in ("off_board", "reserve", "withdrawn") else
                    "dead" if state in ("eliminated", "killed") else
                    "hidden" if state == "hidden" or (state is None and look == "hidden") else "shown")
            assert look == want, (u["id"], t, state)


def test_only_the_titles_of_the_rules_in_the_log_are_given(battles):
    sc, log, data = battles["village_sniper"]
    rules = {r["rule"] for r in log.records if r["rule"]}
    assert data["titles"] == {rid: TITLES[rid] for rid in rules}


def test_log_text_cannot_break_out_of_the_page(battles):
    sc, log, _ = battles["open_ground_advance"]
    evil = "</script><img src=x onerror=alert(1)><!--"
    records = [dict(r) for r in log.records]
    records[1]["note"] = evil
    html = replay_fragment(sc, records, frames=5)
    assert "<img" not in html and "<!--" not in html
    assert _blob(html)["records"][1]["note"] == evil


def test_the_fragment_styles_only_itself_and_names_its_own_hash():
    sc = load_scenario(SCENARIOS / "open_ground_advance.yaml")
    log = run_battle(sc, 1).log
    frag = replay_fragment(sc, log, frames=5)
    (css,) = re.findall(r"<style>(.*?)</style>", frag, re.S)
    selectors = [s.strip() for block in re.findall(r"([^{}]+)\{", css) for s in block.split(",")]
    assert selectors and all(s.startswith(".sim-replay") for s in selectors)
    rid = re.search(r'class="sim-replay" id="([^"]+)" data-hash="([^"]+)"', frag)
    assert rid.group(2) == rid.group(1) + "-t"
    assert 'data-hash="t"' in viz.replay_html(sc, log, frames=5)


SHIPPED = sorted(p.stem for p in SCENARIOS.glob("*.yaml") if not re.search(r"^study:", p.read_text(), re.M))
LOOK_OF = {"off_board": "gone", "reserve": "gone", "withdrawn": "gone", "hidden": "hidden",
           "revealed": "shown", "eliminated": "dead", "killed": "dead"}


def _looks_by_the_records(records) -> dict[str, dict[float, str]]:
    """unit -> {t: how it looks after every record up to t}, read from the records alone:
    set up off the board or hidden (``place``), a record's own ``state``, a spotting or
    reveal (of its ``target``), a rehide, a ``deploy``'s ``hidden``, an ``eliminate``."""
    now: dict[str, str] = {}
    out: dict[str, dict[float, str]] = {}
    for r in records:
        ev = r["event"]
        u = r.get("target") if ev in ("spot", "reveal") and r.get("target") else r.get("unit")
        if u is None or now.get(u) == "dead" or r.get("success") is False:
            continue
        if ev == "place":
            now[u] = "gone" if r["on_board"] is False else "hidden" if "hidden" in r["flags"] else "shown"
        elif ev == "eliminate":
            now[u] = "dead"
        elif isinstance(r.get("state"), str) and r["state"] in LOOK_OF and u == r["unit"]:
            now[u] = LOOK_OF[r["state"]]
        elif ev in ("spot", "reveal"):
            now[u] = "shown"
        elif ev == "rehide" or ev == "deploy" and r.get("hidden") is True:
            now[u] = "hidden"
        if u in now:
            out.setdefault(u, {})[r["t"]] = now[u]
    return out


@pytest.mark.parametrize("name", SHIPPED)
def test_the_replay_draws_each_unit_as_its_own_lifecycle_records_say(name):
    """Checked at every record instant against the records themselves, not through
    ``unit_states``: an H17 sniper off the board and a FOW sniper in its reserve are not
    drawn, a hidden one is a ring, a spotted one a dot, a fallen one a cross for good."""
    sc = load_scenario(SCENARIOS / f"{name}.yaml")
    for seed in (1, 2):
        log = run_battle(sc, seed).log
        data = replay_data(sc, log, frames=5)[0]
        want = _looks_by_the_records(log.records)
        checked = Counter()
        for u in data["units"]:
            wanted = want.get(u["id"], {})
            current = None
            for t in sorted({r["t"] for r in log.records}):
                current = wanted.get(t, current)
                if current is None:
                    continue
                look = [row for row in u["looks"] if row[0] <= t][-1][1]
                assert look == current, (u["id"], t)
                checked[look] += 1
        assert checked["shown"] > 0 and (name not in ("village_sniper", "crossing_sniper") or checked["gone"] > 0)


def test_a_halt_groups_the_decision_before_it_and_what_followed():
    def rec(event, **kw):
        return {"t": 2.0, "turn": 1, "side": "blue", "phase": "movement", "event": event, "rule": None, **kw}
    records = [rec("move", unit="b1"), rec("decide", unit="r1", target="b1", choice="take"),
               rec("halt", unit="b1", firer="r1", pos=[1, 1]), rec("decide", unit="r1", target="b1", choice="take"),
               rec("snap_fire", unit="r1", target="b1", dice=[5], mods=0, need=4, success=True),
               rec("hit", unit="b1", target="b1", by="r1"), rec("eliminate", unit="b1"),
               rec("shoot", unit="r2", target="b9", dice=[1], mods=0, need=4, success=False)]
    got = groups(records)
    assert got[2] == [1, 2, 3, 4, 5, 6] and got[4] == got[2] and got[0] == [0] and got[7] == [7]
