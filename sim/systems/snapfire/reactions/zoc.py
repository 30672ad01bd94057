"""``zoc``: SF.ZOC, the zone-of-control variant of snap fire (``rules.snapfire.reaction: zoc``).

No snap fire; a unit may not enter an enemy's ``zoc_radius`` unless its orders say
``charge``: it stops on the zone's edge (no roll), for the rest of the phase. A
non-charging unit that starts its move inside a zone (strictly: one on the edge, to the
referee's tolerance, is not inside) must leave: it moves straight away from the nearest
zone holder to the zone's edge, and that is its move for the phase. The way out is
watched like any move: entering another enemy's zone, it stops on that zone's edge. A
zone is never declined: no side's policy applies to it.
"""
from __future__ import annotations

from collections.abc import Generator
from typing import Any

from sim.agents.movement import walk_straight
from sim.agents.outcome import Outcome
from sim.agents.referee import Trigger
from sim.agents.unit import Unit
from sim.catalogue import implements
from sim.engine.clock import Phase
from sim.engine.context import BattleContext
from sim.events import HALT, MOVE, STOP
from sim.space.geometry import dist, lerp, tolerance
from sim.systems.snapfire.knobs import SnapFireKnobs
from sim.systems.snapfire.reactions import PhasedWatch, SnapReaction
from sim.toolkit.targets import SpatialGrid, cell_for, nearest


@implements("SF.ZOC")
class ZoneOfControlWatch(PhasedWatch):
    """A zone of control: a non-charging mover stops on an enemy's zone edge."""

    rule = "SF.ZOC"

    def __init__(self, knobs: SnapFireKnobs):
        self.knobs = knobs
        self.radius = knobs.zoc_radius
        # The phase's index of the zone holders (they stand still while the other side
        # moves): (phase, moving side, index).
        self._holders: tuple[Phase, str, SpatialGrid[Unit]] | None = None

    def begin_phase(self, movers: list[Unit]) -> None:
        """Nothing to reset: a zone holds every mover every time."""

    def active(self, battle: BattleContext, mover: Unit) -> bool:
        return battle.clock.current.moves and not mover.orders.charge

    def reactors(self, battle: BattleContext, side: str) -> list[Unit]:
        return battle.enemies_of(side)

    def react(self, battle: BattleContext, mover: Unit, trigger: Trigger) -> Outcome:
        holder = trigger.reactor
        battle.record(HALT, rule="SF.ZOC", unit=mover.id, pos=mover.pos, node=mover.node,
                      firer=holder.id, firer_pos=holder.pos, dist=dist(mover.pos, holder.pos),
                      radius=self.radius, inside=trigger.inside)
        return Outcome.HALT_PHASE_RECORDED   # the SF.ZOC halt record above

    def leave_zone(self, battle: BattleContext, unit: Unit) -> Generator[Any, Any, bool]:
        """SF.ZOC: a non-charging unit starting inside a zone must leave it.

        A generator for the unit's movement process; returns True if it had to leave
        (which uses its move for the phase).
        """
        if unit.orders.charge:
            return False
        # strictly inside: a unit on the zone's edge, to the referee's tolerance, is not
        edge = self.radius - tolerance(self.radius)
        holder = nearest(self._index(battle, unit.side), unit.pos, edge,
                         lambda e, d: d < edge and e.on_board, self.radius)
        if holder is None:
            return False
        d = dist(unit.pos, holder.pos)
        if d > 0:
            k = self.radius / d
            exit_point = lerp(holder.pos, unit.pos, k)
        else:  # exactly on top: leave back along the way it came (towards its start side)
            exit_point = (holder.pos[0] - self.radius, holder.pos[1])
        # Never further than its move allowance, nor off the map (it may then still be
        # inside the zone, and must go on leaving next turn).
        x0, y0, x1, y1 = battle.terrain.bounds
        exit_point = (min(max(exit_point[0], x0), x1), min(max(exit_point[1], y0), y1))
        if dist(unit.pos, exit_point) > unit.move:
            exit_point = lerp(unit.pos, exit_point, unit.move / dist(unit.pos, exit_point))
        speed = unit.move / battle.clock.phase_length
        duration = min(dist(unit.pos, exit_point) / speed, battle.clock.phase_length)
        battle.record(MOVE, rule="SF.ZOC", unit=unit.id, pos=unit.pos, node=unit.node,
                      move=1, waypoints=[exit_point], times=[battle.env.now + duration],
                      reason="leave_zone")
        # Watched like any move: the way out may enter another enemy's zone, and then it
        # stops on that zone's edge (the halt record says so).
        if (yield from walk_straight(battle, unit, exit_point, duration)) != "done":
            return True  # halted on the way out, or struck down: its move is over
        battle.record(STOP, rule="SF.ZOC", unit=unit.id, pos=unit.pos, node=unit.node,
                      reason="left_zone", dist=dist(unit.pos, holder.pos), radius=self.radius)
        return True


    def _index(self, battle: BattleContext, side: str) -> SpatialGrid[Unit]:
        phase = battle.clock.current
        if self._holders is None or self._holders[0] is not phase or self._holders[1] != side:
            enemies = battle.enemies_of(side)
            grid: SpatialGrid[Unit] = SpatialGrid(cell_for(enemies, self.radius))
            self._holders = (phase, side, grid.add_all(enemies))
        return self._holders[2]


def radius(knobs: SnapFireKnobs) -> tuple[float, str]:
    """The zone's radius, as the maps draw it."""
    return float(knobs.zoc_radius), "SF.ZOC zone"


def leave_first(watch: PhasedWatch, battle: BattleContext, unit: Unit) -> Generator[Any, Any, bool]:
    """It leaves any zone it starts in (SF.ZOC); that is then its move (True)."""
    assert isinstance(watch, ZoneOfControlWatch)
    return (yield from watch.leave_zone(battle, unit))


KIND = SnapReaction("zoc", "snapfire", "a zone of control: a non-charging unit stops on an enemy's `zoc_radius` "
                    "edge, and one starting inside leaves it first (SF.ZOC)", watch=ZoneOfControlWatch,
                    radius=radius, declinable=False, before_move=leave_first)
