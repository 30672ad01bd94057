"""The module's play: its watches armed from the scenario's ``features.minefield``, and
what it counts for its metrics, pictures and observation."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np

import sim.plugin as sp
from sim_minefield.model import MINE, MinefieldScenario
from sim_minefield.watches import Battle, EnterField, FieldStep, Wire


def fields_of(scenario: Any) -> list[sp.Area]:
    """The scenario's minefields, as ground areas."""
    section = cast(MinefieldScenario, scenario).features.minefield
    return [sp.Area(f.id, tuple((float(x), float(y)) for x, y in f.polygon)) for f in section.fields]


def wire_of(scenario: Any) -> list[sp.Line]:
    """The scenario's wire, as ground lines."""
    section = cast(MinefieldScenario, scenario).features.minefield
    return [sp.Line(w.id, tuple((float(x), float(y)) for x, y in w.points)) for w in section.wire]


class MinefieldPlay(sp.ModulePlay):
    """Arms, for every field, MF.ENTER and MF.STEP; for every wire line, MF.WIRE."""

    def setup(self, battle: Battle) -> None:
        """The watches, in the scenario's order: the fields', then the wire's."""
        knobs = battle.knobs.minefield
        section = cast(MinefieldScenario, battle.scenario).features.minefield
        for spec, area in zip(section.fields, fields_of(battle.scenario)):
            battle.referee.add_ground(EnterField(area, sp.GroundEvent.ENTER))
            battle.referee.add_ground(FieldStep(area, knobs.step, spec.need))
        for line in wire_of(battle.scenario):
            battle.referee.add_ground(Wire(line, sp.GroundEvent.CROSS))


def shapes(scenario: Any) -> Sequence[sp.Shape]:
    """The fields (hatched areas) and the wire (lines) on every map of the scenario."""
    out = [sp.Shape(sp.ShapeKind.AREA, a.points, "minefield (MF.STEP)", colour="#8c564b", hatch="xx")
           for a in fields_of(scenario)]
    out += [sp.Shape(sp.ShapeKind.LINE, w.points, "wire (MF.WIRE)", colour="#555555") for w in wire_of(scenario)]
    return out


def _inside(point: tuple[float, float], area: sp.Area) -> bool:
    """Whether ``point`` is inside (or on) the polygon ``area`` (even-odd rule)."""
    x, y = point
    pts = area.points
    inside = False
    for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def observe(battle: Battle, side: str) -> np.ndarray:
    """One row a field: the share of the side's units on the board inside it, and the mines
    gone off in it so far (a tenth each, at most 1)."""
    areas = fields_of(battle.scenario)
    own = [u for u in battle.units_of(side) if u.on_board]
    blasts = {a.id: 0 for a in areas}
    for r in battle.log.records:
        if r["event"] == MINE and r["success"]:
            blasts[r["feature"]] = blasts.get(r["feature"], 0) + 1
    rows = [[sum(_inside(u.pos, a) for u in own) / max(1, len(own)), min(1.0, blasts[a.id] / 10)] for a in areas]
    return np.array(rows, dtype=np.float32).reshape(len(areas), 2)


def rows(scenario: Any) -> int:
    """One row a field."""
    return len(fields_of(scenario))
