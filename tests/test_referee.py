"""The referee (sim.agents.referee): exact scheduling of SF.TRIGGER reactions, the
spatial index that keeps it cheap, and cancellation when a segment ends."""
from __future__ import annotations

import functools
import math
import random

import pytest
import simpy
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import build, scenario, table, unit
from sim.agents.referee import Trigger
from sim.engine.battle import Battle
from sim.engine.clock import Phase
from sim.space.geometry import dist, first_entry, moving_closer
from sim.space.spatial_hash import SpatialGrid, within_extent

PROPS = settings(max_examples=80, deadline=None, derandomize=True)
R = 10.0


@functools.cache
def _field():
    """A 400 x 200 table with 150 red units scattered over it and one blue mover."""
    rng = random.Random(5)
    wp = {"A": (0.0, 100.0)}
    red = []
    for i in range(150):
        name = f"E{i}"
        wp[name] = (round(rng.uniform(0, 400), 3), round(rng.uniform(0, 200), 3))
        red.append(unit(f"e{i}", name))
    sc = build(scenario(table(wp, width=400, height=200), [unit("m", "A")], red,
                        rules={"snapfire": {"radius": R}}))
    return sc


def _armed_battle(sc, seed=1):
    b = Battle(sc, seed)
    b.setup()
    b.clock.current = Phase(1, "blue", "movement", 0.0, 1.0, moves=True)
    b.referee.begin_phase()
    return b


def _brute(battle, mover, p0, p1):
    best = None
    for e in battle.enemies_of(mover.side):
        d0 = dist(p0, e.pos)
        if d0 <= R:
            if not moving_closer(p0, p1, e.pos):
                continue
            s = 0.0
        else:
            s = first_entry(p0, p1, e.pos, R)
            if s is None:
                continue
        if best is None or (s, e.id) < best:
            best = (s, e.id)
    return best


coord_x = st.floats(0, 400)
coord_y = st.floats(0, 200)


@PROPS
@given(coord_x, coord_y, coord_x, coord_y)
def test_sf_trigger_referee_finds_the_same_first_reactor_as_brute_force(x0, y0, x1, y1):
    """SF.TRIGGER: the grid-indexed referee picks exactly the earliest reaction a scan of
    every enemy would (same fraction s, same firer); nothing is missed by the index."""
    b = _armed_battle(_field())
    m = b.units["m"]
    found = b.referee.earliest(m, (x0, y0), (x1, y1))
    expect = _brute(b, m, (x0, y0), (x1, y1))
    if expect is None:
        assert found is None
        return
    s, trig = found
    assert s == pytest.approx(expect[0], abs=1e-12)
    # ties in s are broken by firer id, as in the referee
    assert trig.reactor.id == expect[1]
    if not trig.inside:
        assert abs(dist(trig.point, trig.reactor.pos) - R) <= 1e-6 and trig.dist == R


@PROPS
@given(st.lists(st.tuples(coord_x, coord_y), min_size=1, max_size=60), coord_x, coord_y,
       coord_x, coord_y, st.floats(0.5, 30), st.floats(0.5, 80))
def test_spatial_grid_returns_every_point_near_a_segment(points, x0, y0, x1, y1, r, cell):
    """The grid hash's candidates are a superset of the points within r of the segment."""
    g = SpatialGrid(cell)
    for i, p in enumerate(points):
        g.add(i, p)
    near = set(g.near_segment((x0, y0), (x1, y1), r))
    for i, p in enumerate(points):
        s = first_entry((x0, y0), (x1, y1), p, r)
        if dist((x0, y0), p) <= r or s is not None:
            assert i in near


def test_spatial_grid_query_touches_only_nearby_points():
    """The index pays off: a short segment far from most points sees only its neighbours."""
    g = SpatialGrid(40.0)
    for i in range(1000):
        g.add(i, (1000.0 + i, 1000.0))
    g.add("near", (5.0, 5.0))
    assert g.near_segment((0, 0), (10, 0), 10) == ["near"]


