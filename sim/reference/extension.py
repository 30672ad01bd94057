"""The generated reference of the extension surface (``docs/extending.md``): what a base
game's, rule module's or plug-in's author reads and writes (``sim.plugin``), from the code's
own signatures and docstrings.

Every type a rule meets through ``sim.plugin.BattleContext`` is listed with its public members,
then the registry's declarations and the toolkit's modules, so nothing of the surface is
found only through ``help(type(...))``.
"""
from __future__ import annotations

import enum
import importlib
import inspect
import pkgutil
import re
from typing import Any

from pydantic import BaseModel

import sim
import sim.plugin
import sim.toolkit

#: The types of the surface (each ``sim.plugin.NAME``), in reading order: the battle as rules
#: see it, then what a base game and a rule module declare, then what their reactions and
#: choices answer.
SURFACE = ("BattleContext", "Game", "Phase", "PhaseSpec", "TurnClock", "Dice", "EventLog", "Unit", "Terrain",
           "RefereeView", "PlansView", "Watch", "Trigger", "GroundWatch", "GroundEvent", "GroundTrigger", "Outcome",
           "BaseGame", "RuleModule", "ModulePlay", "Ruleset", "Checks", "MetricReporter", "Knobs", "BaseKnobs",
           "Behaviour", "BehaviourKind", "Response")


def _first_line(obj: Any) -> str:
    doc = inspect.getdoc(obj) or ""
    return " ".join(doc.split("\n\n", 1)[0].split())


def _signature(obj: Any) -> str:
    try:   # the annotations are strings (``from __future__ import annotations``): unquoted
        text = str(inspect.signature(obj)).replace("'", "")
    except (TypeError, ValueError):
        return ""
    return re.sub(r"<function (\w+) at 0x[0-9a-f]+>", r"\1", text)   # a default function, by name


def _shown(value: Any) -> str:
    """A default as the reference shows it: a set's items in a fixed order (not the run's hash order)."""
    if isinstance(value, (set, frozenset)):
        return f"{type(value).__name__}({{{', '.join(sorted(map(repr, value)))}}})" if value else repr(value)
    return repr(value)


def _members(cls: type) -> list[str]:
    """One line per public member of ``cls``: a field or attribute with its type, a
    property, or a method with its signature, each with its docstring's first line."""
    if isinstance(cls, enum.EnumMeta):
        members: list[enum.Enum] = list(cls)
        return [f"- `{m.name}`" for m in members]
    if issubclass(cls, BaseModel):
        return [f"- `{n}`: {' '.join((f.description or '').split())}" for n, f in cls.model_fields.items()]
    hints = {n: t for k in reversed(cls.__mro__) for n, t in getattr(k, "__annotations__", {}).items()
             if k.__module__.startswith("sim")}
    rows = [f"- `{n}`: `{t}`" for n, t in hints.items() if not n.startswith("_") and n not in cls.__dict__]
    for name, member in cls.__dict__.items():
        if name.startswith("_"):
            continue
        if isinstance(member, (staticmethod, classmethod)):
            member = member.__func__
        if isinstance(member, property):
            rows.append(f"- `{name}` (read-only): {_first_line(member)}")
        elif inspect.isfunction(member):
            rows.append(f"- `{name}{_signature(member)}`: {_first_line(member)}")
        elif name in hints:
            rows.append(f"- `{name}`: `{hints[name]}` = `{_shown(member)}`")
    return rows


def _public(module: Any) -> list[str]:
    """One line per name of a module's ``__all__``: a function with its signature, a class, or a value."""
    rows = []
    for public in module.__all__:
        obj = getattr(module, public)
        if inspect.isfunction(obj):
            rows.append(f"- `{public}{_signature(obj)}`: {_first_line(obj)}")
        elif inspect.isclass(obj):
            rows.append(f"- `{public}` (class): {_first_line(obj)}")
        else:
            rows.append(f"- `{public}`")
    return rows


def surface() -> str:
    """The generated part ``surface`` of ``docs/extending.md``."""
    out = []
    for name in SURFACE:
        obj = getattr(sim.plugin, name)
        out += [f"### `{name}`", "", _first_line(obj), "", *_members(obj), ""]
    out += ["### The record types (`sim.records`)", "", _first_line(sim.records), "", *_public(sim.records), ""]
    out += ["### The toolkit (`sim.toolkit`)", ""]
    for info in sorted(pkgutil.iter_modules(sim.toolkit.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"sim.toolkit.{info.name}")
        out += [f"#### `sim.toolkit.{info.name}`", "", _first_line(module), "", *_public(module), ""]
    return "\n".join(out).rstrip("\n")
