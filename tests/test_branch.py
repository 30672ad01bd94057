"""``sim.branch`` and a study's ``branch:``: a battle replayed to a decision point and
continued under several orders. Every branch's log is the trunk's, byte for byte, up to
the decision; branches that give the same orders give the same battle; a unit's keyed
dice are the same stream in every branch; branch logs keep the event-log invariants."""
from __future__ import annotations

import shlex
import subprocess
import sys
from collections import defaultdict

import pytest
import yaml

import sim
import sim.decide
from conftest import ROOT, SCENARIOS
from invariants import check
from sim.decide import Replay, branching

PLATOON = SCENARIOS / "platoon_attack.yaml"
BRANCHES = {
    "push_on": {},
    "go_to_ground": {"policies": {"blue": {"on_halted": {"policy": "go_to_ground", "turns": 2}}}},
    "base_of_fire": {"groups.support.plan.0.to": "FIRE"},
    "assault_holds": {"groups.assault.plan": [{"type": "hold"}]},
}
POINTS = [{"turn": 5}, {"turn": 4, "phase": "shooting"}, {"halted": "s1"},
          {"side": "blue", "when": {"arrived": {"group": "support", "at": "3,4"}}}]


@pytest.fixture(scope="module")
def platoon():
    return sim.load_scenario(str(PLATOON))


@pytest.mark.parametrize("at", POINTS, ids=lambda a: "-".join(map(str, a)))
@pytest.mark.parametrize("seed", [1, 3])
def test_every_branch_is_the_trunk_byte_for_byte_up_to_its_decision(platoon, at, seed):
    trunk = list(sim.run(platoon, seed).log.lines())
    results = sim.branch(platoon, seed, at=at, branches=BRANCHES)
    assert list(results) == list(BRANCHES)
    for name, result in results.items():
        assert result.decision is not None, name
        lines = list(result.log.lines())
        d = result.decision.index
        # the records before the branch instant, and those at it that precede the decision
        assert lines[:d] == trunk[:d], name
        assert result.log.records[d - 1]["t"] <= result.decision.t
        at_instant = [r for r in result.log.records[:d] if r["t"] == result.decision.t]
        if "halted" in at:   # the halt itself, and what its instant wrote before the decision
            assert any(r["event"] == "halt" and r["unit"] == "s1" for r in at_instant)
        if name == "push_on":
            assert lines == trunk   # no change: the trunk itself
        else:
            assert lines != trunk
            assert result.log.records[d]["event"] == "decide" and result.log.records[d]["policy"] == "branch"
            assert result.log.records[d]["t"] == result.decision.t
        check(platoon, result.log.records)


def test_branches_that_give_the_same_orders_give_the_same_battle(platoon):
    same = {"a": {"groups.support.plan.0.to": "FIRE"},
            "b": {"groups.support.plan": [{"type": "advance", "to": "FIRE"}]}}
    r = sim.branch(platoon, 2, at={"turn": 3}, branches=same)
    assert list(r["a"].log.lines()) == list(r["b"].log.lines())


def _rolls(records, but: set[str]):
    streams = defaultdict(list)
    for r in records:
        if "dice" in r and r.get("unit") not in but:
            streams[(r.get("unit"), r["rule"])].extend(r["dice"])
    return streams


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_unit_keeps_its_dice_in_a_branch_that_changes_another(platoon, seed):
    """a3 goes 20 cm to one side in one branch: every other unit's (unit, rule) stream gives the same faces,
    roll for roll, for as long as both branches make the roll."""
    r = sim.branch(platoon, seed, at={"turn": 3}, branches={
        "trunk": {}, "a3_aside": {"groups.assault.formation": {"a3": [0, 20]}}})
    a, b = _rolls(r["trunk"].log.records, {"a3"}), _rolls(r["a3_aside"].log.records, {"a3"})
    shared = 0
    for key in set(a) & set(b):
        n = min(len(a[key]), len(b[key]))
        assert a[key][:n] == b[key][:n], key
        shared += n
    assert shared > 0


def test_new_orders_at_a_phase_start_move_that_phase(platoon):
    r = sim.branch(platoon, 1, at={"turn": 1}, branches={"hold": {"groups.assault.plan": [{"type": "hold"}]}})
    moves = [x for x in r["hold"].log.records if x["event"] == "move" and x["unit"] in ("a1", "a2", "a3")]
    assert r["hold"].decision.index == 9 and moves == []   # the decision comes right after the placements


def test_a_point_the_battle_never_reaches_leaves_the_trunk(platoon):
    r = sim.branch(platoon, 1, at={"side": "blue", "when": {"fired_on": "a1"}}, branches=BRANCHES)
    trunk = list(sim.run(platoon, 1).log.lines())
    assert all(x.decision is None and list(x.log.lines()) == trunk for x in r.values())


