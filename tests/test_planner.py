"""The ``mcts`` planner (``policies.<side>.decide``): it picks the clearly best action in a
tiny kill zone, is deterministic for a seed, spends exactly its rollouts, leaves the log
before its first decision the plain scenario's byte for byte, keeps the event-log
invariants, and its bad knobs are refused."""
from __future__ import annotations

import pytest

import sim
import sim.plugin as sp
from conftest import SCENARIOS
from invariants import check
from sim.cli import main
from sim.errors import InputError
from sim.planner import rollout as rollout_module
from sim.scenario.load import apply_overrides

# b1 walks into r1's range (20) and one hit kills it; holding keeps it out of range, and
# the battle ends after red's turn 2: blue (the defender) wins unless b1 is destroyed.
KILL_ZONE = """
name: kill_zone
ruleset: snapfire
turns: 2
sides: [blue, red]
terrain:
  kind: table
  width: 60
  height: 20
  grid: {spacing: 10}
  waypoints: {ZONE: [40, 10], R: [50, 10], OBJ: [55, 10]}
forces:
  blue:
    - {id: b1, at: "2,1", steps: 1, armour: 3, move: 15, orders: {type: advance, to: ZONE}}
  red:
    - {id: r1, at: R, steps: 3, armour: 5}
victory: {attacker: red, objective: OBJ}
rules:
  base: {shoot_range: 20}
"""


@pytest.fixture
def kill_zone(tmp_path):
    path = tmp_path / "kill_zone.yaml"
    path.write_text(KILL_ZONE)
    return path


def _planning(scenario, **knobs):
    return apply_overrides(scenario, {"policies": {"blue": {"decide": {"policy": "mcts", **knobs}}}})


def _summaries(log):
    return [r for r in log.records if r["event"] == "decide" and "rollouts" in r]


def test_the_planner_holds_rather_than_walk_into_the_kill_zone(kill_zone):
    plain = sim.load_scenario(str(kill_zone))
    assert sum(sim.run(plain, s).winner == "red" for s in range(40)) > 0   # the plan can die
    for seed in range(5):
        result = sim.run(_planning(plain, rollouts=12, depth=1), seed)
        (first,) = _summaries(result.log)
        assert first["choice"] == "b1: hold" and first["actions"] == ["hold"]
        assert first["values"]["b1: hold"] == 1.0 > first["values"]["b1: plan"]
        assert result.winner == "blue"


def test_deterministic_for_a_seed_and_the_budget_is_spent_exactly(kill_zone, monkeypatch):
    plain = sim.load_scenario(str(SCENARIOS / "platoon_attack.yaml"))
    scenario = _planning(apply_overrides(plain, {"turns": 6}), rollouts=3, depth=2, by="side")
    calls = []
    real = rollout_module.Rollout.run
    monkeypatch.setattr(rollout_module.Rollout, "run", lambda self, plan, dice: calls.append(dice) or
                        real(self, plan, dice))
    a = sim.run(scenario, 7)
    spent = len(calls)
    b = sim.run(scenario, 7)
    assert list(a.log.lines()) == list(b.log.lines())
    summaries = _summaries(a.log)
    assert len(summaries) == 3 and all(r["rollouts"] == 3 for r in summaries)
    assert spent == 9 and len(calls) == 18
    assert all(sum(r["visits"].values()) == 3 for r in summaries)


def test_the_log_before_the_first_decision_is_the_plain_battles(kill_zone):
    plain = apply_overrides(sim.load_scenario(str(SCENARIOS / "platoon_attack.yaml")), {"turns": 6})
    planned = _planning(plain, rollouts=2, depth=1)
    for seed in (1, 2):
        a, b = list(sim.run(plain, seed).log.lines()), sim.run(planned, seed)
        first = next(i for i, r in enumerate(b.log.records) if r["event"] == "decide" and "rollouts" in r)
        assert first > 0 and list(b.log.lines())[:first] == a[:first]
        check(planned, b.log.records)
    result = sim.run(_planning(sim.load_scenario(str(kill_zone)), rollouts=4), 3)
    check(sim.load_scenario(str(kill_zone)), result.log.records)


def test_a_rollout_replays_the_real_battle_to_the_decision(kill_zone):
    plain = apply_overrides(sim.load_scenario(str(SCENARIOS / "platoon_attack.yaml")), {"turns": 8})
    planned = _planning(plain, rollouts=2, depth=1, by="side")
    real = sim.run(planned, 5)
    lines = list(real.log.lines())
    last = _summaries(real.log)[-1]
    index = real.log.records.index(last)
    seen = {}
    original = rollout_module.Replay.run

    def keep(self):
        out = original(self)
        seen["lines"] = list(out.log.lines())
        return out

    rollout_module.Replay.run = keep
    try:
        from sim.engine.battle import Battle
        battle = Battle(planned, 5)
        battle.log.records.extend(real.log.records[:index])
        rollout_module.Rollout(battle, "blue", last["controls"], last["turn"], planned.policies["blue"].decide) \
            .run([tuple(last["actions"])], 1)
    finally:
        rollout_module.Replay.run = original
    assert index > 0 and seen["lines"][:index] == lines[:index]   # the decision: its summary is the real one's


@pytest.mark.parametrize(("knob", "value"), [("rollouts", 0), ("rollouts", 1.5), ("depth", 0),
                                             ("exploration", -1), ("seconds", 0), ("by", "army"),
                                             ("policy", "minimax"), ("horizon", 0), ("material", "x")])
