"""Checks of a plug-in's declaration that catch at registration what would fail later.

A base game's or rule module's models must be ``sim.plugin.Knobs`` (a plain pydantic model
ignores a misspelt key) whose defaults are valid (a wrong-type default would fail
mid-battle), and it must pickle (a study sends it to its worker processes). Each refusal is
a ``PluginError``: one line naming the game or module and the part.
"""
from __future__ import annotations

import dataclasses
import importlib
import importlib.metadata
import pickle
from collections.abc import Mapping
from typing import Any, NoReturn

from pydantic import BaseModel, ConfigDict, ValidationError

from sim.errors import InputError
from sim.systems.sealed import BaseKnobs, Knobs

# The models the schema builds with no arguments (``rules.NAME``, ``rules.base``, an
# order): each of their keys needs a default. A unit's or a policy's keys may be required.
CONSTRUCTED = ("knobs", "base_knobs", "order_keys")


class PluginError(InputError):
    """A rule system, metric reporter or behaviour that cannot be loaded or is malformed."""


def malformed(origin: str, what: str, message: str, place: str | None = None) -> NoReturn:
    """Raise the ``PluginError`` '``what``: ``message``' from ``origin``."""
    raise PluginError(f"{what}: {message}", file=origin, place=place)


def expect_declared(value: object, kind: type, what: str, place: str) -> None:
    """A value handed to ``register_*`` from Python must be a ``sim.plugin.<kind>``: else one
    ``PluginError`` naming it (``what`` and its name) and the argument ``place``."""
    if not isinstance(value, kind):
        malformed("Python", f"{what} {getattr(value, 'name', value)!r}",
                  f"is a {type(value).__name__}; expected a sim.plugin.{kind.__name__}", place=place)


def _default_problem(label: str, model: type[BaseModel]) -> str | None:
    """What is wrong with the model's defaults, or None: each is checked as a value would be."""
    checker: type[BaseModel] = type(model.__name__, (model,), {"__module__": model.__module__,
                                              "model_config": ConfigDict(validate_default=True)})
    try:
        checker.model_validate({})
    except ValidationError as err:
        for e in err.errors():
            key = ".".join(str(p) for p in e["loc"]) or "(the model)"
            if e["type"] == "missing":
                if label in CONSTRUCTED:
                    return (f"'{label}' {model.__name__}.{key} has no default (every key of "
                            f"this model needs one: a scenario may leave it out)")
                continue
            default = model.model_fields[str(e["loc"][0])].get_default(call_default_factory=True) \
                if e["loc"] and str(e["loc"][0]) in model.model_fields else None
            return (f"'{label}' {model.__name__}.{key} has the default {default!r}, which its "
                    f"own type refuses ({e['msg']}): give it a valid default")
    except Exception as exc:  # noqa: BLE001 - a validator of the plug-in's that raises
        return f"'{label}' {model.__name__}: its defaults cannot be checked ({type(exc).__name__}: {exc})"
    return None


def check_models(origin: str, what: str, models: Mapping[str, Any]) -> None:
    """Each model (by its ``BaseGame`` or ``RuleModule`` field name) is a ``sim.plugin.Knobs`` with valid defaults."""
    for label, model in models.items():
        if model is None:
            continue
        base, base_name = (BaseKnobs, "sim.plugin.BaseKnobs") if label == "base_knobs" \
            else (Knobs, "sim.plugin.Knobs")
        if not (isinstance(model, type) and issubclass(model, base)):
            shown = model.__name__ if isinstance(model, type) else repr(model)
            plain = " (a plain pydantic model ignores a misspelt key)" \
                if isinstance(model, type) and issubclass(model, BaseModel) else ""
            malformed(origin, what, f"'{label}' is {shown}{plain}; expected a subclass of "
                                    f"{base_name}, which refuses unknown keys")
        problem = _default_problem(label, model)
        if problem:
            malformed(origin, what, problem)


