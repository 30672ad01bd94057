"""Timelines: what each unit was doing, and where each sniper was in its life, over time.

``unit_states(log)`` turns the event log into spans ``(unit, state, start, end, lane)``:

* lane ``"activity"`` (every unit): ``moving`` (from a ``move`` to the unit's ``halt``,
  ``stop`` or ``arrive``), ``halted`` (from a ``halt`` to the end of that phase),
  ``gone_to_ground`` (from a reaction's ``decide`` that holds it, ``hold N turn(s)``, until it
  moves again or the plan ``resume``-s),
  ``pinned`` (from a ``pin`` until the unit moves again or an ``unpin``/``rally``), and
  ``eliminated`` (from ``eliminate`` to the end);
  and ``wounded`` (from a ``wound``);
* lane ``"lifecycle"`` (units that ever ``activate``, ``withdraw`` or go ``to_reserve``,
  whose kind is ``sniper``, or whose records say ``sniper: true`` or ``hidden: true``):
  ``off_board`` (not yet in play), ``reserve``, ``hidden`` (deployed and unseen),
  ``revealed`` (spotted), ``withdrawn``, ``eliminated`` (and ``killed``, FOW's final
  death). A record's own ``state`` field, when it has one (the sniper agent logs it),
  is taken as the new state; otherwise the event name decides (``deploy``/``activate``/
  ``rehide`` → hidden, ``spot``/``reveal`` → revealed, ...), a ``deploy`` with
  ``hidden: false`` puts the unit in plain view (revealed), and a ``place`` with
  ``on_board: false`` leaves it where its first transition says it came from (off the
  board, or in a reserve), never hidden.

Only the event names matter, so the timeline works whatever other events a rule adds:
an unknown event changes no state and is drawn as a tick on its unit's lane. A record's
subject is its ``unit``, except for ``spot``, ``pin``, ``reveal`` and ``hit``, whose
subject is the ``target`` when there is one; a record with ``success: false`` (a failed
spotting roll, say) changes nothing.
"""
from __future__ import annotations

from typing import Any, NamedTuple, cast

from sim import arguments
from sim.events import (
    ACTIVATE,
    ARRIVE,
    DECIDE,
    DEPLOY,
    ELIMINATE,
    HALT,
    HIT,
    MOVE,
    PIN,
    PLACE,
    RALLY,
    REHIDE,
    REVEAL,
    SPOT,
    STOP,
    TO_RESERVE,
    WITHDRAW,
    WOUND,
)
from sim.viz.common import records_of, scenario_of

#: The final states: a unit in one stays in it to the end (its span holds after its end).
DEAD = frozenset({"eliminated", "killed"})
#: The states of a unit that is not on the table (not drawn, and leaving no trail).
OFF_TABLE = frozenset({"off_board", "reserve", "withdrawn"})

SNIPER_EVENTS = {ACTIVATE, WITHDRAW, TO_RESERVE}
TARGET_SUBJECT = {SPOT, PIN, REVEAL, HIT}
# Events whose names say a lifecycle state (a plug-in's "hide" or "place" reads as ours).
LIFE = {ACTIVATE: "hidden", DEPLOY: "hidden", PLACE: "hidden", "return": "hidden",
        "hide": "hidden", "conceal": "hidden", REHIDE: "hidden", SPOT: "revealed",
        REVEAL: "revealed", "revealed": "revealed", TO_RESERVE: "reserve",
        WITHDRAW: "withdrawn", ELIMINATE: "eliminated"}
UNPIN = {"unpin", RALLY, "recover", "unpinned"}


class Span(NamedTuple):
    unit: str
    state: str
    start: float
    end: float
    lane: str


def subject(r: dict[str, Any]) -> str | None:
    """The unit a record is about (see the module docstring)."""
    if r.get("event") in TARGET_SUBJECT and r.get("target") is not None:
        return r["target"]
    return r.get("unit")


def sniper_ids(log, scenario=None) -> list[str]:
    ids: list[str] = []
    sc = scenario_of(scenario)
    if sc is not None and hasattr(sc, "units"):
        ids += [s.id for _, s in sc.units() if s.kind == "sniper"]
    for r in records_of(log):
        u = r.get("unit")
        lifecycle = (r.get("event") in SNIPER_EVENTS or r.get("kind") == "sniper"
                     or r.get("sniper") is True or r.get("hidden") is True
                     or (r.get("event") in LIFE and isinstance(r.get("state"), str)))
        if u and lifecycle and u not in ids:
            ids.append(u)
    return ids


def _start_states(scenario) -> dict[str, str]:
    """unit -> the lifecycle state the scenario starts a sniper team in, if it says."""
    sc = scenario_of(scenario)
    out = {}
    if sc is not None and hasattr(sc, "units"):
        for _, spec in sc.units():
            start = getattr(getattr(spec, "sniper_team", None), "start", None)
            if isinstance(start, str):   # a team deployed from the start is hidden there
                out[spec.id] = "hidden" if start == "deployed" else start
    return out


