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
from sim.space.grid import GridMemo, SpatialGrid, cell_for, within_extent
from sim.toolkit.targets import pick

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


def enemy_index(enemies: list[Unit], reach: float, memo: GridMemo[Unit] | None = None,
                side: str = "") -> SpatialGrid[Unit]:
    """A phase's index of the enemies on the board: they stand still while the other
    side shoots or charges (they may only fall), so one index serves every unit. With a
    ``memo``, the last one made for ``side`` serves again while the same enemies stand
    where they stood (those who hold, phase after phase)."""
    if memo is not None:
        return memo.grid((side, reach), enemies, reach)
    index: SpatialGrid[Unit] = SpatialGrid(cell_for(enemies, reach))
    return index.add_all(enemies)


def within_reach(units: list[Unit], enemies: list[Unit], reach: float) -> list[Unit]:
    """The units inside the enemies' extent grown by ``reach``, in order: no other has an
    enemy within reach (most units, when the fronts are apart). Asked both ways, it
    leaves out the enemies no unit can reach too."""
    return within_extent(units, enemies, reach * (1 + 1e-9) + 1e-9)


def nearest_visible_enemy(battle: BattleContext, unit: Unit, max_range: float,
                          index: SpatialGrid[Unit]) -> Unit | None:
    """The unit's target in range and in sight, from the phase's ``index``: the nearest
    by (distance, id), sight looked at nearest first only until one is seen, unless the
    unit's target policy chooses among all of them."""
    los, here = battle.terrain.los_xy, unit.pos

    def seen(enemy: Unit, _d: float) -> bool:
        return enemy.on_board and los(here, enemy.pos)

    return pick(battle, unit, index, max_range, seen, index.cell)


@implements("BASE.S.SHOOT")
def shooting_phase(battle: BattleContext, side: str, memo: GridMemo[Unit] | None = None) -> None:
    """Each unit of the phasing side (not a sniper) shoots at the nearest visible enemy
    (``memo``: the game's indexes of the enemies, kept between phases)."""
    shoot_range = battle.knobs.base.shoot_range
    enemies = battle.enemies_of(side)
    shooters = within_reach([u for u in battle.units_of(side) if u.kind != "sniper" and u.on_board],
                            enemies, shoot_range)
    if not shooters:
        return
    index = enemy_index(within_reach(enemies, shooters, shoot_range), shoot_range, memo, side)
    for unit in shooters:
        if not unit.on_board:
            continue
        target = nearest_visible_enemy(battle, unit, shoot_range, index)
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
def assault_phase(battle: BattleContext, side: str, chargers: list[Unit],
                  memo: GridMemo[Unit] | None = None) -> None:
    """Every charger picks its target now and charges at once, all at the same time.

    Charges are plain processes: the referee never watches them (SF.NOASSAULT).
    """
    charge_range = battle.knobs.base.charge_range
    enemies = battle.enemies_of(side)
    chargers = within_reach(chargers, enemies, charge_range)
    if not chargers:
        return
    index = enemy_index(within_reach(enemies, chargers, charge_range), charge_range, memo, side)
    for unit in chargers:
        if not unit.on_board or unit.pinned:
            continue
        target = nearest_visible_enemy(battle, unit, charge_range, index)
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
