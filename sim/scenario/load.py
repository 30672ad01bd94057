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
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal, NoReturn, TypeVar, get_args, get_origin

from pydantic import BaseModel, Field, ValidationError, create_model
from shapely.geometry import Polygon

from sim import arguments
from sim.errors import InputError
from sim.scenario.features import AreaFeature, EdgeFeature, features_in
from sim.scenario.orders import MAX_STEPS, Group, Orders, Plan, Policies
from sim.scenario.plan_checks import check_orders
from sim.scenario.schema import Scenario, UnitSpec
from sim.scenario.yamlfile import parse_yaml, place_of, read_yaml
from sim.space.terrain import Terrain
from sim.systems.composition import Composition
from sim.systems.declarations import BUILT_IN, PluginError
from sim.systems.games import BaseGame, Geometry
from sim.systems.knobs import BaseKnobs, Knobs
from sim.systems.registry import (
    REGISTRY,
    compose,
    default_ruleset,
    generation,
    get_system,
    system_names,
    unit_kinds_of,
)
from sim.systems.sections import OneOf

DOCS = "docs/scenario.md"
M = TypeVar("M", bound=BaseModel)


# -- the scenario model of each rule system ---------------------------------------------
class _Loaded(Scenario):
    """A scenario made by this loader: it pickles as its document, checked again where it lands."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # The model class is built per process from the rule system, so a scenario
        # travels as its document.
        return scenario_from_dict, (self.raw, self._file, self._lines)


def _subclass(name: str, bases: tuple[type[M], ...], **fields: Any) -> type[M]:
    return create_model(name, __base__=bases, __module__=__name__, **fields)


def _redefined(keys: type[BaseModel], common: type[BaseModel]) -> dict[str, Any]:
    """The common keys a system's model redefines, as ``create_model`` fields."""
    return {k: (f.annotation, f) for k, f in keys.model_fields.items() if k in common.model_fields}


def _union(annotations: list[Any]) -> Any | None:
    """Literal[...] or list[Literal[...]] annotations joined into one (None: not such)."""
    lists = [get_origin(a) is list for a in annotations]
    if any(lists) and not all(lists):
        return None
    inner = [get_args(a)[0] if is_list else a for a, is_list in zip(annotations, lists)]
    if not all(get_origin(a) is Literal for a in inner):
        return None
    joined = Literal[tuple(dict.fromkeys(v for a in inner for v in get_args(a)))]  # type: ignore[valid-type]
    return list[joined] if lists[0] else joined  # type: ignore[valid-type]


def _merged(name: str, models: list[type[BaseModel] | None], owners: list[str]) -> type[BaseModel] | None:
    """One model of the keys several parts add.

    A model another one derives from is that one; a key two models both define must be a
    choice (``Literal``, or a list of them), and its choices are joined (the unit flags
    of two modules, the step types of a base and a module).
    """
    given = [(m, o) for m, o in zip(models, owners) if m is not None]
    kept = [(m, o) for m, o in given if not any(n is not m and issubclass(n, m) for n, _ in given)]
    if not kept:
        return None
    if len(kept) == 1:
        return kept[0][0]
    fields: dict[str, Any] = {}
    for key in dict.fromkeys(k for m, _ in kept for k in m.model_fields):
        defining = [(m, o) for m, o in kept if key in m.model_fields]
        if len(defining) < 2:
            continue
        annotation = _union([m.model_fields[key].annotation for m, _ in defining])
        if annotation is None:
            raise PluginError(f"{' and '.join(o for _, o in defining)} both define the key '{key}' "
                              "(expected each key defined once, or a choice whose options are joined)")
        fields[key] = (annotation, defining[0][0].model_fields[key])
    return _subclass(name, tuple(m for m, _ in kept), **fields)


@dataclass(frozen=True)
class _KindCheck:
    """A unit's ``kind`` under one composition: one of ``kinds`` (the generic ones and its parts')."""

    label: str
    kinds: tuple[str, ...]

    def names(self) -> tuple[str, ...]:
        return self.kinds

    def __call__(self, value: str) -> str:
        if value not in self.kinds:
            readers = sorted(p.name for p in [*REGISTRY.bases, *REGISTRY.modules]
                             if any(k.name == value for k in p.unit_kinds))
            elsewhere = f"; '{value}' is read by {readers} only" if readers else ""
            raise ValueError(f"unknown unit kind {value!r} (expected one of {list(self.kinds)}: the generic "
                             f"kinds and those of ruleset '{self.label}'{elsewhere})")
        return value


def _kind_field(composition: Composition) -> tuple[Any, Any]:
    """The ``kind`` key of a unit under ``composition``: its kinds, checked and listed by its schema."""
    check = _KindCheck(composition.name, tuple(unit_kinds_of(composition)))
    common = UnitSpec.model_fields["kind"]
    return (Annotated[str, OneOf(check, names=check.names, what="unit kind")],
            Field(common.default, description=common.description))


