"""The referee's ground: where a mover's segment first meets a ground watch's feature, and
what the mover has done at each feature so far.

For each segment the referee arms, every ground watch whose feature's bounds meet the
segment's box (and that is ``active`` for the mover) is asked for its first reaction on
it, exactly (``sim.space.ground``). The segment's pieces are kept until the mover stops
(the segment ends, a reaction or an elimination stops it, or it is re-armed): then what it
walked is counted, from where the movement put it, never sampled:

- *progress*: the length it has walked inside each watched area in this battle (along a
  boundary is not inside). It never resets: a rule reading "each further 5 cm inside the
  field" reads the running total across moves. Only moves the referee watches count:
  every move whose box meets a watched feature's bounds is watched, so only
  ``sim.plugin.go_straight`` (which no watch sees) walks uncounted.
- *inside*: whether it counts as inside each watched area (the side of the last piece it
  walked off the boundary; set up on the boundary counts as inside), so that a segment
  starting on the boundary enters at once only if it came there from outside;
- *using*: whether it is running along each watched edge (from where it got onto it to
  where it goes off it);
- *multiples*: for each EVERY watch, how many multiples of its length the mover has
  passed: one more each time the watch reacts; a multiple passed on a segment on which
  the watch was not active, or its reaction not eligible, passes without a reaction.

The inside and using flags hold where the mover last stopped; a mover that stands
elsewhere when it is next armed (a move no watch saw, a rule that placed it) has them
worked out afresh from where it stands.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from sim.agents.unit import Unit
from sim.engine.context import BattleContext, GroundEvent, GroundTrigger, GroundWatch, Trigger
from sim.space import ground_pieces as cut
from sim.space.geometry import Point
from sim.space.ground import Area, Edge, Feature, Line

#: A reaction found on a segment, in the referee's ``Found`` layout: (s, watch order, "",
#: tie, no reactor, not inside, the point if it is the segment's end, 0.0, watch).
GroundFound = tuple[float, int, str, float, None, bool, "Point | None", float, GroundWatch]

ENTER, CROSS, EVERY, USE = GroundEvent.ENTER, GroundEvent.CROSS, GroundEvent.EVERY, GroundEvent.USE


@dataclass
class _Walk:
    """A mover's armed segment, not counted yet: its pieces against each feature it may meet."""

    p0: Point
    p1: Point
    areas: dict[int, cut.Pieces]
    edges: dict[int, tuple[cut.Interval | None, float]]
    armed: set[int]                      # EVERY watches (by position) that may react on it
    fired: list[GroundTrigger] = field(default_factory=list)


@dataclass
class _Mover:
    """What the referee knows of one mover's ground (by feature index, watch position)."""

    at: Point | None = None              # where ``inside`` and ``using`` hold
    progress: dict[int, float] = field(default_factory=dict)
    inside: dict[int, bool] = field(default_factory=dict)
    using: dict[int, bool] = field(default_factory=dict)
    multiples: dict[int, int] = field(default_factory=dict)
    walk: _Walk | None = None