def _referee_case(arm_then):
    """A mover process waiting on a segment into enemy e's circle; returns what happened."""
    wp = {"A": (0.0, 50.0), "E": (50.0, 58.0)}
    sc = build(scenario(table(wp), [unit("m", "A")], [unit("e", "E")]))
    b = _armed_battle(sc)
    m = b.units["m"]
    seen = []

    def proc():
        try:
            yield b.env.timeout(1.0)
            seen.append(("done", b.env.now))
        except simpy.Interrupt as intr:
            seen.append(("interrupt", b.env.now, intr.cause))

    m.process = b.env.process(proc())
    arm_then(b, m)
    b.env.run(until=2.0)
    return seen


def test_referee_schedules_the_exact_instant():
    """SF.TRIGGER: armed on (0,50)→(100,50) over 1 time unit, the interrupt comes at
    t = 0.44 with the exact point (44, 50)."""
    seen = _referee_case(lambda b, m: b.referee.arm(m, (0.0, 50.0), (100.0, 50.0), 1.0))
    (kind, t, cause), = seen
    assert kind == "interrupt" and t == pytest.approx(0.44)
    assert isinstance(cause, Trigger) and cause.reactor.id == "e"
    assert cause.point == pytest.approx((44.0, 50.0)) and cause.inside is False


def test_referee_disarm_cancels_the_scheduled_moment():
    """A segment that ends (disarm) cancels its scheduled reaction."""
    def arm_disarm(b, m):
        b.referee.arm(m, (0.0, 50.0), (100.0, 50.0), 1.0)
        b.referee.disarm(m)

    assert _referee_case(arm_disarm) == [("done", 1.0)]


def test_referee_new_segment_replaces_the_old_schedule():
    """Arming the next segment supersedes the previous one: only the new moment counts."""
    def arm_twice(b, m):
        b.referee.arm(m, (0.0, 50.0), (100.0, 50.0), 1.0)          # would fire at 0.44
        b.referee.arm(m, (0.0, 50.0), (0.0, 0.0), 1.0)              # moves away: nothing

    assert _referee_case(arm_twice) == [("done", 1.0)]


def test_referee_ignores_moves_outside_the_movement_phase():
    """SF.NOASSAULT at the referee: in the assault phase nothing is scheduled."""
    def arm_in_assault(b, m):
        b.clock.current = Phase(1, "blue", "assault", 0.0, 1.0)
        assert b.referee.arm(m, (0.0, 50.0), (100.0, 50.0), 1.0) is None

    assert _referee_case(arm_in_assault) == [("done", 1.0)]


def test_sf_once_referee_skips_a_firer_that_already_fired_at_this_mover():
    """SF.ONCE at the referee: a firer that already fired at the mover this turn (in the
    snap-fire watch's ``fired_at``) is not eligible."""
    def arm_after_fire(b, m):
        b.game.play("snapfire").state.watch.fired_at[m.id] = {"e"}
        assert b.referee.arm(m, (0.0, 50.0), (100.0, 50.0), 1.0) is None

    assert _referee_case(arm_after_fire) == [("done", 1.0)]


def test_referee_ignores_eliminated_reactors():
    def arm_dead(b, m):
        b.units["e"].flags.add("eliminated")
        assert b.referee.arm(m, (0.0, 50.0), (100.0, 50.0), 1.0) is None

    assert _referee_case(arm_dead) == [("done", 1.0)]


class _At:
    def __init__(self, name, pos):
        self.name, self.pos = name, pos


@PROPS
@given(st.lists(st.tuples(coord_x, coord_y), min_size=1, max_size=60), coord_x, coord_y,
       coord_x, coord_y, st.floats(0.5, 30), st.floats(0.5, 80))
def test_spatial_grid_bulk_index_returns_every_point_near_a_segment(points, x0, y0, x1, y1, r, cell):
    """``add_all`` (the per-phase bulk build) indexes as ``add`` does, and the query's
    quick refusal on the items' extent never drops a point within r, grazing included."""
    items = [_At(i, p) for i, p in enumerate(points)]
    bulk, single = SpatialGrid(cell).add_all(items), SpatialGrid(cell)
    for it in items:
        single.add(it, it.pos)
    near = {it.name for it in bulk.near_segment((x0, y0), (x1, y1), r)}
    assert near == {it.name for it in single.near_segment((x0, y0), (x1, y1), r)}
    for it in items:
        if dist((x0, y0), it.pos) <= r or first_entry((x0, y0), (x1, y1), it.pos, r) is not None:
            assert it.name in near


