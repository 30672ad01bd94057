"""Load a scenario: safe YAML → pydantic schema → terrain → checks that need the map.

Every failure is one ``InputError`` naming the file, the line and key path, and what
was expected. ``apply_overrides`` is how ``--set`` and study variants change knobs: the
override goes into the raw document, which is validated again as a whole.
"""
from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

from pydantic import ValidationError

from sim.errors import InputError
from sim.scenario.schema import Scenario
from sim.scenario.yamlfile import parse_yaml, place_of, read_yaml

def _pydantic_message(err: ValidationError) -> tuple[tuple, str]:
    first = err.errors()[0]
    loc = tuple(p for p in first["loc"] if not (isinstance(p, str) and p.startswith("function-")))
    kind = first["type"]
    if kind == "extra_forbidden":
        return loc, "unknown key (check the spelling; allowed keys are listed in docs/scenario.md)"
    if kind == "missing":
        return loc, "required key is missing"
    msg = first["msg"].removeprefix("Value error, ")
    return loc, f"{msg} (got {first.get('input')!r})" if kind != "value_error" else msg


def scenario_from_dict(data: Any, file: str = "<scenario>", lines: dict | None = None) -> Scenario:
    """Validate a parsed document and build (and check) its terrain."""
    lines = lines or {}
    if not isinstance(data, dict):
        raise InputError(f"expected a mapping of scenario keys at the top level, got {type(data).__name__}",
                         file=file, place="line 1")
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as err:
        loc, msg = _pydantic_message(err)
        raise InputError(msg, file=file, place=place_of(loc, lines)) from None
    scenario._raw = copy.deepcopy(data)
    scenario._file = file
    scenario._lines = lines
    _check_unit_fields(scenario)
    _check_against_map(scenario)
    _check_setup(scenario)
    return scenario


# Unit keys that only some rulesets read: set under another ruleset they would be ignored,
# so they are refused instead.
_UNIT_KEYS_READ_BY = {
    "sniper_team": {"h17", "fow"}, "hunt": {"h17", "fow"}, "platoon": {"fow"},
    "level": {"too"}, "facing": {"too"}, "sniper": {"too"}, "medic": {"too"},
    "prone": {"too"}, "alert": {"too"},
}
_ORDER_KEYS_READ_BY = {"charge": {"snapfire", "fow"}}


def _check_unit_fields(scenario: Scenario) -> None:
    for side in scenario.sides:
        for i, u in enumerate(scenario.forces[side]):
            for keys, model, path in ((_UNIT_KEYS_READ_BY, u, ()), (_ORDER_KEYS_READ_BY, u.orders, ("orders",))):
                for key in sorted(model.model_fields_set & keys.keys()):
                    if scenario.ruleset not in keys[key]:
                        raise InputError(
                            f"'{key}' is set but ruleset '{scenario.ruleset}' does not read it "
                            f"(only {sorted(keys[key])} do)", file=scenario._file,
                            place=place_of(("forces", side, i, *path, key), scenario._lines))


def _check_setup(scenario: Scenario) -> None:
    """Set a battle up without running it, so the rules' own set-up checks (one sniper
    per side, hides on the map, ...) fail at load time and in ``sim validate``."""
    from sim.engine.battle import Battle

    battle = Battle(scenario, 0)
    battle.ruleset.setup(battle)


def load_scenario(path) -> Scenario:
    data, lines = read_yaml(path)
    return scenario_from_dict(data, str(path), lines)


def terrain_of(scenario: Scenario):
    """The scenario's terrain, built once and kept with it (terrain is immutable)."""
    terrain = getattr(scenario, "_terrain", None)
    if terrain is None:
        from sim.space import build_terrain

        terrain = build_terrain(scenario.terrain, file=scenario._file)
        scenario._terrain = terrain
    return terrain


