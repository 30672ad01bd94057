"""The JSON Schema of scenario and study files (``sim schema``), for editors that check
and complete YAML as it is typed.

A scenario is one of the rule systems' models (``sim.scenario.load.model_for``), told
apart by ``ruleset`` (left out: ``snapfire``); its ``terrain`` is a hex or table map as
``sim.space.spec`` describes it. A study is ``sim.study.plan.study_file.StudySpec``, whose
``factors`` take the options of the design they name (each registered design's own model).
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from sim.scenario.load import model_for
from sim.space.spec import TERRAIN_MODELS
from sim.study.plan.study_file import StudySpec
from sim.systems.composition import Composition
from sim.systems.declarations import BUILT_IN
from sim.systems.designs import Design
from sim.systems.games import Geometry
from sim.systems.registry import REGISTRY, all_systems, builtin_rulesets, compose, default_ruleset, get_system

# Draft 7: what yaml-language-server (VS Code's YAML extension and others) supports.
DIALECT = "http://json-schema.org/draft-07/schema#"


def systems_of(builtin_only: bool) -> list[Composition]:
    """The rulesets a schema covers (their compositions): the built-in ones, or every one installed."""
    return [get_system(n) for n in builtin_rulesets()] if builtin_only else all_systems()


def draft7(node: Any) -> Any:
    """A pydantic (draft 2020-12) schema in draft 7's words: ``definitions`` for ``$defs``,
    ``items`` as a list (with ``additionalItems: false``) for ``prefixItems``."""
    if isinstance(node, list):
        return [draft7(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "$defs":
            out["definitions"] = draft7(value)
        elif key == "$ref" and isinstance(value, str):
            out[key] = value.replace("#/$defs/", "#/definitions/")
        elif key == "prefixItems":
            out["items"] = draft7(value)
            out["additionalItems"] = False
        else:
            out[key] = draft7(value)
    return out


def _no_null(schema: dict[str, Any]) -> None:
    """Optional terrain keys may be left out, never written as null."""
    for prop in schema.get("properties", {}).values():
        options = prop.get("anyOf")
        if options and {"type": "null"} in options:
            rest = [o for o in options if o != {"type": "null"}]
            prop.pop("anyOf")
            prop.pop("default", None)
            prop.update(rest[0] if len(rest) == 1 else {"anyOf": rest})


def _composable(builtin_only: bool) -> list[Composition]:
    """Per base game, it with every module its needs allow on some ground: a scenario that names
    ``base`` and a subset of ``modules`` is one of these (every knob and key optional)."""
    bases = [b for b in REGISTRY.bases if not builtin_only or REGISTRY.bases.origin(b.name) == BUILT_IN]
    modules = [m for m in REGISTRY.modules if not builtin_only or REGISTRY.modules.origin(m.name) == BUILT_IN]
    out = []
    for base in bases:
        fits = [m.name for m in modules if any(not compose(base.name, (m.name,)).missing(g) for g in Geometry)]
        out.append(compose(base.name, tuple(fits)))
    return out


def scenario_schema(builtin_only: bool = False) -> dict[str, Any]:
    """The JSON Schema of a scenario file under every (or every built-in) ruleset, or base and modules."""
    systems = [*systems_of(builtin_only), *_composable(builtin_only)]
    scenario_models = [model_for(s) for s in systems]
    models: list[type[BaseModel]] = [*scenario_models, *TERRAIN_MODELS]
    keyed, top = models_json_schema([(m, "validation") for m in models], ref_template="#/$defs/{model}")
    defs: dict[str, Any] = top["$defs"]
    terrain = {"oneOf": [keyed[(m, "validation")] for m in TERRAIN_MODELS],
               "description": "the map: kind hex or kind table"}
    for m in TERRAIN_MODELS:
        _no_null(defs[m.__name__])
        for sub in ("TerrainTypeSpec", "AreaSpec", "GridSpec"):
            if sub in defs:
                _no_null(defs[sub])
    choices = []
    for system, model in zip(systems, scenario_models):
        ref = keyed[(model, "validation")]
        body = defs[ref["$ref"].split("/")[-1]]
        body["properties"]["terrain"] = terrain
        if system.by_base:   # named by base (and modules): any subset of its modules, in any order
            body["properties"]["modules"]["uniqueItems"] = True
        elif system.name != default_ruleset():
            body["required"] = sorted({*body.get("required", []), "ruleset"})
        choices.append(ref)
    return draft7({"$schema": DIALECT, "title": "sim scenario file",
                   "description": "A scenario: map, sides, forces, victory and a rule system's knobs "
                                  "(docs/scenario.md).",
                   "oneOf": choices, "$defs": defs})


def designs_of(builtin_only: bool) -> list[Design]:
    """The study designs a schema covers: the built-in ones, or every one installed."""
    return [d for d in REGISTRY.designs if not builtin_only or REGISTRY.designs.origin(d.name) == BUILT_IN]


def _by_design(factors: dict[str, Any], designs: list[Design]) -> None:
    """``factors`` takes the options of the design it names (none named: the default one's)."""
    factors["properties"]["design"]["enum"] = [d.name for d in designs]
    branches = []
    for d in designs:
        options = d.options.model_json_schema()
        named: dict[str, Any] = {"properties": {"design": {"const": d.name}}}
        if not d.default:
            named["required"] = ["design"]
        branches.append({"if": named, "then": {
            "properties": {"design": {}, "vary": {}, **options.get("properties", {})},
            "required": options.get("required", []), "additionalProperties": False}})
    factors["allOf"] = branches


def study_schema(builtin_only: bool = False) -> dict[str, Any]:
    """The JSON Schema of a study file (its designs: every installed one, or the built-in ones)."""
    schema = StudySpec.model_json_schema(ref_template="#/$defs/{model}")
    _by_design(schema["$defs"]["Factors"], designs_of(builtin_only))
    return draft7({"$schema": DIALECT, "title": "sim study file",
                   "description": "A study: a scenario, variants, factors, replications (docs/study.md).",
                   **{k: v for k, v in schema.items() if k != "title"}})