def test_a_replay_takes_its_points_in_order_and_plays_an_agent(platoon):
    b = branching(platoon, {"turn": 3}, {"fire": {"groups.support.plan.0.to": "FIRE"}})
    replay = Replay(platoon, 5)
    turns = []
    while (phase := replay.next_turn("blue")) is not None:
        turns.append(phase.turn)
        if phase.turn == 3:
            replay.order(b.changes["fire"])
    result = replay.run()
    assert turns[:3] == [1, 3, 5]
    assert list(result.log.lines()) == list(b.run("fire", 5).log.lines())


def test_a_replay_given_both_sides_stops_at_either_sides_movement_phases(platoon):
    replay = Replay(platoon, 5)
    phases = []
    while (phase := replay.next_turn(*platoon.sides)) is not None:
        phases.append((phase.turn, phase.side, phase.moves))
    assert phases[:4] == [(1, "blue", True), (2, "red", True), (3, "blue", True), (4, "red", True)]
    assert list(replay.battle.log.lines()) == list(sim.run(platoon, 5).log.lines())


@pytest.mark.parametrize(("at", "branches", "message"), [
    ({"turn": 0}, {"a": {}}, "at.turn: Input should be greater than or equal to 1"),
    ({"turn": 99}, {"a": {}}, "at.turn: turn 99 is after the battle's last (24)"),
    ({"halted": "zz"}, {"a": {}}, "at.halted: no unit 'zz' in the scenario"),
    ({"turn": 2, "halted": "s1"}, {"a": {}}, "at: give exactly one of"),
    ({"side": "blue", "when": {"enemy_within": 5}}, {"a": {}}, "no 'enemy_within' or 'in_phase'"),
    ({"turn": 2}, {"a": {"rules.snapfire.radius": 5}}, "branches.a: a branch changes only orders"),
    ({"turn": 2}, {}, "give at least one branch"),
    ({"turn": 2}, {"a b": {}}, "a branch name may only use"),
    ("turn 2", {"a": {}}, "expected a mapping"),
])
def test_bad_branches_are_input_errors(platoon, at, branches, message):
    with pytest.raises(sim.InputError, match=None) as err:
        sim.branch(platoon, 1, at=at, branches=branches)
    assert message in str(err.value)


STUDY = """study: crisis
scenario: {scenario}
seed: 7
replications: 6
branch:
  at: {{halted: s1}}
variants:
  push_on: {{}}
  go_to_ground: {{policies: {{blue: {{on_halted: {{policy: go_to_ground, turns: 2}}}}}}}}
metrics: [attacker_won, end_time]
"""


def test_a_branch_study_is_a_study_of_branches(tmp_path, platoon):
    path = tmp_path / "crisis.yaml"
    path.write_text(STUDY.format(scenario=PLATOON))
    study = sim.load_study(str(path))
    db = tmp_path / "crisis.db"
    run = sim.run_study(study, workers=1, db=str(db))
    rows = run.rows()
    for ci, cell in enumerate(study.cells):
        for rep in range(6):
            seed = run.records[(ci, rep)].seed
            expect = sim.branch(platoon, seed, at={"halted": "s1"},
                                branches={cell.variant: STUDY_BRANCHES[cell.variant]})
            assert rows[(ci, rep)]["end_time"] == expect[cell.variant].metrics["end_time"]
    again = sim.run_study(study, workers=1, db=str(db), resume=True)
    assert again.resumed == 12 and again.ran == 0
    plain = sim.study_from_dict({"study": "crisis", "scenario": str(PLATOON), "seed": 7, "replications": 6,
                                 "variants": {"push_on": {}}})
    assert plain.key(True) != study.key(True)


STUDY_BRANCHES = {"push_on": {}, "go_to_ground": BRANCHES["go_to_ground"]}


@pytest.mark.parametrize(("change", "message"), [
    (("halted: s1", "halted: zz"), "line 6, key branch.at.halted: no unit 'zz'"),
    (("push_on: {}", "push_on: {rules.snapfire.radius: 5}"), "key variants.push_on: a branch changes only"),
    (("  at:", "  when: 1\n  at:"), "key branch.when: unknown key (expected one of at)"),
])
def test_a_bad_branch_study_exits_2_with_one_line(tmp_path, change, message):
    path = tmp_path / "bad.yaml"
    path.write_text(STUDY.format(scenario=PLATOON).replace(*change))
    out = subprocess.run([sys.executable, "-m", "sim", "validate", str(path)], cwd=ROOT,
                         capture_output=True, text=True, env={"PYTHONPATH": str(ROOT)})
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert message in out.stderr


def test_a_branch_study_gives_the_same_rows_on_a_pool_of_processes(tmp_path):
    path = tmp_path / "crisis.yaml"
    path.write_text(STUDY.format(scenario=PLATOON))
    study = sim.load_study(str(path))
    serial = sim.run_study(study, replications=3, workers=1)
    pool = sim.run_study(study, replications=3, workers=2, executor="processes")
    assert serial.rows() == pool.rows()