def test_bad_knobs_are_refused_with_one_line(kill_zone, tmp_path, capsys, knob, value):
    decide = {"policy": "mcts", knob: value}
    with pytest.raises(InputError, match=f"decide.{knob}|decide"):
        apply_overrides(sim.load_scenario(str(kill_zone)), {"policies": {"blue": {"decide": decide}}})
    bad = tmp_path / "bad.yaml"
    bad.write_text(KILL_ZONE + f"policies:\n  blue:\n    decide: {{policy: mcts, {knob}: {value!r}}}\n"
                   if knob != "policy" else KILL_ZONE + f"policies:\n  blue:\n    decide: {{policy: {value}}}\n")
    assert main(["validate", str(bad)]) == 2
    err = capsys.readouterr().err.strip().split("\n")
    assert len(err) == 1 and "decide" in err[0] and str(bad) in err[0]


def test_a_planner_is_a_sides_and_cannot_be_branched(kill_zone):
    plain = sim.load_scenario(str(kill_zone))
    with pytest.raises(InputError, match="is not a side"):
        apply_overrides(plain, {"policies": {"b1": {"decide": {"policy": "mcts"}}}})
    with pytest.raises(InputError, match="cannot also be branched"):
        sim.branch(_planning(plain, rollouts=2), 1, at={"turn": 1}, branches={"trunk": {}})


def test_a_seconds_budget_spends_at_least_one_rollout_and_never_more_than_rollouts(kill_zone):
    result = sim.run(_planning(sim.load_scenario(str(kill_zone)), rollouts=6, seconds=1e-9, depth=1), 2)
    (summary,) = _summaries(result.log)
    assert summary["rollouts"] == 1 and sum(summary["visits"].values()) == 1
    check(sim.load_scenario(str(kill_zone)), result.log.records)


def test_more_choices_than_the_planner_takes_is_refused_by_validate_run_and_study_before_any_battle(
        tmp_path, capsys, monkeypatch):
    import yaml

    from sim.engine.battle import Battle

    doc = yaml.safe_load((SCENARIOS / "platoon_attack.yaml").read_text())   # blue: six units, two groups
    doc.setdefault("policies", {}).setdefault("blue", {})["decide"] = {"policy": "mcts", "by": "unit"}
    scenario = tmp_path / "planning.yaml"
    scenario.write_text(yaml.safe_dump(doc, sort_keys=False))
    study = tmp_path / "study.yaml"
    study.write_text(f"study: s\nscenario: {scenario}\nseed: 1\nreplications: 2\nvariants: {{a: {{}}}}\n")

    def no_battle(*args, **kwargs):
        raise AssertionError("a battle was built")

    monkeypatch.setattr(Battle, "__init__", no_battle)
    for command in (["validate", str(scenario)], ["validate", str(study)], ["run", str(scenario)],
                    ["study", str(study), "--workers", "1"]):
        assert main(command) == 2, command
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and f"{scenario}: line " in err[0] and "key policies.blue.decide.by: 6 choices" in err[0]
    doc["policies"]["blue"]["decide"]["by"] = "group"   # two choices: it loads
    sim.scenario_from_dict(doc)


def test_a_groups_choice_tells_only_the_sides_units(kill_zone):
    from sim.gym import BattleEnv
    from sim.planner import controls_of

    plain = sim.load_scenario(str(kill_zone))
    forces = plain.raw["forces"]
    extra = {"forces.blue": [*forces["blue"], {"id": "b2", "at": "2,1", "steps": 1, "armour": 3}],
             "forces.red": [*forces["red"], {"id": "r2", "at": "R", "steps": 1, "armour": 3}]}
    for units in (["r2", "b2"], ["b2", "r2"]):   # a group may hold both sides' units
        mixed = apply_overrides(plain, {**extra, "groups": {"g": {"units": units, "plan": [{"type": "hold"}]}}})
        assert controls_of(mixed, "blue", "group") == [["b1"], ["b2"]]
        assert controls_of(mixed, "red", "group") == [["r1"], ["r2"]]
        assert BattleEnv(mixed, side="blue", by="group").controls == [["b1"], ["b2"]]


def test_a_behaviours_check_must_be_callable():
    from sim.agents.choices import DECIDE
    from sim.planner.mcts import mcts

    with pytest.raises(sim.PluginError, match="'check'"):
        sp.register(sp.Behaviour(DECIDE, "not_checked", mcts, "", check=5))


def test_the_joint_choices_of_several_controls_are_each_searched_once():
    """A joint choice is a number below 4 ** n, each of the 4 ** n pairs, triples ... of the
    searched choices once (the menu's ``next_step`` is not searched); decoded in the menu's
    base 5 instead, two controls made 16 numbers of which some repeated, some gave the first
    control next_step and none gave the second control seek_cover with the first on plan."""
    import itertools

    from sim.planner.rollout import SEARCHED, joint

    assert SEARCHED == ("plan", "hold", "fall_back", "seek_cover")
    for n in (1, 2, 3):
        made = [joint(i, n) for i in range(len(SEARCHED) ** n)]
        assert sorted(made) == sorted(itertools.product(SEARCHED, repeat=n))


def test_a_planner_by_group_tries_every_pair_of_choices():
    import yaml

    doc = yaml.safe_load((SCENARIOS / "platoon_attack.yaml").read_text())   # blue: two groups
    doc.setdefault("policies", {}).setdefault("blue", {})["decide"] = {
        "policy": "mcts", "by": "group", "rollouts": 16, "depth": 1, "horizon": 1}
    doc["turns"] = 1
    result = sim.run(sim.scenario_from_dict(doc), seed=3)
    summaries = _summaries(result.log)
    assert summaries
    tried = summaries[0]["visits"]
    assert len(tried) == 16 and set(tried.values()) == {1}
    pairs = {tuple(part.split(": ")[1] for part in label.split("; ")) for label in tried}
    assert len(pairs) == 16 and all(c != "next_step" for pair in pairs for c in pair)
