"""Movement: a SimPy process that walks a unit along its route in continuous time.

In a phase in which its side moves a unit makes one move (``advance``), or as many as
its rule system's ``step_moves`` gives its step type. Each move has an allowance of
``unit.move`` cost units and takes its share of the phase (a third, of three). Within a move the
unit walks straight segments between waypoints at constant velocity; before each
segment the referee schedules the exact instant of the first reaction on it. An
interrupt (a ``Trigger``) can come at any instant, and the unit then stands exactly at
``start + velocity × elapsed``.
"""
from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any, Literal, NoReturn

import simpy

from sim import arguments
from sim.agents.outcome import Outcome
from sim.agents.referee import GroundTrigger, GroundWatch, Trigger, Watch
from sim.agents.runs import planned_times, run_end
from sim.agents.unit import Leg, Unit
from sim.engine.clock import Phase
from sim.engine.instants import Environment
from sim.errors import InputError
from sim.events import STOP
from sim.space.geometry import Point, dist, lerp

if TYPE_CHECKING:
    from sim.engine.context import BattleContext
    from sim.space.terrain import LegMemo, Terrain

EPS = 1e-9
_AT_NODE = 1e-9   # a halt this close (as a fraction of its run) to a waypoint is at it
#: How a move ends: its allowance spent or nothing to do, at its destination, or what
#: the reacting rules decided (``Outcome.HALT_MOVE``, ``HALT_PHASE`` or ``DEAD``).
MoveEnd = Literal["done", "arrived"] | Outcome


def _leg(terrain: Terrain, legs: LegMemo, a: str, b: str) -> tuple[Point, float, float]:
    """(position of b, length a–b, cost per unit length) of the edge a→b, memoised in
    ``legs`` (the terrain's own: it never changes, so planning a move is a few dict
    lookups a leg)."""
    data = terrain.graph._adj[a][b]  # the adjacency dict: far cheaper than the edges view
    factor = data["cost"] / data["length"] if data["length"] > 0 else 1.0
    target = terrain.pos(b)
    found = legs[(a, b)] = (target, dist(terrain.pos(a), target), factor)
    return found


def _factor_along(terrain: Terrain, node: str, pos: Point) -> float:
    """Cost per unit length of the edge from ``node`` that ``pos`` stands on (1 if none)."""
    here = terrain.pos(node)
    for n in sorted(terrain.graph._adj[node], key=str):
        data = terrain.graph._adj[node][n]
        there = terrain.pos(n)
        if abs(dist(here, pos) + dist(pos, there) - dist(here, there)) <= 1e-6 and data["length"] > 0:
            return float(data["cost"] / data["length"])
    return 1.0


def _joined(terrain: Terrain, unit: Unit) -> list[str]:
    """The unit's route, joined to the node it stands at.

    A rule that moves a unit off its route (an assault into contact) leaves it at another
    node; its route then goes on from there by the least-cost path to the route's next
    node (none, when the map is in pieces between them).
    """
    route, here = unit.route, unit.node
    if not route or route[0] == here or route[0] in terrain.graph._adj[here]:
        return route
    unit.route = terrain.path(here, route[0])[1:] + route[1:] \
        if terrain.reachable(here, route[0]) else []
    return unit.route


def plan_move(battle: BattleContext, unit: Unit, budget: float) -> list[Leg]:
    """The points this move would pass if nothing stops it: [(point, node|None, cost)]."""
    terrain = battle.terrain
    memo = terrain.legs
    pos, here = unit.pos, unit.node
    legs: list[Leg] = []
    whole_edges = terrain.kind == "hex"  # hex moves end in hex centres, never between
    first = True
    for nxt in _joined(terrain, unit):
        if first and nxt == here:   # back to the node it stands past (a fall-back part-way)
            target = terrain.pos(here)
            length, factor = dist(pos, target), _factor_along(terrain, here, pos)
        else:
            found = memo.get((here, nxt))
            target, length, factor = found if found is not None else _leg(terrain, memo, here, nxt)
        if first:  # the unit may stand part-way along its first edge
            length = dist(pos, target)
            first = False
        cost = length * factor
        if cost <= budget + EPS:
            legs.append((target, nxt, cost))
            budget -= cost
            pos, here = target, nxt
            continue
        if not whole_edges and budget > EPS and length > 0:
            legs.append((lerp(pos, target, budget / cost), None, budget))
        break
    return legs


