"""BASE — the small base game around the snap-fire seed (not in the seeds).

BASE.S.HIT: a hit removes ``steps_per_hit`` steps; a unit at 0 steps is eliminated.
BASE.S.SHOOT: in its shooting phase each unit of the phasing side (not a sniper) shoots
  at the nearest enemy within ``shoot_range`` that it can see: d6 + mods >= the target's
  Armour, where mods = −(cover of the target's position). No roll, no shot, if no
  enemy qualifies.
BASE.S.ASSAULT: in its assault phase each unit with ``charge`` orders that is within
  ``charge_range`` of an enemy moves straight into contact with the nearest one (no
  snap fire: SF.NOASSAULT), then both roll d6 >= the other's Armour for a hit.
"""
from __future__ import annotations

from collections.abc import Generator
from typing import Any

from sim.agents.movement import go_straight
from sim.agents.unit import Unit
from sim.catalogue import implements
from sim.engine.context import BattleContext
from sim.events import ASSAULT, HIT, MOVE, SHOOT, STOP
from sim.space.geometry import dist, lerp
from sim.space.grid import SpatialGrid, near_any, within_extent

CONTACT = 1.0  # cm between two units in base contact


@implements("BASE.S.HIT")
def apply_hit(battle: BattleContext, target: Unit, by: Unit | None = None,
              rule: str = "BASE.S.HIT") -> None:
    """The target loses ``steps_per_hit`` steps; at 0 it is eliminated."""
    lost = min(target.steps, battle.knobs.base.steps_per_hit)
    target.steps -= lost
    battle.record(HIT, rule=rule, unit=target.id, target=target.id, pos=target.pos,
                  node=target.node, by=by.id if by is not None else None,
                  steps_lost=lost, steps_left=target.steps)
    if target.steps <= 0:
        battle.eliminate(target, rule=rule)


def _nearest_visible_enemy(battle: BattleContext, unit: Unit, max_range: float,
                           index: SpatialGrid | None = None) -> Unit | None:
    # Among those in range and sight, the unit's target policy chooses (default: the
    # nearest by (distance, id): the same choice whatever order the candidates come in).
    found = []
    candidates = (battle.enemies_of(unit.side) if index is None
                  else index.near_segment(unit.pos, unit.pos, max_range))
    for enemy in candidates:
        if not enemy.on_board:
            continue
        d = dist(unit.pos, enemy.pos)
        if d > max_range or not battle.terrain.los_xy(unit.pos, enemy.pos):
            continue
        found.append((d, enemy))
    return battle.plans.choose_target(unit, found)


@implements("BASE.S.SHOOT")
def shooting_phase(battle: BattleContext, side: str) -> None:
    """Each unit of the phasing side (not a sniper) shoots at the nearest visible enemy."""
    shoot_range = battle.knobs.base.shoot_range
    enemies = battle.enemies_of(side)
    shooters = [u for u in battle.units_of(side) if u.kind != "sniper" and u.on_board]
    # Enemies stand still in this phase and only leave it, so a unit with none in range
    # now has no target later in it either: skip all those at once. First by extents
    # (shooters outside the enemies' extent grown by the range, and enemies outside
    # the shooters'), then in C, pair by pair.
    reach = shoot_range * (1 + 1e-9) + 1e-9
    shooters = within_extent(shooters, enemies, reach)
    in_range = near_any([u.pos for u in shooters],
                        [e.pos for e in within_extent(enemies, shooters, reach)], shoot_range)
    if not any(in_range):
        return
    grid: SpatialGrid[Unit] = SpatialGrid(max(shoot_range, 1.0))
    index = grid.add_all(enemies)
    for unit, maybe in zip(shooters, in_range):
        if not maybe or not unit.on_board:
            continue
        target = _nearest_visible_enemy(battle, unit, shoot_range, index)
        if target is None:
            continue
        (face,) = battle.dice.roll(unit.id, "BASE.S.SHOOT")
        mods = -battle.cover_at(target)
        success = face + mods >= target.armour
        battle.record(SHOOT, rule="BASE.S.SHOOT", unit=unit.id, target=target.id, pos=unit.pos,
                      dice=[face], mods=mods, need=target.armour, success=success)
        if success:
            apply_hit(battle, target, by=unit)


@implements("BASE.S.ASSAULT", "SF.NOASSAULT")
def assault_phase(battle: BattleContext, side: str, chargers: list[Unit]) -> None:
    """Every charger picks its target now and charges at once, all at the same time.

    Charges are plain processes: the referee never watches them (SF.NOASSAULT).
    """
    for unit in chargers:
        if not unit.on_board or unit.pinned:
            continue
        target = _nearest_visible_enemy(battle, unit, battle.knobs.base.charge_range)
        if target is not None:
            battle.env.process(_charge(battle, unit, target))


def _charge(battle: BattleContext, unit: Unit, target: Unit) -> Generator[Any, Any, None]:
    d = dist(unit.pos, target.pos)
    if d > CONTACT:
        contact = lerp(unit.pos, target.pos, (d - CONTACT) / d)
        # A charge covers at most the unit's move, within half the phase.
        speed = 2 * max(unit.move, d) / battle.clock.phase_length
        duration = (d - CONTACT) / speed
        battle.record(MOVE, rule="BASE.S.ASSAULT", unit=unit.id, pos=unit.pos, node=unit.node,
                      waypoints=[list(contact)], times=[battle.env.now + duration], reason="charge")
        if not (yield from go_straight(battle, unit, contact, duration)):
            return
        battle.record(STOP, rule="BASE.S.ASSAULT", unit=unit.id, pos=unit.pos, node=unit.node,
                      reason="contact")
    for striker, struck in ((unit, target), (target, unit)):
        if not striker.on_board or not struck.on_board:
            continue
        (face,) = battle.dice.roll(striker.id, "BASE.S.ASSAULT")
        success = face >= struck.armour
        battle.record(ASSAULT, rule="BASE.S.ASSAULT", unit=striker.id, target=struck.id,
                      pos=striker.pos, dice=[face], mods=0, need=struck.armour, success=success)
        if success:
            apply_hit(battle, struck, by=striker)
