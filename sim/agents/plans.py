"""Plans at run time: which step of its orders each unit follows, and how it reacts.

At the start of every phase in which units move the battle asks ``Plans.begin_phase`` to bring
the phasing side's units up to date, before the rule system moves them:

* a move step is *done* when the unit stands at its ``to``; a ``hold`` step at once;
* the next step *starts* when its ``when`` holds at the start of one of the unit's
  movement phases (``sim.scenario.orders.Condition``), the events it names counted from
  the moment the step before it began; it sets the unit's ``orders`` (what the rule
  systems read: ``type``, ``to``, ``charge``) and its route (a planner, a behaviour of
  kind ``route``);
* after the last step, a looping plan starts again unless its ``until`` holds;
* a unit fired on, or halted, since its last movement phase reacts first as its
  ``on_fired`` / ``on_halted`` policy says (behaviours of kind ``reaction_move``):
  ``carry_on``, ``go_to_ground`` (it holds for ``turns`` of its movement phases),
  ``fall_back`` (back to the last node it passed), ``seek_cover`` (to the
  nearest node with cover it can reach this phase); then it resumes its plan.

Mid-battle (``sim.decide``) a unit may be given new steps (``replan``), every unit new
policies (``set_policies``), and a unit's plan kept up to date at each of its side's
movement phases whatever its orders (``take_over``), so that it goes on from a choice.

Every step begun after the first, or under a condition, and every policy's choice is a
``decide`` record (``policy``, ``choice``, ``trigger``). Events are read from the log (the
one source of truth), from where the last reading stopped.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sim.agents.choices import DECIDE as DECIDER
from sim.agents.choices import REACTION_MOVE, ROUTE, TARGET, Response
from sim.agents.plan_changes import PlanChanges
from sim.agents.plan_facts import EVENT_FACTS, Facts, read_facts, reads_log
from sim.agents.plan_steps import describe, describe_when, hold_like
from sim.agents.runner import Runner
from sim.agents.unit import Unit
from sim.events import DECIDE
from sim.space import route_planners as routes
from sim.space.path_trees import NoPath
from sim.systems.behaviours import behaviour
from sim.systems.declarations import PluginError

#: The module of the shipped route planners (their routes are not checked edge by edge).
_SHIPPED = "sim.agents.policies"

if TYPE_CHECKING:
    from sim.engine.clock import Phase
    from sim.engine.context import BattleContext

class Plans(PlanChanges):
    """Every unit's plan in a battle; ``begin_phase`` at each movement phase's start."""

    def __init__(self, battle: BattleContext) -> None:
        self.battle = battle
        scenario = battle.scenario
        self.groups: dict[str, list[str]] = {g: list(grp.units) for g, grp in scenario.groups.items()}
        group_of = {uid: g for g, ids in self.groups.items() for uid in ids}
        self.runners: dict[str, Runner] = {}
        self.group_of = group_of
        for _, spec in scenario.units():
            steps, loop, until = self.steps_for(scenario, spec)
            self.runners[spec.id] = Runner(battle.units[spec.id], steps, loop, until)
        self.policies = scenario.policies
        self._policy: dict[tuple[str, str], tuple[int, Any]] = {}   # (unit, what) -> policy
        self.facts: dict[str, Facts] = {uid: Facts() for uid in self.runners}
        self._read = 0
        self._seen: dict[str, frozenset[str]] = {}   # side -> ground its enemies see at the start
        # side -> its decider (``policies.<side>.decide``); its units' plans follow its choices
        self.deciders: dict[str, Any] = {side: p.decide for side, p in scenario.policies.items()
                                         if side in scenario.sides and p.decide is not None}
        for r in self.runners.values():
            r.managed = r.managed or r.unit.side in self.deciders
        self.revise()

    def steps_for(self, scenario: Any, spec: Any) -> tuple[list[Any], bool, Any]:
        """A unit's steps (a formation member's moved by its offset), loop and until, as
        ``scenario`` gives them (its own plan or orders, or its group's plan)."""
        uid = spec.id
        g = self.group_of.get(uid)
        plan = scenario.groups[g].plan if g is not None else spec.plan
        steps = list(plan.steps) if plan is not None else [spec.orders]
        offset = scenario.groups[g].formation.get(uid) if g is not None else None
        if offset is not None:
            steps = [self._offset(s, offset) for s in steps]
        return steps, bool(plan and plan.loop), plan.until if plan is not None else None

    def revise(self) -> None:
        """Work out afresh which units' plans a phase brings up to date, and whether the log
        must be read (at the start, and after a change of plans or policies: sim.decide)."""
        self._policy.clear()
        self._sides: dict[str, list[Runner]] = {side: [] for side in self.battle.scenario.sides}
        for r in self.runners.values():
            r.reacts = any(self.policy(r.unit, w) is not None for w in ("on_fired", "on_halted"))
            # A plain order (one step, started at once, no loop, no reaction) never changes
            # after the start: its phases need no bringing up to date.
            if r.managed or r.reacts or r.loop or len(r.steps) > 1 or r.steps[0].when is not None:
                self._sides[r.unit.side].append(r)
        # Whether some step starts part-way through a phase (most battles: none).
        self._late = any(s.when is not None and s.when.in_phase is not None
                         for r in self.runners.values() for s in r.steps)
        # Only plans that wait on events, or react to them, need the log read (a battle
        # of plain orders skips it).
        self._needs_log = any(r.reacts or any(reads_log(c) for c in (*[s.when for s in r.steps], r.until))
                              for r in self.runners.values())

    def start(self) -> None:
        """Every unit's first step, as orders always were, unless it waits (once the battle
        holds these plans: a route planner may ask them, ``battle.plans``)."""
        for r in self.runners.values():
            if r.steps[0].when is None:
                self._start(r, None, log=False)
            else:
                self._wait(r)

    # -- what the rule systems ask ----------------------------------------------------
    def moving(self, side: str) -> list[Unit]:
        """The side's units whose current step moves them."""
        return [u for u in self.battle.units_of(side) if u.orders.type != "hold"]

    def start_fraction(self, unit: Unit) -> float:
        """How far into its movement phase the unit's move starts (``in_phase``)."""
        if not self._late:
            return 0.0
        r = self.runners[unit.id]
        if not r.begun or r.finished or r.started_turn != self.battle.clock.turn:
            return 0.0   # only the step's first phase starts late
        when = r.steps[r.index].when
        return when.in_phase if when is not None and when.in_phase is not None else 0.0

    def policy(self, unit: Unit, what: str) -> Any:
        """The unit's ``what`` policy (``on_fired``, ``on_halted``, ``target``): its own,
        else its group's, else its side's; None when none is set."""
        return self._lookup(unit, what)[1]

    def _lookup(self, unit: Unit, what: str) -> tuple[int, Any]:
        """(0 the unit's own, 1 its group's, 2 its side's, 3 none; the policy)."""
        key = (unit.id, what)
        if key not in self._policy:
            found: tuple[int, Any] = (3, None)
            for level, who in enumerate((unit.id, self.group_of.get(unit.id), unit.side)):
                p = self.policies.get(who) if who is not None else None
                if p is not None and getattr(p, what, None) is not None:
                    found = (level, getattr(p, what))
                    break
            self._policy[key] = found
        return self._policy[key]

    def choose_target(self, unit: Unit, candidates: list[tuple[float, Unit]]) -> Unit | None:
        """The unit's target among (distance, enemy) candidates, by its ``target`` policy."""
        if not candidates:
            return None
        p = self.policy(unit, "target")
        if p is None:
            return min(candidates, key=lambda c: (c[0], c[1].id))[1]
        choice: Unit = behaviour(TARGET, p.policy).choose(candidates, p)
        if choice not in [c[1] for c in candidates]:
            raise PluginError(f"target policy '{p.policy}' chose {getattr(choice, 'id', choice)!r}, not one of "
                              "the candidates (expected one of the enemies it was given)")
        if len(candidates) > 1:   # a choice was made: say which, among whom
            self.battle.record(DECIDE, rule=None, unit=unit.id, pos=unit.pos, node=unit.node,
                               policy=p.policy, choice=choice.id, trigger="a target to choose",
                               candidates=[c[1].id for c in sorted(candidates, key=lambda c: (c[0], c[1].id))])
        return choice

    # -- the phase ---------------------------------------------------------------------
    def begin_phase(self, phase: Phase) -> None:
        """Bring the phasing side's units' steps up to date (the rule system moves them)."""
        if self._needs_log:
            self._read_log()
        for r in self._sides[phase.side]:
            unit = r.unit
            if (r.finished and not r.reacts) or not unit.on_board:
                continue
            if not r.reacts and not r.managed:
                self._advance(r, phase)
                continue
            r.way.look(unit)   # where its last move got it (a fall-back goes back)
            if not self._react(r, phase):
                self._advance(r, phase)
            r.way.set_off(unit)

    def decide(self, phase: Phase) -> None:
        """The phasing side's decider, if it has one, decides (after ``begin_phase``)."""
        p = self.deciders.get(phase.side)
        if p is not None:
            behaviour(DECIDER, p.policy).choose(self.battle, phase.side, phase, p)

    def _advance(self, r: Runner, phase: Phase) -> None:
        if r.finished:
            return
        if r.resume:   # a reaction is over: a step it broke off starts again from here
            r.resume = False
            if r.begun and not self._done(r):
                self._start(r, phase, resumed=True)
            elif not r.begun:
                self._wait(r)   # a step still waiting for its condition goes on waiting
        for _ in range(len(r.steps) + 1):   # at most one pass over the plan a phase
            if not r.begun:
                if not self._holds(r, r.steps[r.index].when, phase):
                    self._wait(r)
                    return
                self._start(r, phase)
            if not self._done(r):
                return
            if r.index + 1 < len(r.steps):
                self._next(r, r.index + 1)
            elif r.loop and not self._holds(r, r.until, phase, since=r.pass_since):
                self._next(r, 0)
            else:
                r.finished = True   # it keeps its last orders (a charge, say); it stays
                r.unit.route = []
                return

    def _next(self, r: Runner, index: int) -> None:
        # events count from the moment the step before began (docs/scenario.md)
        r.index, r.begun, r.since = index, False, r.step_began
        if index == 0:
            r.pass_since = self._read

    def _done(self, r: Runner) -> bool:
        step, unit = r.steps[r.index], r.unit
        return step.type == "hold" or (unit.node == step.to and not unit.route)

    def _wait(self, r: Runner) -> None:
        """The unit stands (and does not charge) while its step waits for its condition."""
        r.unit.orders, r.unit.route = hold_like(r.steps[r.index]), []

    def _start(self, r: Runner, phase: Phase | None, log: bool = True, resumed: bool = False) -> None:
        step, unit = r.steps[r.index], r.unit
        r.begun, r.step_began = True, self._read
        r.started_turn = phase.turn if phase is not None else 1
        unit.orders = step
        if step.type == "hold":
            unit.route = []
        else:
            unit.route = self.route(unit, step)
        if log and (resumed or r.index > 0 or step.when is not None or r.loop):
            again = "resume " if resumed else ""
            self.battle.record(DECIDE, rule=None, unit=unit.id, pos=unit.pos, node=unit.node,
                               policy="plan", choice=f"{again}step {r.index + 1}: {describe(step)}",
                               trigger="the reaction is over" if resumed else describe_when(step.when))

    def route(self, unit: Unit, step: Any) -> list[str]:
        """The nodes the unit's step takes it through, by the step's route planner."""
        planner = behaviour(ROUTE, step.route).choose
        try:
            found: list[str] = planner(self.battle, unit, unit.node, list(step.via), step.to)
        except NoPath:   # checked at load time from its start; a detour may cut it off
            return []
        if getattr(planner, "__module__", None) == _SHIPPED:
            return found   # the shipped planners' routes are paths of the map, by construction
        g = self.battle.terrain.graph
        for a, b in zip([unit.node, *found], found):
            if b not in g or (a != b and not g.has_edge(a, b)):
                raise PluginError(f"route planner '{step.route}' gave {unit.id} the route {found!r}: "
                                  f"'{b}' does not follow '{a}' (expected nodes of the map, each "
                                  "a neighbour of the one before, starting after the unit's node)")
        return found

    def last_passed(self, unit: Unit) -> str | None:
        """The node the unit last passed: the one it stands past on an edge, or the one it
        came to its node from (None: it has not moved)."""
        return self.runners[unit.id].way.last_passed(unit, self.battle.terrain)

    def seen_by_enemies_of(self, side: str) -> frozenset[str]:
        """The ground the enemies of ``side`` saw from where they started (covered routes)."""
        if side not in self._seen:
            watchers = [spec.at for s, spec in self.battle.scenario.units() if s != side
                        and self.battle.units[spec.id].on_board]
            self._seen[side] = routes.seen_ground(self.battle.terrain, watchers)
        return self._seen[side]

    # -- conditions -------------------------------------------------------------------
    def _holds(self, r: Runner, when: Any, phase: Phase, since: int | None = None) -> bool:
        if when is None:
            return True
        if when.from_turn is not None and phase.turn < when.from_turn:
            return False
        if when.arrived is not None and not self.arrived(when.arrived):
            return False
        for fact in EVENT_FACTS:
            who = getattr(when, fact)
            if who is not None:
                uid = r.unit.id if who == "self" else who
                start = r.since if since is None else since
                if not any(i >= start for i in getattr(self.facts[uid], fact)):
                    return False
        if when.enemy_within is not None and not self._sees_enemy(r.unit, when.enemy_within):
            return False
        return True

    def arrived(self, cond: Any, facts: dict[str, Facts] | None = None) -> bool:
        """The unit, or every living member of the group, has stood at ``at`` (a formation
        member at its own place for ``at``: the node nearest its offset from it), as
        ``facts`` (default: the plans' own) say."""
        facts = self.facts if facts is None else facts
        ids = [cond.unit] if cond.unit is not None else self.groups[cond.group]
        units = [self.battle.units[i] for i in ids]
        alive = [u for u in units if u.alive] or units
        return all((at := self.place_for(u.id, cond.at)) == u.node or at in facts[u.id].stood_at
                   for u in alive)

    def place_for(self, uid: str, node: str) -> str:
        """Where a unit stands for ``node``: the node itself, or for a formation member the
        node nearest its offset from it."""
        g = self.group_of.get(uid)
        offset = self.battle.scenario.groups[g].formation.get(uid) if g is not None else None
        return node if offset is None else routes.offset_node(self.battle.terrain, node, offset)

    def _sees_enemy(self, unit: Unit, reach: float) -> bool:
        """An enemy within ``reach`` (hexes on a hex map, else map units) that the unit sees:
        as its rule system's game says (``sees(battle, viewer, target)``: a hidden sniper is
        not seen), else by line of sight."""
        t = self.battle.terrain
        for e in self.battle.enemies_of(unit.side):
            near = (t.distance(unit.node, e.node) if t.kind == "hex" else math.dist(unit.pos, e.pos)) <= reach
            if near and self.sees(unit, e):
                return True
        return False

    def sees(self, viewer: Unit, target: Unit) -> bool:
        """Whether ``viewer`` sees ``target``: as the rule system's game says (``sees``), else
        by line of sight."""
        sees = getattr(self.battle.game, "sees", None)
        return bool(sees(self.battle, viewer, target)) if sees is not None else self.battle.terrain.los_xy(
            viewer.pos, target.pos)

    # -- policies ----------------------------------------------------------------------
    def _react(self, r: Runner, phase: Phase) -> bool:
        """A reaction to being fired on or halted since the unit's last movement phase, or
        one still under way; True when it decides the unit's move this phase."""
        unit = r.unit
        f = self.facts[unit.id]
        # Of the events since it last reacted, the one whose policy is the unit's most
        # specific (its own before its group's before its side's) decides; at a tie a halt
        # (the more particular event: under snap fire every halt is also fired on).
        found = sorted((self._lookup(unit, what)[0], what != "on_halted", what)
                       for what, events in (("on_fired", f.fired_on), ("on_halted", f.halted))
                       if self._lookup(unit, what)[1] is not None and any(i >= r.reacted for i in events))
        for _, _, what in found[:1]:
            p = self.policy(unit, what)
            r.reacted = self._read
            interrupted = r.resume   # a new reaction replaces one under way
            r.ground_turns, r.detour, r.resume = 0, False, False
            response = behaviour(REACTION_MOVE, p.policy).choose(self.battle, unit, p)
            if not isinstance(response, Response):
                raise PluginError(f"reaction policy '{p.policy}' gave {unit.id} {response!r} (expected a "
                                  "sim.plugin.Response: carry_on(), stand(turns) or move_to(node))")
            if response.hold:
                self.hold(r, response.hold)
            elif response.to is not None:
                self.detour(r, response.to)
            trigger = "fired_on" if what == "on_fired" else "halted"
            self.battle.record(DECIDE, rule=None, unit=unit.id, pos=unit.pos, node=unit.node,
                               policy=p.policy, choice=response.choice, trigger=trigger)
            if r.resume:        # it holds or moves off its plan (``hold``, ``detour``)
                return True
            r.resume = interrupted   # carrying on: a broken-off step starts again now
            return False
        if r.ground_turns > 0:
            r.ground_turns -= 1
            unit.orders, unit.route = hold_like(r.steps[r.index]), []
            return True
        if r.detour and unit.route:   # still on its way back or to cover
            return True
        r.detour = False
        return False

    def hold(self, r: Runner, turns: int = 1) -> str:
        """A reaction: the unit stands for ``turns`` of its movement phases (this one
        included), then its plan's step starts again from where it is."""
        r.ground_turns, r.resume = turns - 1, True
        r.unit.orders, r.unit.route = hold_like(r.steps[r.index]), []
        return f"hold {turns} turn(s)"

    def detour(self, r: Runner, node: str, route: list[str] | None = None) -> str:
        """A reaction: the unit moves to ``node`` (by ``route``, default the least-cost
        path; back along its edge when ``node`` is the one it stands past), then its
        plan's step starts again from there."""
        unit, t = r.unit, self.battle.terrain
        update: dict[str, Any] = {"type": "advance", "to": node, "via": []}
        if "charge" in type(r.steps[r.index]).model_fields:
            update["charge"] = False   # it moves away, it does not assault
        unit.orders = r.steps[r.index].model_copy(update=update)
        if route is None:
            past = node == unit.node and unit.pos != t.pos(node)
            route = [node] if past else routes.shortest(t, unit.node, [], node)
        unit.route = route
        r.detour, r.resume = bool(route), True
        return f"to {node}"

    # -- the log -----------------------------------------------------------------------
    def _read_log(self) -> None:
        self._read = read_facts(self.battle.log.records, self._read, self.facts)

    def _offset(self, step: Any, offset: Sequence[float]) -> Any:
        """A formation member's step: destinations moved by its offset (nearest node)."""
        if step.to is None:
            return step
        t = self.battle.terrain
        return step.model_copy(update={"to": routes.offset_node(t, step.to, offset),
                                       "via": [routes.offset_node(t, v, offset) for v in step.via]})
