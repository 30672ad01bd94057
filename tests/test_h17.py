"""H17 — hex wargame snipers (seed 000) and the hex base game: one test (at least) per
rule ID: H17.1, H17.1s, H17.2a, H17.2b, H17.2c, H17.3, H17.4, H17.5, H17.6a, H17.6b,
H17.6c, BASE.H.AP, BASE.H.CP, BASE.H.PIN."""
from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from conftest import set_up
from sim.cli.rules import rule_rows
from sim.engine.battle import Battle
from sim.errors import InputError
from sim.replication import run_battle
from sim.scenario.load import apply_overrides, load_scenario, scenario_from_dict
from sim.systems.h17 import hex_combat
from sim.systems.h17 import rules as h17
from sim.toolkit import sniper_team as sn

ROOT = Path(__file__).resolve().parents[1]
VILLAGE = ROOT / "scenarios" / "village_sniper.yaml"
H17_IDS = ["H17.1", "H17.1s", "H17.2a", "H17.2b", "H17.2c", "H17.3", "H17.4", "H17.5",
           "H17.6a", "H17.6b", "H17.6c", "BASE.H.AP", "BASE.H.CP", "BASE.H.PIN"]


@cache
def village():
    return load_scenario(VILLAGE)


@cache
def village_logs():
    return [run_battle(village(), s).log for s in range(1, 41)]


def doc(rows, blue, red, rules=None, turns=4, types=None):
    d = {"name": "h", "ruleset": "h17", "turns": turns, "sides": ["blue", "red"],
         "terrain": {"kind": "hex", "rows": rows}, "forces": {"blue": blue, "red": red},
         "victory": {"attacker": "blue", "destroy": False}}
    if types:
        d["terrain"]["types"] = types
    if rules:
        d["rules"] = rules
    return d


class FixedDice:
    """Dice that return the given faces for a rule, else defer to the real ones."""

    def __init__(self, real, faces: dict):
        self.real, self.faces = real, faces

    def roll(self, unit, rule, n=1, sides=6):
        if rule in self.faces:
            return list(self.faces[rule][:n])
        return self.real.roll(unit, rule, n, sides)

    def uniform(self, unit, rule):
        return self.real.uniform(unit, rule)


def test_every_h17_rule_is_implemented_and_named():
    where = {r["id"]: r["where"] for r in rule_rows()}
    for rid in H17_IDS:
        assert where[rid], f"{rid} has no implementation"


def test_h17_1_at_most_one_sniper_per_side():
    d = doc(["W..."], [{"id": "b", "at": "3,0"}],
            [{"id": "s1", "kind": "sniper", "at": "0,0"}, {"id": "s2", "kind": "sniper", "at": "1,0"}])
    with pytest.raises(InputError, match="H17.1"):
        set_up(d)


def test_h17_1_sniper_is_off_board_until_activated_and_stays_in_its_hex():
    b = set_up(doc(["W..."], [{"id": "b", "at": "3,0"}], [{"id": "s", "kind": "sniper", "at": "0,0"}]))
    team = b.state.teams[0]
    assert team.state == sn.OFF_BOARD and not team.unit.on_board
    assert b.enemies_of("blue") == []       # not in play
    for log in village_logs():
        nodes = {}
        for r in log.records:
            if r.get("unit") == "sniper" and r["event"] == "deploy":
                nodes = {"at": r["node"]}
            elif r.get("unit") == "sniper" and r["event"] in ("sniper_attack", "opportunity_fire"):
                assert r["node"] == nodes["at"]


def test_h17_1s_sniper_never_spots_for_support():
    b = set_up(doc(["W..."], [{"id": "b", "at": "3,0"}], [{"id": "s", "kind": "sniper", "at": "0,0"}]))
    for support in ("mortar", "artillery", "air"):
        assert h17.can_spot_for(b.state.teams[0], support) is False


