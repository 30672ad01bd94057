"""FOW — sniper teams (seed 001) and the tabletop base game: one test (at least) per rule
ID: FOW.RELOCATE, FOW.IMMOBILE, FOW.CAMO, FOW.FRIENDLY, FOW.MARKSMAN, FOW.PIN,
FOW.ESCAPE, FOW.CATCH, FOW.RESERVE, BASE.F.HIT, BASE.F.SAVE, BASE.F.FP, BASE.F.PIN,
BASE.F.ASSAULT."""
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
from sim.space.geometry import dist
from sim.systems.fow import rules as fow
from sim.toolkit import sniper_team as sn

ROOT = Path(__file__).resolve().parents[1]
CROSSING = ROOT / "scenarios" / "crossing_sniper.yaml"
FOW_IDS = ["FOW.RELOCATE", "FOW.IMMOBILE", "FOW.CAMO", "FOW.FRIENDLY", "FOW.MARKSMAN",
           "FOW.PIN", "FOW.ESCAPE", "FOW.CATCH", "FOW.RESERVE", "BASE.F.HIT",
           "BASE.F.SAVE", "BASE.F.FP", "BASE.F.PIN", "BASE.F.ASSAULT"]


@cache
def crossing():
    return load_scenario(CROSSING)


@cache
def crossing_logs():
    return [run_battle(crossing(), s).log for s in range(1, 41)]


def all_records():
    for log in crossing_logs():
        yield from log.records


def doc(waypoints, blue, red, rules=None, turns=4, areas=None):
    d = {"name": "f", "ruleset": "fow", "turns": turns, "sides": ["blue", "red"],
         "terrain": {"kind": "table", "width": 200, "height": 100,
                     "waypoints": {k: list(v) for k, v in waypoints.items()}},
         "forces": {"blue": blue, "red": red},
         "victory": {"attacker": "blue", "destroy": False}}
    if areas:
        d["terrain"]["areas"] = areas
    if rules:
        d["rules"] = rules
    return d


def test_every_fow_rule_is_implemented_and_named():
    where = {r["id"]: r["where"] for r in rule_rows()}
    for rid in FOW_IDS:
        assert where[rid], f"{rid} has no implementation"


def test_fow_relocate_roll_in_owners_movement_step():
    n = 0
    for log in crossing_logs():
        recs = log.records
        for i, r in enumerate(recs):
            if r["rule"] == "FOW.RELOCATE" and r["event"] == "relocate":
                n += 1
                assert r["phase"] == "movement" and r["side"] == "red"
                assert r["need"] == 4 and r["success"] == (r["dice"][0] >= 4)
                nxt = recs[i + 1]
                moved = nxt["event"] == "to_reserve" and nxt["rule"] == "FOW.RELOCATE"
                assert moved == r["success"]
    assert n > 0


@pytest.mark.parametrize("when", ["never", "enemy_within"])
def test_fow_relocate_policies(when):
    sc = apply_overrides(crossing(), {"rules.fow.relocate.when": when, "rules.fow.relocate.cm": 45})
    rolls = sum(len(run_battle(sc, s).log.where(rule="FOW.RELOCATE", event="relocate"))
                for s in range(1, 11))
    assert (rolls == 0) == (when == "never")


def test_fow_immobile_never_moves_and_forced_move_destroys():
    for r in all_records():
        assert not (r["event"] == "move" and r.get("unit") == "sniper")
    b = set_up(doc({"A": (0, 0), "S": (100, 50)}, [{"id": "b", "kind": "team", "at": "A"}],
                   [{"id": "s", "kind": "sniper", "at": "S", "sniper_team": {"start": "deployed"}}]))
    team = b.state.teams[0]
    b.env.process(fow.forced_move(b, team))
    b.env.run()
    assert team.state == sn.KILLED
    last = b.log.records[-1]
    assert last["event"] == "eliminate" and last["rule"] == "FOW.IMMOBILE"
    assert not b.log.where(rule="FOW.ESCAPE")        # removed from the game, no escape roll


def test_fow_camo_spot_only_within_range_and_shots_never_reveal():
    for log in crossing_logs():
        for r in log.where(event="spot"):
            assert r["rule"] == "FOW.CAMO" and r["dist"] <= 40 and r["side"] == "blue"
        # an unrevealed sniper is never shot at, and never saves: firepower test instead
        state = None
        for r in log.records:
            if r.get("unit") == "sniper" and "state" in r:
                state = r["state"]
            if r["event"] == "shoot" and r["target"] == "sniper":
                assert state == sn.REVEALED
                assert r["mods"] >= 2      # Concealed and Gone to Ground
            if r["event"] == "save":
                assert r["unit"] != "sniper"
    assert any(r["event"] == "firepower" and r["target"] == "sniper" for r in all_records())


def test_fow_friendly_no_shot_with_a_friend_within_10cm():
    b = set_up(doc({"A": (10, 50), "S": (100, 50), "F": (105, 50)},
                   [{"id": "b", "kind": "team", "at": "A"}],
                   [{"id": "f", "kind": "team", "at": "F"},
                    {"id": "s", "kind": "sniper", "at": "S", "sniper_team": {"start": "deployed"}}],
                   rules={"fow": {"sniper_range": 200}}))
    b.env.process(fow.sniper_shoots(b, b.state.teams[0]))
    b.env.run()
    assert b.log.where(event="no_shot", rule="FOW.FRIENDLY") and not b.log.where(rule="FOW.MARKSMAN")
    for log in crossing_logs():
        pos = {}
        for r in log.records:
            if r.get("unit") and r.get("pos") is not None:
                pos[r["unit"]] = r["pos"]
            if r["event"] == "sniper_shot":
                assert dist(pos["mg"], r["pos"]) > 10 or "mg" not in pos