def _check_against_map(scenario: Scenario) -> None:
    file = scenario._file
    lines = scenario._lines
    terrain = terrain_of(scenario)

    def need_node(node, path):
        if not terrain.has_node(node):
            raise InputError(f"node '{node}' is not on the map (expected a node of the terrain)",
                             file=file, place=place_of(path, lines))

    obj = scenario.victory.objective
    if obj is not None:
        need_node(obj, ("victory", "objective"))
    for side in scenario.sides:
        for i, u in enumerate(scenario.forces[side]):
            need_node(u.at, ("forces", side, i, "at"))
            if u.orders.type != "hold":
                need_node(u.orders.to, ("forces", side, i, "orders", "to"))
                if not terrain.reachable(u.at, u.orders.to):
                    raise InputError(
                        f"unit '{u.id}' cannot reach '{u.orders.to}' from '{u.at}' "
                        "(expected a destination connected to its start)",
                        file=file, place=place_of(("forces", side, i, "orders", "to"), lines))


def _index(part: str) -> int | None:
    """A list index in a key path: ASCII digits only (`int` would also take '²' or '٣')."""
    return int(part) if part.isascii() and part.isdigit() and len(part) <= 18 else None


def _set_path(doc: dict, dotted: str, value: Any, source: str) -> None:
    parts = dotted.split(".")
    if not dotted or any(p == "" for p in parts):
        raise InputError(f"'{dotted}' is not a key path (expected e.g. rules.snapfire.radius)", file=source)
    node = doc
    for i, part in enumerate(parts[:-1]):
        key: Any = _index(part) if isinstance(node, list) else part
        if isinstance(node, list):
            if key is None or key >= len(node):
                raise InputError(f"no list item '{part}' (the list has {len(node)} items)",
                                 file=source, place=dotted)
            node = node[key]
        elif isinstance(node, dict):
            node = node.setdefault(key, {})
        else:
            raise InputError(f"'{'.'.join(parts[:i + 1])}' is a value, not a section", file=source, place=dotted)
    last = parts[-1]
    if isinstance(node, list):
        index = _index(last)
        if index is None or index >= len(node):
            raise InputError(f"no list item '{last}' (the list has {len(node)} items)",
                             file=source, place=dotted)
        node[index] = value
    elif isinstance(node, dict):
        node[last] = value
    else:
        raise InputError("cannot set a key inside a value", file=source, place=dotted)


def parse_assignment(text: str, source: str = "--set") -> tuple[str, Any]:
    """'rules.snapfire.radius=12' → ('rules.snapfire.radius', 12). Values are YAML scalars."""
    if "=" not in text:
        raise InputError(f"'{text}' is not KEY=VALUE (expected e.g. rules.snapfire.radius=12)", file=source)
    key, raw = text.split("=", 1)
    value, _ = parse_yaml(raw, source) if raw.strip() else ("", {})
    return key.strip(), value


def parse_assignments(texts, source: str = "--set") -> dict[str, Any]:
    """Every ``KEY=VALUE`` of a command line, in order; a key given twice, or a key inside
    another one given too (``rules.snapfire`` and ``rules.snapfire.radius``), is an error:
    one of the two would be silently lost."""
    out: dict[str, Any] = {}
    for text in texts or []:
        key, value = parse_assignment(text, source)
        for other in out:
            if key == other or key.startswith(other + ".") or other.startswith(key + "."):
                what = "twice" if key == other else f"and also {other}"
                raise InputError(f"sets {key} {what} (expected each key once)",
                                 file=source, place=key)
        out[key] = value
    return out


def apply_overrides(scenario: Scenario, overrides: dict[str, Any], source: str = "--set") -> Scenario:
    """A new scenario with dotted-key overrides applied, validated as a whole."""
    if not overrides:
        return scenario
    doc = copy.deepcopy(scenario._raw)
    for key, value in overrides.items():
        _set_path(doc, key, value, source)
    try:
        return scenario_from_dict(doc, getattr(scenario, "_file", "<scenario>"), {})
    except InputError as err:
        keys = ", ".join(f"{k}={v!r}" for k, v in overrides.items())
        raise InputError(f"{err.detail} [{err.place or ''}] after {keys}".replace(" []", ""),
                         file=source) from None


def canonical(scenario: Scenario) -> dict:
    """The resolved scenario, defaults filled in: what a result is echoed with."""
    return scenario.model_dump(mode="json")


def scenario_hash(scenario: Scenario) -> str:
    text = json.dumps(canonical(scenario), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]