def test_spatial_grid_refuses_far_segments_but_keeps_a_tangent_one():
    g = SpatialGrid(40.0).add_all([_At("a", (100.0, 100.0))])
    assert g.near_segment((0, 0), (50, 0), 10) == []                  # far outside the extent
    assert [it.name for it in g.near_segment((0, 90.0), (200, 90.0), 10)] == ["a"]   # tangent
    assert SpatialGrid(40.0).near_segment((0, 0), (1, 1), 10) == []   # empty grid


def test_referee_index_follows_reactors_that_moved_or_fell_between_turns():
    """The reactor index is reused only while every reactor stands where it stood: an
    enemy that moved (or was eliminated) in its own turn is found at its new place."""
    wp = {"A": (0.0, 50.0), "E": (50.0, 58.0), "G": (300.0, 90.0)}
    sc = build(scenario(table(wp, width=400), [unit("m", "A")], [unit("e", "E"), unit("g", "G")]))
    b = _armed_battle(sc)
    m, e, g = b.units["m"], b.units["e"], b.units["g"]
    lane = ((0.0, 50.0), (100.0, 50.0))
    assert b.referee.earliest(m, *lane)[1].reactor is e
    b.referee.begin_phase()                     # nobody moved: the same answer
    assert b.referee.earliest(m, *lane)[1].reactor is e
    g.pos = (40.0, 52.0)                        # g came from far away, ahead of e
    b.referee.begin_phase()
    s, trig = b.referee.earliest(m, *lane)
    assert trig.reactor is g and abs(dist(trig.point, g.pos) - R) < 1e-9
    g.flags.add("eliminated")
    b.referee.begin_phase()
    assert b.referee.earliest(m, *lane)[1].reactor is e
    e.flags.add("eliminated")
    b.referee.begin_phase()
    assert b.referee.earliest(m, *lane) is None


def test_within_extent_keeps_order_and_every_item_within_reach():
    others = [_At("o1", (0.0, 0.0)), _At("o2", (100.0, 50.0))]
    items = [_At("in", (50.0, 25.0)), _At("edge", (110.0, 60.0)), _At("out", (110.01, 0.0)),
             _At("below", (0.0, -10.0))]
    assert [it.name for it in within_extent(items, others, 10.0)] == ["in", "edge", "below"]
    assert within_extent(items, [], 10.0) == [] and within_extent([], others, 10.0) == []


@pytest.mark.parametrize("names", [("b", "a"), ("a", "b")])
def test_sf_trigger_tie_across_cells_goes_to_the_lower_id(names):
    """SF.TRIGGER: two enemies the lane enters at the very same instant, in different
    grid cells: whichever the index visits first, the tie goes to the lower id (the
    referee's pruning of candidates that cannot come first must keep ties)."""
    wp = {"A": (0.0, 40.0), "B": (200.0, 40.0), "P": (50.0, 35.0), "Q": (50.0, 45.0),
          "L": (150.0, 40.0)}
    first, second = names
    sc = build(scenario(table(wp, [("A", "B")]), [unit("m", "A", orders={"type": "advance", "to": "B"})],
                        [unit(first, "P"), unit(second, "Q"), unit("late", "L")]))
    b = _armed_battle(sc)
    s, trig = b.referee.earliest(b.units["m"], (0.0, 40.0), (200.0, 40.0))
    assert trig.reactor.id == "a"
    assert s == pytest.approx((50.0 - math.sqrt(100.0 - 25.0)) / 200.0, abs=1e-12)


