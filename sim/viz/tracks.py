"""Where each unit stands at any instant, from the event log alone (no drawing).

``unit_tracks(log)`` gives each unit's keyframes ``(t, x, y)``: its start, the ``pos``
of every record naming it, and the corners of a ``move``'s waypoints it passed (timed
in proportion to distance); between keyframes it moves in a straight line.
"""
from __future__ import annotations

import bisect
import math
from typing import Any

from sim import arguments
from sim.events import HIT, MOVE, PIN, REVEAL, SPOT
from sim.viz.common import records_of, scenario_of, unit_info
from sim.viz.states import DEAD, OFF_TABLE


# -- tracks ------------------------------------------------------------------------------
def _on_path(path: list, p, tol: float = 1e-6) -> int | None:
    """Index i of the first segment path[i]→path[i+1] that p lies on, or None."""
    px, py = p
    for i in range(len(path) - 1):
        (ax, ay), (bx, by) = path[i], path[i + 1]
        dx, dy = bx - ax, by - ay
        L2 = dx * dx + dy * dy
        s = 0.0 if L2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / L2))
        if math.hypot(ax + s * dx - px, ay + s * dy - py) <= tol * max(1.0, math.sqrt(L2)):
            return i
    return None


def unit_tracks(log, scenario=None) -> dict[str, list[tuple[float, float, float]]]:
    """unit id -> [(t, x, y), ...] in time order; linear between entries.

    Keyframes are the scenario's start positions (at t = 0) and the ``pos`` of every record
    naming a ``unit``. A ``move`` record opens a path (its ``pos`` then its ``waypoints``);
    the unit's next record at a later time or another place closes it, and the path's
    corners up to that record's ``pos`` are inserted at times proportional to distance.
    """
    tracks: dict[str, list] = {}
    for u, info in unit_info(scenario_of(scenario)).items():
        tracks[u] = [(0.0, *map(float, info["start"]))]
    pending: dict[str, tuple[float, list]] = {}
    for r in records_of(log):
        uid, pos = r.get("unit"), r.get("pos")
        if uid is None or pos is None:
            continue
        if r.get("event") in (SPOT, PIN, REVEAL, HIT) and r.get("target") not in (None, uid):
            continue  # about its target: whose `pos` it gives is the rule's choice
        t, p = float(r["t"]), (float(pos[0]), float(pos[1]))
        track = tracks.setdefault(uid, [])
        if uid in pending:
            t0, path = pending[uid]
            if t > t0 or math.dist(p, path[0]) > 1e-9:
                del pending[uid]
                i = _on_path(path, p)
                if i is not None and t > t0:
                    corners = path[1:i + 1]
                    legs = [path[0], *corners, p]
                    lengths = [math.dist(a, b) for a, b in zip(legs, legs[1:])]
                    total = sum(lengths)
                    run = 0.0
                    for c, L in zip(corners, lengths):
                        run += L
                        tc = t0 + (t - t0) * (run / total if total > 0 else 0.0)
                        track.append((tc, c[0], c[1]))
        track.append((t, p[0], p[1]))
        if r.get("event") == MOVE and r.get("waypoints"):
            pending[uid] = (t, [p] + [(float(w[0]), float(w[1])) for w in r["waypoints"]])
    return tracks


def position_at(track, t: float) -> tuple[float, float] | None:
    """Where a track stands at time t (the last entry at t when several share it)."""
    arguments.number(t, "t")
    if not track:
        return None
    return position_on(track, t)


def position_on(track, t: float) -> tuple[float, float]:
    """``position_at`` on a track known to have an entry."""
    times = [k[0] for k in track]
    j = bisect.bisect_right(times, t)
    if j == 0:
        return track[0][1], track[0][2]
    if j == len(track):
        return track[-1][1], track[-1][2]
    (ta, xa, ya), (tb, xb, yb) = track[j - 1], track[j]
    if tb <= ta:
        return xb, yb
    s = (t - ta) / (tb - ta)
    return xa + s * (xb - xa), ya + s * (yb - ya)


def positions_at(scenario, log, t: float) -> dict[str, tuple[float, float]]:
    """unit id -> (x, y) at time t, interpolated along the logged waypoints."""
    arguments.number(t, "t")
    return {u: position_on(tr, t) for u, tr in unit_tracks(log, scenario).items() if tr}


GONE = DEAD | OFF_TABLE   # the states in which a unit is not drawn where it stands


def frame_times(log, frames: int = 60) -> list[float]:
    """``frames`` evenly spaced instants from 0 to the log's last record."""
    arguments.count(frames, "frames")
    recs = records_of(log)
    end = recs[-1]["t"] if recs else 0.0
    if frames <= 1 or end <= 0:
        return [float(end)]
    return [end * k / (frames - 1) for k in range(frames)]


def frame_list(frames: Any) -> list[float]:
    """The instants of the frames given as a list of times (each a finite number)."""
    if not isinstance(frames, list | tuple) or not frames:
        raise arguments.fail("frames", "a number of frames or a non-empty list of times", frames)
    return [float(arguments.number(t, "frames")) for t in frames]


def state_at(spans: list[Any], t: float) -> dict[str, str]:
    """unit -> shown state at t (lifecycle wins over activity). A span holds from its
    start up to its end; at the battle's end (the last span end) the spans that close
    there still hold, so the last frame shows a team in its reserve as in its reserve."""
    out: dict[str, str] = {}
    last = max((s.end for s in spans), default=0.0)
    for s in spans:
        if s.start <= t < s.end or (t >= s.end and (s.state in DEAD or s.end == last)):
            if s.lane == "lifecycle" or s.unit not in out:
                out[s.unit] = s.state
    return out




class Battle:
    """What a replay draws, read once from a scenario and its log: the frames' instants,
    each unit's track, state spans and side, the sides' colours, the snipers, the
    attacker and the reaction radius."""

    def __init__(self, scenario: Any, log: Any, frames: Any = 60):
        from sim.viz.common import reaction_radius, side_colours, terrain_from
        from sim.viz.states import sniper_ids, unit_states

        self.scenario = scenario_of(scenario)
        self.records = records_of(log)
        self.terrain = terrain_from(self.scenario)
        self.times = (frame_times(self.records, frames) if isinstance(frames, int)
                      else frame_list(frames))
        self.tracks = unit_tracks(self.records, self.scenario)
        self.spans = unit_states(self.records, self.scenario)
        info = unit_info(self.scenario)
        self.colours = side_colours(self.scenario, self.records)
        self.side_of = {u: i["side"] for u, i in info.items()}
        self.snipers = set(sniper_ids(self.records, self.scenario))
        self.attacker = getattr(getattr(self.scenario, "victory", None), "attacker", None)
        self.radius, self.radius_label = reaction_radius(self.scenario)
        self.turn_at = [(r["t"], r.get("turn"), r.get("side"), r.get("phase")) for r in self.records]

    def clock(self, t: float) -> tuple[Any, Any, Any]:
        """(turn, side, phase) at time t."""
        return next(((tn, sd, ph) for tt, tn, sd, ph in reversed(self.turn_at) if tt <= t), (1, "", ""))
