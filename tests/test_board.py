"""The live board of lesson 01 (``sim.viz.board.Board``), driven headless through its Python
callbacks: its geometry is set as the front end sets it (``set_state``, what a comm message
from the browser calls), and its halt and rolls must be what the engine logs for that
geometry, what ``sim.first_entry`` gives, and what the lesson's hand calculation gives."""
from __future__ import annotations

import doctest
import math
from fractions import Fraction

import pytest

import sim

pytest.importorskip("anywidget")
import sim.viz.board  # noqa: E402 - after the skip
from sim.viz.board import Board, chance  # noqa: E402

A, B = (0.0, 50.0), (100.0, 50.0)


def lesson_lane(firers, radius, armour=7, start=A, end=B):
    """Lesson 01's lane(), written out again here (firers F1, F2, ...): the battle to compare with."""
    spots = {f"F{i}": list(p) for i, p in enumerate(firers, 1)}
    return sim.scenario_from_dict({
        "name": "one_lane", "ruleset": "snapfire", "turns": 2, "sides": ["blue", "red"],
        "terrain": {"kind": "table", "width": 120, "height": 100,
                    "waypoints": {"A": list(start), "B": list(end), **spots}, "edges": [["A", "B"]]},
        "forces": {"blue": [{"id": "mover", "at": "A", "armour": armour, "move": 100.0,
                             "orders": {"type": "advance", "to": "B"}}],
                   "red": [{"id": f, "at": f} for f in spots]},
        "victory": {"attacker": "blue", "destroy": False},
        "rules": {"snapfire": {"radius": radius}},
    })


def hand(offset, radius):
    """The lesson's hand calculation: x = 50 - sqrt(r^2 - b^2) for a firer b cm off the lane at x = 50."""
    return None if offset > radius else 50 - math.sqrt(radius**2 - offset**2)


def drag(board, **state):
    """What the browser's message does: set the traits it sends, at once."""
    board.set_state(state)


def test_the_default_board_is_the_lessons_lane_with_its_hand_calculation():
    board = Board()
    assert board.firers == [[50.0, 58.0]] and board.radius == 10.0 and board.path == [list(A), list(B)]
    assert board.halt == pytest.approx([44.0, 50.0], abs=1e-9)        # 50 - sqrt(10^2 - 8^2)
    assert board.entry_time == pytest.approx(0.44, abs=1e-12)
    assert [(h["firer"], h["inside"]) for h in board.halts] == [("F1", False)]
    (roll,) = board.rolls
    assert roll["need"] == 7 and roll["chance"] == "0" and roll["success"] is False   # armour 7: never hits


@pytest.mark.parametrize(("offset", "radius", "why"), [
    (8.0, 10.0, "the lesson's"),
    (5.0, 12.0, "the lesson's second setting"),
    (7.5, 7.5, "the path tangent to the circle: it still comes within r"),
    (0.0, 10.0, "the firer on the path"),
    (8.0, 6.0, "the radius too small to reach the path: no halt"),
    (-12.0, 14.0, "the firer below the lane"),
])
def test_dragging_the_firer_or_the_radius_gives_the_engines_halt(offset, radius, why):
    board = Board()
    drag(board, firers=[[50.0, 50.0 + offset]])
    drag(board, radius=radius)
    log = sim.run(lesson_lane([(50.0, 50.0 + offset)], radius), seed=1).log
    direct = log.where(rule="SF.HALT")
    expected = hand(abs(offset), radius)
    if expected is None:
        assert board.halt is None and board.entry_time is None and board.halts == board.rolls == [] == direct
        return
    assert board.halt == [direct[0]["pos"][0], direct[0]["pos"][1]]
    assert board.entry_time == direct[0]["t"]
    assert board.halt == pytest.approx([expected, 50.0], abs=1e-9), why
    s = sim.first_entry(A, B, (50.0, 50.0 + offset), radius)
    assert board.entry_time == pytest.approx(s * 100.0 / 100.0, abs=1e-12)   # 100 cm at 100 cm a phase
    assert math.dist(board.halt, (50.0, 50.0 + offset)) == pytest.approx(radius, abs=1e-9)
    assert [(h["turn"], h["t"], h["firer"], h["dist"]) for h in board.halts] == \
        [(r["turn"], r["t"], r["firer"], r["dist"]) for r in direct]
    assert [(r["dice"], r["need"], r["success"]) for r in board.rolls] == \
        [(r["dice"], r["need"], r["success"]) for r in log.where(rule="SF.ROLL")]


