"""The ground as a reactor: ground watches in the referee (areas entered, lines crossed,
edges used, each further length walked in an area), halted exactly where the geometry of
``sim.space.ground`` says, in one order with the units' watches, with the length walked
inside an area counted exactly (``Referee.progress``), at no cost to a battle that has none."""
from __future__ import annotations

import functools
import math
from fractions import Fraction as F

import pytest

import sim
import sim.plugin as sp
from conftest import SCENARIOS, build, scenario, table, unit
from movers import run_under
from sim.engine.battle import Battle
from sim.space.ground import Area, Edge, Line, edge
from test_ground_geometry import ref_crossing, ref_entry, ref_pieces

MOVING = (sp.PhaseSpec("go", moves=True), sp.PhaseSpec("rest"))
CLOSE = 1e-12
#: What the watches saw, in order: (watch's name, mover, where it stood, trigger point, progress or None).
SEEN: list[tuple] = []


class Seeing(sp.GroundWatch):
    """A ground watch that notes each reaction and answers ``outcome``."""

    rule = "T.GROUND"

    def __init__(self, name, feature, event, every=None, outcome=sp.Outcome.HALT_MOVE):
        super().__init__(feature, event, every)
        self.name, self.outcome = name, outcome

    def react(self, battle, mover, trigger):
        feature = trigger.feature
        progress = battle.referee.progress(mover, feature) if isinstance(feature, Area) else None
        SEEN.append((self.name, mover.id, mover.pos, trigger.point, progress))
        return self.outcome


class OnceAtTen(sp.Watch):
    """Each enemy reacts once to each mover, 10 cm out, and lets it carry on (a snap-fire radius)."""

    rule = "T.UNIT"
    radius = 10.0

    def __init__(self):
        self.done = set()

    def reactors(self, battle, side):
        return battle.enemies_of(side)

    def eligible(self, battle, reactor, mover):
        return (reactor.id, mover.id) not in self.done

    def react(self, battle, mover, trigger):
        self.done.add((trigger.reactor.id, mover.id))
        SEEN.append(("unit", mover.id, mover.pos, trigger.point, None))
        return sp.Outcome.CONTINUE


@pytest.fixture(autouse=True)
def _fresh():
    SEEN.clear()
    yield
    SEEN.clear()


def _lane(wp, edges, blue, red=(), turns=1):
    return scenario(table(wp, edges, width=200, height=100), blue, list(red) or [unit("far", "FAR")],
                    turns=turns, destroy=False)


def _go(uid, at, to, move=100, **kw):
    return unit(uid, at, move=move, orders={"type": "advance", "to": to}, **kw)


def _exact_point(p0, p1, s):
    return tuple(float(F(a) + (F(b) - F(a)) * s) for a, b in zip(p0, p1))


def _near(p, q):
    return math.dist(p, q) <= CLOSE * 100


# -- a line crossed -------------------------------------------------------------------
WIRE = Line("wire", ((37.25, 3.0), (45.125, 77.0)))


def _wire_watch():
    return [Seeing("wire", WIRE, sp.GroundEvent.CROSS)]


def test_a_mover_crossing_a_line_is_halted_exactly_at_the_crossing():
    """Halted on the line for the rest of its move, it sets off from there in its next
    turn: it does not cross again (a segment that starts on a line does not cross it)."""
    wp = {"A": (0.0, 50.0), "B": (200.0, 50.0), "FAR": (190.0, 95.0)}
    log = run_under("ground_test", MOVING, _lane(wp, [("A", "B")], [_go("b", "A", "B")], turns=3), _wire_watch)
    s = ref_crossing((0.0, 50.0), (100.0, 50.0), WIRE)   # the move's one segment: 100 cm of A→B
    exact = _exact_point((0.0, 50.0), (100.0, 50.0), s)
    ((name, mover, pos, point, _),) = SEEN
    assert (name, mover) == ("wire", "b") and _near(point, exact) and pos == point
    first, then = [r for r in log if r["event"] == "stop"]
    assert first["reason"] == "halted" and first["rule"] == "T.GROUND" and _near(first["pos"], exact)
    assert first["t"] == pytest.approx(float(s), abs=CLOSE)   # 100 cm a phase of 1
    assert then["reason"] == "allowance" and then["pos"][0] == pytest.approx(exact[0] + 100.0)


