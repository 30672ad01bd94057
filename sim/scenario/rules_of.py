"""What a scenario document names as its rules, and the words of a refusal.

``composition_of`` reads ``ruleset`` (or the default one), or ``base`` and ``modules``;
``check_needs`` refuses a module whose needs the base does not meet; ``pydantic_message``
turns a schema error into one line, saying when a key belongs to a part the scenario
does not use.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NoReturn

from pydantic import ValidationError

from sim.errors import InputError
from sim.scenario.schema import Scenario
from sim.scenario.yamlfile import place_of
from sim.space.terrain import Terrain
from sim.systems.composition import Composition
from sim.systems.declarations import BUILT_IN
from sim.systems.games import BaseGame, Geometry
from sim.systems.knobs import BaseKnobs
from sim.systems.registry import REGISTRY, compose, default_ruleset, get_system, system_names

__all__ = ["Checks", "check_needs", "composition_of", "pydantic_message"]

DOCS = "docs/scenario.md"


@dataclass
class Checks:
    """What a load-time check sees (``sim.systems.games.Checks``)."""

    scenario: Scenario
    terrain: Terrain
    file: str
    lines: dict[tuple[Any, ...], int]

    def fail(self, message: str, *path: str | int) -> NoReturn:
        raise InputError(message, file=self.file, place=place_of(path, self.lines))


def _named(value: Any, names: list[str], what: str, file: str, place: str) -> str:
    if not isinstance(value, str) or value not in names:
        raise InputError(f"unknown {what} {value!r} (expected one of {names})", file=file, place=place)
    return value


def composition_of(data: dict[str, Any], file: str, lines: dict[tuple[Any, ...], int]) -> Composition:
    """The rules a document names: ``ruleset`` (or the default one), or ``base`` and ``modules``."""
    if "base" not in data and "modules" not in data:
        name = data.get("ruleset", None)
        if name is None:
            name = default_ruleset()
        _named(name, system_names(), "rule system", file, place_of(("ruleset",), lines))
        return get_system(name)
    if "ruleset" in data:
        raise InputError("names a ruleset and a base game (expected one: a ruleset, or a base with its modules)",
                         file=file, place=place_of(("base" if "base" in data else "modules",), lines))
    if "base" not in data:
        raise InputError("modules need a base game to join (expected a 'base' key too)", file=file,
                         place=place_of(("modules",), lines))
    base = _named(data["base"], REGISTRY.bases.names(), "base game", file, place_of(("base",), lines))
    modules = data.get("modules", [])
    if not isinstance(modules, list):
        raise InputError(f"expected a list of rule modules, got {type(modules).__name__}", file=file,
                         place=place_of(("modules",), lines))
    for i, m in enumerate(modules):
        _named(m, REGISTRY.modules.names(), "rule module", file, place_of(("modules", i), lines))
        if m in modules[:i]:
            raise InputError(f"rule module '{m}' is named twice (expected each once)", file=file,
                             place=place_of(("modules", i), lines))
    return compose(base, tuple(modules))


def _foreign(loc: tuple[Any, ...], composition: Composition) -> tuple[tuple[Any, ...], str] | None:
    """The message for a key another base game or module reads (set here, it would be ignored)."""
    name = composition.name
    everything = [*REGISTRY.bases, *REGISTRY.modules]
    reads = sorted(composition.sections)
    if len(loc) == 2 and loc[0] == "rules" and loc[1] != "base":
        if any(s.knobs is not None and s.name == loc[1] for s in everything):
            return ("rules",), (f"rules.{loc[1]} is set but ruleset '{name}' does not use it "
                                f"(it reads {reads})")
    own = [m.name for m in composition.modules if m.features is not None]
    if loc and loc[0] == "features" and (len(loc) == 1 or len(loc) == 2 and loc[1] not in own and any(
            m.features is not None and m.name == loc[1] for m in REGISTRY.modules)):
        which = f"features.{loc[1]}" if len(loc) > 1 else "features"
        return ("features",), (f"{which} is set but ruleset '{name}' does not use it (its modules with "
                               f"features: {own})")
    if len(loc) == 3 and loc[:2] == ("rules", "base"):
        base = composition.base.base_knobs or BaseKnobs
        if any((bk := getattr(s, "base_knobs", None)) is not None and loc[2] in bk.model_fields for s in everything):
            return ("rules",), (f"rules.base.{loc[2]} is set but ruleset '{name}' does not use it "
                                f"(it reads only {sorted(base.model_fields)} of rules.base)")
    if len(loc) == 3 and loc[0] == "policies":
        readers = sorted(s.name for s in everything
                         if s.policy_keys is not None and loc[2] in s.policy_keys.model_fields)
        if readers:
            return loc, f"'{loc[2]}' is set but ruleset '{name}' does not read it (only {readers} do)"
    if len(loc) in (4, 5) and loc[0] == "forces" and (len(loc) == 4 or loc[3] == "orders"):
        key = loc[-1]
        readers = sorted(s.name for s in everything
                         if (keys := s.unit_keys if len(loc) == 4 else s.order_keys) is not None
                         and key in keys.model_fields)
        if readers:
            return loc, f"'{key}' is set but ruleset '{name}' does not read it (only {readers} do)"
    return None


def _as_written(loc: tuple[Any, ...], data: Any) -> tuple[Any, ...]:
    # A plan written as a bare list is validated as {"steps": [...]}: drop the "steps" the
    # file does not have, so the place found is the line of the step itself.
    out: list[Any] = []
    node = data
    for i, part in enumerate(loc):
        if part == "steps" and isinstance(node, list) and out and out[-1] == "plan":
            continue
        out.append(part)
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return tuple(out) + tuple(loc[i + 1:])
    return tuple(out)


def pydantic_message(err: ValidationError, system: Composition,
                      data: Any = None) -> tuple[tuple[Any, ...], str]:
    errors = err.errors()
    first = errors[0]
    if first["type"] == "missing":   # a misspelt key: say so, not that the right one is missing
        first = next((e for e in errors if e["type"] == "extra_forbidden" and e["loc"][:-1] == first["loc"][:-1]),
                     first)
    # a whole-scenario check names the key it is about (schema.KeyedValueError)
    keyed = getattr(first.get("ctx", {}).get("error"), "path", ())
    loc = _as_written(tuple(p for p in first["loc"]
                            if not (isinstance(p, str) and p.startswith("function-"))) + tuple(keyed), data)
    kind = first["type"]
    if kind == "extra_forbidden":
        # a plug-in's keys are not in the package's docs: its schema lists them
        where = DOCS if all(_built_in(p) for p in system.parts) else f"'sim schema' (rule system '{system.name}')"
        return _foreign(loc, system) or (
            loc, f"unknown key (check the spelling; allowed keys are listed in {where})")
    if kind == "missing":
        return loc, "required key is missing"
    msg = first["msg"].removeprefix("Value error, ")
    return loc, f"{msg} (got {first.get('input')!r})" if kind != "value_error" else msg


def _built_in(part: Any) -> bool:
    section = REGISTRY.bases if isinstance(part, BaseGame) else REGISTRY.modules
    return section.origin(part.name) == BUILT_IN


def check_needs(scenario: Scenario, system: Composition) -> None:
    """Each module's needs met by the base game on the scenario's ground, or one line naming both."""
    geometry = Geometry.HEX if scenario.map.kind == "hex" else Geometry.TABLE
    missing = system.missing(geometry)
    if missing:
        module, need = missing[0]
        base = system.base.name
        lacks = (f"the scenario's ground is {geometry.value}" if isinstance(need, Geometry) and need != geometry
                 else f"base game '{base}' lacks it")
        names = [m.name for m in system.modules]
        path = ("modules", names.index(module.name)) if "modules" in scenario.raw else ("ruleset",)
        raise InputError(f"rule module '{module.name}' needs {need.value}, but {lacks}",
                         file=scenario.file, place=place_of(path, scenario._lines))


