"""A scenario names a base game and any number of rule modules: they act together in one
battle, and where the base lacks what a module needs the scenario is refused in one line.

``sniper_screen`` is the FOW game (its sniper teams) with the snap-fire module: each
module's rules act there, every roll audited, and the readings where the two seed texts
meet (FOW.SF.HIT, FOW.SF.PIN, FOW.SF.SNIPER) are knobs that do what they say."""
from __future__ import annotations

import collections
import copy
import json

import pytest
import yaml

import sim
from conftest import SCENARIOS
from invariants import ROLL_TESTS, check
from sim.scenario.load import load_scenario, scenario_from_dict

SCREEN = SCENARIOS / "sniper_screen.yaml"


def _doc(name: str) -> dict:
    return yaml.safe_load((SCENARIOS / name).read_text())


def _refused(data: dict, *words: str) -> str:
    with pytest.raises(sim.InputError) as err:
        scenario_from_dict(data, "s.yaml")
    line = str(err.value)
    assert "\n" not in line and line.startswith("s.yaml"), line
    for w in words:
        assert w in line, line
    return line


# -- composition: the keys ------------------------------------------------------------------
def test_a_ruleset_is_its_base_and_modules_named_by_one_name_log_for_log():
    """``ruleset: snapfire`` is the skirmish base game with the snap-fire module: written out
    as ``base`` and ``modules``, the same battle, record for record."""
    named = _doc("open_ground_advance.yaml")
    spelt = copy.deepcopy(named)
    spelt.pop("ruleset", None)
    spelt.update(base="skirmish", modules=["snapfire"])
    a, b = scenario_from_dict(named), scenario_from_dict(spelt)
    assert a.composition.name == "snapfire" and b.composition.name == "skirmish+snapfire"
    assert [m.name for m in b.composition.modules] == ["snapfire"] and b.composition.base.name == "skirmish"
    for seed in (1, 3, 7):
        assert sim.run(a, seed).log.records == sim.run(b, seed).log.records


def test_the_base_game_alone_runs_without_its_modules():
    """The skirmish base game with no module: movement, shooting and assault, no snap fire."""
    doc = _doc("open_ground_advance.yaml")
    doc.pop("ruleset", None)
    doc["rules"].pop("snapfire", None)
    doc.update(base="skirmish")
    log = sim.run(scenario_from_dict(doc), 3).log
    rules = {r["rule"] for r in log}
    assert "BASE.S.SHOOT" in rules and not any(str(r).startswith("SF.") for r in rules)


@pytest.mark.parametrize("change, words", [
    ({"ruleset": "fow"}, ["key base", "names a ruleset and a base game"]),
    ({"base": "nope"}, ["key base", "unknown base game 'nope'", "skirmish"]),
    ({"modules": ["snapfire", "nope"]}, ["modules.1", "unknown rule module 'nope'"]),
    ({"modules": ["snapfire", "snapfire"]}, ["modules.1", "named twice"]),
    ({"modules": "snapfire"}, ["modules", "expected a list of rule modules"]),
])
def test_bad_composition_keys_are_one_line_naming_the_key(change, words):
    doc = _doc("sniper_screen.yaml")
    doc.update(change)
    _refused(doc, *words)


def test_modules_without_a_base_are_refused():
    doc = _doc("open_ground_advance.yaml")
    doc.pop("ruleset", None)
    doc["modules"] = ["snapfire"]
    _refused(doc, "modules", "need a base game")


def test_a_module_whose_base_lacks_a_need_is_refused_naming_both():
    """Snap fire needs a hit service: the H17 game has none (its combat is its own), so snap
    fire cannot join it; the line names the module, the need and the base."""
    doc = _doc("village_sniper.yaml")
    doc.pop("ruleset", None)
    doc.update(base="h17", modules=["snapfire"])
    _refused(doc, "modules.0", "rule module 'snapfire' needs the hit service", "base game 'h17' lacks it")


class Nothing(sim.plugin.ModulePlay):
    """A module's play that does nothing."""


