"""The way a unit has come: the last node it passed, where ``fall_back`` goes.

A unit stands on a node, or part-way along an edge past the node it last reached
(``unit.node``). Its route lists the nodes it is still to reach, losing each as it
reaches it; so the nodes ahead when it set off, against those ahead now, say which it
has passed since.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sim.agents.unit import Unit
    from sim.space.terrain import Terrain


def _ahead(unit: Unit) -> list[str]:
    """The nodes the unit is still to reach past ``unit.node`` (a route back to the node
    it stands past starts with that node: it is not a node further on)."""
    route = unit.route
    return route[1:] if route and route[0] == unit.node else route


@dataclass
class Way:
    """``path``: the node the unit stood at (or past) when last looked at, then the nodes
    then ahead; ``came_from``: the node it had reached that first one from (None: none known)."""

    path: list[str] = field(default_factory=list)
    came_from: str | None = None

    def look(self, unit: Unit) -> None:
        """Take note of where the unit has got to: call before anything changes its route."""
        self.came_from = self._before(unit)
        self.path = [unit.node, *_ahead(unit)]

    def set_off(self, unit: Unit) -> None:
        """Its route is now what it is to walk next (from where ``look`` saw it)."""
        self.path = [unit.node, *_ahead(unit)]

    def last_passed(self, unit: Unit, terrain: Terrain) -> str | None:
        """The last node the unit passed: the node it stands past, or standing on a node,
        the one it came to it from (None when it has come from nowhere known)."""
        if unit.pos != terrain.pos(unit.node):
            return unit.node
        return self._before(unit)

    def _before(self, unit: Unit) -> str | None:
        """The node the unit reached ``unit.node`` from, by this move or the ones before."""
        ahead = _ahead(unit)
        walked = len(self.path) - 1 - len(ahead)   # how far along ``path`` it has got
        if not 0 <= walked < len(self.path) or self.path[walked] != unit.node \
                or self.path[walked + 1:] != ahead:
            return None   # it got here some other way (placed, relocated): nothing known
        return self.path[walked - 1] if walked else self.came_from
