"""What the editor offers, read from the registry: nothing here names a ruleset, a module or a knob.

``catalogue()`` lists every ruleset (its base game and modules), base game and rule
module installed or registered, and the built-in kinds of ground; ``rules_view(document)``
gives the choices of the rules a document names: each knob section (``rules.<section>``)
with its knobs' types, limits, choices and defaults from the section's model, the unit
kinds and the order types its units may have.
"""
from __future__ import annotations

import enum
from typing import Any, get_args, get_origin

from pydantic import BaseModel

from sim.errors import InputError
from sim.scenario.models import model_for
from sim.scenario.rules_of import composition_of
from sim.space.features import BUILTIN
from sim.systems.composition import Composition
from sim.systems.declarations import PluginError
from sim.systems.registry import REGISTRY, default_ruleset, get_system, system_names, unit_kinds_of


class KnobType(enum.StrEnum):
    """How the editor asks for a knob's value."""

    CHOICE = "choice"
    NUMBER = "number"
    WHOLE = "whole"
    FLAG = "flag"
    DATA = "data"   # a list or a mapping, written as JSON


def _type_of(schema: dict[str, Any]) -> KnobType:
    if "enum" in schema:
        return KnobType.CHOICE
    return {"number": KnobType.NUMBER, "integer": KnobType.WHOLE,
            "boolean": KnobType.FLAG}.get(schema.get("type", ""), KnobType.DATA)


def knobs_of(model: type[BaseModel] | None) -> list[dict[str, Any]]:
    """The knobs of one section's model: name, type, default, choices, limits and description."""
    if model is None:
        return []
    properties = model.model_json_schema().get("properties", {})
    out = []
    for name, field in model.model_fields.items():
        schema = properties.get(name, {})
        kind = _type_of(schema)
        default = field.get_default(call_default_factory=True)
        if isinstance(default, BaseModel):
            default = default.model_dump(mode="json")
        knob: dict[str, Any] = {"name": name, "type": kind.value, "default": _plain(default),
                                "doc": field.description or ""}
        if kind is KnobType.CHOICE:
            knob["choices"] = list(schema["enum"])
        for limit in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            if limit in schema:
                knob[limit] = schema[limit]
        out.append(knob)
    return out


def _plain(value: Any) -> Any:
    """A default as JSON holds it (a frozen list or mapping as a plain one)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def catalogue() -> dict[str, Any]:
    """Every ruleset, base game and rule module the registry has, and the built-in ground."""
    rulesets = {}
    for name in system_names():
        composition = get_system(name)
        rulesets[name] = {"title": composition.title, "base": composition.base.name,
                          "modules": [m.name for m in composition.modules]}
    return {
        "rulesets": rulesets,
        "default_ruleset": default_ruleset(),
        "bases": {b.name: b.title for b in REGISTRY.bases},
        "modules": {m.name: m.title for m in REGISTRY.modules},
        "terrains": [t.name for t in BUILTIN.values()],
        "letters": {letter: t.name for letter, t in BUILTIN.items()},
    }


def _order_types(composition: Composition) -> list[str]:
    """The step types a unit's ``orders.type`` may name under ``composition``."""
    forces = model_for(composition).model_fields["forces"].annotation
    unit = get_args(get_args(forces)[1])[0]
    orders = unit.model_fields["orders"].annotation
    choice = orders.model_fields["type"].annotation
    return [str(a) for a in get_args(choice)] if get_origin(choice) is not None else []


def rules_view(document: dict[str, Any]) -> dict[str, Any]:
    """The choices of the rules ``document`` names: knob sections, unit kinds, order types.

    Rules it cannot name (an unknown ruleset, say) give no choices, and the error that says
    why (the editor's check gives the same one, with its line).
    """
    try:
        composition = composition_of(document, "<editor>", {})
    except (InputError, PluginError) as err:
        return {"label": "", "sections": {}, "kinds": [], "orders": [], "error": str(err)}
    return {"label": composition.name, "title": composition.title,
            "sections": {name: knobs_of(model) for name, model in composition.sections.items()},
            "kinds": unit_kinds_of(composition), "orders": _order_types(composition), "error": ""}


__all__ = ["KnobType", "catalogue", "knobs_of", "rules_view"]
