"""``snap_fire``: SF's reaction (seed 004), the default of ``rules.snapfire.reaction``.

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
"""
from __future__ import annotations

from sim.agents.outcome import Outcome
from sim.agents.referee import Trigger
from sim.agents.unit import Unit
from sim.catalogue import implements
from sim.engine.context import BattleContext
from sim.events import HALT
from sim.space.geometry import dist
from sim.systems.snapfire.events import SNAP_FIRE
from sim.systems.snapfire.knobs import SnapFireKnobs
from sim.systems.snapfire.reactions import PhasedWatch, SnapReaction
from sim.toolkit.reactions import take


@implements("SF.TRIGGER", "SF.NOASSAULT", "SF.ONCE", "SF.INSIDE")
class SnapFireWatch(PhasedWatch):
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
        return battle.services.able_to_react(u for u in battle.enemies_of(side) if "no_snap_fire" not in u.flags)

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


def radius(knobs: SnapFireKnobs) -> tuple[float, str]:
    """The snap-fire radius, as the maps draw it."""
    return float(knobs.radius), "SF radius"


KIND = SnapReaction("snap_fire", "snapfire", "halt the mover where it first comes within `radius` and roll "
                    "d6 >= its Armour for a hit (SF.HALT, SF.ROLL)", watch=SnapFireWatch, radius=radius)
