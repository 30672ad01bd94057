"""How fast a battle is replayed to a decision point (what a branch, an agent or a planner pays).

    .venv/bin/python benchmarks/decisions.py [--seeds N]

On ``platoon_attack`` (the scenario of the ``platoon_tactics`` study): the median wall
time of ``sim.decide.Replay`` from nothing to the decision at the start of blue's turns
1, 5 and 9 and at s1's first halt, over ``--seeds`` battles; a whole battle (``sim.run``)
for scale; a ``sim.gym`` episode of an agent that keeps to the plan; and on
``kill_zone_run`` the cost of one decision of the ``mcts`` planner of the
``kill_zone_planner`` study (32 rollouts). A script, never a test: timings are figures
to read, not assertions.
"""
from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np

import sim
from sim.decide import At, Replay

SCENARIO = Path(__file__).resolve().parents[1] / "scenarios" / "platoon_attack.yaml"
KILL_ZONE = SCENARIO.with_name("kill_zone_run.yaml")
PLANNER = {"policies": {"blue": {"decide": {"policy": "mcts", "rollouts": 32, "depth": 1, "by": "side"}}}}


class _Reached(Exception):
    """The decision point: the replay stops there."""


def _stop(battle, phase) -> None:
    raise _Reached


def _median_ms(run, seeds: int) -> float:
    times = []
    for seed in range(1, seeds + 1):
        start = time.perf_counter()
        run(seed)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    """Print each figure."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=200, help="battles per figure (default 200)")
    args = p.parse_args()
    scenario = sim.load_scenario(str(SCENARIO))
    sim.run(scenario, 1)   # the terrain's caches warm

    for at in ({"turn": 1}, {"turn": 5}, {"turn": 9}, {"halted": "s1"}):
        def replay(seed: int, at: dict = at) -> None:
            try:
                Replay(scenario, seed).take(At(**at), _stop).run()
            except _Reached:
                pass
        print(f"(g) replay to {at}: {_median_ms(replay, args.seeds):.2f} ms")
    print(f"(g) whole battle (sim.run): {_median_ms(lambda s: sim.run(scenario, s), args.seeds):.2f} ms")
    _planner(args.seeds)
    try:
        from sim.gym import BattleEnv
    except ImportError:
        print("(g) gym skipped: gymnasium is not installed (the gym extra)")
        return
    env = BattleEnv(scenario)
    keep = np.zeros(env.action_space.shape, dtype=np.int64)

    def episode(seed: int) -> None:
        env.reset(seed=seed)
        while not env.step(keep)[2]:
            pass
    print(f"(g) gym episode, the plan kept: {_median_ms(episode, args.seeds):.2f} ms")


def _planner(seeds: int) -> None:
    """The planner's cost per decision: its battles' time over their decisions."""
    planned = sim.apply_overrides(sim.load_scenario(str(KILL_ZONE)), PLANNER)
    spent, decisions, rollouts = 0.0, 0, 0
    for seed in range(1, seeds + 1):
        start = time.perf_counter()
        result = sim.run(planned, seed)
        spent += time.perf_counter() - start
        made = [r for r in result.log.records if r["event"] == "decide" and "rollouts" in r]
        decisions += len(made)
        rollouts += sum(r["rollouts"] for r in made)
    print(f"(g) mcts decision on kill_zone_run: {spent / max(decisions, 1) * 1000:.1f} ms, "
          f"{rollouts / max(decisions, 1):.0f} rollouts ({decisions / seeds:.1f} decisions a battle)")


if __name__ == "__main__":
    main()
