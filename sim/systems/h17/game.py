"""The H17 game: movement (opportunity fire, entering the sniper's hex), fire (AP attacks
and their natural 12s), after-action (rally, withdrawal)."""
from __future__ import annotations

from collections.abc import Generator
from typing import Any

from sim.agents.unit import Unit
from sim.catalogue import implements
from sim.engine.clock import Phase
from sim.systems.h17 import hex_combat
from sim.systems.h17.rules import natural_twelve, wants_withdrawal, withdraw_policy
from sim.systems.h17.state import H17Battle, H17State
from sim.systems.h17.watches import HexEntryWatch, OpportunityFireWatch
from sim.toolkit.hunters import hex_count, hunt_route
from sim.toolkit.movers import start_moves
from sim.toolkit.sniper_team import HIDDEN, OFF_BOARD, REVEALED, SniperTeam
from sim.toolkit.snipers import SNIPER


@implements("H17.1")
def make_teams(battle: H17Battle) -> list[SniperTeam]:
    """One ``SniperTeam`` per sniper unit (at most one per side, H17.1, checked at load
    time), off the board unless its scenario entry says ``deployed``."""
    teams = []
    for _, spec in battle.scenario.units():
        if spec.kind != SNIPER.name:
            continue
        start = spec.sniper_team.start if spec.sniper_team is not None else OFF_BOARD
        state = HIDDEN if start == "deployed" else OFF_BOARD
        teams.append(SniperTeam(battle, battle.units[spec.id], state))
    return teams


class H17Game:
    """H17: movement, fire, after-action."""

    def __init__(self) -> None:
        self.state = H17State()

    def sees(self, battle: H17Battle, viewer: Unit, target: Unit) -> bool:
        """LOS between the hexes; a sniper only once revealed."""
        team = self.state.team_of(target)
        return (team is None or team.state == REVEALED) and battle.terrain.los(viewer.node, target.node)

    def setup(self, battle: H17Battle) -> None:
        self.state.hunters = frozenset(spec.id for _, spec in battle.scenario.units() if spec.hunt)
        self.state.teams = make_teams(battle)
        battle.referee.add(OpportunityFireWatch())
        battle.referee.add(HexEntryWatch())

    def on_phase(self, battle: H17Battle, phase: Phase) -> None:
        if phase.phase == "movement":
            battle.referee.begin_phase()
            start_moves(battle, phase, [u for u in battle.units_of(phase.side) if u.kind != SNIPER.name],
                        route=lambda u: hunt_route(battle, u, self.state, hex_count))
        elif phase.phase == "fire":
            battle.env.process(self._fire(battle, phase))
        elif phase.phase == "after_action":
            battle.env.process(self._after_action(battle, phase))

    def _fire(self, battle: H17Battle, phase: Phase) -> Generator[Any, Any, None]:
        for unit in battle.units_of(phase.side):
            if battle.done.triggered:
                return
            if not unit.on_board or unit.kind == SNIPER.name or unit.pinned:
                continue
            target = hex_combat.nearest_target(battle, unit)
            if target is None:
                continue
            attack = hex_combat.ap_attack(battle, unit, target)
            yield from natural_twelve(battle, unit, attack)
            yield battle.env.timeout(0)   # let elimination checks finish first

    def _after_action(self, battle: H17Battle, phase: Phase) -> Generator[Any, Any, None]:
        hex_combat.rally(battle, phase.side)
        k = battle.knobs.h17
        for team in self.state.teams:
            if k.withdraw_phase == "own" and team.side != phase.side:
                continue
            if wants_withdrawal(battle, team):
                yield team.request("withdraw", rule="H17.3", policy=withdraw_policy(battle, team).when)