def test_a_module_needing_other_ground_is_refused_naming_the_ground():
    """A module that needs table ground on a hex map (and a base that plays on hexes)."""
    module = sim.plugin.RuleModule(name="tableonly", title="needs a table", play=Nothing,
                                   needs=frozenset({sim.plugin.Geometry.TABLE}))
    sim.plugin.register(module)
    try:
        doc = _doc("village_sniper.yaml")   # an H17 hex map
        doc.pop("ruleset", None)
        doc.update(base="h17", modules=["tableonly"])
        _refused(doc, "modules.0", "needs table ground", "the scenario's ground is hex ground")
    finally:
        sim.plugin.unregister(sim.plugin.RuleModule, "tableonly")


def test_a_key_of_a_module_not_in_the_game_is_refused():
    doc = _doc("crossing_sniper.yaml")   # ruleset fow: no snap fire
    doc["rules"]["snapfire"] = {"radius": 8}
    _refused(doc, "rules.snapfire is set but ruleset 'fow' does not use it")


# -- the seeds together ---------------------------------------------------------------------
def _screen_logs(seeds=range(1, 21), overrides=None):
    sc = load_scenario(SCREEN)
    if overrides:
        sc = sim.apply_overrides(sc, overrides)
    out = []
    for seed in seeds:
        result = sim.run(sc, seed)
        check(sc, result.log.records)    # every invariant, every roll against its rule's test
        out.append(result.log.records)
    return sc, out


def test_each_modules_rules_act_in_the_composed_battle_each_roll_audited():
    """FOW's sniper team deploys from its reserve, shoots, is spotted, relocates (back to the
    reserve) and is hunted, while snap fire halts and fires at the movers; every roll of
    both has its rule's test (tests/invariants.py)."""
    sc, logs = _screen_logs()
    seen = collections.Counter((r["event"], r["rule"]) for log in logs for r in log)
    for pair in [("deploy", "FOW.RESERVE"), ("sniper_shot", "FOW.MARKSMAN"), ("pin", "FOW.PIN"),
                 ("spot", "FOW.CAMO"), ("relocate", "FOW.RELOCATE"), ("to_reserve", "FOW.RELOCATE"),
                 ("halt", "SF.HALT"), ("snap_fire", "SF.ROLL"), ("hit", "FOW.SF.HIT"),
                 ("shoot", "BASE.F.HIT"), ("save", "BASE.F.SAVE")]:
        assert seen[pair] > 0, pair
    # hunted: the hunters' moves end nearer a revealed sniper than they began
    rolled = {r["rule"] for log in logs for r in log if "dice" in r}
    assert rolled <= set(ROLL_TESTS), rolled - set(ROLL_TESTS)
    # a snap-fire hit is BASE.F's shooting hit: its save or the firepower test, at once
    for log in logs:
        for i, r in enumerate(log):
            if r["event"] == "hit" and r["rule"] == "FOW.SF.HIT":
                prev, nxt = log[i - 1], log[i + 1]
                assert prev["event"] == "snap_fire" and prev["success"] and prev["target"] == r["unit"]
                assert r["cause"] == "SF.ROLL" and r["by"] == prev["unit"]
                assert (nxt["event"], nxt["rule"]) in {("save", "BASE.F.SAVE"), ("firepower", "BASE.F.FP")}


def test_a_snap_fire_hit_pins_the_platoon_only_under_the_reading_that_says_so():
    """FOW.SF.PIN: off, no pin follows a snap-fire hit; on, the hit team's platoon is
    Pinned Down (every member on the board and not yet pinned) before its save."""
    _, plain = _screen_logs(range(1, 11))
    assert not any(r["rule"] == "FOW.SF.PIN" for log in plain for r in log)
    sc, pinning = _screen_logs(range(1, 11), {"rules.fow.module_hit_pins": True})
    pins = 0
    for log in pinning:
        for i, r in enumerate(log):
            if r["event"] == "hit" and r["rule"] == "FOW.SF.HIT":
                j = i + 1
                while log[j]["event"] == "pin":
                    assert log[j]["rule"] == "FOW.SF.PIN" and log[j]["by"] == r["by"]
                    pins += 1
                    j += 1
                assert log[j]["event"] in ("save", "firepower")
    assert pins > 0