def test_h17_2a_activation_follows_a_natural_twelve_with_its_dice():
    n = 0
    for log in village_logs():
        recs = log.records
        for i, r in enumerate(recs):
            if r["event"] != "activate":
                continue
            n += 1
            attack = [a for a in recs[:i] if a["rule"] == "BASE.H.AP"][-1]
            assert r["rule"] == "H17.2a" and r["dice"] == attack["dice"] == [6, 6]
            assert r["by"] == [attack["unit"]] and r["phase"] == "fire" and r["side"] == "blue"
            assert r["t"] == attack["t"]
    assert n > 0


def test_h17_2a_only_infantry_activates_and_only_when_available():
    b = set_up(doc([".W.."], [{"id": "v", "kind": "vehicle", "at": "3,0"}],
                   [{"id": "s", "kind": "sniper", "at": "1,0"}]))
    b.env.process(h17.natural_twelve(b, b.units["v"], {"natural12": True, "dice": [6, 6], "t": 0}))
    b.env.run()
    assert b.state.teams[0].state == sn.OFF_BOARD and not b.log.where(event="activate")


@pytest.mark.parametrize("policy", ["best_cover", "nearest", "random"])
def test_h17_2b_placement_in_los_within_six_with_cover(policy):
    rows = ["..........", ".H..W...B.", "..........", "....XW...."]
    b = set_up(doc(rows, [{"id": "b", "at": "0,0"}], [{"id": "s", "kind": "sniper", "at": "9,0"}],
                   rules={"h17": {"placement": policy}}))
    team, act = b.state.teams[0], b.units["b"]
    node, fields = h17.placement(b, team, act)
    t = b.terrain
    assert t.distance(node, act.node) <= 6 and t.los(node, act.node)
    assert t.cover_modifier(node, act.node) == fields["cover"] > 0
    if policy == "best_cover":
        assert fields["cover"] == max(t.cover_modifier(n, act.node) for n in t.within(act.node, 6)
                                      if t.los(n, act.node) and t.graph.nodes[n]["passable"])
    if policy == "nearest":
        assert fields["dist"] == min(t.distance(n, act.node) for n in t.within(act.node, 6)
                                     if t.los(n, act.node) and t.cover_modifier(n, act.node) > 0
                                     and n != act.node)


def test_h17_2b_no_cover_hex_means_no_activation():
    b = set_up(doc(["......", "......"], [{"id": "b", "at": "0,0"}],
                   [{"id": "r", "at": "5,1"}, {"id": "s", "kind": "sniper", "at": "5,0"}]))
    b.env.process(h17.natural_twelve(b, b.units["b"], {"natural12": True, "dice": [6, 6], "t": 0}))
    b.env.run()
    assert b.state.teams[0].state == sn.OFF_BOARD
    assert b.log.where(event="no_activation", rule="H17.2b")
    assert not b.log.where(event="activate")


def test_h17_2c_sniper_attacks_the_activating_hex_at_once():
    n = 0
    for log in village_logs():
        recs = log.records
        for i, r in enumerate(recs):
            if r["event"] == "activate":
                atk = next(a for a in recs[i:] if a["event"] == "sniper_attack")
                assert atk["trigger"] == "H17.2c" and atk["t"] == r["t"]
                assert r["by"][0] in atk["targets"]
                n += 1
    assert n > 0


