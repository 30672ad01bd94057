"""Policies per side, group or unit (issue 14): charge steps, reaction taking, H17.3
withdrawal and FOW.RELOCATE set for one sniper, a policy registered from Python, and the
load-time checks that keep every policy setting read."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from conftest import build, recs, run, scenario, table, unit
from invariants import check_battle
from sim.errors import InputError
from sim.scenario.yamlfile import read_yaml

ROOT = Path(__file__).resolve().parents[1]
QUIET = {"base": {"shoot_range": 0, "charge_range": 0}}


def shipped(name: str) -> dict:
    data, _ = read_yaml(ROOT / "scenarios" / name)
    return data


def lines(data: dict, seed: int) -> list[str]:
    return list(run(data, seed).log.lines())


# -- a charge is a movement step ------------------------------------------------------------
def test_a_charge_step_is_an_advance_that_charges():
    wp = {"A": (0.0, 50.0), "B": (60.0, 50.0), "E": (70.0, 50.0)}

    def battle(orders):
        return scenario(table(wp, [("A", "B"), ("B", "E")]), [unit("b", "A", move=30, orders=orders)],
                        [unit("e", "E")], turns=4, rules={"base": {"shoot_range": 0}})

    charged = battle({"type": "charge", "to": "E"})
    flag = battle({"type": "advance", "to": "E", "charge": True})
    plain = battle({"type": "advance", "to": "E"})
    assert lines(charged, 2) == lines(flag, 2)
    assert recs(run(charged, 2), rule="BASE.S.ASSAULT")          # it charges home
    assert not recs(run(plain, 2), rule="BASE.S.ASSAULT")        # without the flag it would not
    bad = battle({"type": "charge", "to": "E", "charge": False})
    with pytest.raises(InputError, match="charges"):
        build(bad)


def test_a_charge_step_is_refused_where_no_rule_reads_it():
    data = shipped("village_sniper.yaml")
    data["forces"]["blue"][0]["orders"] = {"type": "charge", "to": "12,4"}
    with pytest.raises(InputError, match=r"forces\.blue\.0\.orders\.type"):
        build(data)


# -- taking a reaction: a unit's own policy before its side's --------------------------------
def snap_lane(policies=None, take=None):
    wp = {"A": (0.0, 50.0), "B": (100.0, 50.0), "S": (50.0, 55.0), "T": (50.0, 45.0)}
    data = scenario(table(wp, [("A", "B")]), [unit("b", "A", move=200, armour=6, steps=9,
                                                   orders={"type": "advance", "to": "B"})],
                    [unit("s1", "S", armour=6), unit("s2", "T", armour=6)], turns=1,
                    rules=copy.deepcopy(QUIET), destroy=False)
    if take:
        data["rules"]["snapfire"] = {"take_reactions": take}
    if policies:
        data["policies"] = policies
    return data


def test_a_units_reaction_policy_comes_before_its_sides():
    """Both red posts may snap fire at b; red's side policy takes every one, s1's own
    policy declines: s2 fires, s1 logs its decline."""
    both = run(snap_lane(take={"red": {"policy": "always"}}))
    assert {r["unit"] for r in recs(both, rule="SF.ROLL")} == {"s1", "s2"}
    one = run(snap_lane(take={"red": {"policy": "always"}},
                        policies={"s1": {"take_reaction": {"policy": "never"}}}))
    assert {r["unit"] for r in recs(one, rule="SF.ROLL")} == {"s2"}
    choices = {r["unit"]: (r["policy"], r["choice"]) for r in recs(one, event="decide")}
    assert choices == {"s1": ("never", "decline"), "s2": ("always", "take")}
    check_battle(one)


def test_a_zone_of_control_has_no_reaction_to_decline():
    data = snap_lane(policies={"s1": {"take_reaction": {"policy": "never"}}})
    data["rules"]["snapfire"] = {"reaction": "zoc"}
    with pytest.raises(InputError, match=r"policies\.s1\.take_reaction.*zone of control"):
        build(data)


# -- sniper policies for one sniper ----------------------------------------------------------
def test_a_withdrawal_policy_set_for_the_sniper_is_the_scenarios_knob():
    """village_sniper withdraws its sniper by ``rules.h17.withdraw``; the same policy set
    for the sniper (or its side) in ``policies`` is the same battle; set for nobody, the
    sniper never withdraws."""
    knob = shipped("village_sniper.yaml")
    own = copy.deepcopy(knob)
    policy = own["rules"]["h17"].pop("withdraw")
    own["policies"] = {"sniper": {"withdraw": policy}}
    side = copy.deepcopy(own)
    side["policies"] = {"red": {"withdraw": policy}}
    none = copy.deepcopy(own)
    del none["policies"]
    withdrew = 0
    for seed in range(1, 9):
        base = lines(knob, seed)
        assert lines(own, seed) == base and lines(side, seed) == base, seed
        withdrew += any('"withdraw"' in line for line in base)
        assert not any('"event":"withdraw"' in line for line in lines(none, seed)), seed
    assert withdrew > 0


def test_a_relocation_policy_set_for_the_team_is_the_scenarios_knob():
    knob = shipped("crossing_sniper.yaml")
    knob.setdefault("rules", {}).setdefault("fow", {})["relocate"] = {"when": "never"}
    own = shipped("crossing_sniper.yaml")
    sniper = next(u["id"] for u in own["forces"]["red"] if u.get("kind") == "sniper")
    own["policies"] = {sniper: {"relocate": {"when": "never"}}}
    default = shipped("crossing_sniper.yaml")
    moved_default = 0
    for seed in range(1, 9):
        assert lines(own, seed) == lines(knob, seed), seed
        assert not any('"relocate"' in line for line in lines(own, seed)), seed
        moved_default += any('"relocate"' in line for line in lines(default, seed))
    assert moved_default > 0     # the default policy does relocate: the override did something


@pytest.mark.parametrize("name,key,who", [("village_sniper.yaml", "withdraw", "sq1"),
                                          ("crossing_sniper.yaml", "relocate", "blue")])
def test_a_sniper_policy_for_a_unit_without_a_sniper_is_refused(name, key, who):
    data = shipped(name)
    data["policies"] = {who: {key: {"when": "never"}}}
    with pytest.raises(InputError, match=rf"policies\.{who}\.{key}.*no sniper"):
        build(data)


def test_a_sniper_policy_is_refused_under_a_system_without_snipers():
    data = snap_lane(policies={"red": {"withdraw": {"when": "never"}}})
    with pytest.raises(InputError, match=r"policies\.red\.withdraw"):
        build(data)


# -- a policy from a notebook ----------------------------------------------------------------
def test_a_target_policy_registered_from_python_is_used_and_checked():
    from sim.experimental import Behaviour, register_behaviour, unregister_behaviour

    wp = {"A": (0.0, 50.0), "N": (20.0, 50.0), "F": (35.0, 50.0)}
    data = scenario(table(wp), [unit("b", "A")], [unit("near", "N"), unit("far", "F")], turns=1,
                    destroy=False)
    data["policies"] = {"b": {"target": {"policy": "farthest"}}}
    with pytest.raises(InputError, match="farthest"):
        build(data)
    register_behaviour(Behaviour("target", "farthest",
                                 lambda found, p: max(found, key=lambda c: (c[0], c[1].id))[1],
                                 "the farthest enemy in range and sight"))
    try:
        shot = recs(run(data), rule="BASE.S.SHOOT")[0]
        assert shot["target"] == "far"
    finally:
        unregister_behaviour("target", "farthest")


# -- policy settings: what is refused, what is kept for a sweep -----------------------------
@pytest.mark.parametrize("policy,place,words", [
    ({"target": {"policy": "priority"}}, "policies.blue.target", "needs 'kinds'"),
    ({"target": {"policy": "priority", "kinds": ["tank"]}}, "policies.blue.target.kinds.0",
     "no unit of kind 'tank'"),
    ({"on_halted": {"policy": "go_to_ground"}}, "policies.blue.on_halted", "never halts a unit"),
])
def test_a_policy_that_could_never_act_is_refused(policy, place, words):
    data = snap_lane(policies={"blue": policy})
    if "on_halted" in policy:   # fow never halts a unit
        data = shipped("crossing_sniper.yaml")
        data["policies"] = {"blue": policy}
    with pytest.raises(InputError) as err:
        build(data)
    assert place in str(err.value) and words in str(err.value), str(err.value)


def test_a_parameter_the_chosen_policy_does_not_read_is_kept_for_a_sweep():
    """A study swaps the policy and keeps its parameters (as rules.fow.relocate.cm under
    `when: never`): `turns` under fall_back is inactive, not an error, and the battle is
    the one without it."""
    with_turns = snap_lane(policies={"b": {"on_fired": {"policy": "fall_back", "turns": 3}}})
    without = snap_lane(policies={"b": {"on_fired": {"policy": "fall_back"}}})
    assert lines(with_turns, 1) == lines(without, 1)


# -- target policies under every system's indexed target search -----------------------------
def _fow_targets(policy):
    d = {"name": "f", "ruleset": "fow", "turns": 1, "sides": ["blue", "red"],
         "terrain": {"kind": "table", "width": 200, "height": 100,
                     "waypoints": {"A": [0, 50], "N": [10, 50], "F": [18, 50]}},
         "forces": {"blue": [{"id": "b", "kind": "team", "at": "A"}],
                    "red": [{"id": "strong", "kind": "team", "at": "N", "steps": 4},
                            {"id": "weak", "kind": "team", "at": "F", "steps": 1}]},
         "victory": {"attacker": "blue", "destroy": False}}
    return d, "BASE.F.HIT"


def _h17_targets(policy):
    d = {"name": "h", "ruleset": "h17", "turns": 1, "sides": ["blue", "red"],
         "terrain": {"kind": "hex", "rows": ["........."]},
         "forces": {"blue": [{"id": "b", "at": "0,0"}],
                    "red": [{"id": "strong", "at": "1,0", "steps": 4},
                            {"id": "weak", "at": "3,0", "steps": 1}]},
         "victory": {"attacker": "blue", "destroy": False}}
    return d, "BASE.H.AP"


@pytest.mark.parametrize("make", [_fow_targets, _h17_targets], ids=["fow", "h17"])
def test_a_target_policy_chooses_among_every_enemy_in_reach_in_fow_and_h17(make):
    """The fast search (nearest first, sight only until one is seen) serves units without
    a target policy; a unit with one gets every visible enemy in range to choose from."""
    from sim.engine.battle import Battle
    from sim.scenario.load import scenario_from_dict

    for policy, want in ((None, "strong"), ("weakest", "weak")):
        data, rule = make(policy)
        if policy:
            data["policies"] = {"blue": {"target": {"policy": policy}}}
        b = Battle(scenario_from_dict(data), 1).run()
        shots = [r for r in b.log.records if r["rule"] == rule and r.get("unit") == "b"]
        assert shots and shots[0]["target"] == want, (policy, shots[:1])
        decides = [r for r in b.log.records if r["event"] == "decide" and r.get("unit") == "b"]
        assert [d["candidates"] for d in decides] == ([] if policy is None else [["strong", "weak"]])
