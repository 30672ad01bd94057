"""Self-play: both sides of a battle each choosing by its own policy (``BattleParallelEnv``).

``self_play(env, policies, episodes, seed)`` plays battles at seeds ``seed``, ``seed + 1``,
...; at each step only the deciding agent's policy is asked (the waiting agent's action
is left out) and the step's rewards are summed per agent. A policy that learns reads
each ``Episode`` (or its own rewards) between calls: the loop stays the caller's.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from sim import arguments
from sim.gym.parallel import BattleParallelEnv
from sim.gym.seat import Observation

__all__ = ["Episode", "Policy", "self_play"]


class Policy(Protocol):
    """What chooses a side's action at its decision: its observation to an action of its space."""

    def __call__(self, observation: Observation) -> Any: ...


@dataclass(frozen=True)
class Episode:
    """One battle of self-play: its seed, the winner (None: a draw) and why, each agent's
    return (the sum of its rewards) and the decisions it took."""

    seed: int
    winner: str | None
    reason: str | None
    returns: dict[str, float]
    decisions: dict[str, int]


def self_play(env: BattleParallelEnv, policies: Mapping[str, Policy], episodes: int = 1,
              seed: int = 0) -> list[Episode]:
    """Play ``episodes`` battles of ``env`` at seeds ``seed``, ``seed + 1``, ...: at each
    step the deciding agent's policy (``policies``: one per agent) chooses its action."""
    env = arguments.instance(env, "env", BattleParallelEnv, "a sim.gym.BattleParallelEnv")
    agents = env.possible_agents
    if not isinstance(policies, Mapping) or sorted(policies) != sorted(agents) \
            or not all(callable(p) for p in policies.values()):
        raise arguments.fail("policies", f"a dict from each agent ({', '.join(agents)}) to a callable policy",
                             policies)
    episodes = arguments.count(episodes, "episodes")
    seed = arguments.seed(seed)
    arguments.seed(seed + episodes - 1, "seed")   # the last battle's seed too
    out = []
    for k in range(episodes):
        observations, infos = env.reset(seed=seed + k)
        returns, decisions = dict.fromkeys(agents, 0.0), dict.fromkeys(agents, 0)
        info = infos[agents[0]]
        while (side := env.deciding) is not None:
            decisions[side] += 1
            observations, rewards, _, _, infos = env.step({side: policies[side](observations[side])})
            for agent, reward in rewards.items():
                returns[agent] += reward
            info = infos[agents[0]]
        out.append(Episode(seed + k, info["winner"], info["reason"], returns, decisions))
    return out