def _phase_ends(recs) -> list[float]:
    """For each record, the time of the first later record of another (turn, phase)."""
    ends = [0.0] * len(recs)
    end = recs[-1]["t"] if recs else 0.0
    key_after = None
    for i in range(len(recs) - 1, -1, -1):
        key = (recs[i].get("turn"), recs[i].get("phase"))
        if key_after is not None and key != key_after:
            end = recs[i + 1]["t"]
        ends[i] = end
        key_after = key
    return ends


def unit_states(log, scenario=None, end: float | None = None) -> list[Span]:
    """Every unit's state spans, in order of start (see the module docstring)."""
    recs = records_of(log)
    scenario = scenario_of(scenario)
    if end is not None:
        arguments.number(end, "end")
    if not recs:
        return []
    end = recs[-1]["t"] if end is None else end
    snipers = set(sniper_ids(recs, scenario))
    starts = _start_states(scenario)
    # where a team placed off the board (``place`` with ``on_board: false``) stands until
    # its first transition: that transition's ``state_from`` (off the board, in a reserve)
    first_from: dict[str, str] = {}
    for r in recs:
        u = r.get("unit")
        if u in snipers and u not in first_from and isinstance(r.get("state_from"), str):
            first_from[u] = r["state_from"]
    set_up = {u: starts.get(u) or first_from.get(u) or "off_board" for u in snipers}   # off the board
    phase_end = _phase_ends(recs)
    spans: list[Span] = []
    act: dict[str, tuple[str | None, float]] = {}     # unit -> (shown state, since)
    motion: dict[str, str | None] = {}
    halt_until: dict[str, float] = {}
    pinned: set[str] = set()
    wounded: set[str] = set()
    dead: set[str] = set()
    life: dict[str, tuple[str, float]] = {}

    def show(u, t):
        state = ("eliminated" if u in dead else "pinned" if u in pinned
                 else "wounded" if u in wounded else motion.get(u))
        old, since = act.get(u, (None, t))
        if state != old:
            if old is not None and t > since:
                spans.append(Span(u, old, since, t, "activity"))
            act[u] = (state, t)

    def expire(t):
        for u, until in list(halt_until.items()):
            if until <= t:
                del halt_until[u]
                if motion.get(u) == "halted":
                    motion[u] = None
                    show(u, until)

    for i, r in enumerate(recs):
        t, ev = r["t"], r.get("event")
        expire(t)
        u = subject(r)
        if u is None or r.get("success") is False and (ev in LIFE or ev in UNPIN):
            continue
        if u in snipers and u not in life:
            first = r.get("state_from") or starts.get(u) or first_from.get(u) or (
                "off_board" if ev in (ACTIVATE, DEPLOY) or r.get("on_board") is False else "hidden")
            life[u] = (first, 0.0)
        if ev == MOVE:
            motion[u] = "moving"
            pinned.discard(u)
            halt_until.pop(u, None)
        elif ev == HALT:
            motion[u] = "halted"
            halt_until[u] = phase_end[i] if phase_end[i] > t else end
        elif ev in (STOP, ARRIVE):
            motion[u] = None
        elif ev == DECIDE and r.get("trigger") in ("fired_on", "halted") \
                and str(r.get("choice", "")).startswith("hold"):
            motion[u] = "gone_to_ground"   # a reaction policy made it stand (``go_to_ground``)
            halt_until.pop(u, None)
        elif ev == DECIDE and motion.get(u) == "gone_to_ground" and str(r.get("choice", "")).startswith("resume"):
            motion[u] = None               # the reaction is over: its plan's step again
        elif ev == PIN:
            pinned.add(u)
        elif ev in UNPIN:
            pinned.discard(u)
        elif ev == WOUND:
            wounded.add(u)
        elif ev == ELIMINATE:
            dead.add(u)
            motion[u] = None
        show(u, t)
        if u in snipers and (ev in LIFE or isinstance(r.get("state"), str) and u == r.get("unit")):
            new = r["state"] if isinstance(r.get("state"), str) else LIFE[cast(str, ev)]  # ev in LIFE
            if ev == DEPLOY and r.get("hidden") is False:
                new = "revealed"
            if ev == PLACE and r.get("on_board") is False:   # set up off the board: not hidden
                new = set_up[u]
            old, since = life[u]
            if old in DEAD:
                continue
            if new != old:
                if t > since:
                    spans.append(Span(u, old, since, t, "lifecycle"))
                life[u] = (new, t)
    expire(end)
    for u, (state, since) in act.items():
        if state is not None and (end > since or state == "eliminated"):
            spans.append(Span(u, state, since, end, "activity"))
    for u in snipers:
        # a sniper the log never mentions stayed where the scenario put it, or off the board
        state, since = life.get(u, (set_up[u], 0.0))
        if end > since or state in DEAD:
            spans.append(Span(u, state, since, end, "lifecycle"))
    spans.sort(key=lambda s: (s.start, s.unit, s.lane))
    return spans


def states_frame(log, scenario=None):
    """``unit_states`` as a pandas DataFrame with a ``duration`` column."""
    from sim.extras import require

    require("frames", "sim.viz.states_frame")
    import pandas as pd

    df = pd.DataFrame(unit_states(log, scenario), columns=list(Span._fields))
    df["duration"] = df["end"] - df["start"]
    return df


