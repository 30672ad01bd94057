"""SF — snap fire (seed 004), and its zone-of-control variant.

Snap fire: in the Movement phase only (SF.TRIGGER, SF.NOASSAULT), an enemy unit that
comes within ``radius`` of one of yours is halted at the exact point it first came
within it (SF.HALT) and you roll d6 >= its Armour for a hit (SF.ROLL). Each of your
units fires at most once per turn at a given target (SF.ONCE). A unit already within
the radius is fired at only if it moves closer (SF.INSIDE); it is then stopped where it
stands, so its ``dist`` is below the radius and the record says ``inside: true``. A
survivor acts normally later in the turn (SF.AFTER): nothing here marks it.

Every firer whose circle the mover enters at the same first instant (to the referee's
tolerance: a symmetric ambush) fires, each its own roll, in unit-id order; the mover is
halted at that one point. A mover exactly on the circle (to the tolerance) that moves
closer *comes within* it there: an ordinary halt, ``inside: false``; ``inside: true``
records are strictly inside (``dist`` < ``radius``). "You may make a Snap Fire attack":
knob ``take_reactions`` gives a side a policy (``sim.toolkit.reactions``); a declined
attack halts nothing and is the firer's one chance at that target this turn.

SF.MARCH (knob ``march_halt``): under March orders a halt ends the rest of the phase
(``rest_of_phase``, default) or only the current one of its three moves (``this_move``).

SF.ZOC (knob ``reaction: zoc``): no snap fire; a unit may not enter an enemy's
``zoc_radius`` unless its orders say ``charge``: it stops on the zone's edge (no roll),
for the rest of the phase. A non-charging unit that starts its move inside a zone
(strictly: one on the edge, to the referee's tolerance, is not inside) must leave: it
moves straight away from the nearest zone holder to the zone's edge, and that is its
move for the phase. The way out is watched like any move: entering another enemy's
zone, it stops on that zone's edge.
"""
from __future__ import annotations

from collections.abc import Generator
from typing import Any

from sim.agents.movement import walk_straight
from sim.agents.outcome import Outcome
from sim.agents.referee import Trigger, Watch
from sim.agents.unit import Unit
from sim.catalogue import implements
from sim.engine.clock import Phase
from sim.engine.context import BattleContext
from sim.events import HALT, MOVE, STOP
from sim.space.geometry import dist, lerp, tolerance
from sim.systems.snapfire.events import SNAP_FIRE
from sim.systems.snapfire.knobs import SnapFireKnobs
from sim.toolkit.reactions import take
from sim.toolkit.targets import SpatialGrid, cell_for, nearest


@implements("SF.TRIGGER", "SF.NOASSAULT", "SF.ONCE", "SF.INSIDE")
class SnapFireWatch(Watch):
    """Snap fire: a mover coming within ``radius`` of an enemy is halted and fired at."""

    rule = "SF.TRIGGER"

    def __init__(self, knobs: SnapFireKnobs):
        self.knobs = knobs
        self.radius = knobs.radius
        # SF.ONCE: mover id -> the firers that fired at it this turn (its side's
        # movement phase clears its entry).
        self.fired_at: dict[str, set[str]] = {}

    def begin_phase(self, movers: list[Unit]) -> None:
        """SF.ONCE resets for the movers of a new movement phase."""
        for unit in movers:
            self.fired_at.pop(unit.id, None)

    def active(self, battle: BattleContext, mover: Unit) -> bool:
        # SF.NOASSAULT: only moves made in the movement phase are watched.
        return battle.clock.current.moves

    def reactors(self, battle: BattleContext, side: str) -> list[Unit]:
        # the base game says who may react (a sniper team may keep to its hide, say)
        can_react = battle.services.can_react
        return [u for u in battle.enemies_of(side) if "no_snap_fire" not in u.flags and can_react(u)]

    def eligible(self, battle: BattleContext, reactor: Unit, mover: Unit) -> bool:
        # SF.ONCE: once per turn at a given target.
        fired = self.fired_at.get(mover.id)
        return fired is None or reactor.id not in fired

    @implements("SF.HALT", "SF.ROLL", "SF.MARCH", "SF.AFTER")
    def react(self, battle: BattleContext, mover: Unit, trigger: Trigger) -> Outcome:
        firer = trigger.reactor
        self.fired_at.setdefault(mover.id, set()).add(firer.id)
        # "you may make a Snap Fire attack": the side's policy decides (a decline halts
        # nothing, and is the firer's one chance at this target this turn)
        chance = min(6, max(0, 7 - mover.armour)) / 6
        if not take(battle, firer, mover, "SF.TRIGGER", chance, self.knobs.take_reactions):
            return Outcome.CONTINUE
        battle.record(HALT, rule="SF.HALT", unit=mover.id, pos=mover.pos, node=mover.node,
                      firer=firer.id, firer_pos=firer.pos, dist=dist(mover.pos, firer.pos),
                      radius=self.radius, inside=trigger.inside)
        (face,) = battle.dice.roll(firer.id, "SF.ROLL")
        need = mover.armour
        success = face >= need
        battle.record(SNAP_FIRE, rule="SF.ROLL", unit=firer.id, target=mover.id, pos=firer.pos,
                      dice=[face], mods=0, need=need, success=success)
        if success:
            battle.services.hit(mover, by=firer, rule="SF.ROLL")   # the base game's effect of a hit
        if not mover.alive:
            return Outcome.DEAD
        # SF.AFTER: the survivor keeps its orders; SF.MARCH decides how much move is lost.
        if mover.orders.type == "march" and self.knobs.march_halt == "this_move":
            return Outcome.HALT_MOVE_RECORDED   # the SF.HALT record above
        return Outcome.HALT_PHASE_RECORDED


@implements("SF.ZOC")
class ZoneOfControlWatch(Watch):
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


def reaction_watch(knobs: SnapFireKnobs) -> SnapFireWatch | ZoneOfControlWatch:
    """The reaction the scenario chose (SF.ZOC's knob ``reaction``)."""
    if knobs.reaction == "zoc":
        return ZoneOfControlWatch(knobs)
    return SnapFireWatch(knobs)