def test_a_snap_fire_hit_in_bulletproof_cover_is_a_save_under_the_reading_that_says_so():
    """FOW.SF.HIT ``save``: "firepower rules do not apply", so a team hit in bulletproof
    cover saves (a ``save`` under FOW.SF.HIT) rather than taking the firepower test."""
    doc = _doc("sniper_screen.yaml")
    # the hunters cross rubble (cover 2: bulletproof) right where the screen snap fires
    doc["terrain"]["areas"].append({"name": "rubble", "polygon": [[40, 0], [80, 0], [80, 60], [40, 60]],
                                    "terrain": "rubble", "cover": 2})
    saves = firepower = 0
    for reading in ("shooting", "save"):
        doc["rules"]["fow"]["module_hit"] = reading
        sc = scenario_from_dict(copy.deepcopy(doc))
        for seed in range(1, 16):
            log = sim.run(sc, seed).log.records
            check(sc, log)
            for i, r in enumerate(log):
                if r["event"] == "hit" and r["rule"] == "FOW.SF.HIT":
                    nxt = log[i + 1]
                    if reading == "save":
                        assert (nxt["event"], nxt["rule"]) == ("save", "FOW.SF.HIT")
                        saves += 1
                    else:
                        assert (nxt["event"], nxt["rule"]) == ("firepower", "BASE.F.FP")
                        firepower += 1
    assert saves > 0 and firepower > 0


def test_a_sniper_team_takes_snap_fire_only_under_the_reading_that_says_so():
    """FOW.SF.SNIPER: false, the sniper never snap fires; true, it does (a snap_fire record
    by the sniper), and never with a friendly team within 10 cm (FOW.FRIENDLY)."""
    doc = _doc("sniper_screen.yaml")
    # a hunter heads for the wood's hide, 12.6 cm from the screen: the sniper may snap fire at it
    doc["forces"]["red"][2]["sniper_team"] = {"start": "deployed", "candidates": ["HIDE_WOOD"]}
    doc["forces"]["red"][2]["at"] = "HIDE_WOOD"
    doc["rules"]["fow"]["relocate"] = {"when": "never"}   # it stays for the hunter to come
    fired = {}
    for reacts in (False, True):
        doc["rules"]["fow"]["sniper_reacts"] = reacts
        sc = scenario_from_dict(copy.deepcopy(doc))
        n = 0
        for seed in range(1, 21):
            log = sim.run(sc, seed).log.records
            check(sc, log)
            pos = {}
            for r in log:
                if r.get("unit") and r.get("pos") is not None:
                    pos[r["unit"]] = r["pos"]
                if r["event"] == "snap_fire" and r["unit"] == "sniper":
                    n += 1
                    friends = [u for u in ("sn", "ss") if u in pos and
                               ((pos[u][0] - r["pos"][0]) ** 2 + (pos[u][1] - r["pos"][1]) ** 2) ** 0.5 <= 10]
                    assert not friends, (seed, r)
        fired[reacts] = n
    assert fired[False] == 0 and fired[True] > 0, fired


def test_the_study_of_the_seeds_together_runs_and_reports_both_modules_metrics():
    study = sim.load_study(str(SCENARIOS / "sniper_screen_study.yaml"))
    run = sim.run_study(study, replications=4)
    rows = run.rows()
    assert len(rows) == 8 * 4
    some = next(iter(rows.values()))
    assert {"sniper_eliminated", "sniper_hits", "sf_halts", "zoc_halts", "attacker_won"} <= set(some)
    by_cell = collections.defaultdict(list)
    for (cell, _), m in rows.items():
        by_cell[cell].append(m)
    labels = [c.label for c in study.cells]
    zoc = [i for i, label in enumerate(labels) if label.startswith("zoc")]
    assert all(m["sf_halts"] == 0 for i in zoc for m in by_cell[i])            # no dice under a zone
    assert any(m["sf_halts"] > 0 for i, ms in by_cell.items() if i not in zoc for m in ms)


def test_the_composed_scenario_shows_its_parts_in_the_docs_schema():
    text = json.dumps(sim.load_scenario(SCREEN).composition.sections, default=str)
    assert "fow" in text and "snapfire" in text and "base" in text