# -- an area entered ------------------------------------------------------------------
#: A field with a notch: its reflex vertex at (60, 40), a vertex (30, 50) on the lane.
FIELD = Area("field", ((30.0, 50.0), (45.5, 20.0), (80.0, 20.0), (80.0, 40.0), (60.0, 40.0), (70.0, 80.0),
                       (35.0, 80.0)))


def _field_entries():
    return [Seeing("enter", FIELD, sp.GroundEvent.ENTER, outcome=sp.Outcome.CONTINUE)]


def _entries(p0, p1, area):
    """Every point where p0→p1 goes into the area from outside, exactly (the reference's pieces)."""
    start, pieces = ref_pieces(p0, p1, area)
    side, out = (1 if start == 0 else start), []
    for lo, _, kind in pieces:
        if kind == 1 and side == -1:
            out.append(_exact_point(p0, p1, lo))
        side = kind or side
    return out


def test_entering_an_area_halts_exactly_where_it_goes_in_and_a_start_inside_is_no_entry():
    """``a`` goes into the field, out into its notch and in again across the notch's
    floor: each entry reacts exactly there (the mover carries on). ``i`` starts inside,
    goes out north and comes back in: only its coming back is an entry."""
    wp = {"A": (0.0, 70.0), "B": (100.0, 25.0), "I": (50.0, 60.0), "J": (50.0, 95.0), "K": (50.0, 30.0),
          "FAR": (190.0, 95.0)}
    data = _lane(wp, [("A", "B"), ("I", "J"), ("J", "K")], [_go("a", "A", "B", move=120),
                                                           _go("i", "I", "K", move=200)])
    run_under("ground_test", MOVING, data, _field_entries)
    expected_a = _entries((0.0, 70.0), (100.0, 25.0), FIELD)
    seen_a = [point for _, mover, _, point, _ in SEEN if mover == "a"]
    assert len(expected_a) == 2 and len(seen_a) == 2
    assert all(_near(p, q) for p, q in zip(seen_a, expected_a)), (seen_a, expected_a)
    assert ref_entry((50.0, 60.0), (50.0, 95.0), FIELD) is None   # i leaves: no entry
    assert [point for _, mover, _, point, _ in SEEN if mover == "i"] == [(50.0, 80.0)]


def test_a_route_through_a_node_on_the_boundary_enters_there():
    """The leg to the field's vertex (30, 50) ends on the boundary (not in yet); the next
    leg goes in from there: the entry is at that node, at the start of that leg. Halted
    there and carrying on, it does not enter again."""
    wp = {"A": (0.0, 50.0), "V": (30.0, 50.0), "C": (50.0, 60.0), "FAR": (190.0, 95.0)}
    run_under("ground_test", MOVING, _lane(wp, [("A", "V"), ("V", "C")], [_go("v", "A", "C")]), _field_entries)
    assert [(mover, point) for _, mover, _, point, _ in SEEN] == [("v", (30.0, 50.0))]


# -- every 5 cm inside ----------------------------------------------------------------
SQUARE = Area("square", ((20.0, 0.0), (80.0, 0.0), (80.0, 100.0), (20.0, 100.0)))


def _every_five_and_a_sentry():
    return [OnceAtTen(), Seeing("every", SQUARE, sp.GroundEvent.EVERY, every=5.0, outcome=sp.Outcome.CONTINUE)]


