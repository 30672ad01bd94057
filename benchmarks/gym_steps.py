"""Steps a second of ``sim.gym`` beside Gymnasium's CartPole: a script that prints figures, never a test.

    .venv/bin/python benchmarks/gym_steps.py [--rounds N] [--seconds S] [--scenario NAME] [--flat]
    .venv/bin/python benchmarks/gym_steps.py --count 20 [--root CHECKOUT]   # by instructions

Both environments are made with ``gymnasium.make`` (as a learner makes them, with
Gymnasium's own wrappers) and played in alternating bursts of ``--seconds`` of CPU time
each (CPU time, not wall time: on a shared machine it varies less), so a busy machine
slows both alike; an episode that ends is reset within the burst, and resets count.
Each agent's actions are drawn before the burst (a seeded generator). Figures: steps a
second of CartPole, of ``sim.gym`` on ``--scenario`` (default ``platoon_attack``) with a
random agent and with an agent that keeps to the plan, and the ratios.

``--count N``: with valgrind's callgrind (as ``instructions.py``), the instructions a step
costs over ``N`` episodes of each agent (resets included), and what ``sim.run`` costs for
the same battles as the plan kept (an agent that keeps to the plan plays the scenario's own
battle, record for record: the difference is what the environment adds), under the code
of ``--root``.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SCENARIOS = HERE.parent / "scenarios"
AGENTS = ("plan kept", "random agent", "sim.run")


class Player:
    """An environment, an agent's actions drawn in advance, and the steps and time so far."""

    def __init__(self, env, act: Callable[[np.random.Generator], np.ndarray | int]):
        self.env, self.act, self.rng = env, act, np.random.default_rng(7)
        self.steps, self.seconds, self.seed = 0, 0.0, 0
        self.env.reset(seed=self.seed)

    def burst(self, seconds: float) -> None:
        """Steps (and resets) for about ``seconds`` of CPU time, in chunks of actions drawn beforehand."""
        env, end = self.env, time.process_time() + seconds
        while time.process_time() < end:
            actions = [self.act(self.rng) for _ in range(64)]
            start = time.process_time()
            for action in actions:
                _, _, terminated, truncated, _ = env.step(action)
                if terminated or truncated:
                    self.seed += 1
                    env.reset(seed=self.seed)
            self.seconds += time.process_time() - start
            self.steps += len(actions)

    @property
    def rate(self) -> float:
        """Steps a second so far."""
        return self.steps / self.seconds


def child(root: str, scenario: str, agent: str, n: int) -> None:
    """Play ``n`` episodes of ``agent`` (or run ``n`` battles) with the code under ``root``; print the steps."""
    sys.path.insert(0, root)
    import sim
    from sim.gym import BattleEnv

    sc = sim.load_scenario(str(SCENARIOS / f"{scenario}.yaml"))
    env = BattleEnv(sc)
    rng = np.random.default_rng(3)
    shape = env.action_space.shape
    act = (lambda: rng.integers(0, 5, shape)) if agent == "random agent" else (lambda: np.zeros(shape, np.int64))

    def episode(seed: int) -> int:
        env.reset(seed=seed)
        steps = 1
        while not env.step(act())[2]:
            steps += 1
        return steps

    episode(0)   # caches warm, everything imported: not counted
    sim.run(sc, 0)
    steps = 0
    for seed in range(1, n + 1):
        if agent == "sim.run":
            sim.run(sc, seed)
        else:
            steps += episode(seed)
    print(steps)


def count(root: str, scenario: str, agent: str, n: int) -> tuple[int, int]:
    """(instructions, steps) of a child process that plays ``n`` episodes of ``agent``."""
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                          __file__, "--child", root, scenario, agent, str(n)],
                         capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}, timeout=3600)
    found = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    if out.returncode != 0 or found is None:
        raise SystemExit(f"callgrind failed: {out.stderr.strip().splitlines()[-1:]}")
    return int(found.group(1)), int(out.stdout)


def by_instructions(root: str, scenario: str, n: int) -> None:
    """Print the instructions a step costs, and the battles' own."""
    base, _ = count(root, scenario, "plan kept", 0)
    cost = {agent: count(root, scenario, agent, n) for agent in AGENTS}
    steps = cost["plan kept"][1]
    for agent in AGENTS[:2]:
        spent, taken = cost[agent]
        print(f"{agent}: {(spent - base) / taken / 1e6:.2f} M instructions a step ({taken} steps, {n} episodes)")
    print(f"sim.run, the plan kept's battles: {(cost['sim.run'][0] - base) / steps / 1e6:.2f} M a step")
    print(f"plan kept / sim.run: {(cost['plan kept'][0] - base) / (cost['sim.run'][0] - base):.2f}")


def main() -> None:
    """Print each figure."""
    if sys.argv[1:2] == ["--child"]:
        root, scenario, agent, n = sys.argv[2:6]
        child(root, scenario, agent, int(n))
        return
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=5, help="bursts of each environment (default 5)")
    p.add_argument("--seconds", type=float, default=2.0, help="CPU time of a burst (default 2 s)")
    p.add_argument("--scenario", default="platoon_attack", help="a scenario of scenarios/ (default platoon_attack)")
    p.add_argument("--flat", action="store_true", help="sim.gym's flat observation (a Box)")
    p.add_argument("--count", type=int, metavar="N", help="instructions of N episodes instead (valgrind)")
    p.add_argument("--root", default=str(HERE.parent), help="with --count: the checkout whose sim to count")
    args = p.parse_args()
    if args.count is not None:
        by_instructions(os.path.abspath(args.root), args.scenario, args.count)
        return
    import gymnasium

    import sim.gym  # noqa: F401 - registers sim/Battle-v0

    path = str(SCENARIOS / f"{args.scenario}.yaml")
    options = {"flat": True} if args.flat else {}
    env = gymnasium.make("sim/Battle-v0", scenario=path, **options)
    nvec = env.action_space.nvec
    players = {
        "CartPole-v1": Player(gymnasium.make("CartPole-v1"), lambda rng: int(rng.integers(2))),
        f"sim.gym {args.scenario}, random agent": Player(env, lambda rng: rng.integers(nvec)),
        f"sim.gym {args.scenario}, plan kept": Player(
            gymnasium.make("sim/Battle-v0", scenario=path, **options), lambda rng: np.zeros(len(nvec), np.int64)),
    }
    for player in players.values():
        player.burst(min(args.seconds, 0.5))   # warm: caches, first episode
        player.steps, player.seconds = 0, 0.0
    for _ in range(args.rounds):
        for player in players.values():
            player.burst(args.seconds)
    cartpole = players["CartPole-v1"]
    for name, player in players.items():
        print(f"{name}: {player.rate:,.0f} steps/s ({player.steps:,} steps)")
    for name, player in list(players.items())[1:]:
        print(f"CartPole / {name}: {cartpole.rate / player.rate:.1f}x")
    print(f"load average: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