def walk(battle: BattleContext, unit: Unit, move_index: int, duration: float, end: float | None = None,
         owner: bool = False, allowance: float | None = None) -> Generator[simpy.Event, Any, MoveEnd]:
    """One move: a generator used inside the unit's movement process.

    ``end`` is the absolute time the move's slot ends: no leg's end is ever planned
    after it, so float drift in summed leg times cannot push the last step of a move
    past the phase boundary (into the shooting phase). With ``owner`` the walk *is* the
    unit's process (one move in the phase) and clears up after it.

    The unit goes straight run by straight run (``runs.run_end``): one end of motion
    scheduled a run, at the instant its last leg ends, and one reaction armed on it.

    Returns 'done' (allowance spent or nothing to do), 'arrived', or what the reacting
    rules decided (``MoveEnd``). ``allowance`` (default the unit's move) is what a move
    that starts late in its slot may still cover.
    """
    try:
        env, referee = battle.env, battle.referee
        if unit.process is None:   # started as env.process(...): the referee interrupts this one
            unit.process = env.active_process
        allowed = unit.move if allowance is None else allowance
        legs = plan_move(battle, unit, allowed)
        if not legs:
            return "done"
        now = env.now
        speed = allowed / duration  # cost units per unit of time
        waypoints = [p for p, _, _ in legs]
        times = planned_times(now, legs, speed, end)
        battle.record_move(unit, move_index, waypoints, times)
        clock: Environment = env  # type: ignore[assignment]  # the battle's own (its referee's)
        key = clock.order_key()   # its ends of motion rank by when it began (sim.engine.instants)
        # Broad phase: a move far from every watched enemy arms no run at all. (A
        # one-leg move skips it: arming that leg asks the same question.)
        watched = len(legs) == 1 or not referee.quiet(unit, waypoints)
        unit.course = (now, unit.pos, legs, speed, end)
        if not watched:  # nothing to arm, only an elimination can interrupt: one end of
            # motion for the whole move (its course says where it is meanwhile)
            for _, _, cost in legs:
                if cost > 0:  # zero-length edges take no time: such a move waits for nothing
                    try:
                        yield clock.schedule_at(times[-1], key)
                    except simpy.Interrupt:
                        return Outcome.DEAD  # Battle.eliminate set its exact position
                    break
            _reach_all(unit, legs)
            return _end_of_move(battle, unit)
        keys = clock.order_keys(key)
        budget = allowed
        # A hex move is watched hex centre by hex centre: its rules look at each one.
        merge = battle.terrain.kind != "hex"
        i, began = 0, env.now   # the first leg not yet reached, and when the unit set off on it
        while i < len(legs):
            target, node, cost = legs[i]
            if cost <= 0:   # a zero-length edge takes no time: it is crossed at once, in
                _reach(unit, target, node)   # the move's own phase (no wait, nothing armed)
                i += 1
                continue
            j = run_end(unit.pos, legs, i, merge)
            p0, t1 = unit.pos, times[j]
            referee.arm(unit, p0, legs[j][0], t1 - env.now, until=t1)
            try:
                yield clock.schedule_at(t1, next(keys))
            except simpy.Interrupt as intr:
                trigger = intr.cause
                if not isinstance(trigger, (Trigger, GroundTrigger)):  # eliminated while moving:
                    return Outcome.DEAD               # Battle.eliminate set its exact position
                unit.course = None  # halted here, whatever the rule then decides
                i, began, budget, at_node = _halted_on_run(unit, legs, times, i, j, began, p0, trigger,
                                                           env.now, budget)
                referee.disarm(unit)   # it stands where it stopped: its walk is counted up to here
                outcome = react_all(battle, unit, trigger)
                if outcome is Outcome.CONTINUE:
                    if not at_node:
                        legs = legs[:i] + plan_move(battle, unit, max(0.0, budget))
                        times = times[:i] + planned_times(env.now, legs[i:], speed, end)
                        began = env.now
                    unit.course = (env.now, unit.pos, legs[i:], speed, end)
                    continue
                if outcome is not Outcome.DEAD and at_node and not unit.route:
                    _end_of_move(battle, unit)   # halted on reaching its destination
                return outcome
            for k in range(i, j + 1):
                _reach(unit, legs[k][0], legs[k][1])
                budget -= legs[k][2]
            referee.disarm(unit)   # at the run's end: its walk is counted up to here
            i, began = j + 1, t1
        return _end_of_move(battle, unit)
    finally:
        unit.course = None
        if owner:
            battle.referee.disarm(unit)
            unit.process = None


