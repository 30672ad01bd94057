"""Timelines: what each unit was doing, and where each sniper was in its life, over time.

``unit_states(log)`` turns the event log into spans ``(unit, state, start, end, lane)``:

* lane ``"activity"`` (every unit): ``moving`` (from a ``move`` to the unit's ``halt``,
  ``stop`` or ``arrive``), ``halted`` (from a ``halt`` to the end of that phase),
  ``pinned`` (from a ``pin`` until the unit moves again or an ``unpin``/``rally``), and
  ``eliminated`` (from ``eliminate`` to the end);
  and ``wounded`` (from a ``wound``);
* lane ``"lifecycle"`` (units that ever ``activate``, ``withdraw`` or go ``to_reserve``,
  whose kind is ``sniper``, or whose records say ``sniper: true`` or ``hidden: true``):
  ``off_board`` (not yet in play), ``reserve``, ``hidden`` (deployed and unseen),
  ``revealed`` (spotted), ``withdrawn``, ``eliminated`` (and ``killed``, FOW's final
  death). A record's own ``state`` field, when it has one (the sniper agent logs it),
  is taken as the new state; otherwise the event name decides (``deploy``/``activate``/
  ``rehide`` → hidden, ``spot``/``reveal`` → revealed, ...), and a ``deploy`` with
  ``hidden: false`` puts the unit in plain view (revealed).

Only the event names matter, so the timeline works whatever other events a rule adds:
an unknown event changes no state and is drawn as a tick on its unit's lane. A record's
subject is its ``unit``, except for ``spot``, ``pin``, ``reveal`` and ``hit``, whose
subject is the ``target`` when there is one; a record with ``success: false`` (a failed
spotting roll, say) changes nothing.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from sim.viz.maps import new_axes, records_of, save, scenario_of, side_colours

ACTIVITY_COLOURS = {"moving": "tab:green", "halted": "gold", "pinned": "tab:orange",
                    "wounded": "tab:pink", "eliminated": "black"}
LIFECYCLE_COLOURS = {"off_board": "gainsboro", "reserve": "lightsteelblue",
                     "hidden": "seagreen", "revealed": "tab:red", "withdrawn": "silver",
                     "eliminated": "black", "killed": "dimgrey"}
SNIPER_EVENTS = {"activate", "withdraw", "to_reserve"}
TARGET_SUBJECT = {"spot", "pin", "reveal", "hit"}
LIFE = {"activate": "hidden", "deploy": "hidden", "place": "hidden", "return": "hidden",
        "hide": "hidden", "conceal": "hidden", "rehide": "hidden", "spot": "revealed",
        "reveal": "revealed", "revealed": "revealed", "to_reserve": "reserve",
        "withdraw": "withdrawn", "eliminate": "eliminated"}
UNPIN = {"unpin", "rally", "recover", "unpinned"}
OFF_TABLE = {"off_board", "reserve", "withdrawn"}


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
            if isinstance(start, str):
                out[spec.id] = start
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
    if not recs:
        return []
    end = recs[-1]["t"] if end is None else end
    snipers = set(sniper_ids(recs, scenario))
    starts = _start_states(scenario)
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
            first = r.get("state_from") or starts.get(u) or (
                "off_board" if ev in ("activate", "deploy") else "hidden")
            life[u] = (first, 0.0)
        if ev == "move":
            motion[u] = "moving"
            pinned.discard(u)
            halt_until.pop(u, None)
        elif ev == "halt":
            motion[u] = "halted"
            halt_until[u] = phase_end[i] if phase_end[i] > t else end
        elif ev in ("stop", "arrive"):
            motion[u] = None
        elif ev == "pin":
            pinned.add(u)
        elif ev in UNPIN:
            pinned.discard(u)
        elif ev == "wound":
            wounded.add(u)
        elif ev == "eliminate":
            dead.add(u)
            motion[u] = None
        show(u, t)
        if u in snipers and (ev in LIFE or isinstance(r.get("state"), str) and u == r.get("unit")):
            new = r["state"] if isinstance(r.get("state"), str) else LIFE[ev]
            if ev == "deploy" and r.get("hidden") is False:
                new = "revealed"
            old, since = life[u]
            if old in ("eliminated", "killed"):
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
        state, since = life.get(u, (starts.get(u, "off_board"), 0.0))
        if end > since or state in ("eliminated", "killed"):
            spans.append(Span(u, state, since, end, "lifecycle"))
    spans.sort(key=lambda s: (s.start, s.unit, s.lane))
    return spans


def states_frame(log, scenario=None):
    """``unit_states`` as a pandas DataFrame with a ``duration`` column."""
    import pandas as pd

    df = pd.DataFrame(unit_states(log, scenario), columns=list(Span._fields))
    df["duration"] = df["end"] - df["start"]
    return df


def plot_timeline(log, ax=None, path=None, *, scenario=None, units=None, ticks: bool = True,
                  title: str | None = None):
    """One lane per unit: activity bars (thin) and, for snipers, lifecycle bars (thick).

    Returns the Figure (saved as a PNG with ``path``). ``units`` picks and orders the lanes.
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    recs = records_of(log)
    scenario = scenario_of(scenario)
    spans = unit_states(recs, scenario)
    snipers = sniper_ids(recs, scenario)
    if units is None:
        seen: list[str] = []
        if scenario is not None and hasattr(scenario, "units"):
            seen = [s.id for _, s in scenario.units()]
        for r in recs:
            u = subject(r)
            if u is not None and u not in seen:
                seen.append(u)
        units = sorted(seen, key=lambda u: (u not in snipers, seen.index(u)))
    lane = {u: i for i, u in enumerate(units)}
    fig, ax = new_axes(ax, figsize=(9, 0.45 * len(units) + 1.6))
    for s in spans:
        if s.unit not in lane:
            continue
        y = lane[s.unit]
        if s.lane == "lifecycle":
            ax.broken_barh([(s.start, s.end - s.start)], (y - 0.4, 0.8),
                           facecolors=LIFECYCLE_COLOURS.get(s.state, "white"), alpha=0.85,
                           edgecolor="none", zorder=1)
        else:
            ax.broken_barh([(s.start, s.end - s.start)], (y - 0.17, 0.34),
                           facecolors=ACTIVITY_COLOURS.get(s.state, "grey"), edgecolor="none",
                           zorder=2)
    turns: dict[int, float] = {}
    for r in recs:
        turns.setdefault(r.get("turn"), r["t"])
    for k, t0 in turns.items():
        if k is not None:
            ax.axvline(t0, color="grey", linewidth=0.4, alpha=0.5, zorder=0)
    if ticks:
        hx, hy, ox, oy = [], [], [], []
        for r in recs:
            u = subject(r)
            if u not in lane or r.get("event") in ("move", "stop", "arrive"):
                continue
            if r.get("event") == "hit":
                hx.append(r["t"]), hy.append(lane[u] + 0.3)
            else:
                ox.append(r["t"]), oy.append(lane[u] - 0.3)
        ax.scatter(ox, oy, marker="|", s=30, color="dimgrey", zorder=3)
        ax.scatter(hx, hy, marker="v", s=28, color="crimson", zorder=3)
    colours = side_colours(scenario, recs)
    side_of = {}
    if scenario is not None and hasattr(scenario, "units"):
        side_of = {s.id: side for side, s in scenario.units()}
    ax.set_yticks(range(len(units)), units)
    for lab, u in zip(ax.get_yticklabels(), units):
        lab.set_color(colours.get(side_of.get(u), "black"))
    ax.set_ylim(len(units) - 0.5, -0.5)
    ax.set_xlabel("simulated time")
    used = {(s.lane, s.state) for s in spans}
    handles = [Patch(color=c, label=k) for k, c in ACTIVITY_COLOURS.items()
               if ("activity", k) in used]
    handles += [Patch(color=c, alpha=0.85, label=f"lifecycle: {k}")
                for k, c in LIFECYCLE_COLOURS.items() if ("lifecycle", k) in used]
    if ticks:
        handles += [Line2D([], [], marker="v", color="crimson", linestyle="", label="hit"),
                    Line2D([], [], marker="|", color="dimgrey", linestyle="",
                           label="other event")]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=7)
    ax.set_title(title or f"{getattr(scenario, 'name', 'battle')}: timeline", fontsize=10)
    return save(fig, path)
