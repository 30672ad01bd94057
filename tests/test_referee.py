"""The referee (sim.agents.referee): exact scheduling of SF.TRIGGER reactions, the
spatial index that keeps it cheap, and cancellation when a segment ends."""
from __future__ import annotations

import functools
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
from sim.space.grid import SpatialGrid

PROPS = settings(max_examples=80, deadline=None, derandomize=True)
R = 10.0


@functools.lru_cache(maxsize=None)
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
    b.ruleset.setup(b)
    b.clock.current = Phase(1, "blue", "movement", 0.0, 1.0)
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
    """SF.ONCE at the referee: a firer in the mover's fired_at_by is not eligible."""
    def arm_after_fire(b, m):
        m.fired_at_by.add("e")
        assert b.referee.arm(m, (0.0, 50.0), (100.0, 50.0), 1.0) is None

    assert _referee_case(arm_after_fire) == [("done", 1.0)]


def test_referee_ignores_eliminated_reactors():
    def arm_dead(b, m):
        b.units["e"].flags.add("eliminated")
        assert b.referee.arm(m, (0.0, 50.0), (100.0, 50.0), 1.0) is None

    assert _referee_case(arm_dead) == [("done", 1.0)]
