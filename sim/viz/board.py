"""A live snap-fire board for a notebook: drag a firer or its radius, and the halt and the
snap-fire rolls update at once.

``Board()`` is an anywidget (the ``notebooks`` and ``test`` extras install it) over the
exact engine: every change of its geometry, from the mouse or from Python, re-runs the
one-lane battle of lesson 01, as ``sim.run`` does, and puts the log's ``SF.HALT`` and
``SF.ROLL`` records on the board. The front end, ``sim/data/board.js``, draws the table as
SVG (firers draggable with the pointer and movable with the arrow keys, a handle on each
circle's edge, a radius slider) with a table of the rolls. Nothing is computed in the
browser: what it shows is what the engine logged.

>>> board = Board(firers=[[50, 56]], radius=10)   # 6 cm off the lane: x = 50 - sqrt(10² - 6²)
>>> board.halt, board.entry_time
([42.0, 50.0], 0.42)
>>> board.radius = 5                                # what dragging the circle's edge sends
>>> board.halt is None, board.rolls
(True, [])
"""
from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import anywidget
import traitlets

from sim import arguments
from sim.errors import InputError
from sim.replication import BattleResult, run_battle
from sim.scenario.load import scenario_from_dict
from sim.scenario.schema import Scenario
from sim.viz.classroom import classroom as class_mode_on
from sim.viz.front_end import widget_script

WIDTH, HEIGHT = 120.0, 100.0   # the lesson's table, in cm
MOVE = 100.0                   # the mover's move a phase: 100 cm in a phase of length 1
MOST_FIRERS = 6
MOST_RADIUS = 1000.0           # as the knob rules.snapfire.radius
DERIVED = frozenset({"width", "height", "halt", "entry_time", "halts", "rolls"})


def _on_table(value: Any, name: str) -> list[float]:
    x, y = arguments.point(value, name)
    if not (0 <= x <= WIDTH and 0 <= y <= HEIGHT):
        raise arguments.fail(name, f"a point on the {WIDTH:g} x {HEIGHT:g} cm table", value)
    return [float(x), float(y)]


def _firers(value: Any, name: str) -> list[list[float]]:
    if not isinstance(value, (list, tuple)) or not 1 <= len(value) <= MOST_FIRERS:
        raise arguments.fail(name, f"a list of 1 to {MOST_FIRERS} points (x, y)", value)
    return [_on_table(p, f"{name}[{i}]") for i, p in enumerate(value)]


def _path(value: Any, name: str) -> list[list[float]]:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise arguments.fail(name, "two points: where the mover starts and where it goes", value)
    start, end = (_on_table(p, f"{name}[{i}]") for i, p in enumerate(value))
    if start == end:
        raise arguments.fail(name, "two different points", value)
    return [start, end]


def _radius(value: Any, name: str) -> float:
    if arguments.number(value, name, positive=True) > MOST_RADIUS:
        raise arguments.fail(name, f"a finite number > 0 and <= {MOST_RADIUS:g}", value)
    return float(value)


def _armour(value: Any, name: str) -> int:
    return arguments.whole(value, name, 1, 7)


class _Checked(traitlets.TraitType[Any, Any]):
    """A trait whose every value passes one check of ``sim.arguments`` (else an InputError)."""

    def __init__(self, default: Any, check: Callable[[Any, str], Any]):
        super().__init__(default)
        self.check = check

    def validate(self, obj: Any, value: Any) -> Any:
        return self.check(value, str(self.name))


def lane(path: list[list[float]], firers: list[list[float]], radius: float, armour: int) -> Scenario:
    """The board's battle: a mover walking the lane ``path`` past red firers F1, F2, ..."""
    spots = {f"F{i}": p for i, p in enumerate(firers, 1)}
    return scenario_from_dict({
        "name": "board", "ruleset": "snapfire", "turns": 2, "sides": ["blue", "red"],
        "terrain": {"kind": "table", "width": WIDTH, "height": HEIGHT,
                    "waypoints": {"A": path[0], "B": path[1], **spots}, "edges": [["A", "B"]]},
        "forces": {"blue": [{"id": "mover", "at": "A", "armour": armour, "move": MOVE,
                             "orders": {"type": "advance", "to": "B"}}],
                   "red": [{"id": f, "at": f} for f in spots]},
        "victory": {"attacker": "blue", "destroy": False},
        "rules": {"snapfire": {"radius": radius}},
    })


def chance(need: int, mods: int) -> Fraction:
    """The exact chance of an SF.ROLL: one d6, plus ``mods``, at least ``need``."""
    return Fraction(sum(face + mods >= need for face in range(1, 7)), 6)


