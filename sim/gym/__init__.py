"""``sim.gym``: a Gymnasium environment in which an agent plays one side of a battle.

``BattleEnv(scenario, side=..., reward=..., flat=...)``: ``reset(seed=...)`` starts the scenario's
battle at that seed and plays it to the agent's first decision; ``step(action)`` gives each
of its units (or groups) a choice from ``sim.decide.menu.MENU`` and plays the exact engine
on to its next decision (its side's next movement phase) or the end; ``flat=True`` gives
each observation as one float32 vector (a ``Box``). Needs the ``gym``
extra (``pip install 'sim[gym]'``: gymnasium).
"""
from __future__ import annotations

try:
    import gymnasium  # noqa: F401 - the extra this package needs
except ImportError as err:   # pragma: no cover - the extra is installed for the tests
    raise ImportError("sim.gym needs gymnasium: pip install 'sim[gym]'") from err

from sim.gym.env import BattleEnv
from sim.gym.seat import Reward

__all__ = ["BattleEnv", "Reward"]

# ``gymnasium.make("sim/Battle-v0", scenario=..., side=...)`` builds one too.
if "sim/Battle-v0" not in gymnasium.registry:
    gymnasium.register(id="sim/Battle-v0", entry_point="sim.gym.env:BattleEnv")
