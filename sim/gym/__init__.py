"""``sim.gym``: environments in which agents play a battle.

``BattleEnv(scenario, side=..., reward=..., flat=...)`` (Gymnasium): ``reset(seed=...)``
starts the scenario's battle at that seed and plays it to the agent's first decision;
``step(action)`` gives each of its units (or groups) a choice from ``sim.decide.menu.MENU``
and plays the exact engine on to its next decision (its side's next movement phase) or the
end; ``flat=True`` gives each observation as one float32 vector (a ``Box``); the other side
follows its plans.

``BattleParallelEnv(scenario, ...)`` (PettingZoo's parallel API): both sides are agents,
each deciding at its own movement phases; ``self_play(env, policies, episodes)`` plays
battles with one policy a side. Both need the ``gym`` extra (``pip install 'sim[gym]'``:
gymnasium and pettingzoo); pettingzoo is imported only when the parallel names are first
used.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

try:
    import gymnasium  # noqa: F401 - the extra this package needs
except ImportError as err:   # pragma: no cover - the extra is installed for the tests
    raise ImportError("sim.gym needs gymnasium: pip install 'sim[gym]'") from err

from sim.gym.env import BattleEnv
from sim.gym.seat import Observation, Reward

if TYPE_CHECKING:
    from sim.gym.parallel import BattleParallelEnv as BattleParallelEnv
    from sim.gym.selfplay import Episode as Episode
    from sim.gym.selfplay import Policy as Policy
    from sim.gym.selfplay import self_play as self_play

__all__ = ["BattleEnv", "BattleParallelEnv", "Episode", "Observation", "Policy", "Reward", "self_play"]

#: The names that need pettingzoo, by their module: loaded at first use (``__getattr__``).
_LAZY = {"BattleParallelEnv": "sim.gym.parallel", "Episode": "sim.gym.selfplay", "Policy": "sim.gym.selfplay",
         "self_play": "sim.gym.selfplay"}

# ``gymnasium.make("sim/Battle-v0", scenario=..., side=...)`` builds one too.
if "sim/Battle-v0" not in gymnasium.registry:
    gymnasium.register(id="sim/Battle-v0", entry_point="sim.gym.env:BattleEnv")


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'sim.gym' has no attribute {name!r}")
    try:
        value = getattr(importlib.import_module(_LAZY[name]), name)
    except ModuleNotFoundError as err:   # pragma: no cover - the extra is installed for the tests
        if (err.name or "").split(".")[0] != "pettingzoo":
            raise
        raise ImportError(f"sim.gym.{name} needs pettingzoo: pip install 'sim[gym]'") from err
    globals()[name] = value  # once: later uses find it here
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
