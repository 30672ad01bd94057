"""sim-mgbeam: machine-gun beams that pin movers, a rule system for ``sim`` written only
against ``import sim``.

A machine-gun team (a unit with the unit key ``bearing``) lays a fixed *beam* at set-up:
the straight segment from where it stands along its bearing (degrees counter-clockwise
from east), ``rules.mgbeam.length`` long (MG.BEAM; a ``beam`` record). A team holds.

Each player-turn has two phases, ``rally`` then ``advance`` (the moving phase: the
kernel asks ``PhaseSpec.moves``, never the name). In ``advance`` the phasing side's units
with orders to move make one move each, unless pinned. A mover of the other side whose
straight path crosses a beam is halted exactly at the crossing point for the rest of the
phase (MG.HALT; a ``halt`` record, its ``firer`` the team) and the team rolls to pin it:
d6 >= ``rules.mgbeam.pin_need`` pins it (MG.PIN; a ``beam_cross`` record with ``dice``,
``mods`` 0, ``need`` and ``success``, and a ``pin`` record when it is pinned). A pinned
unit does not move; in its side's ``rally`` phase, at the start of each of its turns, it
rallies on a d6 >= its ``morale`` (MG.RALLY; a ``rally`` record), and then moves in that
turn's ``advance``. A mover halted but not pinned goes on in its next turn.

Where a path meets a beam is exact (``sim_mgbeam.geometry.crossing``, a segment–segment
intersection): the referee offers every team within the beam length of a segment (the
watch's ``radius``), and the watch's ``first_moment`` gives the fraction along the
segment. Its cases: a path through either end of the beam (the team's own position, the
far end) crosses it; a path parallel to the beam, or one that ends before it, never
does; a segment that ends exactly on the beam is halted at its end; a segment that
*starts* on the beam's line is not halted by that beam (the mover was halted there, or
set up there, and leaves it), unless it lies along the line and starts beyond an end of
the beam, when it is halted where it reaches that end. Beams crossed at the same instant
each roll, in the referee's order, with one ``halt`` record.

Metrics: ``beam_crossings`` (pin rolls), ``beam_pins`` (units pinned) and
``first_pin_time`` (the time of the first pin; the battle's end time if none).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import sim
from sim_mgbeam.game import BeamGame, check, rally
from sim_mgbeam.geometry import beam_end, crossing
from sim_mgbeam.model import (
    ADVANCE_PHASE,
    BEAM,
    BEAM_CROSS,
    RALLY_PHASE,
    RULES,
    BeamKnobs,
    BeamRules,
    BeamState,
    BeamUnitKeys,
)
from sim_mgbeam.watch import BeamWatch

__all__ = ["METRICS", "RULES", "SYSTEM", "BeamGame", "BeamKnobs", "BeamRules", "BeamState",
           "BeamUnitKeys", "BeamWatch", "beam_end", "check", "crossing", "rally"]


def _time(record: Mapping[str, object]) -> float:
    t = record["t"]
    if not isinstance(t, (int, float)):
        raise TypeError(f"a record's time is a number, not {t!r}")
    return float(t)


def _beam_metrics(records: Sequence[Mapping[str, object]], scenario: sim.Scenario) -> dict[str, float]:
    crossings = pins = 0.0
    first: float | None = None
    end = 0.0
    for r in records:
        event = r["event"]
        if event == BEAM_CROSS:
            crossings += 1
        elif event == sim.events.PIN and r["rule"] == "MG.PIN":
            pins += 1
            if first is None:
                first = _time(r)
        elif event == sim.events.END:
            end = _time(r)
    return {"beam_crossings": crossings, "beam_pins": pins,
            "first_pin_time": end if first is None else first}


METRICS = sim.MetricReporter(
    "mgbeam", {"beam_crossings": "count", "beam_pins": "count", "first_pin_time": "real"},
    _beam_metrics)

SYSTEM = sim.RuleSystem(
    name="mgbeam",
    title="Machine-gun beams: a mover crossing one is halted where it crosses and may be pinned",
    phases=(sim.PhaseSpec(RALLY_PHASE), sim.PhaseSpec(ADVANCE_PHASE, moves=True)),
    game=BeamGame,
    knobs=BeamKnobs,
    unit_keys=BeamUnitKeys,
    check=check,
    metrics=(METRICS,),
    events=frozenset({BEAM, BEAM_CROSS, sim.events.HALT, sim.events.PIN, sim.events.RALLY}),
    rules=tuple(RULES),
    source="an example of the plug-in path: a fixed line of machine-gun fire (a final protective line)",
    example="../scenarios/beam_crossing.yaml",
)
