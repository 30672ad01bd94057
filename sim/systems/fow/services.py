"""BASE.F's services for the rule modules that join the FOW game (snap fire, a user's):
a hit is BASE.F's (a save, or a firepower test in bulletproof cover; a sniper destroyed may
escape, FOW.ESCAPE), damage destroys a team, a pin pins its platoon (BASE.F.PIN: it rallies
in its Movement Step), and a unit may be kept busy."""
from __future__ import annotations

from typing import Any

from sim.agents.unit import Unit
from sim.catalogue import implements
from sim.engine.context import BattleContext
from sim.engine.services import Services
from sim.events import HIT
from sim.systems.fow import team_combat
from sim.systems.fow.rules import destroy_team, destroyed, friend_too_close
from sim.systems.fow.state import FowState
from sim.toolkit.snipers import SNIPER


class FowServices(Services):
    """BASE.F's effect of a hit, damage and a pin (``battle.services`` under the FOW game)."""

    battle: BattleContext[Any, FowState]

    @implements("FOW.SF.HIT", "FOW.SF.PIN")
    def hit(self, target: Unit, *, by: Unit | None = None, rule: str) -> None:
        """A hit a rule module scores on a team (module doc).

        A ``hit`` record under ``rule``; its platoon pinned if ``module_hit_pins``
        (FOW.SF.PIN); then its save, or the firepower test at a team's ``firepower`` in
        bulletproof cover unless ``module_hit`` is ``save`` (FOW.SF.HIT); destroyed, a sniper
        may escape (FOW.ESCAPE), another team is removed.
        """
        battle = self.battle
        if not target.on_board:
            return
        knobs = battle.knobs.fow
        battle.record(HIT, rule="FOW.SF.HIT", unit=target.id, target=target.id, pos=target.pos,
                      node=target.node, by=by.id if by is not None else None, cause=rule, steps_lost=0,
                      steps_left=target.steps)
        if knobs.module_hit_pins:
            team_combat.pin_platoon(battle, target, "FOW.SF.PIN", by)
        shooter = by if by is not None else target
        if knobs.module_hit == "save" and team_combat.bulletproof(battle, target):
            destroyed_now = team_combat.save(battle, target, "FOW.SF.HIT")
        else:
            destroyed_now = team_combat.resolve_hit(battle, shooter, target, knobs.firepower)
        if not destroyed_now:
            return
        team = battle.state.team_of(target)
        if team is not None:
            battle.env.process(destroyed(battle, team, shooter))
        else:
            destroy_team(battle, target, "FOW.SF.HIT")

    def damage(self, target: Unit, steps: int, *, by: Unit | None = None, rule: str) -> None:
        """A team has one step: any damage destroys it (a sniper may escape, FOW.ESCAPE)."""
        battle = self.battle
        if not target.on_board or steps <= 0:
            return
        battle.record(HIT, rule=rule, unit=target.id, target=target.id, pos=target.pos,
                      node=target.node, by=by.id if by is not None else None, steps_lost=target.steps,
                      steps_left=0)
        team = battle.state.team_of(target)
        if team is not None and by is not None:
            battle.env.process(destroyed(battle, team, by))
        else:
            destroy_team(battle, target, "FOW.SF.HIT")

    def pin(self, unit: Unit, *, by: Unit | None = None, rule: str) -> None:
        """BASE.F.PIN: the unit's platoon is Pinned Down; it rallies in its Movement Step."""
        team_combat.pin_platoon(self.battle, unit, rule, by)

    @implements("FOW.SF.SNIPER")
    def can_react(self, unit: Unit) -> bool:
        """A team may take a module's reaction; a sniper team only if ``sniper_reacts`` and
        with no friendly team within 10 cm (FOW.FRIENDLY)."""
        if "busy" in unit.flags:
            return False
        battle = self.battle
        if unit.kind != SNIPER.name:
            return True
        team = battle.state.team_of(unit)
        return bool(battle.knobs.fow.sniper_reacts) and team is not None and friend_too_close(battle, team) is None