class GroundReferee:
    """The ground watches of one battle's referee and its movers' progress."""

    def __init__(self, battle: BattleContext):
        self.battle = battle
        self.watches: list[tuple[int, GroundWatch, int]] = []   # (order added, watch, feature index)
        self.features: list[Feature] = []
        self._index: dict[Feature, int] = {}
        self._scale: list[float] = []    # each feature's largest coordinate (at least 1)
        self._position: dict[int, int] = {}   # id(watch) -> its place in ``watches``
        self._movers: dict[str, _Mover] = {}
        self._pending: tuple[str, Point, Point, _Walk] | None = None

    def add(self, watch: GroundWatch, order: int) -> None:
        """Watch ``watch`` from now on; ``order`` is its place among all the referee's watches."""
        feature = watch.feature
        k = self._index.get(feature)
        if k is None:
            k = self._index[feature] = len(self.features)
            self.features.append(feature)
            self._scale.append(max(1.0, *(abs(b) for b in feature.bounds)))
        self._position[id(watch)] = len(self.watches)
        self.watches.append((order, watch, k))

    def holds(self, watch: GroundWatch) -> bool:
        """Whether ``watch`` is watched already."""
        return id(watch) in self._position

    def _meets(self, k: int, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Whether feature k's bounds, grown by the tolerance, meet the box (x0, y0)-(x1, y1)."""
        fx0, fy0, fx1, fy1 = self.features[k].bounds
        grow = cut.TOL * max(self._scale[k], abs(x0), abs(y0), abs(x1), abs(y1))
        return x0 <= fx1 + grow and fx0 - grow <= x1 and y0 <= fy1 + grow and fy0 - grow <= y1

    def meets(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Whether some watched feature's bounds meet the box (x0, y0)-(x1, y1)."""
        return any(self._meets(k, x0, y0, x1, y1) for k in range(len(self.features)))

    def found(self, mover: Unit, p0: Point, p1: Point) -> list[GroundFound]:
        """The first reaction of each ground watch on p0→p1 (its pieces kept for ``open``)."""
        st = self._movers.get(mover.id) or _Mover()
        here = st.at == p0      # the flags hold here
        box = (min(p0[0], p1[0]), min(p0[1], p1[1]), max(p0[0], p1[0]), max(p0[1], p1[1]))
        walk = _Walk(p0, p1, {}, {}, set())
        near = {k for k in range(len(self.features)) if self._meets(k, *box)}
        for k in near:   # every feature it may meet: what it walks there is counted
            feature = self.features[k]
            if isinstance(feature, Area):
                walk.areas[k] = cut.area_pieces(p0, p1, feature.points, feature.bounds)
            elif isinstance(feature, Edge):
                walk.edges[k] = cut.edge_overlap(p0, p1, feature.a, feature.b, feature.bounds)
        out: list[GroundFound] = []
        battle = self.battle
        for position, (order, watch, k) in enumerate(self.watches):
            if k not in near or not watch.active(battle, mover):
                continue
            feature = watch.feature
            s: float | None
            if isinstance(feature, Area):
                pieces = walk.areas[k]
                tie = pieces.tol
                if watch.event is ENTER:
                    inside = st.inside.get(k) if here else None
                    s = cut.entry(pieces, from_outside=inside is False)
                else:   # EVERY: the next multiple of its length not passed yet
                    walk.armed.add(position)
                    target = (st.multiples.get(position, 0) + 1) * (watch.every or math.inf)
                    s = cut.reach(pieces, st.progress.get(k, 0.0), target)
            elif isinstance(feature, Line):
                hits, tie = cut.line_hits(p0, p1, feature.points, feature.bounds)
                s = cut.crossing(hits, tie)
            else:
                overlap, tie = walk.edges[k]
                s = cut.use_start(overlap, tie, bool(here and st.using.get(k)))
            if s is None:
                continue
            if not watch.eligible(battle, mover):
                walk.armed.discard(position)
                continue
            out.append((s, order, "", tie, None, False, p1 if s == 1.0 else None, 0.0, watch))
        self._pending = (mover.id, p0, p1, walk)
        return out

    def open(self, mover: Unit, p0: Point, p1: Point) -> None:
        """The mover walks p0→p1 from now: keep its pieces until it stops."""
        pending = self._pending
        if pending is None or pending[:3] != (mover.id, p0, p1):
            self.found(mover, p0, p1)
            pending = self._pending
        assert pending is not None
        self._pending = None
        st = self._movers.get(mover.id)
        if st is None:
            st = self._movers[mover.id] = _Mover()
        if st.at != p0:   # it stands elsewhere than where its flags hold: work them out afresh
            st.inside.clear()
            st.using.clear()
            st.at = p0
        st.walk = pending[3]

    def fired(self, mover: Unit, trigger: Trigger | GroundTrigger) -> None:
        """The reactions of ``trigger`` interrupt the mover: its ground ones are counted when it stops."""
        st = self._movers.get(mover.id)
        if st is not None and st.walk is not None:
            st.walk.fired += [t for t in trigger.each() if isinstance(t, GroundTrigger)]

    def settle(self, mover: Unit) -> None:
        """Count the mover's open segment up to where it stands (the movement put it there)."""
        st = self._movers.get(mover.id)
        if st is None or st.walk is None:
            return
        walk, st.walk = st.walk, None
        pos = mover.pos
        s = _fraction(walk.p0, walk.p1, pos)
        for k, pieces in walk.areas.items():
            st.progress[k] = st.progress.get(k, 0.0) + cut.inside_up_to(pieces, s)
            was = st.inside.get(k)
            st.inside[k] = cut.inside_after(pieces, s, pieces.start != cut.OUTSIDE if was is None else was)
        for k, (overlap, tol_s) in walk.edges.items():
            st.using[k] = cut.using_after(overlap, tol_s, s, st.using.get(k, False))
        for position, (_, watch, k) in enumerate(self.watches):
            if watch.event is EVERY and k in walk.areas and position not in walk.armed and watch.every:
                passed = math.floor((st.progress[k] + walk.areas[k].near) / watch.every)
                st.multiples[position] = max(st.multiples.get(position, 0), passed)
        for t in walk.fired:
            k = self._index[t.feature]
            if t.watch.event is ENTER:
                st.inside[k] = True
            elif t.watch.event is USE:
                st.using[k] = True
            elif t.watch.event is EVERY:
                position = self._position[id(t.watch)]
                st.multiples[position] = st.multiples.get(position, 0) + 1
        st.at = pos

    def progress(self, mover: Unit, area: Area) -> float | None:
        """The length ``mover`` has walked inside ``area`` (None: no ground watch holds it)."""
        k = self._index.get(area)
        if k is None or not isinstance(self.features[k], Area):
            return None
        st = self._movers.get(mover.id)
        return 0.0 if st is None else st.progress.get(k, 0.0)


def _fraction(p0: Point, p1: Point, pos: Point) -> float:
    """The fraction of p0→p1 at which ``pos`` (a point on it) stands: exact at its ends."""
    if pos == p1:
        return 1.0
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    l2 = dx * dx + dy * dy
    if pos == p0 or l2 == 0.0:
        return 0.0
    return min(1.0, max(0.0, ((pos[0] - p0[0]) * dx + (pos[1] - p0[1]) * dy) / l2))
