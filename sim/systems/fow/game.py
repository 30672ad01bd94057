"""The FOW game: the Movement Step (rally, relocation, moves), shooting, and the Assault
Step (catching snipers, then assaults)."""
from __future__ import annotations

from collections.abc import Generator
from typing import Any

from sim.agents.movement import movement_process
from sim.agents.unit import Unit
from sim.catalogue import implements
from sim.engine.clock import Phase
from sim.space.geometry import dist
from sim.systems.fow import team_combat
from sim.systems.fow.events import ASSAULT_AFTER_CATCH
from sim.systems.fow.rules import (
    CATCH_RADIUS,
    catch,
    enemies,
    forced_move,
    placement,
    relocate,
    sniper_shoots,
    spot_check,
    team_shoots,
    visible_to,
    wants_relocation,
)
from sim.systems.fow.state import FowBattle, FowState
from sim.toolkit.hunters import hunt_route, straight_line
from sim.toolkit.sniper_reserve import SniperReserve
from sim.toolkit.sniper_team import HIDDEN, RESERVE, SniperTeam
from sim.toolkit.snipers import SNIPER
from sim.toolkit.targets import nearest


@implements("FOW.RESERVE")
def make_teams(battle: FowBattle) -> tuple[list[SniperTeam], dict[str, SniperReserve]]:
    """Each side's Sniper Reserve, and one ``SniperTeam`` per sniper unit, in its reserve
    unless its scenario entry says ``deployed`` (checked at load time)."""
    reserves = {side: SniperReserve(battle, side, lambda team: placement(battle, team), "FOW.RESERVE",
                                    delay=battle.knobs.fow.reserve_delay)
                for side in battle.scenario.sides}
    teams = []
    for side, spec in battle.scenario.units():
        if spec.kind != SNIPER.name:
            continue
        st = spec.sniper_team
        start = st.start if st is not None else "reserve"
        cands = list(st.candidates) if st is not None and st.candidates else [spec.at]
        team = SniperTeam(battle, battle.units[spec.id], HIDDEN if start == "deployed" else RESERVE,
                          candidates=cands, reserve=reserves[side])
        if start != "deployed":
            reserves[side].put(team)
        teams.append(team)
    return teams, reserves


class FowGame:
    """FOW: Movement Step (rally, relocation, moves), shooting, Assault Step (catching,
    then assaults)."""

    def __init__(self) -> None:
        self.state = FowState()

    def sees(self, battle: FowBattle, viewer: Unit, target: Unit) -> bool:
        """LOS; a sniper only when revealed and within spot range (FOW.CAMO)."""
        return visible_to(battle, viewer, target)

    def setup(self, battle: FowBattle) -> None:
        st = self.state
        specs = [spec for _, spec in battle.scenario.units()]
        st.hunters = frozenset(spec.id for spec in specs if spec.hunt)
        st.platoon = {spec.id: spec.platoon for spec in specs if spec.platoon}
        st.teams, st.reserves = make_teams(battle)

    def on_phase(self, battle: FowBattle, phase: Phase) -> None:
        step = {"movement": self._movement, "shooting": self._shooting,
                "assault": self._assault}[phase.phase]
        battle.env.process(step(battle, phase))

    def _movement(self, battle: FowBattle, phase: Phase) -> Generator[Any, Any, None]:
        team_combat.rally(battle, phase.side)
        for team in self.state.teams:
            if team.side == phase.side and wants_relocation(battle, team):
                yield from relocate(battle, team)
        battle.referee.begin_phase()
        for unit in battle.units_of(phase.side):
            if not unit.on_board or unit.pinned or unit.busy:
                continue
            if unit.kind == SNIPER.name:
                sniper = self.state.team_of(unit)
                if sniper is not None and unit.route:   # ordered to move: FOW.IMMOBILE
                    unit.route = []
                    yield from forced_move(battle, sniper, reason="ordered to move")
                continue
            unit.route = hunt_route(battle, unit, self.state, straight_line)
            if unit.route:   # as a rule module may say (hooks.move_of), else the kernel's move
                hooks = battle.hooks
                move = (hooks.move_of(battle, unit, phase) if hooks.takes_moves else None) or movement_process
                unit.process = battle.env.process(move(battle, unit, phase))

    def _shooting(self, battle: FowBattle, phase: Phase) -> Generator[Any, Any, None]:
        yield from spot_check(battle, phase.side)
        for unit in battle.units_of(phase.side):
            if battle.done.triggered:
                return
            if not unit.on_board or unit.busy:
                continue
            team = self.state.team_of(unit)
            if team is not None:
                yield from sniper_shoots(battle, team)
            else:
                yield from team_shoots(battle, unit)

    def _assault(self, battle: FowBattle, phase: Phase) -> Generator[Any, Any, None]:
        tried = []
        for unit in battle.units_of(phase.side):
            if not unit.on_board or unit.pinned or unit.busy or unit.kind == SNIPER.name:
                continue
            for team in self.state.teams:
                if (team.side != unit.side and team.on_board
                        and dist(unit.pos, team.unit.pos) <= CATCH_RADIUS):
                    tried.append(unit.id)
                    yield from catch(battle, unit, team)
        for unit in battle.units_of(phase.side):
            if battle.done.triggered:
                return
            if not unit.on_board or unit.pinned or unit.busy or unit.kind == SNIPER.name or not unit.orders.charge:
                continue
            reach = battle.knobs.fow.assault_range
            target = nearest(enemies(battle, unit.side, reach), unit.pos, reach,
                             lambda e, d: e.kind != SNIPER.name and e.on_board, reach / 4)
            if target is not None:
                if unit.id in tried:
                    battle.record(ASSAULT_AFTER_CATCH, rule="FOW.CATCH", unit=unit.id,
                                  target=target.id)
                team_combat.assault(battle, unit, target)
