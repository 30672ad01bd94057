"""Load a scenario: safe YAML → pydantic schema → terrain → checks that need the map.

Every failure is one ``InputError`` naming the file, the line and key path, and what
was expected. ``apply_overrides`` is how ``--set`` and study variants change knobs: the
override goes into the raw document, which is validated again as a whole.
"""
from __future__ import annotations

import copy
import hashlib
import json
import os
from typing import Any

from pydantic import ValidationError
from shapely.geometry import Polygon

from sim import arguments
from sim.errors import InputError
from sim.scenario import models
from sim.scenario.features import AreaFeature, EdgeFeature, features_in
from sim.scenario.models import model_for as model_for
from sim.scenario.overrides import check_keys as check_keys
from sim.scenario.overrides import overlap as overlap
from sim.scenario.overrides import parse_assignment as parse_assignment
from sim.scenario.overrides import parse_assignments as parse_assignments
from sim.scenario.overrides import set_path
from sim.scenario.plan_checks import check_orders
from sim.scenario.rules_of import Checks, check_needs, composition_of, pydantic_message
from sim.scenario.schema import Scenario
from sim.scenario.yamlfile import place_of, read_yaml

__all__ = ["apply_overrides", "canonical", "check_keys", "load_scenario", "model_for", "model_of", "overlap",
           "parse_assignment", "parse_assignments", "scenario_from_dict", "scenario_hash", "set_path"]


def model_of(data: dict[str, Any], file: str = "<scenario>",
             lines: dict[tuple[Any, ...], int] | None = None) -> Scenario:
    """The document validated against its rule system's schema only.

    No terrain, no map or set-up checks: a cheap check, giving the same model (so the same
    hash) as a full load.
    """
    lines = lines or {}
    system = composition_of(data, file, lines)
    try:
        scenario = model_for(system).model_validate(data)
    except ValidationError as err:
        loc, msg = pydantic_message(err, system, data)
        raise InputError(msg, file=file, place=place_of(loc, lines)) from None
    scenario._composition = system
    return scenario


def scenario_from_dict(data: Any, file: str = "<scenario>",
                       lines: dict[tuple[Any, ...], int] | None = None) -> Scenario:
    """Validate a parsed scenario document under its rule system and build its terrain.

    Every load-time check runs; any problem is one ``InputError`` naming file and place.
    """
    arguments.mapping(data, "data")
    arguments.text(file, "file")
    if lines is not None:
        arguments.instance(lines, "lines", dict, "a dict of key paths to line numbers, or None")
    return _from_document(data, file, lines)


def _from_document(data: Any, file: str, lines: dict[tuple[Any, ...], int] | None) -> Scenario:
    """``scenario_from_dict`` on a document already read (a file's, or an edited copy)."""
    lines = lines or {}
    if not isinstance(data, dict):
        raise InputError(f"expected a mapping of scenario keys at the top level, got {type(data).__name__}",
                         file=file, place="line 1")
    scenario = model_of(data, file, lines)
    system = scenario.composition
    scenario._raw = copy.deepcopy(data)
    scenario._file = file
    scenario._lines = lines
    _check_against_map(scenario)
    check_needs(scenario, system)
    for part in system.parts:
        if part.check is not None:
            part.check(Checks(scenario, scenario.map, file, lines))
    return scenario


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    """Read a scenario file (safe YAML) and check it as ``scenario_from_dict`` does.

    A study file is refused with one line saying so (and how to run it).
    """
    data, lines = read_yaml(arguments.path(path))
    if isinstance(data, dict) and "study" in data and "scenario" in data and "name" not in data:
        raise InputError(f"is a study file, not a scenario (run it with: sim study {path})",
                         file=str(path), place=place_of(("study",), lines))
    return _from_document(data, str(path), lines)


def _check_against_map(scenario: Scenario) -> None:
    file = scenario._file
    lines = scenario._lines
    terrain = scenario.map

    def need_node(node: str, path: tuple[Any, ...]) -> None:
        if not terrain.has_node(node):
            raise InputError(f"node '{node}' is not on the map (expected a node of the terrain)",
                             file=file, place=place_of(path, lines))

    obj = scenario.victory.objective
    if obj is not None:
        need_node(obj, ("victory", "objective"))
    for side in scenario.sides:
        for i, u in enumerate(scenario.forces[side]):
            need_node(u.at, ("forces", side, i, "at"))
    check_orders(scenario, need_node)
    _check_features(scenario, need_node)


def _check_features(scenario: Scenario, need_node: Any) -> None:
    """Each module's features on the map (else one line naming file and key).

    Corners and points on the table, a polygon simple, an edge between two nodes the map
    joins, ids unique within the module.
    """
    sections = getattr(scenario, "features", None)
    if sections is None:
        return
    terrain, file, lines = scenario.map, scenario._file, scenario._lines
    x0, y0, x1, y1 = terrain.bounds
    for module in type(sections).model_fields:
        seen: dict[str, tuple[Any, ...]] = {}
        for path, feature in features_in(getattr(sections, module), ("features", module)):
            where = place_of(path, lines)
            if feature.id in seen:
                raise InputError(f"feature id '{feature.id}' is used twice in features.{module} (expected "
                                 "each once)", file=file, place=where)
            seen[feature.id] = path
            if isinstance(feature, EdgeFeature):
                u, v = feature.between
                need_node(u, (*path, "between", 0))
                need_node(v, (*path, "between", 1))
                if not terrain.joined(u, v):
                    raise InputError(f"nodes '{u}' and '{v}' are not joined by an edge of the map "
                                     "(expected two neighbouring nodes)", file=file, place=where)
                continue
            points = feature.polygon if isinstance(feature, AreaFeature) else feature.points
            key = "polygon" if isinstance(feature, AreaFeature) else "points"
            for i, (x, y) in enumerate(points):
                if not (x0 <= x <= x1 and y0 <= y <= y1):
                    raise InputError(f"point [{x}, {y}] is off the map ({x0}..{x1} × {y0}..{y1})",
                                     file=file, place=place_of((*path, key, i), lines))
            if isinstance(feature, AreaFeature) and not Polygon(points).is_valid:
                raise InputError(f"area '{feature.id}' is not a simple polygon (its edges cross, or it "
                                 "has no area)", file=file, place=place_of((*path, "polygon"), lines))


def apply_overrides(scenario: Scenario, overrides: dict[str, Any], source: str = "--set") -> Scenario:
    """A new scenario with dotted-key overrides applied, validated as a whole."""
    arguments.instance(scenario, "scenario", Scenario, "a loaded sim.Scenario")
    arguments.mapping(overrides, "overrides", keys="dotted-key strings")
    arguments.text(source, "source")
    if not overrides:
        return scenario
    check_keys(overrides, source)
    doc = copy.deepcopy(scenario.raw)
    for key, value in overrides.items():
        set_path(doc, key, value, source)
    try:
        return _from_document(doc, scenario.file, {})
    except InputError as err:
        keys = ", ".join(f"{k}={v!r}" for k, v in overrides.items())
        raise InputError(f"{err.detail} [{err.place or ''}] after {keys}".replace(" []", ""),
                         file=source) from None


def canonical(scenario: Scenario) -> dict[str, Any]:
    """The resolved scenario, defaults filled in: what a result is echoed with."""
    return scenario.model_dump(mode="json")


def scenario_hash(scenario: Scenario) -> str:
    """A short stable hash of the scenario's canonical form (the same scenario, the same hash)."""
    text = json.dumps(canonical(scenario), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


models.rebuild = scenario_from_dict   # how a pickled scenario is read again where it lands