def test_sf_trigger_pruning_keeps_the_earliest_among_many_on_a_long_lane():
    """A long lane past 200 enemies at random: the earliest entry found with pruning is
    the brute-force earliest (same s, same firer), lane after lane."""
    rng = random.Random(17)
    wp = {"A": (0.0, 100.0)}
    red = []
    for i in range(200):
        wp[f"E{i}"] = (round(rng.uniform(0, 2000), 3), round(rng.uniform(0, 200), 3))
        red.append(unit(f"e{i:03d}", f"E{i}"))
    sc = build(scenario(table(wp, width=2000, height=200), [unit("m", "A")], red,
                        rules={"snapfire": {"radius": R}}))
    b = _armed_battle(sc)
    m = b.units["m"]
    for k in range(60):
        y0, y1 = rng.uniform(0, 200), rng.uniform(0, 200)
        p0, p1 = (rng.uniform(0, 100), y0), (rng.uniform(1900, 2000), y1)
        if k % 2:
            p0, p1 = p1, p0
        found, expect = b.referee.earliest(m, p0, p1), _brute(b, m, p0, p1)
        assert (found is None) == (expect is None)
        if found is not None:
            assert found[0] == pytest.approx(expect[0], abs=1e-12) and found[1].reactor.id == expect[1]


@PROPS
@given(st.lists(st.tuples(coord_x, coord_y), min_size=0, max_size=60), coord_x, coord_y,
       st.floats(0, 120), st.floats(0, 60), st.floats(1e-6, 30), st.floats(0.5, 80))
def test_any_near_box_is_exactly_a_scan_of_every_item(points, x0, y0, w, h, reach, cell):
    """The broad phase's question (is any enemy within reach of this move's box?) gets
    the answer a scan of every item gives, whatever the cell size. (The referee's reach
    is never below 1e-6: its margin over the radius.)"""
    items = [_At(i, p) for i, p in enumerate(points)]
    g = SpatialGrid(cell).add_all(items)
    x1, y1 = x0 + w, y0 + h

    def gap(p):
        ex = max(x0 - p[0], 0.0, p[0] - x1)
        ey = max(y0 - p[1], 0.0, p[1] - y1)
        return ex * ex + ey * ey

    assert g.any_near_box(x0, y0, x1, y1, reach) == any(gap(p) <= reach * reach for p in points)


def test_spatial_grid_query_after_more_items_are_added_sees_them():
    """The grid's per-row index is rebuilt when a new cell fills: a query, then an add
    into a fresh cell (and one into an old cell), then the same query finds all."""
    g = SpatialGrid(10.0)
    g.add("a", (5.0, 5.0))
    assert g.near_segment((0, 5), (100, 5), 1.0) == ["a"]
    g.add("b", (95.0, 5.0))      # a new cell, in the same row, far along it
    g.add("c", (6.0, 4.0))       # the old cell
    assert sorted(g.near_segment((0, 5), (100, 5), 1.0)) == ["a", "b", "c"]
    assert g.near_segment((20, 5), (80, 5), 1.0) == []          # between them: no cell
    assert sorted(g.near_segment((0, 5), (0, 5), 100.0)) == ["a", "b", "c"]


@pytest.mark.parametrize("r", [1e-4, 3e-4, 0.01, 10.0])
def test_sf_trigger_tiny_radius_still_counts_a_tangent_pass(r):
    """The referee's cheap refusals (segment box, closest approach, broad phase, grid
    margin) never refuse a pass that first_entry counts as within r, however small r
    is: its tangent tolerance is absolute (1e-9 on the squared distance) below r = 1."""
    gap = math.sqrt(r * r + 0.9e-9 * max(1.0, r * r))   # inside the tolerance, beyond r
    wp = {"A": (0.0, 50.0), "B": (20.0, 50.0), "E": (10.0, 50.0 + gap)}
    sc = build(scenario(table(wp, [("A", "B")]), [unit("m", "A", orders={"type": "advance", "to": "B"})],
                        [unit("e", "E")], rules={"snapfire": {"radius": r}}))
    assert first_entry((0.0, 50.0), (20.0, 50.0), (10.0, 50.0 + gap), r) is not None
    b = _armed_battle(sc)
    found = b.referee.earliest(b.units["m"], (0.0, 50.0), (20.0, 50.0))
    assert found is not None and found[1].reactor.id == "e"
    assert not b.referee.quiet(b.units["m"], [(20.0, 50.0)])