def test_a_branch_studys_replication_is_reproduced_by_the_branch_it_names(tmp_path, platoon):
    from sim.cli.study import reproduce_command

    path = tmp_path / "crisis.yaml"
    path.write_text(STUDY.format(scenario=PLATOON))
    study = sim.load_study(str(path))
    run = sim.run_study(study, replications=2)
    record = run.records[(1, 1)]
    argv = shlex.split(reproduce_command(study, record))
    assert argv[:2] == ["python", "-c"]
    code = argv[2].replace("sim.branch(", "r = sim.branch(", 1) + "; print(r['go_to_ground'].metrics['end_time'])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT)}, check=True)
    assert float(out.stdout) == record.metrics["end_time"]


def test_a_halt_asked_for_after_a_turn_is_still_looked_for(platoon):
    b = branching(platoon, {"halted": "s1"}, {"gtg": BRANCHES["go_to_ground"]})
    replay = Replay(platoon, 3).take(sim.decide.At(turn=1), lambda battle, phase: None)
    replay.take(b.at, b.changes["gtg"])
    replay.run()
    assert len(replay.decisions) == 2 and replay.decisions[1].index == 44


def test_a_rollout_policy_acts_at_every_turn_and_reseeding_samples_other_dice(platoon):
    from sim.decide.menu import take_over, tell

    def hold(battle, phase):
        tell(battle, [u.id for u in battle.units_of("blue")], "hold", "rollout", policy="rollout")

    replay = Replay(platoon, 3)
    take_over(replay.battle, "blue")
    records = replay.every_turn("blue", hold).run().log.records
    assert not [r for r in records if r["event"] == "move" and r["unit"].startswith(("a", "s"))]
    check(platoon, records)

    def sampled(k):
        r = Replay(platoon, 3)
        r.take(sim.decide.At(turn=5), lambda battle, phase: r.reseed(k))
        return r, list(r.run().log.lines())

    trunk = list(sim.run(platoon, 3).log.lines())
    (r1, a), (_, b), (_, c) = sampled(11), sampled(11), sampled(12)
    d = r1.decisions[0].index
    assert a == b and a[:d] == c[:d] == trunk[:d] and len({tuple(a), tuple(c), tuple(trunk)}) == 3


def test_a_branch_studys_report_says_how_a_branch_is_replayed(tmp_path):
    from sim.study.reports.html_report import write_report

    path = tmp_path / "crisis.yaml"
    path.write_text(STUDY.format(scenario=PLATOON))
    run = sim.run_study(sim.load_study(str(path)), replications=2)
    write_report(run, str(tmp_path / "report.html"), ["sim", "study", str(path)])
    assert "replays one branch" in (tmp_path / "report.html").read_text(encoding="utf-8")


def test_the_menus_next_step_leaves_the_step_for_the_next(platoon):
    from sim.decide.menu import take_over, tell

    two = sim.apply_overrides(platoon, {"groups.assault.plan": [{"type": "advance", "to": "FIRE"},
                                                                {"type": "charge", "to": "OBJ"}]})
    replay = Replay(two, 2)
    take_over(replay.battle, "blue")
    replay.take(sim.decide.At(turn=1), lambda battle, phase: tell(battle, ["a1", "s1"], "next_step", "test",
                                                                   phase=phase))
    records = replay.run().log.records
    said = {r["unit"]: r["choice"] for r in records if r["event"] == "decide" and r["policy"] == "agent"}
    assert said == {"a1": "next_step: step 2: charge to OBJ (shortest route)", "s1": "next_step: no next step"}
    def plan_steps(log):   # when its plan starts its second step
        return [r["t"] for r in log if r["event"] == "decide" and r["policy"] == "plan" and r["unit"] == "a1"]

    assert plan_steps(records) == [0.0] and plan_steps(sim.run(two, 2).log.records)[0] > 0
    check(two, records)


PLANNER = {"policy": "mcts", "rollouts": 2, "depth": 1, "by": "side"}


def test_a_branch_that_gives_a_side_a_planner_is_refused_not_ignored(platoon):
    # a side's decider is set when its battle is built: the branch's would never decide
    with pytest.raises(sim.InputError, match="policies.blue.decide") as err:
        sim.branch(platoon, 1, at={"turn": 2}, branches={"plans": {"policies": {"blue": {"decide": PLANNER}}}})
    assert err.value.place == "branches.plans"


def test_a_branch_study_with_a_planning_side_is_refused_by_validate_naming_file_and_key(tmp_path, capsys):
    from sim.cli import main

    scenario = sim.apply_overrides(sim.load_scenario(str(PLATOON)), {"policies.blue.decide": PLANNER})
    planning = tmp_path / "planning.yaml"
    planning.write_text(yaml.safe_dump(scenario.raw, sort_keys=False))
    trunk = tmp_path / "trunk.yaml"
    trunk.write_text(STUDY.format(scenario=planning))
    given = tmp_path / "given.yaml"
    given.write_text(STUDY.format(scenario=PLATOON).replace("push_on: {}", "push_on: {policies.blue.decide: "
                                                            "{policy: mcts, by: side}}"))
    for study, where in ((trunk, f"{planning}: line "), (given, f"{given}: line 8, key variants.push_on: ")):
        assert main(["validate", str(study)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and where in err[0] and "policies.blue.decide" in err[0], err
