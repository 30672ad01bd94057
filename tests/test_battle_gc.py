"""A process's memory does not grow with the battles it has run: serially, in a process
pool, on Dask and in ``sim.gym``. The collector rests while a battle runs (Battle.run) and
afterwards a battle's objects age as any others, so its garbage is freed once its caller
lets go of it. (Battles used to hand their objects back with ``gc.unfreeze()``, straight
into the oldest generation, which CPython then never collected: about 600 objects a
battle kept for good.)"""
from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import SCENARIOS
from sim.engine.battle import Battle
from sim.replication import run_battle
from sim.scenario.load import load_scenario

HERE = os.path.dirname(os.path.abspath(__file__))


def _enabled_per_phase(battle):
    seen = []
    on_phase = battle.game.on_phase

    def spying(b, phase):
        seen.append(gc.isenabled())
        on_phase(b, phase)
    battle.game.on_phase = spying
    return seen


def test_the_collector_rests_while_a_battle_runs_and_is_back_after_it():
    sc = load_scenario(SCENARIOS / "open_ground_advance.yaml")
    assert gc.isenabled()
    b = Battle(sc, 3)
    seen = _enabled_per_phase(b)
    b.run()
    assert len(seen) > 3 and not any(seen)
    assert gc.isenabled() and gc.get_freeze_count() == 0
    gc.disable()
    try:
        plain = Battle(sc, 3)
        quiet = _enabled_per_phase(plain)
        plain.run()
        assert not gc.isenabled()                    # the caller's choice is left as it was
    finally:
        gc.enable()
    assert quiet == [False] * len(quiet)
    assert plain.log.records == b.log.records


def test_a_battle_that_raises_gives_the_collector_back():
    sc = load_scenario(SCENARIOS / "open_ground_advance.yaml")
    b = Battle(sc, 3)

    def broken(_b, _phase):
        raise RuntimeError("a rule's bug")
    b.game.on_phase = broken
    with pytest.raises(RuntimeError, match="a rule's bug"):
        b.run()
    assert gc.isenabled()


#: A fresh interpreter runs battles and prints how much garbage a battle makes and how
#: much is still uncollected at the end: a growing process would hold nearly all of it.
_SERIAL = textwrap.dedent("""
    import gc, sys
    import sim
    sc = sim.load_scenario(sys.argv[1])
    for seed in range(20):
        sim.run(sc, seed=seed)
    gc.collect()
    gc.disable()
    sim.run(sc, seed=99)
    made = gc.collect()            # one battle's garbage, all of it in cycles
    gc.enable()
    for seed in range(int(sys.argv[2])):
        sim.run(sc, seed=seed)
    print(made, gc.collect())
""")


@pytest.mark.parametrize("name", ["open_ground_advance", "village_sniper", "stalingrad_bookstore"])
def test_battles_run_one_after_another_leave_no_garbage_behind(name):
    n = 400
    out = subprocess.run([sys.executable, "-c", _SERIAL, str(SCENARIOS / f"{name}.yaml"), str(n)],
                         capture_output=True, text=True, check=True, timeout=600).stdout.split()
    made, left = int(out[0]), int(out[1])
    assert made > 100                                  # a battle does make garbage in cycles
    # The collector's own rule (a full collection once the objects promoted since the last
    # reach a quarter of the heap) leaves at most a few dozen battles' worth behind;
    # a process that kept it all would hold 400.
    assert left < n * made / 4, (made, left)


def counting_battle(scenario, seed):
    """A replication that also reports its process and the objects the collector tracks."""
    result = run_battle(scenario, seed)
    result.metrics["pid"] = os.getpid()
    result.metrics["tracked"] = len(gc.get_objects())
    return result


def _growth(run, per_battle: int) -> None:
    """Each worker's tracked objects over its battles: flat, not one battle's garbage more each."""
    by_pid: dict[int, list[tuple[int, int, int]]] = {}
    for (cell, rep), m in run.rows().items():
        by_pid.setdefault(int(m["pid"]), []).append((rep, cell, int(m["tracked"])))
    busy = [sorted(runs) for runs in by_pid.values() if len(runs) >= 200]
    assert busy, {pid: len(r) for pid, r in by_pid.items()}
    for runs in busy:
        counts = [c for *_, c in runs]
        late = counts[len(counts) // 2:]
        # a worker that kept its garbage would grow by about `per_battle` objects a battle
        assert max(late) - min(counts[:50]) < len(late) * per_battle / 4, (len(counts), min(counts), max(late))


def _study(executor, reps):
    from sim.study.plan.study_file import load_study
    from sim.study.run.runner import run_study

    study = load_study(SCENARIOS / "snapfire_vs_zoc.yaml")
    with executor:
        return run_study(study, executor=executor, replications=reps, battle="test_battle_gc:counting_battle")


def _one_battle_garbage() -> int:
    sc = load_scenario(SCENARIOS / "open_ground_advance.yaml")
    gc.collect()
    gc.disable()
    try:
        run_battle(sc, 5)
        return gc.collect()
    finally:
        gc.enable()


def test_pool_workers_do_not_grow_with_the_battles_they_run():
    from sim.study.run.executors import ProcessExecutor

    _growth(_study(ProcessExecutor(2), 400), _one_battle_garbage())


def test_dask_workers_do_not_grow_with_the_battles_they_run():
    from sim.study.run.executors import DaskExecutor

    _growth(_study(DaskExecutor(1), 300), _one_battle_garbage())


_GYM = textwrap.dedent("""
    import gc, sys
    import numpy as np
    from sim.gym import BattleEnv
    env = BattleEnv(sys.argv[1])
    plan = np.zeros(env.action_space.shape, dtype=np.int64)

    def episode(seed):
        env.reset(seed=seed)
        done = False
        while not done:
            done = env.step(plan)[2]

    for seed in range(10):
        episode(seed)
    gc.collect()
    gc.disable()
    episode(99)
    env.replay = None
    made = gc.collect()
    gc.enable()
    for seed in range(int(sys.argv[2])):
        episode(seed)
    print(made, gc.collect())
""")


def test_gym_episodes_leave_no_garbage_behind():
    n = 300
    out = subprocess.run([sys.executable, "-c", _GYM, str(SCENARIOS / "kill_zone_run.yaml"), str(n)],
                         capture_output=True, text=True, check=True, timeout=600, cwd=HERE).stdout.split()
    made, left = int(out[0]), int(out[1])
    assert made > 100
    assert left < n * made / 4, (made, left)
