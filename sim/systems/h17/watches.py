"""H17's referee watches: opportunity fire at movers (H17.4) and entering the sniper's
hex (H17.6b)."""
from __future__ import annotations

from sim.agents.outcome import Outcome
from sim.agents.referee import Trigger, Watch
from sim.agents.unit import Unit
from sim.catalogue import implements
from sim.space.geometry import Point
from sim.systems.h17.events import OPPORTUNITY_FIRE
from sim.systems.h17.rules import RANGE, sniper_attack
from sim.systems.h17.state import H17Battle
from sim.systems.kinds import INFANTRY
from sim.toolkit.reactions import take
from sim.toolkit.snipers import SNIPER


def _at_centre(battle: H17Battle, p: tuple[float, float]) -> str | None:
    node = battle.terrain.nearest_node(*p)
    q = battle.terrain.pos(node)
    return node if abs(q[0] - p[0]) + abs(q[1] - p[1]) < 1e-6 else None


@implements("H17.4")
class OpportunityFireWatch(Watch):
    """H17.4: once per turn, the sniper fires at a moving infantry unit in LOS within 6.

    A mover is a target wherever along its move it stands in a hex within 6 and in
    sight: as it sets off from a hex centre (its start, or a centre it reached), and in
    the hex where its move ends, when it gets there. It stands in the hex whose centre it
    last reached, so circle entries between centres are not moments of their own.
    """

    rule = "H17.4"
    radius = RANGE + 1e-9   # hex distance <= 6 implies centre distance <= 6
    delays = True           # sight and the hex decide, not the circle: first_moment

    def active(self, battle: H17Battle, mover: Unit) -> bool:
        return battle.clock.current.moves and mover.kind == INFANTRY.name

    def reactors(self, battle: H17Battle, side: str) -> list[Unit]:
        return [tm.unit for tm in battle.state.teams if tm.side != side and tm.on_board]

    def eligible(self, battle: H17Battle, reactor: Unit, mover: Unit) -> bool:
        st = battle.state
        team = st.team_of(reactor)
        turn = battle.clock.turn
        return (team is not None and team.on_board and not team.doomed
                and st.fire_marker.get(team.id) != turn and (team.id, mover.id, turn) not in st.declined)

    def _qualifies(self, battle: H17Battle, sniper: Unit, mover: Unit,
                   p: tuple[float, float]) -> bool:
        node = _at_centre(battle, p)
        t = battle.terrain
        return (node is not None and mover.on_board and not mover.pinned
                and t.distance(node, sniper.node) <= RANGE and t.los(node, sniper.node))

    def inside_triggers(self, battle: H17Battle, reactor: Unit, mover: Unit,
                        p0: Point, p1: Point) -> bool:
        return True   # first_moment decides

    def first_moment(self, battle: H17Battle, reactor: Unit, mover: Unit, p0: Point, p1: Point,
                     s: float) -> float | None:
        """0 as it sets off from a qualifying hex; 1 as it reaches the qualifying hex where
        its move ends; otherwise not on this segment (the next centre is looked at when
        the mover sets off from it)."""
        if s == 0.0 and self._qualifies(battle, reactor, mover, p0):
            return 0.0
        course = mover.course
        last = course[2][-1] if course is not None and course[2] else None
        if last is not None and last[1] is not None and last[0] == p1 \
                and self._qualifies(battle, reactor, mover, p1):
            return 1.0
        return None

    def react(self, battle: H17Battle, mover: Unit, trigger: Trigger) -> Outcome:
        st = battle.state
        team = st.team_of(trigger.reactor)
        if (team is None or not self.eligible(battle, trigger.reactor, mover)
                or not self._qualifies(battle, team.unit, mover, mover.pos)):
            return Outcome.CONTINUE
        t = battle.terrain
        cover = t.cover_modifier(mover.node, team.unit.node)
        chance = min(6, max(0, 6 - cover)) / 6        # H17.5: d6 > cover
        if not take(battle, team.unit, mover, "H17.4", chance, battle.knobs.h17.take_reactions):
            st.declined.add((team.id, mover.id, battle.clock.turn))
            return Outcome.CONTINUE
        st.fire_marker[team.id] = battle.clock.turn
        battle.record(OPPORTUNITY_FIRE, rule="H17.4", unit=team.id, target=mover.id,
                      pos=team.unit.pos, node=team.unit.node, target_node=mover.node,
                      dist=t.distance(mover.node, team.unit.node), marker="fire")
        # "against a moving infantry target": the mover takes the attack, no one else
        steps = mover.steps
        sniper_attack(battle, team, mover.node, [mover], trigger="H17.4")
        if not mover.alive:
            return Outcome.DEAD
        # pinned now, or (check_then_pin) as soon as the elimination check is made
        return Outcome.HALT_PHASE if mover.pinned or mover.steps < steps else Outcome.CONTINUE


@implements("H17.6b")
class HexEntryWatch(Watch):
    """H17.6b: an enemy unit crossing into the sniper's hex eliminates it."""

    rule = "H17.6b"
    radius = 0.5   # the hexside: crossing it enters the sniper's hex

    def active(self, battle: H17Battle, mover: Unit) -> bool:
        return mover.kind != SNIPER.name

    def reactors(self, battle: H17Battle, side: str) -> list[Unit]:
        return [tm.unit for tm in battle.state.teams if tm.side != side and tm.on_board]

    def eligible(self, battle: H17Battle, reactor: Unit, mover: Unit) -> bool:
        team = battle.state.team_of(reactor)
        return team is not None and team.on_board and not team.doomed

    def react(self, battle: H17Battle, mover: Unit, trigger: Trigger) -> Outcome:
        team = battle.state.team_of(trigger.reactor)
        if team is not None and team.on_board and not team.doomed:
            team.doomed = True
            team.request("eliminate", rule="H17.6b", by=mover.id, entered=True)
        return Outcome.CONTINUE
