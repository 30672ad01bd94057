"""``sim.gym.BattleParallelEnv``: both sides of a battle as PettingZoo agents. It passes
PettingZoo's parallel api test; both sides keeping their plans play ``sim.run``'s battle to
the byte; one agent decides a step, the other's action is ignored; each side sees and is
paid as ``BattleEnv`` would see and pay it; it is deterministic for a seed and the same
actions; bad input is an ``InputError``; ``self_play`` plays both sides by their policies."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import sim
from conftest import SCENARIOS
from invariants import check

pytest.importorskip("pettingzoo")
from pettingzoo.test import parallel_api_test  # noqa: E402

from sim.gym import BattleEnv, BattleParallelEnv, Episode, Reward, self_play  # noqa: E402

PLATOON = SCENARIOS / "platoon_attack.yaml"
#: Scenarios in which both sides' units have decisions (movement phases), one a hex map's.
DECIDED = ["platoon_attack.yaml", "village_sniper.yaml", "stalingrad_bookstore.yaml", "march_column.yaml"]


def _keep(env, agent):
    return np.zeros(env.action_space(agent).shape, dtype=np.int64)


def _play(env, seed, choose):
    """An episode, ``choose(agent, observation, k)`` giving every live agent's action at step k:
    the steps' (observations, rewards, terminated, truncated, infos) and the log's text."""
    obs, infos = env.reset(seed=seed)
    steps, k = [(obs, None, None, None, infos)], 0
    while env.agents:
        step = env.step({agent: choose(agent, obs[agent], k) for agent in env.agents})
        obs = step[0]
        steps.append(step)
        k += 1
    return steps, "\n".join(env.log.lines())


@pytest.mark.parametrize(("name", "kwargs"), [("platoon_attack.yaml", {}), ("platoon_attack.yaml", {"by": "group"}),
                                            ("platoon_attack.yaml", {"flat": True}), ("village_sniper.yaml", {})])
def test_the_environment_passes_pettingzoos_parallel_api_test(name, kwargs):
    env = BattleParallelEnv(str(SCENARIOS / name), **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # its complaints (an agent given nothing, a dead one something) are warnings
        parallel_api_test(env, num_cycles=200)
    assert env.possible_agents == ["blue", "red"]
    assert env.observation_space("red") is env.observation_space("red") is env.observation_spaces["red"]
    assert env.action_space("blue") is env.action_space("blue")


@pytest.mark.parametrize("name", DECIDED)
def test_both_sides_keeping_their_plans_play_the_scenarios_own_battle(name):
    scenario = sim.load_scenario(str(SCENARIOS / name))
    env = BattleParallelEnv(scenario)
    for seed in (0, 3, 7):
        steps, text = _play(env, seed, lambda agent, obs, k: _keep(env, agent))
        assert text == "\n".join(sim.run(scenario, seed).log.lines())
        deciders = [next(a for a, info in infos.items() if info["decides"]) for *_, infos in steps[:-1]]
        assert set(deciders) == set(scenario.sides)   # both sides decided, so the test says something
        assert steps[-1][2] == dict.fromkeys(scenario.sides, True) and not any(steps[-1][3].values())


def test_one_agent_decides_each_step_at_its_own_movement_phases_and_the_others_action_is_ignored():
    scenario = sim.load_scenario(str(PLATOON))
    env = BattleParallelEnv(scenario)
    moving = {p.name for p in scenario.composition.phases if p.moves}

    def busy(agent, obs, k):   # every side seeks cover: a decide record each choice taken
        return np.full(env.action_space(agent).shape, 3, dtype=np.int64)

    steps, text = _play(env, 2, busy)
    for *_, infos in steps[:-1]:
        assert sum(info["decides"] for info in infos.values()) == 1
    assert not any(info["decides"] for info in steps[-1][4].values())
    agent = [r for r in env.log.records if r["event"] == "decide" and r.get("policy") == "agent"]
    assert {r["side"] for r in agent} == {"blue", "red"}
    side_of = {u.id: side for side in scenario.sides for u in scenario.forces[side]}
    # each side chose for its own units, at its own movement phases (a record's side: the turn's)
    assert all(r["phase"] in moving and side_of[r["unit"]] == r["side"] for r in agent)
    check(scenario, env.log.records)

    # only the decider's action is taken: the waiting side's, left out or given, changes nothing
    def decider_only(agent_seen):
        env.reset(seed=2)
        while env.agents:
            side = env.deciding
            actions = {side: busy(side, None, 0)}
            if agent_seen:
                waiting = next(a for a in env.agents if a != side)
                actions[waiting] = np.full(env.action_space(waiting).shape, 1, dtype=np.int64)   # hold: ignored
            env.step(actions)
        return "\n".join(env.log.lines())

    assert decider_only(False) == decider_only(True) == text


def test_each_side_sees_and_is_paid_as_the_single_agent_environment_sees_and_pays_it():
    scenario = sim.load_scenario(str(PLATOON))
    reward = Reward(win=2.0, loss=-1.5, step_lost=-0.1, step_taken=0.25)
    env = BattleParallelEnv(scenario, reward=reward)
    steps, _ = _play(env, 4, lambda agent, obs, k: _keep(env, agent))
    for side in scenario.sides:
        single = BattleEnv(scenario, side=side, reward=reward)
        obs, _ = single.reset(seed=4)
        seen, paid, done = [obs], [], False
        while not done:
            obs, r, done, _, _ = single.step(_keep(env, side))
            seen.append(obs)
            paid.append(r)
        # the parallel agent's observations when it decides, and at the end, are the single agent's
        mine = [o[side] for o, *_, infos in steps if infos[side]["decides"]] + [steps[-1][0][side]]
        assert len(mine) == len(seen) and all(np.array_equal(a[k], b[k]) for a, b in zip(mine, seen) for k in a)
        assert [s[1][side] for s in steps[1:]] != [] and sum(s[1][side] for s in steps[1:]) == pytest.approx(sum(paid))


def test_the_same_seed_and_actions_give_the_same_battle_and_a_draw_from_the_generator_repeats():
    def chosen(agent, obs, k):
        return np.array([(k + i) % 5 for i in range(len(obs["own"]))])

    a = _play(BattleParallelEnv(str(PLATOON)), 11, chosen)
    b = _play(BattleParallelEnv(str(PLATOON)), 11, chosen)
    assert a[1] == b[1]
    assert all(x[1] == y[1] and all(np.array_equal(x[0][g][k], y[0][g][k]) for g in x[0] for k in x[0][g])
               for x, y in zip(a[0], b[0]))
    assert _play(BattleParallelEnv(str(PLATOON)), 12, chosen)[1] != a[1]
    # reset(seed) seeds the generator that a reset without one draws the battle's seed from
    one, two = BattleParallelEnv(str(PLATOON)), BattleParallelEnv(str(PLATOON))
    one.reset(seed=5)
    two.reset(seed=5)
    drawn = [one.reset()[1]["blue"]["seed"] for _ in range(2)]
    assert drawn == [two.reset()[1]["red"]["seed"] for _ in range(2)] and drawn[0] != drawn[1] != 5


def test_a_step_limit_truncates_the_battle_for_both_agents():
    env = BattleParallelEnv(str(PLATOON), max_cycles=3)
    env.reset(seed=1)
    for k in range(3):
        obs, rewards, terminated, truncated, infos = env.step({a: _keep(env, a) for a in env.agents})
        assert set(obs) == set(rewards) == set(infos) == {"blue", "red"}
        assert not any(terminated.values()) and all(truncated.values()) == (k == 2)
    assert env.agents == [] and env.deciding is None and not env.replay.done
    with pytest.raises(sim.InputError, match="the episode is over"):
        env.step({"blue": _keep(env, "blue")})


@pytest.mark.parametrize(("actions", "place"), [
    ([0] * 6, "actions"), (None, "actions"), ({"green": [0] * 6, "blue": [0] * 6}, "actions"),
    ({1: [0] * 6}, "actions"), ({"red": [0] * 3}, "actions"),             # blue decides first: its action is due
    ({"blue": [0.0] * 6}, "actions.blue"), ({"blue": [5] * 6}, "actions.blue"), ({"blue": [0] * 5}, "actions.blue"),
    ({"blue": np.zeros(6, dtype=np.float32)}, "actions.blue"), ({"blue": [True] * 6}, "actions.blue"),
    ({"blue": [0] * 6, "red": [9] * 3}, "actions.red"),                    # the waiting side's is checked too
    ({"blue": [0] * 6, "red": 2.5}, "actions.red"),
])
def test_a_bad_action_is_an_input_error_of_one_line(actions, place):
    env = BattleParallelEnv(str(PLATOON))
    with pytest.raises(sim.InputError, match="reset"):
        env.step({"blue": [0] * 6})
    env.reset(seed=1)
    assert env.deciding == "blue"
    before = list(env.log.lines())
    with pytest.raises(sim.InputError) as err:
        env.step(actions)
    assert err.value.place == place and "\n" not in str(err.value) and "expected" in str(err.value)
    assert list(env.log.lines()) == before and env.deciding == "blue"   # nothing was played


@pytest.mark.parametrize(("kwargs", "place"), [
    ({"render_mode": "human"}, "render_mode"), ({"max_cycles": 0}, "max_cycles"), ({"max_cycles": 2.0}, "max_cycles"),
    ({"by": "side"}, "by"), ({"flat": 1}, "flat"), ({"reward": {"bonus": 1}}, "reward"), ({"scenario": 5}, "scenario"),
])
def test_bad_arguments_are_input_errors(kwargs, place):
    with pytest.raises(sim.InputError) as err:
        BattleParallelEnv(**{"scenario": str(PLATOON), **kwargs})
    assert err.value.place == place


@pytest.mark.parametrize(("call", "place"), [
    (lambda env: env.observation_space("green"), "agent"), (lambda env: env.action_space(0), "agent"),
    (lambda env: env.reset(seed=-1), "seed"), (lambda env: env.reset(seed=2.0), "seed"),
    (lambda env: env.reset(seed=1, options="fast"), "options"), (lambda env: env.log, "log"),
])
def test_a_bad_agent_seed_or_options_is_an_input_error(call, place):
    env = BattleParallelEnv(str(PLATOON))
    with pytest.raises(sim.InputError) as err:
        call(env)
    assert err.value.place == place


def test_a_battle_with_a_planning_side_is_refused():
    scenario = sim.apply_overrides(sim.load_scenario(str(SCENARIOS / "kill_zone_run.yaml")),
                                   {"policies": {"red": {"decide": {"policy": "mcts", "rollouts": 2}}}})
    with pytest.raises(sim.InputError, match="policies.red.decide"):
        BattleParallelEnv(scenario)


def test_self_play_plays_both_sides_by_their_policies():
    env = BattleParallelEnv(str(PLATOON), reward={"step_lost": -0.1, "step_taken": 0.1})
    asked = {"blue": 0, "red": 0}

    def policy(side, choice):
        def choose(obs):
            asked[side] += 1
            assert env.observation_space(side).contains(obs)
            return np.full(env.action_space(side).shape, choice, dtype=np.int64)
        return choose

    episodes = self_play(env, {"blue": policy("blue", 4), "red": policy("red", 3)}, episodes=3, seed=20)
    assert [e.seed for e in episodes] == [20, 21, 22] and all(isinstance(e, Episode) for e in episodes)
    assert sum(e.decisions["blue"] for e in episodes) == asked["blue"] > 0
    assert sum(e.decisions["red"] for e in episodes) == asked["red"] > 0
    last = episodes[-1]
    assert (last.winner, last.reason) == (env.log.records[-1]["winner"], env.log.records[-1]["reason"])
    decide = [r for r in env.log.records if r["event"] == "decide" and r.get("policy") == "agent"]
    assert {r["choice"].split(":")[0] for r in decide if r["side"] == "blue"} == {"next_step"}
    assert {r["choice"].split(":")[0] for r in decide if r["side"] == "red"} == {"seek_cover"}
    # the returns are the steps' rewards: losses paid as taken, zero-sum with these weights
    for e in episodes:
        assert e.returns["blue"] + e.returns["red"] == pytest.approx(0.0)
    assert self_play(env, {"blue": policy("blue", 4), "red": policy("red", 3)}, episodes=3, seed=20) == episodes


@pytest.mark.parametrize(("kwargs", "place"), [
    ({"env": "platoon"}, "env"), ({"policies": {"blue": print}}, "policies"),
    ({"policies": {"blue": print, "red": 3}}, "policies"), ({"episodes": 0}, "episodes"), ({"seed": -2}, "seed"),
    ({"seed": 2**63 - 2, "episodes": 3}, "seed"),
])
def test_self_play_refuses_bad_arguments(kwargs, place):
    env = BattleParallelEnv(str(PLATOON))
    given = {"env": env, "policies": {"blue": print, "red": print}, **kwargs}
    with pytest.raises(sim.InputError) as err:
        self_play(**given)
    assert err.value.place == place and env.replay is None   # refused before any battle
