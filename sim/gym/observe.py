"""What the agent's side knows of the battle, as fixed-shape arrays in [0, 1].

* ``own`` (one row per unit of the side, scenario order): alive, on the board, x and y
  (scaled to the map's bounds), steps left (of its starting steps), pinned, moving
  (its orders move it);
* ``enemy`` (one row per enemy unit, scenario order): seen, and only if seen x, y and
  steps left; a row of zeros for an enemy none of the side's units sees (hidden, out of
  sight, off the board or eliminated: the agent cannot tell which);
* ``time``: the turn, as a fraction of the battle's turns;
* one key for each rule module of the scenario that declares an ``Observation`` (named after
  the module): its table, rows by columns, in [0, 1] (a minefield's cleared fraction, say).

Sight is the rule system's (its game's ``sees``, else line of sight), as plans use it.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

OWN = ("alive", "on_board", "x", "y", "steps", "pinned", "moving")
ENEMY = ("seen", "x", "y", "steps")


class Observer:
    """Builds the side's observation of a battle of ``scenario``."""

    def __init__(self, scenario: Any, side: str) -> None:
        self.side = side
        self.own = [spec for s, spec in scenario.units() if s == side]
        self.enemy = [spec for s, spec in scenario.units() if s != side]
        self.turns = scenario.turns
        x0, y0, x1, y1 = scenario.map.bounds
        self._origin = np.array([x0, y0])
        self._size = np.array([max(x1 - x0, 1e-9), max(y1 - y0, 1e-9)])
        # what the scenario's rule modules add: (key, its Observation, its shape)
        self.modules = [(m.name, m.observe, (int(m.observe.rows(scenario)), len(m.observe.columns)))
                        for m in scenario.composition.modules if m.observe is not None]
        self.space = spaces.Dict({
            "own": spaces.Box(0.0, 1.0, (len(self.own), len(OWN)), np.float32),
            "enemy": spaces.Box(0.0, 1.0, (len(self.enemy), len(ENEMY)), np.float32),
            "time": spaces.Box(0.0, 1.0, (1,), np.float32),
            **{key: spaces.Box(0.0, 1.0, shape, np.float32) for key, _, shape in self.modules},
        })

    def _xy(self, pos: Any) -> np.ndarray:
        return np.clip((np.asarray(pos, dtype=float) - self._origin) / self._size, 0.0, 1.0)

    def observe(self, battle: Any) -> dict[str, np.ndarray]:
        """The observation now."""
        own = np.zeros((len(self.own), len(OWN)), np.float32)
        viewers = []
        for i, spec in enumerate(self.own):
            u = battle.units[spec.id]
            if u.on_board:
                viewers.append(u)
                own[i, 2:4] = self._xy(u.pos)
            own[i, 0], own[i, 1] = u.alive, u.on_board
            own[i, 4] = min(u.steps / spec.steps, 1.0) if u.alive else 0.0
            own[i, 5], own[i, 6] = u.pinned, u.alive and u.orders.type != "hold"
        enemy = np.zeros((len(self.enemy), len(ENEMY)), np.float32)
        for i, spec in enumerate(self.enemy):
            e = battle.units[spec.id]
            if e.on_board and any(battle.plans.sees(v, e) for v in viewers):
                enemy[i, 0] = 1.0
                enemy[i, 1:3] = self._xy(e.pos)
                enemy[i, 3] = min(e.steps / spec.steps, 1.0)
        time = np.array([min(battle.clock.turn / self.turns, 1.0)], np.float32)
        out = {"own": own, "enemy": enemy, "time": time}
        for key, observation, shape in self.modules:
            table = np.asarray(observation.observe(battle, self.side), dtype=np.float32).reshape(shape)
            out[key] = np.clip(table, 0.0, 1.0)
        return out