def test_every_five_cm_inside_reacts_at_each_multiple_across_moves_and_interruptions():
    """50 cm a move, two moves (blue's two turns), along y = 50 through a field from x = 20
    to 80. A sentry at (41.5, 56) reacts once at x = 33.5 (its radius 10) and the mover
    carries on; the first move ends at x = 50. The field reacts at each 5 cm walked
    inside: at x = 25, 30, ..., 80 (its far edge), whatever stops the mover in between,
    and the rule reads the progress k × 5 there."""
    wp = {"A": (0.0, 50.0), "B": (200.0, 50.0), "S": (41.5, 56.0), "FAR": (190.0, 95.0)}
    data = _lane(wp, [("A", "B")], [_go("b", "A", "B", move=50)], [unit("s", "S")], turns=3)
    log = run_under("ground_test", MOVING, data, _every_five_and_a_sentry)
    assert [r["t"] for r in log if r["event"] == "move" and r["unit"] == "b"] == [0.0, 4.0]   # two moves
    names = [name for name, *_ in SEEN]
    assert names == ["every"] * 2 + ["unit"] + ["every"] * 10   # 25, 30 | 33.5 | 35 ... 50 | 55 ... 80
    every = [(pos, point, progress) for name, _, pos, point, progress in SEEN if name == "every"]
    for k, (pos, point, progress) in enumerate(every, start=1):
        assert abs(point[0] - (20.0 + 5 * k)) <= CLOSE * 100 and point[1] == 50.0
        assert _near(pos, point) and abs(progress - 5.0 * k) <= CLOSE * 100   # (a waypoint within rounding: at it)
    (sentry,) = [p for name, _, _, p, _ in SEEN if name == "unit"]
    assert sentry == pytest.approx((33.5, 50.0), abs=CLOSE)


def _every_seven():
    return [Seeing("every", SQUARE, sp.GroundEvent.EVERY, every=7.0, outcome=sp.Outcome.CONTINUE)]


def test_progress_counts_a_run_that_ends_with_no_reaction():
    """The first move ends at x = 50, 2 cm after the reaction at 48 and with none there:
    those 2 cm count (the run's end is counted where the movement put the mover), so the
    next reaction is at x = 55, 35 cm inside, in the second move."""
    wp = {"A": (0.0, 50.0), "B": (200.0, 50.0), "FAR": (190.0, 95.0)}
    run_under("ground_test", MOVING, _lane(wp, [("A", "B")], [_go("b", "A", "B", move=50)], turns=3), _every_seven)
    assert [round(point[0], 9) for _, _, _, point, _ in SEEN] == [27.0, 34.0, 41.0, 48.0, 55.0, 62.0, 69.0, 76.0]
    assert all(abs(progress - 7.0 * k) <= CLOSE * 100 for k, (*_, progress) in enumerate(SEEN, start=1))


def test_progress_is_refused_for_an_area_no_watch_holds():
    b = Battle(build(_lane({"A": (0.0, 50.0), "FAR": (190.0, 95.0)}, [], [unit("b", "A")])), 1)
    with pytest.raises(sim.InputError, match=r"^area: area 'square' is held by no ground watch"):
        b.referee.progress(b.units["b"], SQUARE)
    with pytest.raises(sim.InputError, match=r"^mover: expected a sim.plugin.Unit"):
        b.referee.progress("b", SQUARE)


# -- ties with a unit's watch ---------------------------------------------------------
STREAM = Line("stream", ((40.0, 0.0), (40.0, 100.0)))   # a sentry at (50, 50), 10 cm: x = 40 too


def _unit_then_ground():
    return [OnceAtTen(), Seeing("stream", STREAM, sp.GroundEvent.CROSS, outcome=sp.Outcome.CONTINUE)]


def _ground_then_unit():
    return [Seeing("stream", STREAM, sp.GroundEvent.CROSS, outcome=sp.Outcome.CONTINUE), OnceAtTen()]


@pytest.mark.parametrize(("make", "order"), [(_unit_then_ground, ["unit", "stream"]),
                                             (_ground_then_unit, ["stream", "unit"])])
