"""A small skirmish base game (BASE.S, the toolkit's own rules): hits, shooting, assault.

A rule system on a continuous table takes it whole (its ``rules.base`` is
``SkirmishKnobs``, its orders may ``charge``: ``ChargeOrders``) and calls
``shooting_phase`` and ``assault_phase`` from its game's phases.

* BASE.S.HIT: a hit removes ``steps_per_hit`` steps; a unit at 0 steps is eliminated.
* BASE.S.SHOOT: in its shooting phase each unit of the phasing side (not a sniper) shoots
  at the nearest enemy within ``shoot_range`` that it can see: d6 + mods >= the target's
  Armour, where mods = −(cover of the target's position). No roll, no shot, if no
  enemy qualifies.
* BASE.S.ASSAULT: in its assault phase each unit with ``charge`` orders that is within
  ``charge_range`` of an enemy moves straight into contact with the nearest one (the
  referee never watches a charge), then both roll d6 >= the other's Armour for a hit.
"""
from __future__ import annotations

from collections.abc import Generator
from typing import Any, Literal

from pydantic import Field, model_validator

from sim.agents.movement import go_straight
from sim.agents.unit import Unit
from sim.catalogue import define_rules, implements
from sim.engine.context import BattleContext
from sim.events import ASSAULT, HIT, MOVE, SHOOT, STOP
from sim.space.geometry import dist, lerp
from sim.systems.knobs import BaseKnobs, Knobs
from sim.toolkit.snipers import SNIPER
from sim.toolkit.targets import GridMemo, SpatialGrid, cell_for, pick, within_extent

__all__ = ["CONTACT", "ChargeOrders", "SkirmishKnobs", "apply_hit", "assault_phase", "enemy_index",
           "nearest_visible_enemy", "shooting_phase", "within_reach"]

#: The distance (cm) between two units in base contact.
CONTACT = 1.0

define_rules({
    "BASE.S.HIT": "Effect of a hit: the target loses a step; at 0 steps it is eliminated",
    "BASE.S.SHOOT": "Shooting phase: d6 + cover modifier >= target's Armour to hit (base game)",
    "BASE.S.ASSAULT": "Assault phase: charge into contact, both sides roll d6 >= Armour (base game)",
    "BASE.S.PIN": "A unit pinned by a rule neither moves nor charges until its side's next turn (base game)",
})


class SkirmishKnobs(BaseKnobs):
    """``rules.base`` of the skirmish base game (BASE.S.*): ranges and the hit's effect."""

    shoot_range: float = Field(40.0, ge=0, le=10_000, allow_inf_nan=False, description=(
        "BASE.S.SHOOT: a unit shoots an enemy it sees within this many cm (the nearest, or "
        "as its `target` policy says)"))
    charge_range: float = Field(15.0, ge=0, le=10_000, allow_inf_nan=False, description=(
        "BASE.S.ASSAULT: a `charge` unit charges the nearest visible enemy within this many cm"))
    steps_per_hit: int = Field(1, ge=1, le=100, description="BASE.S.HIT: steps a hit removes")


class ChargeOrders(Knobs):
    """The orders key ``charge`` (and the step type ``charge``: an advance that charges).

    A charging unit assaults in the assault phase; the rule system says what else a
    charge allows (entering enemy zones of control, ...).
    """

    type: Literal["hold", "advance", "charge"] = Field("hold", description=(
        "`hold` stays put; `advance` makes one move per own movement phase along its route to "
        "`to`; `charge` is an `advance` with `charge: true`"))
    charge: bool = Field(False, description=(
        "the unit charges: it assaults in the assault phase (and, where the rule system has "
        "zones of control, may enter them)"))

    @model_validator(mode="before")
    @classmethod
    def _charge_step(cls, data: Any) -> Any:
        # A plan names a charge as a movement: ``type: charge`` is an advance that charges.
        if isinstance(data, dict) and data.get("type") == "charge":
            if data.get("charge") is False:
                raise ValueError("a step of type 'charge' charges (drop 'charge: false')")
            return {**data, "type": "advance", "charge": True}
        return data


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
    shooters = within_reach([u for u in battle.units_of(side) if u.kind != SNIPER.name and u.on_board
                             and "busy" not in u.flags],
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


@implements("BASE.S.ASSAULT")
def assault_phase(battle: BattleContext, side: str, chargers: list[Unit],
                  memo: GridMemo[Unit] | None = None) -> None:
    """Every charger picks its target now and charges at once, all at the same time.

    Charges are plain processes: the referee never watches them.
    """
    charge_range = battle.knobs.base.charge_range
    enemies = battle.enemies_of(side)
    chargers = within_reach(chargers, enemies, charge_range)
    if not chargers:
        return
    index = enemy_index(within_reach(enemies, chargers, charge_range), charge_range, memo, side)
    for unit in chargers:
        if not unit.on_board or unit.pinned or unit.busy:
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
                      waypoints=[contact], times=[battle.env.now + duration], reason="charge")
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
