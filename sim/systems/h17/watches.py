"""H17's referee watches: opportunity fire at movers (H17.4) and entering the sniper's
hex (H17.6b)."""
from __future__ import annotations

from sim.agents.referee import Trigger, Watch
from sim.agents.unit import Unit
from sim.catalogue import implements
from sim.engine.context import BattleContext
from sim.systems.h17.events import OPPORTUNITY_FIRE
from sim.systems.h17.rules import RANGE, sniper_attack
from sim.systems.h17.state import state_of


def _at_centre(battle: BattleContext, p: tuple[float, float]) -> str | None:
    node = battle.terrain.nearest_node(*p)
    q = battle.terrain.pos(node)
    return node if abs(q[0] - p[0]) + abs(q[1] - p[1]) < 1e-6 else None


@implements("H17.4")
class OpportunityFireWatch(Watch):
    """H17.4: once per turn, the sniper fires at a moving infantry unit in LOS within 6."""

    rule = "H17.4"
    radius = RANGE + 1e-9   # hex distance <= 6 implies centre distance <= 6

    def active(self, battle: BattleContext, mover: Unit) -> bool:
        return battle.clock.phase == "movement" and mover.kind == "infantry"

    def reactors(self, battle: BattleContext, side: str) -> list[Unit]:
        return [tm.unit for tm in state_of(battle).teams if tm.side != side and tm.on_board]

    def eligible(self, battle: BattleContext, reactor: Unit, mover: Unit) -> bool:
        team = state_of(battle).team_of(reactor)
        return (team is not None and team.on_board and not team.doomed
                and team.fired_turn != battle.clock.turn)

    def _qualifies(self, battle: BattleContext, sniper: Unit, mover: Unit,
                   p: tuple[float, float]) -> bool:
        node = _at_centre(battle, p)
        t = battle.terrain
        return (node is not None and mover.on_board and not mover.pinned
                and t.distance(node, sniper.node) <= RANGE and t.los(node, sniper.node))

    def inside_triggers(self, battle: BattleContext, reactor: Unit, mover: Unit,
                        p0: tuple[float, float], p1: tuple[float, float]) -> bool:
        team = state_of(battle).team_of(reactor)
        return team is not None and self._qualifies(battle, team.unit, mover, p0)

    def react(self, battle: BattleContext, mover: Unit, trigger: Trigger) -> str:
        team = state_of(battle).team_of(trigger.reactor)
        if (team is None or not self.eligible(battle, trigger.reactor, mover)
                or not self._qualifies(battle, team.unit, mover, mover.pos)):
            return "continue"
        team.fired_turn = battle.clock.turn
        battle.record(OPPORTUNITY_FIRE, rule="H17.4", unit=team.id, target=mover.id,
                      pos=team.unit.pos, node=team.unit.node, target_node=mover.node,
                      dist=battle.terrain.distance(mover.node, team.unit.node), marker="fire")
        sniper_attack(battle, team, mover.node, trigger="H17.4")
        if not mover.alive:
            return "dead"
        return "halt_phase" if mover.pinned else "continue"


@implements("H17.6b")
class HexEntryWatch(Watch):
    """H17.6b: an enemy unit crossing into the sniper's hex eliminates it."""

    rule = "H17.6b"
    radius = 0.5   # the hexside: crossing it enters the sniper's hex

    def active(self, battle: BattleContext, mover: Unit) -> bool:
        return mover.kind != "sniper"

    def reactors(self, battle: BattleContext, side: str) -> list[Unit]:
        return [tm.unit for tm in state_of(battle).teams if tm.side != side and tm.on_board]

    def eligible(self, battle: BattleContext, reactor: Unit, mover: Unit) -> bool:
        team = state_of(battle).team_of(reactor)
        return team is not None and team.on_board and not team.doomed

    def react(self, battle: BattleContext, mover: Unit, trigger: Trigger) -> str:
        team = state_of(battle).team_of(trigger.reactor)
        if team is not None and team.on_board and not team.doomed:
            team.doomed = True
            team.request("eliminate", rule="H17.6b", by=mover.id, entered=True)
        return "continue"