def _unpicklable(value: Any) -> str | None:
    """Why ``value`` cannot be pickled (None if it can)."""
    try:
        pickle.dumps(value)
    except Exception as exc:  # noqa: BLE001 - pickling raises PicklingError, TypeError, AttributeError
        qualname = getattr(value, "__qualname__", "")
        if getattr(value, "__name__", "") == "<lambda>":
            return "is a lambda"
        if "<locals>" in qualname:
            return f"is {qualname}, defined inside a function"
        return f"is a {type(value).__name__} ({type(exc).__name__}: {exc})"
    return None


def check_pickles(origin: str, what: str, system: Any) -> None:
    """The system pickles: a study sends it to its worker processes (``sim.study.plan.cells``)."""
    parts: list[tuple[str, Any]] = []
    for f in dataclasses.fields(system):
        value = getattr(system, f.name)
        if f.name == "metrics":
            parts += [(f"metric reporter '{getattr(r, 'name', r)}' ({g.name})", getattr(r, g.name))
                      for r in value for g in dataclasses.fields(r)]
        else:
            parts.append((f"'{f.name}'", value))
    for label, value in parts:
        why = _unpicklable(value)
        if why:
            malformed(origin, what, f"its {label} {why}, which cannot be pickled (studies send "
                                    "the system to worker processes): define it at module level")
    why = _unpicklable(system)
    if why:
        malformed(origin, what, f"it cannot be pickled ({why}; studies send the system to worker "
                                "processes): define its parts at module level")


#: The entry-point groups of plug-ins (``sim.systems``: rule systems of an earlier version).
GROUPS = ("sim.bases", "sim.modules", "sim.rulesets", "sim.systems", "sim.metrics", "sim.behaviours",
          "sim.unit_kinds", "sim.designs")
#: The origin of what the package itself declares (its own distribution's entry points).
BUILT_IN = "built-in"
_OWN = "sim"   # the package's distribution name


def described(exc: BaseException) -> str:
    """``Type: message`` of what a plug-in raised, on one line (even if its ``str`` raises);
    a ``SystemExit`` says so, with its code (``sys.exit("bye")``: ``SystemExit('bye')``)."""
    if isinstance(exc, SystemExit):
        return f"SystemExit({exc.code!r}): it exits the program"
    try:
        message = str(exc)
    except Exception:  # noqa: BLE001 - a plug-in's exception whose message cannot be made
        message = "(its message cannot be shown)"
    return " ".join(f"{type(exc).__name__}: {message}".split())


def load_target(target: str, origin: str, expected: str) -> Any:
    """Import ``module[:attr]``; any failure is one ``PluginError`` naming it and ``origin``.

    Whatever the import raises, ``SystemExit`` included, but Ctrl-C (a ``KeyboardInterrupt``),
    which stops the command as it does anywhere else.
    """
    module, _, attr = target.partition(":")
    try:
        obj: Any = importlib.import_module(module)
        for part in attr.split(".") if attr else ():
            obj = getattr(obj, part)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - any failure of a plug-in is the user's input
        raise PluginError(f"cannot load {target} ({described(exc)}); expected an importable "
                          f"{expected}", file=origin) from None
    return obj


def entry_points(group: str) -> list[tuple[str, str, str]]:
    """(name, target, origin) of every installed distribution's entry points of ``group``:
    the package's own first (origin ``built-in``), then the others', each by name."""
    out = []
    for ep in importlib.metadata.entry_points(group=group):
        dist = getattr(ep, "dist", None)
        if dist is not None and dist.name == _OWN:
            origin = BUILT_IN
        else:
            who = f"{dist.name} {dist.version}" if dist is not None else "an installed distribution"
            origin = f"entry point {group}: {ep.name} = {ep.value} ({who})"
        out.append((ep.name, ep.value, origin))
    return sorted(out, key=lambda e: (e[2] != BUILT_IN, e[0]))
