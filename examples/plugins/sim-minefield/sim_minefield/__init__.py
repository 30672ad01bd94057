"""sim-minefield: minefields and wire, a rule module for ``sim`` written only against
``sim.plugin``. It joins any base game with a phase in which units move, table ground, a
damage service and a keep-busy service (the skirmish game, the FOW game), beside any other
module (snap fire: ``scenarios/minefield_assault.yaml``).

Its section of the scenario, ``features.minefield``, puts on the map:

* ``fields``: minefields, each an area (a polygon) with a ``need``. A mover that passes
  into one is in it (MF.ENTER: an ``enter_field`` record, where it went in, exactly on the
  boundary). Each further ``rules.minefield.step`` cm it walks inside the field, counted
  across moves, halts and turns (the referee's exact ``progress``), a mine may go off
  (MF.STEP: a ``mine`` record with ``inside`` = k·step and ``dice``, ``mods`` 0, ``need``,
  ``success`` = d6 >= need); one that does takes ``damage`` steps off it (MF.BLAST: the
  base game's damage service, a ``hit`` record under MF.BLAST). The mover carries on.
* ``wire``: lines a mover is halted on where it first comes to one (MF.WIRE: a ``halt``
  record exactly on the line), kept busy cutting it for ``wire_turns`` of its side's turns
  after that one (the base game's keep-busy service: ``busy`` and ``ready`` records), then
  it goes on (starting on the line, it does not come to it again).

The referee finds every instant exactly: a segment's first entry into a polygon, its
first point on a line, the point where the length walked inside reaches the next step.
Metrics: ``mf_entries``, ``mf_rolls``, ``mf_blasts``, ``mf_wire_halts``. It draws the
fields (hatched) and the wire on ``plot_map``, the replay and the report, and adds to an
agent's observation (``sim.gym``) one row a field: the share of the side's units in it and
the mines gone off there.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import sim.plugin as sp
from sim_minefield.model import (
    ENTER_FIELD,
    MINE,
    RULES,
    FieldSpec,
    MinefieldFeatures,
    MinefieldKnobs,
    WireSpec,
)
from sim_minefield.play import MinefieldPlay, fields_of, observe, rows, shapes, wire_of
from sim_minefield.watches import EnterField, FieldStep, Wire

__all__ = ["METRICS", "MODULE", "RULES", "EnterField", "FieldSpec", "FieldStep", "MinefieldFeatures",
           "MinefieldKnobs", "MinefieldPlay", "Wire", "WireSpec", "fields_of", "wire_of"]


def _metrics(records: Sequence[Mapping[str, object]], scenario: object) -> dict[str, float]:
    m = {"mf_entries": 0.0, "mf_rolls": 0.0, "mf_blasts": 0.0, "mf_wire_halts": 0.0}
    for r in records:
        event = r["event"]
        if event == ENTER_FIELD:
            m["mf_entries"] += 1
        elif event == MINE:
            m["mf_rolls"] += 1
            m["mf_blasts"] += bool(r["success"])
        elif event == sp.events.HALT and r["rule"] == "MF.WIRE":
            m["mf_wire_halts"] += 1
    return m


METRICS = sp.MetricReporter(
    "minefield", {"mf_entries": "count", "mf_rolls": "count", "mf_blasts": "count", "mf_wire_halts": "count"},
    _metrics)

MODULE = sp.RuleModule(
    name="minefield",
    title="Minefields and wire: mines that go off as a mover walks in, wire it must cut",
    play=MinefieldPlay,
    needs=frozenset({sp.PhaseRole.MOVING, sp.Geometry.TABLE, sp.Service.DAMAGE, sp.Service.KEEP_BUSY}),
    knobs=MinefieldKnobs,
    features=MinefieldFeatures,
    metrics=(METRICS,),
    events=frozenset({ENTER_FIELD, MINE, sp.events.HALT, sp.events.HIT, sp.events.BUSY, sp.events.READY,
                      sp.events.ELIMINATE}),
    rules=tuple(RULES),
    draw=shapes,
    observe=sp.Observation(columns=("own_inside", "blasts"), rows=rows, observe=observe),
    source="an example of the plug-in path: a rule module that joins a base game beside snap fire",
    example="../scenarios/minefield_assault.yaml",
)
