"""The referee: exact reaction times for movers (the sensor–mover–referee pattern).

Rules register *watches* (snap fire, zone of control, opportunity fire). When a mover
starts a straight segment, the referee asks each watch for the enemies near it (a grid
hash), computes for each the exact instant the mover first comes within the watch's
radius (a segment–circle intersection), and schedules only the earliest. If the mover
finishes the segment first, the scheduled moment is cancelled. When it fires, the
referee interrupts the mover's SimPy process with a ``Trigger`` that carries the exact
point, so nothing is ever sampled and no radius can be skipped.

Ground watches (``add_ground``: an area entered, a line crossed, an edge used, each
further length walked in an area) are asked the same question of the same segment
(``sim.agents.ground_referee``); the earliest reaction of either kind comes first, and
reactions due at one instant react in the order their watches were added.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

import simpy

from sim import arguments
from sim.agents.ground_referee import GroundReferee
from sim.agents.unit import Unit
from sim.engine.context import BattleContext, check_ground_watch
from sim.engine.context import GroundTrigger as GroundTrigger  # the referee's watches (re-exported)
from sim.engine.context import GroundWatch as GroundWatch
from sim.engine.context import Trigger as Trigger
from sim.engine.context import Watch as Watch
from sim.engine.instants import exact
from sim.errors import InputError
from sim.space import ground
from sim.space.geometry import Point, first_root, lerp, moving_closer, reach, tolerance
from sim.space.spatial_hash import GridMemo, SpatialGrid

#: A reaction found on a segment: (s, watch order, reactor id, tie, reactor, inside,
#: the point it reacts at if later than its entry, its distance at the segment's start,
#: watch). A ground watch's has no reactor (``sim.agents.ground_referee.GroundFound``).
Found = tuple[float, int, str, float, "Unit | None", bool, "Point | None", float, "Watch | GroundWatch"]


def _watch_then_id(f: Found) -> tuple[int, str]:
    return f[1], f[2]


def _trigger(f: Found, p0: Point, p1: Point) -> Trigger | GroundTrigger:
    """The Trigger (a GroundTrigger for a ground watch) of a reaction found on p0→p1."""
    s, _, _, _, reactor, inside, far_in, d0, watch = f
    point = p0 if s == 0.0 else far_in or lerp(p0, p1, s)
    if reactor is None:   # no unit reacts: the ground does
        assert isinstance(watch, GroundWatch)
        return GroundTrigger(watch, watch.feature, point, s)
    assert isinstance(watch, Watch)   # a unit reacts: to a unit's watch
    if s == 0.0:
        d = d0
    elif far_in is None:
        d = watch.radius
    else:
        d = math.hypot(point[0] - reactor.pos[0], point[1] - reactor.pos[1])
    return Trigger(watch, reactor, point, d, inside, s)


class Referee:
    """Schedules, for each moving segment, the exact moment a watch's reactor reacts."""

    def __init__(self, battle: BattleContext):
        self.battle = battle
        self.env = exact(battle.env)   # the battle's own: events at exact instants
        self.watches: list[Watch] = []
        self.ground_watches: list[GroundWatch] = []
        self._order: list[int] = []   # each of ``watches``' place among all watches added
        self._added = 0               # watches added so far, of both kinds
        self._ground: GroundReferee | None = None   # made by the first ground watch
        self._indexes: dict[str, list[tuple[int, Watch, SpatialGrid[Unit]]]] = {}   # side -> per watch
        self._memo: GridMemo[Unit] = GridMemo()   # the reactors' indexes between phases
        self._armed: dict[str, int] = {}    # unit id -> token of its live schedule
        self._token = 0
        #: The last reaction fired: (instant, watch, reactor (None: the ground), mover); a
        #: battle standing still names it (``sim.engine.instants.StalledBattle``).
        self.last: tuple[float, Watch | GroundWatch, Unit | None, Unit] | None = None

    def add(self, watch: Watch) -> None:
        """Arm ``watch`` on every mover from now on."""
        self.watches.append(watch)
        self._order.append(self._added)
        self._added += 1

    def add_ground(self, watch: GroundWatch) -> None:
        """Arm the ground watch ``watch`` on every mover from now on."""
        check_ground_watch(watch, "watch")
        keeper = self._ground
        if keeper is None:
            keeper = self._ground = GroundReferee(self.battle)
        elif keeper.holds(watch):
            raise InputError("this ground watch is armed already (expected each watch added once)",
                             place="watch")
        self.ground_watches.append(watch)
        keeper.add(watch, self._added)
        self._added += 1

    def progress(self, mover: Unit, area: ground.Area) -> float:
        """The length ``mover`` has walked inside ``area`` in this battle, up to where it last stood.

        Where it last stood: the end of its last run, or where a reaction or an
        elimination stopped it. Counted exactly for every area a ground watch holds (``sim.agents.ground_referee``).
        """
        arguments.instance(mover, "mover", Unit, "a sim.plugin.Unit")
        arguments.instance(area, "area", ground.Area, "a sim.plugin.Area")
        found = None if self._ground is None else self._ground.progress(mover, area)
        if found is None:
            raise InputError(f"area {area.id!r} is held by no ground watch (the referee counts only "
                             "those: expected the area of one added with add_ground)", place="area")
        return found

    def begin_phase(self) -> None:
        """Index the reactors afresh: they do not move while the other side moves."""
        self._indexes.clear()

    def _grid(self, idx: int, watch: Watch, side: str) -> SpatialGrid[Unit]:
        reactors = watch.reactors(self.battle, side)
        # Reactors mostly stand still from one turn to the next: the index of the very
        # same units at the very same places is reused. Cells of about the radius,
        # smaller where reactors stand densely: a segment then meets only those near it.
        return self._memo.grid((idx, side), reactors, max(watch.radius, 1e-6) * 4)

    def earliest(self, mover: Unit, p0: Point, p1: Point) -> tuple[float, Trigger | GroundTrigger] | None:
        """(s, Trigger) of the first reaction along p0→p1 (a GroundTrigger: the ground's), or None.

        Every reaction due at that first instant (to the tolerance) comes with it, in
        ``Trigger.tied``: each reactor whose trigger falls there reacts.
        """
        # (s, watch index, unit id, tie, reactor, inside, far-in point, d0, watch): the
        # Trigger is made only for the reactions that come first.
        found: list[Found] = []
        best = math.inf   # the earliest s so far
        for idx, watch, grid in self._indexes.get(mover.side) or self._index_side(mover.side):
            r = watch.radius
            near = grid.near_segment(p0, p1, r)
            # Most segments pass no enemy: ask the rule only when one is near.
            if not near or not watch.active(self.battle, mover):
                continue
            # Cheap tests first, so most candidates cost a few comparisons: the segment's
            # box grown by the reach, then the closest approach (both with a margin wider
            # than first_entry's tangent tolerance), then a lower bound on the entry
            # against the best so far. Only then the exact root.
            x0, y0 = p0
            dx, dy = p1[0] - x0, p1[1] - y0
            seg2 = dx * dx + dy * dy
            far = reach(r)
            reach2 = far * far
            bx0, bx1 = (x0 - far, p1[0] + far) if dx >= 0.0 else (p1[0] - far, x0 + far)
            by0, by1 = (y0 - far, p1[1] + far) if dy >= 0.0 else (p1[1] - far, y0 + far)
            ahead = far / math.sqrt(seg2) if seg2 > 0.0 else 0.0  # the reach as a fraction
            tol = tolerance(r)
            tie = tol / math.sqrt(seg2) if seg2 > 0.0 else 0.0    # the tolerance as a fraction
            battle, eligible = self.battle, watch.eligible
            for reactor in near:
                cx, cy = reactor.pos
                if cx < bx0 or cx > bx1 or cy < by0 or cy > by1:
                    continue
                rx, ry = x0 - cx, y0 - cy
                fx, fy = rx, ry
                if seg2 > 0.0:
                    u = -(rx * dx + ry * dy) / seg2
                    # it enters no earlier than (closest approach - reach): a best found
                    # before that cannot be beaten nor tied
                    if u - ahead > best + tie + 1e-9:
                        continue
                    u = 0.0 if u < 0.0 else 1.0 if u > 1.0 else u
                    fx, fy = rx + u * dx, ry + u * dy
                if fx * fx + fy * fy > reach2:
                    continue
                if not reactor.on_board or not eligible(battle, reactor, mover):
                    continue
                d0 = math.hypot(rx, ry)  # = dist(p0, reactor.pos)
                s: float | None
                if d0 <= r:
                    if not watch.inside_triggers(battle, reactor, mover, p0, p1):
                        continue
                    # on the circle to the tolerance, it comes within the radius here:
                    # an entry, not a start inside
                    s, inside = 0.0, d0 < r - tol
                else:
                    # on the circle to the tolerance but not moving closer, it does not
                    # come within (nor, by the tangent tolerance, somewhere further on)
                    if d0 - r <= tol and not moving_closer(p0, p1, reactor.pos):
                        continue
                    # = first_entry(p0, p1, reactor.pos, r), from the numbers at hand
                    s = None if seg2 == 0.0 else first_root(rx, ry, dx, dy, r)
                    if s is None or s > 1.0:
                        continue
                    inside = False
                far_in = None
                if watch.delays:
                    # a moment is never before its entry: one that cannot come first is
                    # not worth working out
                    if s > best + tie:
                        continue
                    later = watch.first_moment(battle, reactor, mover, p0, p1, s)
                    if later is None:
                        continue
                    if later > s:  # in range earlier, but it reacts only from here
                        s, inside = later, False
                        far_in = lerp(p0, p1, s)
                found.append((s, idx, reactor.id, tie, reactor, inside, far_in, d0, watch))
                if s < best:
                    best = s
        if self._ground is not None:
            found += self._ground.found(mover, p0, p1)
        if not found:
            return None
        first = min(found)   # the earliest (s, then watch, then id); it says where the mover stops
        tied = [f for f in found if f[0] - first[0] <= max(f[3], first[3])]
        if len(tied) > 1:
            tied.sort(key=_watch_then_id)
        head = _trigger(tied[0], p0, p1)
        head.point, head.s = _trigger(first, p0, p1).point, first[0]
        head.tied = tuple(_trigger(f, p0, p1) for f in tied[1:])
        return first[0], head

    def quiet(self, mover: Unit, points: Sequence[Point]) -> bool:
        """True when no watch has an enemy near the box of the mover's position and ``points``.

        Nor may a ground watch's feature meet that box. ``points`` are the move's
        waypoints: then no segment of the move can trigger, and it need not be armed.

        Sound because reactors are indexed once per phase: none appears mid-phase.
        """
        x0 = x1 = mover.pos[0]
        y0 = y1 = mover.pos[1]
        for x, y in points:
            if x < x0:
                x0 = x
            elif x > x1:
                x1 = x
            if y < y0:
                y0 = y
            elif y > y1:
                y1 = y
        if self._ground is not None and self._ground.meets(x0, y0, x1, y1):
            return False
        for _, watch, grid in self._indexes.get(mover.side) or self._index_side(mover.side):
            # Only an enemy within reach of the box counts (with a margin wider than the
            # narrow phase's tangent tolerance); most moves are clear of them all.
            if grid.any_near_box(x0, y0, x1, y1, reach(watch.radius)) and watch.active(self.battle, mover):
                return False
        return True

    def _index_side(self, side: str) -> list[tuple[int, Watch, SpatialGrid[Unit]]]:
        """Every watch's index of its reactors against movers of ``side``, with its order.

        Built at the phase's first question (the broad phase's or the narrow one's) and kept.
        """
        order = self._order
        found = self._indexes[side] = [
            (order[idx] if idx < len(order) else self._added + idx, watch, self._grid(idx, watch, side))
            for idx, watch in enumerate(self.watches)]   # (appended to ``watches`` directly: after all)
        return found

    def arm(self, mover: Unit, p0: Point, p1: Point, duration: float,
            until: float | None = None) -> float | None:
        """Schedule the mover's first reaction on this segment; returns its fraction s.

        The mover covers it in ``duration`` from now, reaching p1 at exactly ``until``
        when given. A reaction due as the segment ends comes before its end of motion.
        """
        self._token += 1
        token = self._armed[mover.id] = self._token
        keeper = self._ground
        if keeper is not None:
            keeper.settle(mover)   # what it walked since it was last armed, up to here
        found = self.earliest(mover, p0, p1)
        if keeper is not None:
            keeper.open(mover, p0, p1)
        if found is None:
            return None
        s, trigger = found
        process = cast(simpy.Process, mover.process)  # a mover is moved by its process

        def fire(_event: simpy.Event) -> None:
            if self._armed.get(mover.id) == token and process.is_alive:
                self._armed.pop(mover.id, None)
                if keeper is not None:
                    keeper.fired(mover, trigger)
                self.last = (env.now, trigger.watch, trigger.reactor, mover)
                process.interrupt(trigger)

        env = self.env
        when = env.now + s * duration
        if until is not None and (s >= 1.0 or when > until):
            when = until
        env.schedule_at(when, env.order_key(), urgent=True).callbacks.append(fire)
        return s

    def disarm(self, mover: Unit) -> None:
        """Cancel the mover's scheduled reaction (segment finished or move ended, or a reaction stopped it).

        What it walked is counted up to where it stands (``progress``).
        """
        self._armed.pop(mover.id, None)
        if self._ground is not None:
            self._ground.settle(mover)
