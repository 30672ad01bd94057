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
        self._origin = (x0, y0)
        self._size = (max(x1 - x0, 1e-9), max(y1 - y0, 1e-9))
        # what the scenario's rule modules add: (key, its Observation, its shape)
        self.modules = [(m.name, m.observe, (int(m.observe.rows(scenario)), len(m.observe.columns)))
                        for m in scenario.composition.modules if m.observe is not None]
        self.space = spaces.Dict({
            "own": spaces.Box(0.0, 1.0, (len(self.own), len(OWN)), np.float32),
            "enemy": spaces.Box(0.0, 1.0, (len(self.enemy), len(ENEMY)), np.float32),
            "time": spaces.Box(0.0, 1.0, (1,), np.float32),
            **{key: spaces.Box(0.0, 1.0, shape, np.float32) for key, _, shape in self.modules},
        })

    def _xy(self, pos: Any) -> tuple[float, float]:
        # in float64, each clipped to [0, 1], as numpy's clip of the pair did (one array a row is dearer)
        (x0, y0), (w, h) = self._origin, self._size
        return min(max((pos[0] - x0) / w, 0.0), 1.0), min(max((pos[1] - y0) / h, 0.0), 1.0)

    def observe(self, battle: Any) -> dict[str, np.ndarray]:
        """The observation now."""
        rows: list[tuple[Any, ...]] = []
        viewers = []
        units = battle.units
        for spec in self.own:
            u = units[spec.id]
            alive, on_board = u.alive, u.on_board
            x, y = self._xy(u.pos) if on_board else (0.0, 0.0)
            if on_board:
                viewers.append(u)
            rows.append((alive, on_board, x, y, min(u.steps / spec.steps, 1.0) if alive else 0.0, u.pinned,
                         alive and u.orders.type != "hold"))
        own = np.array(rows, np.float32).reshape(len(self.own), len(OWN))
        rows = []
        sees = battle.plans.sees
        for spec in self.enemy:
            e = units[spec.id]
            if e.on_board and any(sees(v, e) for v in viewers):
                rows.append((1.0, *self._xy(e.pos), min(e.steps / spec.steps, 1.0)))
            else:
                rows.append((0.0, 0.0, 0.0, 0.0))
        enemy = np.array(rows, np.float32).reshape(len(self.enemy), len(ENEMY))
        time = np.array([min(battle.clock.turn / self.turns, 1.0)], np.float32)
        out = {"own": own, "enemy": enemy, "time": time}
        for key, observation, shape in self.modules:
            table = np.asarray(observation.observe(battle, self.side), dtype=np.float32).reshape(shape)
            out[key] = np.clip(table, 0.0, 1.0)
        return out