def test_fow_marksman_reroll_logged_as_catalogue_says():
    n = 0
    for r in all_records():
        if r["rule"] == "FOW.MARKSMAN" and "dice" in r:
            n += 1
            d = r["dice"]
            assert (len(d) == 2) == (d[0] < r["need"])
            assert r["success"] == (d[-1] >= r["need"])
    assert n > 0


def test_fow_pin_every_sniper_hit_pins_the_platoon():
    for log in crossing_logs():
        recs = log.records
        for i, r in enumerate(recs):
            if r["event"] == "hit" and r["rule"] == "FOW.MARKSMAN":
                target = r["target"]
                plat = "A" if target.startswith("a") else "B"
                pins = [p for p in recs[i:i + 5] if p["event"] == "pin" and p["rule"] == "FOW.PIN"]
                was_pinned = any(p["event"] == "pin" and p.get("platoon") == plat
                                 for p in recs[:i])
                assert pins or was_pinned


def test_fow_escape_killed_on_four_plus_else_reserve():
    n = 0
    for log in crossing_logs():
        recs = log.records
        for i, r in enumerate(recs):
            if r["event"] == "escape":
                n += 1
                nxt = recs[i + 1]
                assert r["rule"] == "FOW.ESCAPE" and r["success"] == (r["dice"][0] >= 4)
                assert nxt["event"] == ("eliminate" if r["success"] else "to_reserve")
                assert nxt["state"] == (sn.KILLED if r["success"] else sn.RESERVE)
    assert n > 0


def test_fow_catch_in_assault_step_and_team_still_assaults():
    wp = {"A": (90, 50), "S": (97, 50), "M": (98, 52), "Z": (0, 0)}
    d = doc(wp, [{"id": "b", "kind": "team", "at": "A", "orders": {"type": "hold", "charge": True}}],
            [{"id": "m", "kind": "team", "at": "M", "skill": 1},
             {"id": "s", "kind": "sniper", "at": "S", "sniper_team": {"start": "deployed"}},
             {"id": "z", "kind": "team", "at": "Z"}], turns=1,
            rules={"fow": {"shoot_range": 1}})
    outcomes = set()
    for seed in range(1, 12):
        b = Battle(scenario_from_dict(d), seed).run()
        catch = b.log.where(event="catch")
        assert len(catch) == 1 and catch[0]["phase"] == "assault" and catch[0]["dist"] <= 10
        team = b.state.teams[0]
        assert team.state == (sn.KILLED if catch[0]["success"] else sn.RESERVE)
        outcomes.add(catch[0]["success"])
        # FOW.CATCH: the attempt does not stop the team assaulting later in the step
        assert b.log.where(event="assault_after_catch", unit="b")
        assert b.log.where(event="assault", unit="b")
    assert outcomes == {True, False}


def test_fow_reserve_deploys_at_candidates_at_owner_turn_start():
    for log in crossing_logs():
        for r in log.where(event="deploy"):
            assert r["rule"] == "FOW.RESERVE" and r["side"] == "red" and r["phase"] == "movement"
            assert r["node"] in ("HIDE_RUIN", "HIDE_WOOD", "HIDE_HEDGE", "HIDE_NEAR")
            assert r["t"] == (r["turn"] - 1) * 3.0         # at the start of the turn


def test_fow_reserve_random_redeploy_uses_several_hides():
    sc = apply_overrides(crossing(), {"rules.fow.redeploy": "random"})
    nodes = {r["node"] for s in range(1, 21) for r in run_battle(sc, s).log.where(event="deploy")}
    assert len(nodes) >= 3


def test_fow_candidate_off_map_is_input_error():
    d = doc({"A": (0, 0), "S": (100, 50)}, [{"id": "b", "kind": "team", "at": "A"}],
            [{"id": "s", "kind": "sniper", "at": "S", "sniper_team": {"candidates": ["NOPE"]}}])
    with pytest.raises(InputError, match="candidate"):
        set_up(d)


def test_base_f_rolls_audit():
    seen = set()
    for r in all_records():
        if r["rule"] in ("BASE.F.HIT", "BASE.F.SAVE", "BASE.F.FP", "BASE.F.PIN", "BASE.F.ASSAULT") \
                and "dice" in r:
            seen.add(r["rule"])
            assert len(r["dice"]) == 1 and r["success"] == (r["dice"][0] >= r["need"])
            if r["rule"] == "BASE.F.HIT":
                assert r["need"] <= 6 and 0 <= r["mods"] <= 3
    assert seen == {"BASE.F.HIT", "BASE.F.SAVE", "BASE.F.FP", "BASE.F.PIN", "BASE.F.ASSAULT"}


def test_base_f_pin_pinned_platoons_do_not_move():
    for log in crossing_logs():
        pinned = set()
        for r in log.records:
            if r["event"] == "pin":
                pinned.add(r["unit"])
            elif r["event"] == "rally" and r["success"]:
                plat = r["platoon"]
                pinned = {u for u in pinned if not (u.startswith("a") if plat == "A" else u.startswith("h"))}
            elif r["event"] == "move" and r["phase"] == "movement":
                assert r["unit"] not in pinned
