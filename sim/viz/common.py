"""What every picture shares: its inputs (an event log in any form, a scenario or a file),
the sides' colours, the units' start, the reaction radius a rule system declares, and
figures that work headless (no pyplot state)."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from sim import arguments
from sim.engine.log import EventLog
from sim.files import write_figure
from sim.scenario.load import load_scenario
from sim.scenario.schema import Scenario
from sim.space.terrain import Terrain
from sim.viz.classroom import classroom, enlarge

SIDE_COLOURS = ("tab:blue", "tab:red", "tab:green", "tab:purple")
NAMED = {"blue": "tab:blue", "red": "tab:red", "green": "tab:green", "german": "grey",
         "germans": "grey", "russian": "tab:red", "soviet": "tab:red", "allies": "tab:blue",
         "axis": "dimgrey"}
HEX_RADIUS = 1 / math.sqrt(3)  # neighbouring hex centres are 1.0 apart (pointy-top)


# -- inputs ------------------------------------------------------------------------------
def records_of(log) -> list[dict[str, Any]]:
    """The records of an ``EventLog``, a list of dicts or a JSON Lines file."""
    if log is None:
        return []
    if isinstance(log, (str, Path)):
        return EventLog.read_jsonl(log).records
    recs = getattr(log, "records", log)
    if not isinstance(recs, list | tuple) or not all(isinstance(r, dict) for r in recs):
        raise arguments.fail("log", "a sim.EventLog, a list of its records (dicts) or a "
                             "JSON Lines file", log)
    return list(recs)


def scenario_of(scenario):
    """A loaded scenario (from a path if given one), or None."""
    if isinstance(scenario, (str, Path)):
        return load_scenario(scenario)
    if scenario is not None and not isinstance(scenario, Scenario | Terrain):
        raise arguments.fail("scenario", "a sim.Scenario, its terrain or a scenario file", scenario)
    return scenario


def terrain_from(scenario):
    if isinstance(scenario, Terrain):
        return scenario
    return scenario.map


def side_colours(scenario, records=()) -> dict[str | None, str]:
    sides = list(getattr(scenario, "sides", []) or [])
    for r in records:
        if r.get("side") and r["side"] not in sides:
            sides.append(r["side"])
    out = {}
    for i, s in enumerate(sides):
        out[s] = NAMED.get(str(s).lower(), SIDE_COLOURS[i % len(SIDE_COLOURS)])
    return out


def unit_info(scenario) -> dict[str, dict[str, Any]]:
    """unit id -> {side, kind, start (x, y)} from the scenario's forces."""
    if scenario is None or not hasattr(scenario, "units"):
        return {}
    terrain = terrain_from(scenario)
    return {spec.id: {"side": side, "kind": spec.kind, "start": terrain.pos(spec.at)}
            for side, spec in scenario.units()}


def reaction_radius(scenario) -> tuple[float | None, str]:
    """(radius, label) of the scenario's reaction rule, if its rule system declares one."""
    if scenario is None:
        return None, ""
    # the first part (base, then modules) that declares one, given its own knobs (``rules.<name>``)
    for part in scenario.composition.parts:
        if part.reaction_radius is None:
            continue
        own = getattr(scenario.rules, part.name) if part.knobs is not None else None
        found = part.reaction_radius(own)
        if found is not None:
            return found
    return None, ""


def new_axes(ax, figsize=(8, 5.5)):
    if ax is not None:
        return ax.figure, ax
    fig = Figure(figsize=figsize, layout="constrained")
    return fig, fig.add_subplot()


def save(fig, path, dpi: float = 100, *, ours: bool = True):
    """``fig`` (enlarged in class mode when sim.viz made it: ``ours``), written to ``path`` if given."""
    if ours and classroom(None):
        enlarge(fig)
        dpi = max(dpi, fig.dpi)   # the resolution class mode chose
    if path is not None:
        write_figure(fig, path, dpi=dpi)
    return fig