@pytest.mark.parametrize("when", ["never", "after_attacks", "enemy_within"])
def test_h17_3_withdrawal_policy_in_after_action(when):
    sc = apply_overrides(village(), {"rules.h17.withdraw.when": when,
                                     "rules.h17.withdraw.attacks": 1,
                                     "rules.h17.withdraw.hexes": 3})
    total = checked = 0
    for seed in range(1, 25):
        log = run_battle(sc, seed).log
        for r in log.where(event="withdraw"):
            total += 1
            assert r["rule"] == "H17.3" and r["phase"] == "after_action" and r["policy"] == when
        if when != "after_attacks":
            continue
        # After one attack (attacks: 1) the sniper is withdrawn in the first After-Action
        # Phase that follows ("any" After-Action Phase), unless it is eliminated first;
        # a battle that ends before that phase decides nothing.
        recs = log.records
        for i, r in enumerate(recs):
            if r.get("unit") != "sniper" or r["event"] != "sniper_attack":
                continue
            after = recs[i + 1:]
            aa = next((a for a in after if a["phase"] == "after_action"), None)
            if aa is None:
                continue
            fate = next(a for a in after if a.get("unit") == "sniper"
                        and a["event"] in ("withdraw", "eliminate"))
            if fate["event"] == "withdraw":
                assert (fate["turn"], fate["phase"]) == (aa["turn"], "after_action")
            else:
                assert fate["t"] <= aa["t"] and recs.index(fate) < recs.index(aa)
            checked += 1
    if when == "never":
        assert total == 0
    else:
        assert total > 0
    if when == "after_attacks":
        assert checked > 0


def test_h17_3_withdrawn_sniper_needs_a_new_natural_twelve():
    sc = apply_overrides(village(), {"rules.h17.withdraw.when": "after_attacks",
                                     "rules.h17.withdraw.attacks": 1})
    for seed in range(1, 25):
        events = [r for r in run_battle(sc, seed).log.records if r.get("unit") == "sniper"]
        for a, b in zip(events, events[1:]):
            if a["event"] == "withdraw":
                assert b["event"] == "activate"


def test_h17_4_opportunity_fire_once_per_turn_in_enemy_movement():
    rows = [".........", "....H....", "........."]
    d = doc(rows, [{"id": "b1", "at": "0,0", "move": 8, "steps": 10,
                    "orders": {"type": "advance", "to": "8,0"}},
                   {"id": "b2", "at": "0,2", "move": 8, "steps": 10,
                    "orders": {"type": "advance", "to": "7,2"}}],
            [{"id": "s", "kind": "sniper", "at": "4,1", "sniper_team": {"start": "deployed"}}],
            turns=4, types={"H": {"cover": 6, "hindrance": 0}})
    b = Battle(scenario_from_dict(d), 3).run()
    fires = b.log.where(event="opportunity_fire")
    assert fires, "the sniper should fire on the movers"
    turns = [r["turn"] for r in fires]
    assert len(turns) == len(set(turns))                     # once per turn (Fire marker)
    t = b.terrain
    for r in fires:
        assert r["rule"] == "H17.4" and r["phase"] == "movement" and r["side"] == "blue"
        assert r["dist"] <= 6 and t.los(r["target_node"], r["node"])
        atk = next(a for a in b.log.records if a["event"] == "sniper_attack" and a["t"] == r["t"])
        assert atk["trigger"] == "H17.4"


def test_h17_5_woods_example_roll_five_gives_three_cp():
    rows = ["W.H.", "...."]
    b = set_up(doc(rows, [{"id": "b", "at": "0,0", "steps": 5}],
                   [{"id": "s", "kind": "sniper", "at": "2,0", "sniper_team": {"start": "deployed"}}]))
    b.dice = FixedDice(b.dice, {"H17.5": [5], "H17.6a": [1]})
    team = b.state.teams[0]
    rec = h17.sniper_attack(b, team, "0,0", [b.units["b"]], trigger="H17.4")
    assert rec["need"] == 2 + b.terrain.hindrance("2,0", "0,0")
    assert rec["need"] == 2 and rec["cp"] == 3 and rec["success"]
    hit = b.log.where(event="hit")[0]
    assert hit["rule"] == "BASE.H.CP" and hit["cp"] == 3 and hit["steps_left"] == 2