def _halted_on_run(unit: Unit, legs: list[Leg], times: list[float], i: int, j: int, began: float, p0: Point,
                   trigger: Trigger | GroundTrigger, now: float, budget: float) -> tuple[int, float, float, bool]:
    """Stand a unit where a reaction stopped it on the run of legs i..j from ``p0``:
    each leg whose end it reached counts as reached (a point within a billionth of the
    run's length of a waypoint is at it). Returns (first leg not reached, when it set
    off on that leg, the allowance ``budget`` still left, whether it stands at a leg's end)."""
    s = trigger.s
    end_point = legs[j][0]
    length = dist(p0, end_point)
    k = i
    while k <= j:
        target, node, cost = legs[k]
        at_s = 1.0 if k == j or length <= 0.0 else dist(p0, target) / length
        if s < at_s - _AT_NODE:
            break
        _reach(unit, target, node)
        budget -= cost
        began = times[k]
        k += 1
        if s <= at_s + _AT_NODE:
            return k, began, budget, True
    target, _, cost = legs[k]
    seg_time = times[k] - began
    frac = 0.0 if seg_time <= 0 else min(1.0, max(0.0, (now - began) / seg_time))
    # The referee's exact point; the kinematic one (p0 + v·elapsed) agrees with it to
    # rounding, and a unit already inside is stopped where it stands.
    unit.pos = p0 if isinstance(trigger, Trigger) and trigger.inside else trigger.point
    return k, began, budget - frac * cost, False


def react_all(battle: BattleContext, unit: Unit, trigger: Trigger | GroundTrigger) -> Outcome:
    """Every reaction due at this instant, in order (``Trigger.each``), of units' watches
    and the ground's alike; the mover does what the strongest asks (``Outcome.strength``),
    returned plain (``Outcome.plain``). A halt that no reacting rule recorded is closed
    here (``stop``, reason ``halted``)."""
    outcome, closed = Outcome.CONTINUE, False
    for each in trigger.each():
        if isinstance(each, Trigger):
            said = each.watch.react(battle, unit, each)
        else:
            said = each.watch.react(battle, unit, each)
        if said.__class__ is not Outcome:
            _not_an_outcome(each.watch, said)
        if said.strength > outcome.strength:
            outcome = said
        if not unit.alive:
            return Outcome.DEAD
        closed = closed or said.recorded
    if outcome is not Outcome.CONTINUE and not closed:
        battle.record(STOP, rule=trigger.watch.rule, unit=unit.id, pos=unit.pos, node=unit.node,
                      reason="halted")
    return outcome.plain


def _not_an_outcome(watch: Watch | GroundWatch, said: object) -> NoReturn:
    """A watch's ``react`` answered something other than an Outcome: say which watch, at once."""
    cls = type(watch)
    raise InputError(f"returned {said!r}; expected a sim.plugin.Outcome (such as sim.plugin.Outcome.CONTINUE "
                     "or sim.plugin.Outcome.HALT_PHASE)", place=f"{cls.__module__}.{cls.__qualname__}.react")


def walk_straight(battle: BattleContext, unit: Unit, point: Point,
                  duration: float) -> Generator[simpy.Event, Any, MoveEnd]:
    """A straight move off the route that the referee watches like any move (leaving a
    zone of control): a generator for inside the unit's own process. Returns 'done'
    (it got there), ``Outcome.DEAD``, or what the reacting rules decided."""
    p0, t0 = unit.pos, battle.env.now
    unit.course = (t0, p0, [(point, None, duration)], 1.0, None)
    battle.referee.arm(unit, p0, point, duration)
    try:
        yield battle.env.timeout(duration)
        if unit.on_board:
            unit.pos = point   # there: the referee counts its walk up to here
    except simpy.Interrupt as intr:
        trigger = intr.cause
        if not isinstance(trigger, (Trigger, GroundTrigger)):
            return Outcome.DEAD   # struck down: Battle.eliminate set its exact position
        unit.course = None
        inside = isinstance(trigger, Trigger) and trigger.inside
        unit.pos = point if trigger.s >= 1.0 else p0 if inside else trigger.point
        battle.referee.disarm(unit)   # it stands where it stopped: its walk is counted up to here
        outcome = react_all(battle, unit, trigger)
        if outcome is not Outcome.CONTINUE:
            return outcome
        rest = dist(unit.pos, point)
        if rest <= EPS:
            return "done"
        return (yield from walk_straight(battle, unit, point, duration * rest / dist(p0, point)))
    finally:
        unit.course = None
        battle.referee.disarm(unit)
    return "done" if unit.on_board else Outcome.DEAD