@lru_cache(maxsize=64)
def _model(key: tuple[str, str, tuple[str, ...], bool], _generation: int) -> type[Scenario]:
    label, base_name, module_names, by_base = key
    composition = compose(base_name, module_names, None if by_base else label)
    parts = composition.parts
    owners = [f"{'base game' if p is composition.base else 'rule module'} '{p.name}'" for p in parts]
    name = ("base_" if by_base else "") + label.replace("+", "_")
    order_keys = _merged(f"OrderKeys_{name}", [p.order_keys for p in parts], owners)
    orders: type[BaseModel] = Orders
    if order_keys is not None:
        # an order-keys model may redefine a common key (``type``, to add a step type)
        orders = _subclass(f"Orders_{name}", (Orders, order_keys), **_redefined(order_keys, Orders))
    # list[orders], list[unit]: lists of models made at run time, types mypy cannot check.
    plan = _subclass(f"Plan_{name}", (Plan,),
                     steps=(list[orders], Field(min_length=1, max_length=MAX_STEPS)))  # type: ignore[valid-type]
    group = _subclass(f"Group_{name}", (Group,), plan=(plan, ...))
    unit_keys = _merged(f"UnitKeys_{name}", [p.unit_keys for p in parts], owners)
    unit_bases = (UnitSpec, unit_keys) if unit_keys else (UnitSpec,)
    # unit keys may redefine a common key too (``flags``: to add their own)
    own = _redefined(unit_keys, UnitSpec) if unit_keys else {}
    # unit keys of an earlier version may redefine ``kind`` (their own Literal): theirs holds
    own = {"kind": _kind_field(composition), **own}
    unit = _subclass(f"Unit_{name}", unit_bases, orders=(orders, orders()), plan=(plan | None, None), **own)
    policy_keys = _merged(f"PolicyKeys_{name}", [p.policy_keys for p in parts], owners)
    policies = _subclass(f"Policies_{name}", (Policies, policy_keys)) if policy_keys else Policies
    sections: dict[str, Any] = {}
    for section, model in composition.sections.items():
        model = model or BaseKnobs
        sections[section] = (model, model())
    rules = _subclass(f"Rules_{name}", (Knobs,), **sections)
    extra: dict[str, Any] = {}
    if by_base:   # the document names its base game and modules
        extra = {"base": (Literal[base_name], Field(description="the base game")),
                 "modules": (list[Literal[module_names]] if module_names else list[str],  # type: ignore[valid-type]
                             Field(default_factory=list, max_length=32, description="its rule modules, in order"))}
    features = {m.name: (m.features, m.features()) for m in composition.modules if m.features is not None}
    if features:
        model = _subclass(f"Features_{name}", (Knobs,), **features)
        extra["features"] = (model, model())
    model = _subclass(f"Scenario_{name}", (_Loaded,),
                      ruleset=(Literal[label], label),
                      forces=(dict[str, list[unit]], ...),  # type: ignore[valid-type]
                      rules=(rules, rules()),
                      groups=(dict[str, group], Field(default_factory=dict, max_length=500)),  # type: ignore[valid-type]
                      policies=(dict[str, policies], Field(default_factory=dict, max_length=2500)),  # type: ignore[valid-type]
                      **extra)
    model.made_for = composition
    return model


def model_for(composition: Composition) -> type[Scenario]:
    """The scenario model of a composition (a ruleset's): base keys plus its parts' own."""
    names = tuple(m.name for m in composition.modules)
    return _model((composition.name, composition.base.name, names, composition.by_base), generation())


@dataclass
class _Checks:
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


def _composition_of(data: dict[str, Any], file: str, lines: dict[tuple[Any, ...], int]) -> Composition:
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


def _pydantic_message(err: ValidationError, system: Composition,
                      data: Any = None) -> tuple[tuple[Any, ...], str]:
    errors = err.errors()
    first = errors[0]
    if first["type"] == "missing":   # a misspelt key: say so, not that the right one is missing
        first = next((e for e in errors if e["type"] == "extra_forbidden" and e["loc"][:-1] == first["loc"][:-1]),
                     first)
    loc = _as_written(tuple(p for p in first["loc"]
                            if not (isinstance(p, str) and p.startswith("function-"))), data)
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


def model_of(data: dict[str, Any], file: str = "<scenario>",
             lines: dict[tuple[Any, ...], int] | None = None) -> Scenario:
    """The document validated against its rule system's schema only.

    No terrain, no map or set-up checks: a cheap check, giving the same model (so the same
    hash) as a full load.
    """
    lines = lines or {}
    system = _composition_of(data, file, lines)
    try:
        scenario = model_for(system).model_validate(data)
    except ValidationError as err:
        loc, msg = _pydantic_message(err, system, data)
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
    _check_needs(scenario, system)
    for part in system.parts:
        if part.check is not None:
            part.check(_Checks(scenario, scenario.map, file, lines))
    return scenario