class _Seen(sim.plugin.Watch):
    """Reacts to every mover that comes within 10 cm of an enemy: a record, and it carries on."""

    radius = 10.0

    def reactors(self, battle, side):
        return battle.enemies_of(side)

    def eligible(self, battle, reactor, mover):
        return not any(r["rule"] == self.rule and r["unit"] == mover.id for r in battle.log.records)

    def react(self, battle, mover, trigger):
        battle.record(self.rule.lower(), rule=self.rule, unit=mover.id, pos=mover.pos, firer=trigger.reactor.id)
        return sim.plugin.Outcome.CONTINUE


class _SeenA(_Seen):
    rule = "ORDER.A"


class _SeenB(_Seen):
    rule = "ORDER.B"


class _PlayA(sim.plugin.ModulePlay):
    def setup(self, battle):
        battle.referee.add(_SeenA())


class _PlayB(sim.plugin.ModulePlay):
    def setup(self, battle):
        battle.referee.add(_SeenB())


def test_reactions_at_one_instant_come_in_the_scenarios_module_order():
    """Two modules whose watches react to one mover at one instant: their records come in the
    order the scenario names the modules (the base's watches first, then each module's)."""
    sim.plugin.define_rules({"ORDER.A": "module a sees", "ORDER.B": "module b sees"})
    for name, play, rule in (("order_a", _PlayA, "ORDER.A"), ("order_b", _PlayB, "ORDER.B")):
        sim.plugin.register(sim.plugin.RuleModule(name=name, title=name, play=play,
                                                  needs=frozenset({sim.plugin.PhaseRole.MOVING}),
                                                  events=frozenset({rule.lower()}), rules=(rule,)))
    try:
        doc = {"name": "order", "base": "skirmish", "turns": 1, "sides": ["blue", "red"],
               "terrain": {"kind": "table", "width": 100, "height": 40,
                           "waypoints": {"A": [0, 20], "B": [100, 20], "R": [50, 26]}, "edges": [["A", "B"]]},
               "forces": {"blue": [{"id": "m", "at": "A", "move": 100, "orders": {"type": "advance", "to": "B"}}],
                          "red": [{"id": "r", "at": "R"}]},
               "victory": {"attacker": "blue", "destroy": False}}
        seen = {}
        for order in (["order_a", "order_b"], ["order_b", "order_a"]):
            log = sim.run(scenario_from_dict({**doc, "modules": order}), 1).log.records
            recs = [r for r in log if r["rule"] in ("ORDER.A", "ORDER.B")]
            assert len(recs) == 2 and recs[0]["t"] == recs[1]["t"] and recs[0]["pos"] == recs[1]["pos"]
            assert recs[0]["pos"] == pytest.approx((42.0, 20.0), abs=1e-9)   # 8 cm short of R's x: 6-8-10
            seen[tuple(order)] = [r["rule"] for r in recs]
        assert seen == {("order_a", "order_b"): ["ORDER.A", "ORDER.B"],
                        ("order_b", "order_a"): ["ORDER.B", "ORDER.A"]}
    finally:
        sim.plugin.unregister(sim.plugin.RuleModule, "order_a")
        sim.plugin.unregister(sim.plugin.RuleModule, "order_b")


def test_able_to_react_is_can_react_of_each_unit_whether_a_base_overrides_it_or_not():
    """``Services.able_to_react`` (what snap fire asks of its reactors) keeps, in order, the
    units ``can_react`` keeps: the kernel's rule (not busy) and a base game's own."""
    from types import SimpleNamespace

    from sim.engine.services import Services

    class Hidden(Services):
        def can_react(self, unit):
            return "hidden" not in unit.flags

    units = [SimpleNamespace(id=i, flags=flags) for i, flags in
             enumerate([set(), {"busy"}, {"hidden"}, {"busy", "hidden"}, {"pinned"}])]
    for services, kept in ((Services(None), [0, 2, 4]), (Hidden(None), [0, 1, 4])):
        assert [u.id for u in services.able_to_react(iter(units))] == kept
        assert [u.id for u in units if services.can_react(u)] == kept