def test_h17_6a_check_needs_an_unpinned_target_and_beats_sniper_cover():
    rows = ["..B.", "...."]
    d = doc(rows, [{"id": "b", "at": "0,0", "steps": 5}, {"id": "b2", "at": "0,0", "steps": 5}],
            [{"id": "s", "kind": "sniper", "at": "2,0", "sniper_team": {"start": "deployed"}}])
    b = set_up(d)
    team = b.state.teams[0]
    for u in (b.units["b"], b.units["b2"]):
        u.flags.add("pinned")
    b.env.process(h17.elimination_check(b, team, "0,0", [b.units["b"], b.units["b2"]]))
    b.env.run()
    assert b.log.where(event="no_elimination_check", rule="H17.6a") and team.on_board
    b.units["b2"].flags.discard("pinned")
    b.dice = FixedDice(b.dice, {"H17.6a": [4]})
    b.env.process(h17.elimination_check(b, team, "0,0", [b.units["b"], b.units["b2"]]))
    b.env.run()
    chk = b.log.where(event="elimination_check")[0]
    assert chk["unit"] == "b2" and chk["need"] == 3 and chk["success"]
    assert team.state == sn.ELIMINATED
    assert b.log.records[-1]["event"] == "eliminate" and b.log.records[-1]["rule"] == "H17.6a"


def test_h17_6b_entering_the_sniper_hex_eliminates_it():
    rows = ["......"]
    # a vehicle: no opportunity fire at it (H17.4 is against infantry), it just drives in
    d = doc(rows, [{"id": "b", "kind": "vehicle", "at": "0,0", "move": 6, "steps": 20,
                    "orders": {"type": "advance", "to": "5,0"}}],
            [{"id": "s", "kind": "sniper", "at": "3,0", "sniper_team": {"start": "deployed"}}],
            types={".": {"cover": 1}})
    b = Battle(scenario_from_dict(d), 2).run()
    elim = [r for r in b.log.records if r["event"] == "eliminate" and r["unit"] == "s"]
    assert elim and elim[0]["rule"] == "H17.6b" and elim[0]["by"] == "b"
    assert b.state.teams[0].state == sn.ELIMINATED
    assert b.log.where(event="arrive", unit="b")          # the mover went on


def test_h17_6c_eliminated_sniper_is_never_available_again():
    for log in village_logs():
        ev = [r["event"] for r in log.records if r.get("unit") == "sniper"]
        if "eliminate" in ev:
            assert "activate" not in ev[ev.index("eliminate"):]
    assert not sn.TRANSITIONS[sn.ELIMINATED]


def test_base_h_ap_cp_pin_rolls_audit():
    n = {"BASE.H.AP": 0, "BASE.H.PIN": 0, "BASE.H.CP": 0}
    for log in village_logs():
        for r in log.records:
            if r["rule"] == "BASE.H.AP":
                n["BASE.H.AP"] += 1
                assert r["success"] == (sum(r["dice"]) + r["mods"] >= r["need"])
                assert r["natural12"] == (r["dice"] == [6, 6])
            elif r["rule"] == "BASE.H.PIN" and "dice" in r:
                n["BASE.H.PIN"] += 1
                assert r["success"] == (r["dice"][0] >= r["need"])
            elif r["rule"] == "BASE.H.CP" and r["event"] == "hit":
                n["BASE.H.CP"] += 1
                assert r["cp"] >= 1 and r["steps_left"] >= 0
    assert all(n.values())


def test_base_h_cp_per_step_and_pin():
    rows = ["....", "...."]
    d = doc(rows, [{"id": "b", "at": "0,0", "steps": 3}, {"id": "c", "at": "0,0", "steps": 2}],
            [{"id": "r", "at": "3,1"}], rules={"h17": {"cp_per_step": 2}})
    b = set_up(d)
    hex_combat.apply_cp(b, [b.units["b"], b.units["c"]], 3, cause="test")
    # Each CP goes to the unit with most steps left (ties: id): b, b (2 CPs: b loses a
    # step, 3 -> 2), then b again (2 = 2, id 'b' < 'c'): one CP held over on b.
    assert (b.units["b"].steps, b.units["c"].steps) == (2, 2)
    hits = b.log.where(event="hit")
    assert [(h["unit"], h["cp"], h["steps_lost"]) for h in hits] == [("b", 3, 1)]
    pins = b.log.where(event="pin", rule="BASE.H.PIN")
    assert len(pins) == 1
