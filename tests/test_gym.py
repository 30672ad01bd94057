"""``sim.gym``: a Gymnasium environment in which an agent plays one side. It passes
gymnasium's own checker, is deterministic for a seed, an agent that keeps to the plan
plays the scenario's own battle record for record, a random agent's episodes are valid
battles (the event-log invariants hold), and the agent sees no enemy its units cannot."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import sim
from conftest import SCENARIOS
from invariants import check

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from sim.gym import BattleEnv, Reward  # noqa: E402

PLATOON = SCENARIOS / "platoon_attack.yaml"


def _play(env, seed, actions=None):
    """An episode: its observations, rewards and log lines."""
    obs, _ = env.reset(seed=seed)
    seen, rewards, done, k = [obs], [], False, 0
    while not done:
        action = actions[k % len(actions)] if actions is not None else env.action_space.sample()
        obs, reward, done, truncated, _ = env.step(action)
        assert not truncated and env.observation_space.contains(obs)
        seen.append(obs)
        rewards.append(reward)
        k += 1
    return seen, rewards, list(env.log.lines())


@pytest.mark.parametrize(("side", "by"), [("blue", "unit"), ("red", "unit"), ("blue", "group")])
def test_the_environment_passes_gymnasiums_checker(side, by):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # it says it cannot test render modes: there are none
        check_env(BattleEnv(str(PLATOON), side=side, by=by))


def test_the_same_seed_and_actions_give_the_same_battle():
    env = BattleEnv(str(PLATOON), by="unit")
    actions = [np.array([k % 4, 1, 0, 2, 3, (k + 1) % 4]) for k in range(7)]
    a, b = _play(env, 11, actions), _play(BattleEnv(str(PLATOON)), 11, actions)
    assert a[2] == b[2] and a[1] == b[1]
    assert all(np.array_equal(x[k], y[k]) for x, y in zip(a[0], b[0]) for k in x)
    assert _play(env, 12, actions)[2] != a[2]


@pytest.mark.parametrize("name", ["platoon_attack.yaml", "village_sniper.yaml", "march_column.yaml",
                                  "stalingrad_bookstore.yaml"])
def test_an_agent_that_keeps_to_the_plan_plays_the_scenarios_own_battle(name):
    scenario = sim.load_scenario(str(SCENARIOS / name))
    for side in scenario.sides:
        env = BattleEnv(scenario, side=side)
        keep = [np.zeros(env.action_space.shape, dtype=np.int64)]
        assert _play(env, 4, keep)[2] == list(sim.run(scenario, 4).log.lines())


@pytest.mark.parametrize("name", ["platoon_attack.yaml", "village_sniper.yaml", "stalingrad_bookstore.yaml",
                                  "open_ground_advance.yaml"])
def test_a_random_agents_episodes_are_valid_battles(name):
    scenario = sim.load_scenario(str(SCENARIOS / name))
    for side in scenario.sides:
        env = BattleEnv(scenario, side=side, by="group")
        env.action_space.seed(5)
        for seed in range(3):
            _play(env, seed)
            check(scenario, env.log.records)
            records = env.log.records
            agent = [r for r in records if r["event"] == "decide" and r.get("policy") == "agent"]
            moving = {p.name for p in scenario.composition.phases if p.moves}
            # the agent decides for its own units, at its own movement phases' start
            assert agent and all(r["side"] == side and r["phase"] in moving and r["t"] == int(r["t"])
                                 and r["unit"] in {u.id for u in scenario.forces[side]} for r in agent)


def test_the_agent_sees_only_what_its_units_see():
    env = BattleEnv(str(PLATOON), side="blue")
    env.reset(seed=3)
    battle = env.replay.battle
    for _ in range(6):
        obs, *_ = env.step(np.zeros(env.action_space.shape, dtype=np.int64))
        for i, spec in enumerate(env.observer.enemy):
            e = battle.units[spec.id]
            seen = e.on_board and any(battle.plans.sees(u, e) for u in battle.units_of("blue") if u.on_board)
            assert obs["enemy"][i, 0] == seen
            if not seen:
                assert not obs["enemy"][i].any()   # nothing of an enemy it does not see
        if env.replay.done:
            break


def test_the_reward_is_the_outcome_and_the_steps_lost():
    scenario = sim.load_scenario(str(PLATOON))
    env = BattleEnv(scenario, reward={"win": 2.0, "step_lost": -0.1, "step_taken": 0.25,
                                      "metric": "defender_steps_lost", "weight": 1.0})
    _, rewards, _ = _play(env, 3, [np.zeros(env.action_space.shape, dtype=np.int64)])
    m = sim.run(scenario, 3).metrics
    expect = 2.0 - 0.1 * m["attacker_steps_lost"] + 0.25 * m["defender_steps_lost"] + m["defender_steps_lost"]
    assert m["attacker_won"] == 1 and sum(rewards) == pytest.approx(expect)
    assert Reward().win == 1.0 and Reward().loss == -1.0


@pytest.mark.parametrize(("kwargs", "place"), [
    ({"side": "green"}, "side"), ({"by": "section"}, "by"), ({"reward": {"bonus": 1}}, "reward"),
    ({"reward": {"metric": "nope"}}, "reward.metric"), ({"reward": {"win": "a lot"}}, "reward.win"),
    ({"scenario": 5}, "scenario"), ({"flat": "yes"}, "flat"), ({"flat": 1}, "flat"),
])
def test_bad_arguments_are_input_errors(kwargs, place):
    with pytest.raises(sim.InputError) as err:
        BattleEnv(**{"scenario": str(PLATOON), **kwargs})
    assert err.value.place == place


def test_a_bad_action_is_an_input_error():
    env = BattleEnv(str(PLATOON))
    with pytest.raises(sim.InputError, match="reset"):
        env.step(env.action_space.sample())
    env.reset(seed=1)
    for bad in ([0, 1], [9] * 6, [-1] * 6):
        with pytest.raises(sim.InputError) as err:
            env.step(np.array(bad))
        assert err.value.place == "action"
    while not env.step(np.zeros(6, dtype=np.int64))[2]:
        pass
    with pytest.raises(sim.InputError, match="the battle is over"):   # its outcome is paid once
        env.step(np.zeros(6, dtype=np.int64))


def _log_of(env, seed, actions):
    env.reset(seed=seed)
    for action in actions:
        if env.step(action)[2]:
            break
    return list(env.log.lines())


@pytest.mark.parametrize("bad", [
    [2.9] * 6, [0.5] * 6, [True] * 6, ["1"] * 6, [float("nan")] * 6, None, {"a": 1}, [2**70] * 6,
    np.array([1.0] * 6), np.ones(6, dtype=bool), np.array([2.0] * 6, dtype=np.float32), [np.float64(1.0)] * 6,
    [None] * 6, np.array(["1"] * 6), {0, 1, 2, 3, 4, 5},
    np.full(6, 2**40, dtype=np.int64), np.zeros((6, 1), dtype=np.int64),   # their repr spans lines
])
def test_an_action_that_is_not_whole_numbers_of_the_menu_is_an_input_error(bad):
    env = BattleEnv(str(PLATOON))
    env.reset(seed=1)
    with pytest.raises(sim.InputError) as err:
        env.step(bad)
    assert err.value.place == "action" and "\n" not in str(err.value)


@pytest.mark.parametrize("same", [
    [1, 0, 2, 3, 4, 0], (1, 0, 2, 3, 4, 0), np.array([1, 0, 2, 3, 4, 0], dtype=np.int8),
    np.array([1, 0, 2, 3, 4, 0], dtype=np.uint64), [np.int64(1), 0, np.int32(2), 3, np.uint8(4), 0],
])
def test_whole_numbers_of_any_integer_type_play_as_python_ints_and_floats_of_them_are_refused(same):
    env = BattleEnv(str(PLATOON))
    plain = _log_of(env, 2, [[1, 0, 2, 3, 4, 0]] * 3)
    assert _log_of(env, 2, [same] * 3) == plain
    with pytest.raises(sim.InputError, match="action"):   # no float is taken for a whole number
        env.step(np.asarray(same, dtype=np.float64) if isinstance(same, np.ndarray) else [float(a) for a in same])


@pytest.mark.parametrize("seed", [-1, 3.5, "3", float("nan"), [3], np.float64(3.0)])
def test_a_bad_seed_is_an_input_error(seed):
    env = BattleEnv(str(PLATOON))
    with pytest.raises(sim.InputError) as err:
        env.reset(seed=seed)
    assert err.value.place == "seed"


def test_a_numpy_integer_seed_is_the_python_ints():
    env = BattleEnv(str(PLATOON))
    keep = [np.zeros(6, dtype=np.int64)] * 4
    assert _log_of(env, np.int64(7), keep) == _log_of(env, 7, keep)


@pytest.mark.parametrize("options", [{"seed": 3}, {"turns": 2}, "fast", 3, ["a"]])
def test_reset_options_it_does_not_read_are_refused(options):
    env = BattleEnv(str(PLATOON))
    with pytest.raises(sim.InputError) as err:
        env.reset(seed=1, options=options)
    assert err.value.place == "options"
    env.reset(seed=1, options={})   # nothing to read: an empty mapping is fine, as None is
    env.reset(seed=1, options=None)


@pytest.mark.parametrize("reward", [{"weight": 2.0}, {"weight": 1.0}, Reward(weight=3.0), {"metric": ["x"]},
                                    {"metric": 5}])
def test_a_reward_weight_without_its_metric_and_a_metric_not_a_name_are_refused(reward):
    with pytest.raises(sim.InputError) as err:
        BattleEnv(str(PLATOON), reward=reward)
    assert err.value.place in ("reward.weight", "reward.metric")


def test_a_battle_with_a_planning_side_is_refused_when_the_environment_is_made():
    scenario = sim.apply_overrides(sim.load_scenario(str(SCENARIOS / "kill_zone_run.yaml")),
                                   {"policies": {"red": {"decide": {"policy": "mcts", "rollouts": 2}}}})
    with pytest.raises(sim.InputError, match="policies.red.decide") as err:
        BattleEnv(scenario, side="blue")
    assert "\n" not in str(err.value)


def _sb3_problems(env) -> list[str]:
    """What stable-baselines3's ``check_env`` (2.x, ``common/env_checker.py``) would warn of or
    refuse in ``env``, its checks written out here: the package needs torch, which the tests
    do not install. Only what applies to a ``Box`` or ``Dict`` observation and a
    ``MultiDiscrete`` action is checked."""
    from gymnasium import spaces

    problems = []
    obs_space, act_space = env.observation_space, env.action_space
    boxes = obs_space.spaces if isinstance(obs_space, spaces.Dict) else {"": obs_space}
    problems += [f"observation {k!r} is nested" for k, s in boxes.items() if isinstance(s, spaces.Dict | spaces.Tuple)]
    problems += [f"observation {k!r} has shape {s.shape}: neither a vector nor an image" for k, s in boxes.items()
                 if isinstance(s, spaces.Box) and len(s.shape) not in (1, 3)]
    problems += [f"observation {k!r} is an image" for k, s in boxes.items()
                 if isinstance(s, spaces.Box) and len(s.shape) == 3]
    if not isinstance(act_space, spaces.MultiDiscrete) or act_space.nvec.ndim != 1 or act_space.start.any():
        problems.append(f"action space {act_space}")
    obs, info = env.reset(seed=0)
    for _ in range(10):   # its NaN check: ten random steps
        for value in (obs.values() if isinstance(obs, dict) else [obs]):
            if not (isinstance(value, np.ndarray) and np.all(np.isfinite(value))):
                problems.append(f"observation {value!r}")
        for key, space in boxes.items():
            value = obs[key] if key else obs
            if value.shape != space.shape or not np.can_cast(value.dtype, space.dtype) or not space.contains(value):
                problems.append(f"observation {key!r} outside its space")
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
        if not (isinstance(reward, float | int) and np.isfinite(reward) and isinstance(terminated, bool)
                and isinstance(truncated, bool) and isinstance(info, dict)):
            problems.append(f"step returned {reward!r}, {terminated!r}, {truncated!r}")
        if terminated:
            obs, info = env.reset()
    return problems


@pytest.mark.parametrize(("side", "by"), [("blue", "unit"), ("red", "unit"), ("blue", "group")])
def test_the_flat_observation_passes_both_checkers_without_a_warning(side, by):
    env = BattleEnv(str(PLATOON), side=side, by=by, flat=True)
    assert env.observation_space == gymnasium.spaces.Box(0.0, 1.0, env.observation_space.shape, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env, skip_render_check=True)
        assert _sb3_problems(env) == []


def test_the_sb3_check_sees_the_dict_observations_tables():
    """The ``Dict`` observation's ``own`` and ``enemy`` are tables (2-d): what the flat option is for."""
    assert _sb3_problems(BattleEnv(str(PLATOON))) == [
        "observation 'enemy' has shape (3, 4): neither a vector nor an image",
        "observation 'own' has shape (6, 7): neither a vector nor an image"]


def test_the_flat_observation_is_gymnasiums_flattening_of_the_dict():
    flat, plain = BattleEnv(str(PLATOON), flat=True), BattleEnv(str(PLATOON))
    assert flat.observation_space == gymnasium.spaces.flatten_space(plain.observation_space)
    actions = [np.array([k % 5, 1, 0, 2, 3, (k + 2) % 5]) for k in range(9)]
    a, b = _play(flat, 5, actions), _play(plain, 5, actions)
    assert a[1:] == b[1:] and len(a[0]) == len(b[0])
    for x, y in zip(a[0], b[0]):
        assert x.dtype == np.float32 and np.array_equal(x, gymnasium.spaces.flatten(plain.observation_space, y))
    made = gymnasium.make("sim/Battle-v0", scenario=str(PLATOON), flat=True)
    assert made.observation_space == flat.observation_space