def go_straight(battle: BattleContext, unit: Unit, point: Point,
                duration: float) -> Generator[simpy.Event, Any, bool]:
    """A straight move off the route (a charge, leaving a zone) to ``point`` in
    ``duration``: a generator for inside a process. Struck down on the way, the unit
    falls exactly where it is (``runs.place_and_passed``). Returns whether it got there."""
    _check_mover(battle, unit)
    point = arguments.point(point, "point")
    arguments.number(duration, "duration", 0)
    return _go_straight(battle, unit, point, duration)


def _check_mover(battle: Any, unit: Any) -> None:
    """What a rule hands the movement functions: the battle's context and a unit of it."""
    if not isinstance(getattr(battle, "env", None), simpy.Environment):
        raise arguments.fail("battle", "a sim.plugin.BattleContext (the battle a rule runs in)", battle)
    arguments.instance(unit, "unit", Unit, "a sim.plugin.Unit")


def _go_straight(battle: BattleContext, unit: Unit, point: Point,
                 duration: float) -> Generator[simpy.Event, Any, bool]:
    """``go_straight``'s walk, its arguments checked."""
    unit.course = (battle.env.now, unit.pos, [(point, None, duration)], 1.0, None)
    try:
        yield battle.env.timeout(duration)
    except simpy.Interrupt:
        return False
    finally:
        unit.course = None
    if not unit.on_board:
        return False
    unit.pos = point
    return True


def _reach(unit: Unit, target: Point, node: str | None) -> None:
    """The unit stands at the end of a leg: at ``node`` when the leg ends at one."""
    unit.pos = target
    if node is not None:
        unit.node = node
        route = unit.route
        if route and route[0] == node:
            del route[0]


def _reach_all(unit: Unit, legs: list[Leg]) -> None:
    """``_reach`` for every leg of a move in turn, at its end."""
    route = unit.route
    for _, node, _ in legs:
        if node is not None:
            unit.node = node
            if route and route[0] == node:
                del route[0]
    unit.pos = legs[-1][0]


def _end_of_move(battle: BattleContext, unit: Unit) -> Literal["done", "arrived"]:
    unit.course = None   # the move is over: nothing of it is left to close at a battle's end
    if not unit.route:
        battle.record_arrive(unit)
        return "arrived"
    battle.record_stop(unit)
    return "done"


def movement_process(battle: BattleContext, unit: Unit,
                     phase: Phase) -> Generator[simpy.Event, Any, MoveEnd | None]:
    """The unit's moves in one movement phase, each in its own slot of the phase: a
    generator for ``env.process``."""
    # Every move passes here: the kernel's own types are let through at a glance, anything
    # else is checked in full.
    if unit.__class__ is not Unit or phase.__class__ is not Phase \
            or not isinstance(getattr(battle, "env", None), simpy.Environment):
        _check_mover(battle, unit)
        arguments.instance(phase, "phase", Phase, "a sim.plugin.Phase")
    moves = battle.moves_in_phase(unit)
    late = battle.plans.start_fraction(unit)
    if late > 0.0:   # the step starts part-way through the phase (``in_phase``)
        return _moves(battle, unit, phase, moves, late)
    if moves == 1 and battle.env.now >= phase.start and unit.on_board and unit.route:
        # One move from the phase's start: the walk is the process, so each segment's
        # event resumes one generator, not two.
        return walk(battle, unit, 1, phase.end - phase.start, phase.end, owner=True)
    return _moves(battle, unit, phase, moves)


def _moves(battle: BattleContext, unit: Unit, phase: Phase, moves: int,
           late: float = 0.0) -> Generator[simpy.Event, Any, None]:
    slot = (phase.end - phase.start) / moves
    begin = phase.start + late * (phase.end - phase.start)
    try:
        for k in range(moves):
            move_end = phase.end if k == moves - 1 else phase.start + (k + 1) * slot
            if move_end <= begin:
                continue   # a slot that is over before the step starts
            start = max(phase.start + k * slot, begin)
            if battle.env.now < start:
                yield battle.env.timeout(start - battle.env.now)
            if not unit.on_board or not unit.route:
                break
            if start > phase.start + k * slot:   # a step starting inside the slot moves
                allowance = unit.move * (move_end - start) / slot   # for the rest of it
                outcome = yield from walk(battle, unit, k + 1, move_end - start, move_end,
                                          allowance=allowance)
            else:
                outcome = yield from walk(battle, unit, k + 1, slot, move_end)
            if outcome == "arrived" or outcome is Outcome.HALT_PHASE or outcome is Outcome.DEAD:
                break
    except simpy.Interrupt:
        pass  # eliminated between moves
    finally:
        battle.referee.disarm(unit)
        unit.process = None