class Board(anywidget.AnyWidget):
    """A live snap-fire board: firers, radius and lane in; the engine's halts and rolls out."""

    _esm = widget_script("board.js")
    width = traitlets.Float(WIDTH, read_only=True).tag(sync=True)
    height = traitlets.Float(HEIGHT, read_only=True).tag(sync=True)
    #: where the mover starts and where it goes, [[x, y], [x, y]] in cm
    path = _Checked([[0.0, 50.0], [100.0, 50.0]], _path).tag(sync=True)
    #: the red firers, [[x, y], ...] in cm (F1, F2, ...)
    firers = _Checked([[50.0, 58.0]], _firers).tag(sync=True)
    #: the snap-fire radius in cm (rules.snapfire.radius)
    radius = _Checked(10.0, _radius).tag(sync=True)
    #: the mover's armour: a snap-fire roll hits on a d6 >= it (7: never)
    armour = _Checked(7, _armour).tag(sync=True)
    seed = _Checked(1, arguments.seed).tag(sync=True)
    #: class mode (sim.viz.classroom): larger text, the readout and rolls beside the table
    #: when the width allows; the board's "class mode" button turns it on and off
    classroom = _Checked(False, arguments.flag).tag(sync=True)
    #: the first halt point [x, y], or None when the mover passes outside every circle
    halt: traitlets.List[float] = traitlets.List(default_value=None, allow_none=True, read_only=True).tag(sync=True)
    #: the time of the first halt, or None
    entry_time = traitlets.Float(None, allow_none=True, read_only=True).tag(sync=True)
    #: every SF.HALT record: firer, turn, t, x, y, dist, inside
    halts: traitlets.List[dict[str, Any]] = traitlets.List(read_only=True).tag(sync=True)
    #: every SF.ROLL record: firer, turn, t, dice, mods, need, success, chance ("1/2")
    rolls: traitlets.List[dict[str, Any]] = traitlets.List(read_only=True).tag(sync=True)

    def __init__(self, **geometry: Any):
        unknown = sorted(set(geometry) - set(self.class_trait_names()))
        if unknown:   # HasTraits would only warn
            raise InputError("expected path, firers, radius, armour, seed, classroom or a widget trait",
                             place=unknown[0])
        geometry.setdefault("classroom", class_mode_on(None))   # as sim.viz.class_mode set it
        super().__init__(**geometry)
        self.battle: BattleResult = self.recompute()

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """What the front end sends: the geometry only (ipywidgets would set a read-only trait)."""
        derived = sorted(set(sync_data) & DERIVED)
        if derived:
            raise InputError("is the engine's to set, not the front end's", place=derived[0])
        super().set_state(sync_data)

    def __repr__(self) -> str:
        # the text form: what a page without the widget's script (the docs site) shows
        where = "no halt" if self.halt is None else \
            f"halt at ({self.halt[0]:.2f}, {self.halt[1]:.2f}) at t = {self.entry_time:.3f}"
        return (f"Board(firers={self.firers}, radius={self.radius:g}): {where}, "
                f"{len(self.rolls)} snap-fire roll{'s' * (len(self.rolls) != 1)}")

    def scenario(self) -> Scenario:
        """The battle the board shows, built from its geometry."""
        return lane(self.path, self.firers, self.radius, self.armour)

    @traitlets.observe("path", "firers", "radius", "armour", "seed")  # not classroom: a look only
    def _changed(self, change: dict[str, Any]) -> None:
        self.battle = self.recompute()

    def recompute(self) -> BattleResult:
        """Re-run the battle (the front end's callback), set the result traits, return the battle."""
        battle = run_battle(self.scenario(), self.seed)
        log = battle.log
        halts = [{"firer": r["firer"], "turn": r["turn"], "t": r["t"], "x": r["pos"][0], "y": r["pos"][1],
                  "dist": r["dist"], "inside": r["inside"]} for r in log.where(rule="SF.HALT")]
        rolls = [{"firer": r["unit"], "turn": r["turn"], "t": r["t"], "dice": list(r["dice"]), "mods": r["mods"],
                  "need": r["need"], "success": r["success"], "chance": str(chance(r["need"], r["mods"]))}
                 for r in log.where(rule="SF.ROLL")]
        with self.hold_sync():
            self.set_trait("halts", halts)
            self.set_trait("rolls", rolls)
            self.set_trait("halt", [halts[0]["x"], halts[0]["y"]] if halts else None)
            self.set_trait("entry_time", halts[0]["t"] if halts else None)
        return battle


__all__ = ["Board", "chance", "lane"]