def test_a_ground_and_a_unit_reaction_at_one_instant_react_in_the_order_their_watches_were_added(make, order):
    wp = {"A": (0.0, 50.0), "B": (200.0, 50.0), "S": (50.0, 50.0), "FAR": (190.0, 95.0)}
    run_under("ground_test", MOVING, _lane(wp, [("A", "B")], [_go("b", "A", "B")], [unit("s", "S")]), make)
    assert [name for name, *_ in SEEN] == order
    assert all(pos == pytest.approx((40.0, 50.0), abs=CLOSE) for _, _, pos, _, _ in SEEN)


# -- an edge used ---------------------------------------------------------------------
EDGES_WP = {"A": (0.0, 40.0), "B": (40.0, 40.0), "C": (80.0, 40.0), "A2": (0.0, 60.0), "B2": (40.0, 60.0),
            "C2": (80.0, 60.0), "FAR": (190.0, 95.0)}
EDGES = [("A", "B"), ("B", "C"), ("A2", "B2"), ("B2", "C2")]


def _bridge():
    terrain = build(_lane(EDGES_WP, EDGES, [unit("x", "A")])).map
    return [Seeing("bridge", edge(terrain, "B", "C"), sp.GroundEvent.USE, outcome=sp.Outcome.CONTINUE)]


def test_an_edge_watch_fires_when_a_mover_uses_the_edge_not_a_parallel_neighbour():
    """``u`` goes A→B→C (one straight run: it gets onto B–C at B); ``n`` goes along the
    parallel edges 20 cm off; ``w`` starts at B, on the edge's end: it uses it from there
    (and, carrying on, not again)."""
    data = _lane(EDGES_WP, EDGES, [_go("u", "A", "C"), _go("n", "A2", "C2"), _go("w", "B", "C")])
    run_under("ground_test", MOVING, data, _bridge)
    assert sorted((mover, point) for _, mover, _, point, _ in SEEN) == [("u", (40.0, 40.0)), ("w", (40.0, 40.0))]


# -- hex maps -------------------------------------------------------------------------
@functools.cache
def _hex():
    """A row of nine hexes, b moving east 6 hexes, and a ditch a third of the way from hex 2,0 to 3,0."""
    data = {"name": "h", "turns": 1, "sides": ["blue", "red"], "terrain": {"kind": "hex", "rows": ["........."]},
            "forces": {"blue": [_go("b", "0,0", "8,0", move=6)], "red": [unit("r", "8,0")]},
            "victory": {"attacker": "blue", "destroy": False}}
    terrain = build({**data, "ruleset": "snapfire"}).map
    x = terrain.pos("2,0")[0] + (terrain.pos("3,0")[0] - terrain.pos("2,0")[0]) / 3
    return data, terrain, Line("ditch", ((x, -5.0), (x, 5.0)))


def _hex_ditch():
    return [Seeing("ditch", _hex()[2], sp.GroundEvent.CROSS)]


def test_a_ground_watch_works_on_a_hex_map_between_centres():
    """Hex moves are watched centre by centre; a line between two centres halts the mover
    exactly where it crosses, in the map's coordinates."""
    data, terrain, ditch = _hex()
    log = run_under("ground_test", MOVING, data, _hex_ditch)
    ((_, _, pos, point, _),) = SEEN
    assert pos == point and point[0] == pytest.approx(ditch.points[0][0], abs=CLOSE)
    assert point[1] == pytest.approx(terrain.pos("2,0")[1], abs=CLOSE)
    assert [r["reason"] for r in log if r["event"] == "stop"] == ["halted"]


# -- no cost to a battle whose features nobody watches ---------------------------------
class Asleep(sp.GroundWatch):
    """A ground watch that applies to no mover (``active``) or reacts to none (``eligible``)."""

    def __init__(self, feature, event, every=None, how="active"):
        super().__init__(feature, event, every)
        self.how = how

    def active(self, battle, mover):
        return self.how != "active"

    def eligible(self, battle, mover):
        return False

    def react(self, battle, mover, trigger):
        raise AssertionError("no reaction")


