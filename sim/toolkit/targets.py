"""Where a phase's targets stand: each side's units indexed once a phase.

A side that does not move in a phase (the other side, while one shoots, fires or
assaults) keeps its places through it: its units can only fall. So a rule that looks for
targets among them asks an index made at its first question of the phase, not every unit
of the side, and filters the fallen out as it goes (``Unit.on_board``). An index is valid
only for such a side; the rules that use it say why their side stands still.
"""
from __future__ import annotations

from collections.abc import Callable

from sim.agents.unit import Unit
from sim.engine.clock import Phase
from sim.engine.context import BattleContext
from sim.space.geometry import Point
from sim.space.spatial_hash import GridMemo, SpatialGrid, cell_for, nearest, within, within_extent

# The spatial index the target searches use, part of the toolkit's surface.
__all__ = ["GridMemo", "PhaseIndex", "SpatialGrid", "Stack", "cell_for", "nearest", "pick", "within",
           "within_extent"]


class Stack:
    """The units of one side in one node (a hex), placed at the node."""

    __slots__ = ("node", "pos", "units")

    def __init__(self, node: str, pos: Point, units: list[Unit]):
        self.node, self.pos, self.units = node, pos, units


class PhaseIndex:
    """Per phase, a side's units on the board by place: a grid hash, by node, and their
    nodes in a grid hash."""

    def __init__(self) -> None:
        self._phase: Phase | None = None
        self._grids: dict[str, SpatialGrid[Unit]] = {}
        self._nodes: dict[str, dict[str, list[Unit]]] = {}
        self._stacks: dict[str, SpatialGrid[Stack]] = {}

    def _fresh(self, battle: BattleContext) -> None:
        phase = battle.clock.current
        if phase is not self._phase:
            self._phase, self._grids, self._nodes, self._stacks = phase, {}, {}, {}

    def grid(self, battle: BattleContext, side: str, reach: float) -> SpatialGrid[Unit]:
        """``side``'s units on the board, in a grid hash for queries of about ``reach``."""
        self._fresh(battle)
        grid = self._grids.get(side)
        if grid is None:
            units = [u for u in battle.units_of(side) if u.on_board]
            empty: SpatialGrid[Unit] = SpatialGrid(cell_for(units, reach))
            grid = self._grids[side] = empty.add_all(units)
        return grid

    def by_node(self, battle: BattleContext, side: str) -> dict[str, list[Unit]]:
        """``side``'s units on the board by node, each node's in scenario order."""
        self._fresh(battle)
        found = self._nodes.get(side)
        if found is None:
            found = self._nodes[side] = {}
            for u in battle.units_of(side):
                if u.on_board:
                    found.setdefault(u.node, []).append(u)
        return found

    def stacks(self, battle: BattleContext, side: str) -> SpatialGrid[Stack]:
        """``side``'s units on the board by node, each node's stack at the node's position."""
        self._fresh(battle)
        found = self._stacks.get(side)
        if found is None:
            pos = battle.terrain.pos
            stacks = [Stack(node, pos(node), units) for node, units in self.by_node(battle, side).items()]
            empty: SpatialGrid[Stack] = SpatialGrid(cell_for(stacks, 4.0))
            found = self._stacks[side] = empty.add_all(stacks)
        return found


def pick(battle: BattleContext, unit: Unit, index: SpatialGrid[Unit], max_range: float,
         accept: Callable[[Unit, float], bool], start: float) -> Unit | None:
    """``unit``'s target among the units of ``index`` within ``max_range`` that
    ``accept(enemy, distance)`` takes: the nearest by (distance, id), asking ``accept``
    only until one does; or, when the unit has a target policy, the policy's choice among
    all of them (``Plans.choose_target``, which logs it)."""
    x, y = unit.pos
    if not index.any_near_box(x, y, x, y, max_range * (1 + 1e-9) + 1e-9):
        return None   # one look when no enemy is in reach (most units, most phases)
    if battle.plans.policy(unit, "target") is None:
        return nearest(index, unit.pos, max_range, accept, start)
    found = [(d, e) for d, e in within(index, unit.pos, max_range) if accept(e, d)]
    return battle.plans.choose_target(unit, found)
