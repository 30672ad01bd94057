"""What the replay draws besides the units, read from the log: a mark for every shot (a
roll at a target), hit, halt, pin and elimination, each with the records behind it, and
each unit's look over time (off the table, hidden, in view, fallen) and its table spells.

A record opens a *group* when it is a halt or a shot; the decisions just before it and the
records after it at the same instant that name one of the group's units (``unit``,
``target``, ``by``, ``firer``) join it: the reaction taken, the snap fire after a halt,
the hit, save, pin and elimination after a shot. A mark's
records are its group. A unit's look comes from ``unit_states`` (the lifecycle lane wins,
as in ``tracks.state_at``), so the replay and the timelines cannot disagree.
"""
from __future__ import annotations

from typing import Any

from sim.events import DECIDE, ELIMINATE, HALT, HIT, PIN
from sim.viz.rolls import is_roll
from sim.viz.states import DEAD, OFF_TABLE, subject
from sim.viz.tracks import position_on, state_at

NAMES = ("unit", "target", "by", "firer")


def is_shot(r: dict[str, Any]) -> bool:
    """A roll by one unit at another (a shot, a snap fire, an attack, an acquisition)."""
    return is_roll(r) and isinstance(r.get("unit"), str) and isinstance(r.get("target"), str) \
        and r["target"] != r["unit"]


def _names(r: dict[str, Any]) -> set[str]:
    out: set[str] = set()
    for k in NAMES:
        v = r.get(k)
        out.update(x for x in (v if isinstance(v, list) else [v]) if isinstance(x, str))
    return out


def groups(records: list[dict[str, Any]]) -> list[list[int]]:
    """For each record, the indices of its group (see the module docstring)."""
    out: list[list[int]] = [[i] for i in range(len(records))]
    open_: list[int] | None = None
    head: dict[str, Any] = {}          # the record that opened the open group
    names: set[str] = set()
    for i, r in enumerate(records):
        if open_ is not None and head["t"] != r["t"]:
            open_ = None
        follows_halt = (open_ is not None and head.get("event") == HALT and is_shot(r)
                        and r.get("unit") == head.get("firer") and r.get("target") == head.get("unit")
                        and not any(is_shot(records[j]) for j in open_))
        if (r.get("event") == HALT or is_shot(r)) and not follows_halt:
            open_, head, names = [i], r, _names(r)
            # the decisions just before it that chose it (a reaction taken, with its chance)
            j = i - 1
            while j >= 0 and records[j]["t"] == r["t"] and records[j].get("event") == DECIDE \
                    and out[j] == [j] and _names(records[j]) & names:
                open_.insert(0, j)
                j -= 1
            for k in open_:
                out[k] = open_
        elif open_ is not None and _names(r) & names:
            open_.append(i)
            names |= _names(r)
            out[i] = open_
    return out


def looks(spans: list[Any], units: list[str], snipers: set[str]) -> dict[str, list[list[Any]]]:
    """unit -> [[t, look, states], ...]: from t on it looks so (``gone``, ``hidden``,
    ``shown``, ``dead``), with the states its label names (not 'moving')."""
    cuts = sorted({0.0, *(s.start for s in spans), *(s.end for s in spans)})
    out: dict[str, list[list[Any]]] = {u: [] for u in units}
    for t in cuts:
        shown = state_at(spans, t)
        lanes = {(s.unit, s.lane): s.state for s in spans
                 if s.start <= t < s.end or (t >= s.end and s.state in DEAD)}
        for u in units:
            s = shown.get(u)
            look = ("gone" if s in OFF_TABLE else "dead" if s in DEAD
                    else "hidden" if s == "hidden" or (u in snipers and s is None) else "shown")
            words = [lanes[(u, lane)].replace("_", " ") for lane in ("lifecycle", "activity")
                     if lanes.get((u, lane)) not in (None, "moving") and look != "dead"]
            row = [t, look, " · ".join(dict.fromkeys(words))]
            if not out[u] or out[u][-1][1:] != row[1:]:
                out[u].append(row)
    return out


def segments(track: list[tuple[float, float, float]], look: list[list[Any]], end: float
             ) -> list[list[tuple[float, float, float]]]:
    """The pieces of a track while the unit is on the table (not ``gone``), each cut at
    its ends, so no trail runs from where it waited off the table; a fallen unit's last
    piece ends where it fell."""
    spells: list[tuple[float, float]] = []
    start: float | None = None
    for t, kind, _ in look:
        if kind in ("hidden", "shown") and start is None:
            start = t
        if kind in ("gone", "dead") and start is not None:
            spells.append((start, t))
            start = None
    if start is not None:
        spells.append((start, max(end, start)))
    out = []
    for a, b in spells:
        inner = [k for k in track if a < k[0] < b]
        out.append([(a, *position_on(track, a)), *inner, (b, *position_on(track, b))])
    return out


def mark_list(records: list[dict[str, Any]], where: Any) -> list[dict[str, Any]]:
    """Every mark: ``k`` (shot, hit, halt, pin, fell), ``t``, its points (``where(unit, t)``
    gives a unit's table position, or None) and ``g``, the index of its record."""
    marks = []
    for i, r in enumerate(records):
        ev, t = r.get("event"), r["t"]
        if is_shot(r):
            a = where(r["unit"], t) or r.get("pos")
            b = r.get("target_pos") or where(r["target"], t)
            if a is not None and b is not None:
                marks.append({"k": "shot", "t": t, "p": [*a, *b], "ok": bool(r["success"]), "g": i})
        elif ev == HALT and r.get("pos"):
            marks.append({"k": "halt", "t": t, "p": list(r["pos"]), "g": i})
        elif ev in (HIT, PIN, ELIMINATE):
            u = subject(r)
            p = r.get("pos") or (where(u, t) if u else None)
            if p is not None:
                marks.append({"k": {HIT: "hit", PIN: "pin", ELIMINATE: "fell"}[ev], "t": t,
                              "p": list(p), "u": u, "g": i})
    return marks