def _features_over(terrain):
    """Features all over the map: an area on its bounds, a line across it, an edge of it."""
    x0, y0, x1, y1 = terrain.bounds
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    u, v = next((u, v) for u in terrain.nodes for v in terrain.graph._adj[u] if terrain.pos(u) != terrain.pos(v))
    whole = Area("whole", ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))
    middle = Area("middle", ((x0, cy), (cx, y0), (x1, cy), (cx, y1)))
    return [(whole, sp.GroundEvent.EVERY, 3.0), (middle, sp.GroundEvent.ENTER, None),
            (Line("across", ((cx, y0), (cx, y1))), sp.GroundEvent.CROSS, None),
            (edge(terrain, u, v), sp.GroundEvent.USE, None)]


@pytest.mark.parametrize("name", ["open_ground_advance.yaml", "march_column.yaml", "village_sniper.yaml",
                                  "stalingrad_bookstore.yaml", "crossing_sniper.yaml"])
@pytest.mark.parametrize("how", ["active", "eligible"])
def test_a_battle_with_features_nobody_watches_writes_the_same_log_as_without(name, how):
    """Ground watches that apply to no mover, or whose reactions are never eligible, cost
    a battle nothing but time: its moves are armed run by run (they meet the features)
    instead of once, and the log is byte for byte the same."""
    sc = sim.load_scenario(SCENARIOS / name)
    plain = Battle(sc, 3).run()
    watched = Battle(sc, 3)
    watched.setup()
    for feature, event, every in _features_over(sc.map):
        watched.referee.add_ground(Asleep(feature, event, every, how))
    watched.run()
    assert list(watched.log.lines()) == list(plain.log.lines())
    mover = next(u for u in watched.units.values() if u.side == sc.victory.attacker)
    assert watched.referee.progress(mover, _features_over(sc.map)[0][0]) > 0.0   # it was watched


# -- the door -------------------------------------------------------------------------
@pytest.mark.parametrize(("make", "message"), [
    (lambda: sp.GroundWatch(WIRE, sp.GroundEvent.ENTER), r"^GroundWatch\.feature: expected a sim\.plugin\.Area"),
    (lambda: sp.GroundWatch(SQUARE, sp.GroundEvent.EVERY), r"^GroundWatch\.every: expected a finite number > 0"),
    (lambda: sp.GroundWatch(SQUARE, sp.GroundEvent.EVERY, -5.0), r"^GroundWatch\.every: expected a finite number"),
    (lambda: sp.GroundWatch(SQUARE, sp.GroundEvent.ENTER, 5.0), r"^GroundWatch\.every: expected None \(only EVERY"),
    (lambda: sp.GroundWatch(SQUARE, "enter"), r"^GroundWatch\.event: expected a sim\.plugin\.GroundEvent"),
    (lambda: sp.GroundWatch(Edge("e", (0, 0), (1, 0)), sp.GroundEvent.CROSS), r"expected a sim\.plugin\.Line"),
])
def test_a_ground_watch_that_cannot_be_read_is_refused_in_one_line(make, message):
    with pytest.raises(sim.InputError, match=message):
        make()


def test_add_ground_refuses_what_is_no_ground_watch_and_a_watch_added_twice():
    b = Battle(build(_lane({"A": (0.0, 50.0), "FAR": (190.0, 95.0)}, [], [unit("b", "A")])), 1)
    with pytest.raises(sim.InputError, match=r"^watch: expected a sim\.plugin\.GroundWatch"):
        b.referee.add_ground(object())
    w = Seeing("w", WIRE, sp.GroundEvent.CROSS)
    b.referee.add_ground(w)
    with pytest.raises(sim.InputError, match=r"^watch: this ground watch is armed already"):
        b.referee.add_ground(w)
    w.event = sp.GroundEvent.USE   # changed after it was made: refused at the door
    with pytest.raises(sim.InputError, match=r"^watch\.feature: expected a sim\.plugin\.Edge"):
        b.referee.add_ground(w)