def _built_in(part: Any) -> bool:
    section = REGISTRY.bases if isinstance(part, BaseGame) else REGISTRY.modules
    return section.origin(part.name) == BUILT_IN


def _check_needs(scenario: Scenario, system: Composition) -> None:
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


def _index(part: str) -> int | None:
    """A list index in a key path: ASCII digits only (`int` would also take '²' or '٣')."""
    return int(part) if part.isascii() and part.isdigit() and len(part) <= 18 else None


def set_path(doc: dict[str, Any], dotted: str, value: Any, source: str) -> None:
    """Set ``value`` at the dotted key path in a document (``--set``'s meaning of a key)."""
    parts = dotted.split(".")
    if not dotted or any(p == "" for p in parts):
        raise InputError(f"'{dotted}' is not a key path (expected e.g. rules.base.phase_length)", file=source)
    parts = _plan_parts(doc, parts)
    node: object = doc   # a section (dict) or a list on the way down; the path may also end at a value
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
    value = copy.deepcopy(value)   # the document's own: a later key never writes into the caller's
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


def _plan_parts(doc: dict[str, Any], parts: list[str]) -> list[str]:
    """The path with a plan's steps addressed as the document writes them.

    A plan is a mapping with ``steps`` or (the shorthand) the bare list of them: a path may
    address it either way (``plan.1.when`` or ``plan.steps.1.when``). A path to the
    mapping's other keys (``plan.loop``) turns a bare list into its mapping first.
    """
    out: list[str] = []
    node: Any = doc
    for part in parts:
        if out and out[-1] == "plan" and isinstance(node, list):
            if part == "steps":
                continue
            if _index(part) is None:   # plan.loop, plan.until: the long form
                holder = _walk(doc, out[:-1])
                if isinstance(holder, dict):
                    holder["plan"] = node = {"steps": node}
        elif out and out[-1] == "plan" and isinstance(node, dict) and _index(part) is not None:
            out.append("steps")
            node = node.get("steps")
        out.append(part)
        node = _child(node, part)
    return out


def _walk(doc: Any, parts: list[str]) -> Any:
    for part in parts:
        doc = _child(doc, part)
    return doc


def _child(node: Any, part: str) -> Any:
    if isinstance(node, list):
        k = _index(part)
        return node[k] if k is not None and k < len(node) else None
    return node.get(part) if isinstance(node, dict) else None


def parse_assignment(text: str, source: str = "--set") -> tuple[str, Any]:
    """'turns=12' → ('turns', 12). Values are YAML scalars."""
    try:  # a byte of the command line that is not UTF-8 arrives as a lone surrogate
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(f"'{text}' is not UTF-8 text (character {exc.start + 1} stands for a "
                         "byte that is not UTF-8; expected KEY=VALUE in UTF-8)", file=source) from None
    if "=" not in text:
        raise InputError(f"'{text}' is not KEY=VALUE (expected e.g. turns=12 or rules.base.phase_length=2)",
                         file=source)
    key, raw = text.split("=", 1)
    value, _ = parse_yaml(raw, source) if raw.strip() else ("", {})
    return key.strip(), value


def parse_assignments(texts: Iterable[str] | None, source: str = "--set") -> dict[str, Any]:
    """Every ``KEY=VALUE`` of a command line, in order, as a dict.

    A key given twice, or a key inside another one given too (``rules.base`` and
    ``rules.base.phase_length``), is an error: one of the two would be silently lost.
    """
    out: dict[str, Any] = {}
    for text in texts or []:
        key, value = parse_assignment(text, source)
        check_keys([*out, key], source)
        out[key] = value
    return out


def overlap(keys: Iterable[str]) -> tuple[str, str] | None:
    """The first key (in order) that is, or is inside or around, an earlier one, with that one.

    ``rules.base`` with ``rules.base.phase_length``: the length would be set or lost by
    which comes first, so a set of overrides has each key once and none inside another.
    """
    seen: list[str] = []
    for key in keys:
        for other in seen:
            if key == other or key.startswith(other + ".") or other.startswith(key + "."):
                return key, other
        seen.append(key)
    return None


def check_keys(keys: Iterable[str], source: str) -> None:
    """``InputError`` if one key of ``keys`` is another or inside another (``overlap``)."""
    pair = overlap(keys)
    if pair is not None:
        key, other = pair
        what = "twice" if key == other else f"and also {other}"
        raise InputError(f"sets {key} {what} (expected each key once)", file=source, place=key)


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