def test_two_firers_a_lane_of_its_own_and_armour_roll_as_the_engine_rolls():
    firers = [[40.0, 45.0], [75.0, 52.0]]   # each 6.0 cm off the lane
    path = [[10.0, 20.0], [110.0, 80.0]]
    board = Board()
    drag(board, firers=firers, path=path, radius=9.0, armour=4, seed=5)
    log = sim.run(lesson_lane(firers, 9.0, armour=4, start=path[0], end=path[1]), seed=5).log
    halts, rolls = log.where(rule="SF.HALT"), log.where(rule="SF.ROLL")
    assert halts, "the lane passes both circles"
    assert board.halt == list(halts[0]["pos"]) and board.entry_time == halts[0]["t"]
    s = sim.first_entry(path[0], path[1], firers[0], 9.0)   # F1's circle comes first on this lane
    assert board.halt == pytest.approx([10 + 100 * s, 20 + 60 * s], abs=1e-9)
    assert board.entry_time == pytest.approx(s * math.hypot(100, 60) / 100, abs=1e-12)
    assert [(r["firer"], r["turn"], r["t"], r["dice"], r["mods"], r["need"], r["success"]) for r in board.rolls] == \
        [(r["unit"], r["turn"], r["t"], list(r["dice"]), r["mods"], r["need"], r["success"]) for r in rolls]
    assert {r["chance"] for r in board.rolls} == {"1/2"}                 # d6 >= 4
    assert board.battle.log.records == log.records


@pytest.mark.parametrize(("need", "mods", "p"), [(7, 0, 0), (6, 0, Fraction(1, 6)), (4, 0, Fraction(1, 2)),
                                                 (1, 0, 1), (4, 1, Fraction(2, 3))])
def test_the_chance_of_a_roll_is_exact(need, mods, p):
    assert chance(need, mods) == p


@pytest.mark.parametrize(("name", "value"), [
    ("radius", -1.0), ("radius", 0), ("radius", math.nan), ("radius", math.inf), ("radius", "10"),
    ("radius", True), ("radius", 1000.5),
    ("firers", []), ("firers", [[1.0]]), ("firers", [[500.0, 1.0]]), ("firers", [[math.nan, 1.0]]),
    ("firers", [[50.0, 50.0]] * 7), ("firers", "F1"),
    ("path", [[0.0, 50.0]]), ("path", [[0.0, 50.0], [0.0, 50.0]]), ("path", [[0.0, 50.0], [130.0, 50.0]]),
    ("armour", 0), ("armour", 8), ("armour", 2.5), ("seed", -1),
])
def test_a_bad_value_is_an_input_error_and_changes_nothing(name, value):
    board = Board()
    before = (board.get_state(), board.battle)
    with pytest.raises(sim.InputError) as err:
        setattr(board, name, value)
    assert err.value.place.startswith(name)
    with pytest.raises(sim.InputError):
        drag(board, **{name: value})     # the same from the browser
    assert (board.get_state(), board.battle) == before


def test_an_unknown_setting_is_an_input_error_and_results_are_read_only():
    with pytest.raises(sim.InputError, match="radus"):
        Board(radus=3)
    board = Board()
    for name in ("halt", "halts", "rolls", "entry_time", "width"):
        with pytest.raises(sim.InputError, match="the engine's"):
            drag(board, **{name: getattr(board, name)})
        with pytest.raises(Exception, match="read-only"):
            setattr(board, name, getattr(board, name))
    assert board.halt == [44.0, 50.0]


def test_the_board_shows_as_a_widget_with_its_front_end():
    board = Board()
    bundle, _ = board._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"] == "Board(firers=[[50.0, 58.0]], radius=10): halt at (44.00, 50.00) at t = 0.440, " \
        "1 snap-fire roll"
    assert "export default { render }" in board._esm
    state = board.get_state()
    assert state["halt"] == board.halt and state["rolls"] == board.rolls and state["width"] == 120.0


def test_the_example_in_the_modules_docstring_holds():
    result = doctest.testmod(sim.viz.board)
    assert result.failed == 0 and result.attempted == 4
