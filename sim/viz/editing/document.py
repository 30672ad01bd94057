"""The editor's scenario document: a plain scenario mapping, as a YAML file holds it.

The editor keeps nothing but this document; ``yaml_text`` is the file it saves, and
``check`` reads that text back as ``sim validate`` reads a file (safe YAML with its line
numbers, then every load-time check), so the one line it gives is the one ``sim validate``
would print for the saved file. ``save`` writes it and never replaces an existing file
(the scenario the editor opened above all) without ``overwrite``.
"""
from __future__ import annotations

import copy
import enum
import os
import re
from dataclasses import dataclass
from typing import Any

import yaml

from sim import arguments
from sim.errors import InputError
from sim.files import write_text
from sim.scenario.load import load_scenario, scenario_from_dict
from sim.scenario.schema import Scenario
from sim.scenario.yamlfile import parse_yaml, read_yaml
from sim.systems.registry import default_ruleset

UNSAVED = "<editor>"   # the file an error names before the document has a path
TABLE_SIZE = (120.0, 80.0)
GRID = 10.0
HEX_SIZE = (12, 10)
#: Terrain keys a drawing may leave empty: an empty one is left out of the file.
OPTIONAL = ("waypoints", "edges", "areas", "special", "types")
_KEY = re.compile(r"key ([^(\s]\S*)$")


class Ground(enum.StrEnum):
    """The two kinds of ground a scenario is drawn on."""

    TABLE = "table"
    HEX = "hex"


def blank(ground: Ground) -> dict[str, Any]:
    """A new document on empty ground: two sides with no units yet, the default ruleset."""
    if ground is Ground.TABLE:
        terrain: dict[str, Any] = {"kind": "table", "width": TABLE_SIZE[0], "height": TABLE_SIZE[1],
                                   "grid": {"spacing": GRID}, "waypoints": {}, "areas": []}
    else:
        terrain = {"kind": "hex", "width": HEX_SIZE[0], "height": HEX_SIZE[1], "default": ".", "special": {}}
    return {"name": "drawn", "description": "", "ruleset": default_ruleset(), "turns": 12,
            "sides": ["blue", "red"], "terrain": terrain, "forces": {"blue": [], "red": []},
            "victory": {"attacker": "blue"}}


def ground_of(document: dict[str, Any]) -> Ground:
    """The ground a document is drawn on (an ``InputError`` for one the editor cannot draw)."""
    terrain = document.get("terrain")
    kind = terrain.get("kind") if isinstance(terrain, dict) else None
    try:
        return Ground(str(kind))
    except ValueError:
        raise InputError(f"expected terrain.kind table or hex, got {kind!r}", place="key terrain.kind") from None


@dataclass(frozen=True)
class Source:
    """A document and the file it was read from (None: made in memory)."""

    document: dict[str, Any]
    path: str | None = None


def source_of(scenario: Any) -> Source:
    """What ``sim.viz.editor(scenario=...)`` opens: a scenario file, a loaded scenario or a mapping."""
    if isinstance(scenario, Scenario):
        path = scenario.file if os.path.isfile(scenario.file) else None
        return Source(copy.deepcopy(scenario.raw), path)
    if isinstance(scenario, dict):
        return Source(copy.deepcopy(scenario))
    if isinstance(scenario, (str, os.PathLike)):
        path = arguments.path(scenario, "scenario")
        data, _ = read_yaml(path)
        if not isinstance(data, dict):
            raise InputError("expected a mapping of scenario keys at the top level", file=path, place="line 1")
        return Source(data, path)
    raise arguments.fail("scenario", "a scenario file, a loaded sim.Scenario, a mapping or None", scenario)


def tidy(document: dict[str, Any]) -> dict[str, Any]:
    """The document as saved: empty optional terrain keys, knob sections and descriptions left out."""
    out = copy.deepcopy(document)
    terrain = out.get("terrain")
    if isinstance(terrain, dict):
        for key in OPTIONAL:
            if terrain.get(key) in ({}, []):
                del terrain[key]
    rules = out.get("rules")
    if isinstance(rules, dict):
        for section in [s for s, knobs in rules.items() if knobs == {}]:
            del rules[section]
        if not rules:
            del out["rules"]
    if out.get("description") == "":
        del out["description"]
    return out


def yaml_text(document: dict[str, Any]) -> str:
    """The YAML file of a document: its keys in order, each innermost list on one line."""
    return yaml.safe_dump(tidy(document), sort_keys=False, default_flow_style=None, allow_unicode=True,
                          width=110)


def one_line(error: InputError) -> str:
    """An error's message on one line, as ``sim validate`` prints it (after ``sim: error:``)."""
    return " ".join(str(error).splitlines())


def key_of(error: InputError) -> str:
    """The dotted key an error names ("" when it names none)."""
    found = _KEY.search(error.place or "")
    return found.group(1) if found else ""


@dataclass(frozen=True)
class Checked:
    """A document checked: its scenario, or the error that refused it (its line and its key)."""

    scenario: Scenario | None
    error: str = ""
    key: str = ""


def check(document: dict[str, Any], file: str = UNSAVED) -> Checked:
    """The document read back from its YAML text and checked as ``sim validate`` checks a file."""
    try:
        data, lines = parse_yaml(yaml_text(document), file)
        return Checked(scenario_from_dict(data, file, lines))
    except InputError as err:
        return Checked(None, one_line(err), key_of(err))


def _same(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def save(document: dict[str, Any], path: str, source: str | None = None, overwrite: bool = False) -> Scenario:
    """Write the document to ``path`` as YAML and load it back; returns the loaded scenario.

    Refused (``InputError``): a document that does not check, and, without ``overwrite``, a
    file already there (``source``, the file the editor opened, above all).
    """
    path = arguments.path(path, "path")
    arguments.flag(overwrite, "overwrite")
    checked = check(document, path)
    if checked.scenario is None:
        raise InputError(f"not saved: {checked.error}", file=path, place="save")
    if not overwrite and source is not None and _same(path, source):
        raise InputError("is the scenario the editor opened; an output never replaces an input (expected "
                         "another file, or overwrite=True)", file=path, place="save")
    if not overwrite and os.path.lexists(path):
        raise InputError("is a file already there (expected a new file, or overwrite=True)", file=path,
                         place="save")
    write_text(path, yaml_text(document), place="save")
    return load_scenario(path)


__all__ = ["UNSAVED", "Checked", "Ground", "Source", "blank", "check", "ground_of", "key_of", "one_line", "save",
           "source_of", "tidy", "yaml_text"]
