"""The registry: one object holding every extension point, each a declared object.

``REGISTRY`` has a ``Section`` for each kind: base games (``sim.bases``), rule modules
(``sim.modules``), rulesets (``sim.rulesets``: a named base with its modules, what a
scenario's ``ruleset`` names), metric reporters (``sim.metrics``) and behaviours
(``sim.behaviours``); its ``records`` are the record types, read through the kernel's and
the parts' declarations (``sim.systems.record_types``). The package's own and a user's come
through the same door: an entry point of an installed distribution (the package's own
``pyproject.toml`` declares its built-ins as any plug-in does), or ``register`` from
Python (a notebook, a ``--plugin`` module). A plug-in that cannot be imported or is
malformed is a ``PluginError``: an input error, one line, exit 2 on the command line.

A rule system of an earlier version (``sim.RuleSystem``, entry-point group ``sim.systems``)
is a base game with a ruleset of the same name: it still loads, with a deprecation warning.
"""
from __future__ import annotations

import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, get_args

from sim import arguments, catalogue
from sim.engine.clock import PhaseSpec
from sim.engine.context import Game as Game  # re-exported (sim.Game)
from sim.engine.services import Service
from sim.errors import InputError
from sim.systems.behaviours import Behaviour as Behaviour  # re-exported: the extension surface
from sim.systems.behaviours import BehaviourKind as BehaviourKind
from sim.systems.behaviours import behaviour as behaviour
from sim.systems.behaviours import behaviours as behaviours
from sim.systems.behaviours import generation as behaviour_generation
from sim.systems.behaviours import load_behaviours
from sim.systems.behaviours import register_behaviour as register_behaviour
from sim.systems.behaviours import registered_from_python as behaviours_from_python
from sim.systems.behaviours import unregister_behaviour as unregister_behaviour
from sim.systems.composition import Composition
from sim.systems.declarations import BUILT_IN, check_models, check_pickles, entry_points, load_target
from sim.systems.declarations import PluginError as PluginError  # re-exported (sim.PluginError)
from sim.systems.declarations import malformed as _malformed
from sim.systems.games import BaseGame, Checks, MetricKind, MetricReporter, RuleModule, Ruleset
from sim.systems.record_types import RecordTypes, check_records
from sim.systems.sections import PYTHON, Section

__all__ = ["REGISTRY", "BaseGame", "Checks", "Composition", "MetricKind", "MetricReporter", "PluginError",
           "Registry", "RuleModule", "RuleSystem", "Ruleset", "all_systems", "compose", "default_ruleset",
           "events_of", "generation", "get_system", "metric_reporters", "register", "register_metric",
           "register_system", "rule_system", "system_names"]

Record = Mapping[str, Any]
NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


@dataclass(frozen=True, eq=False)
class RuleSystem(BaseGame):
    """Deprecated: a whole rule system, now a ``sim.plugin.BaseGame`` (the same fields).

    Registered (``register_system``, or an entry point of group ``sim.systems``), it is a
    base game with a ruleset of the same name, as it was.
    """

    def __post_init__(self) -> None:
        warnings.warn("sim.RuleSystem is deprecated: declare a sim.plugin.BaseGame (the same fields) and "
                      "register it with sim.plugin.register, with a sim.plugin.Ruleset to name it in "
                      "scenarios; or write a sim.plugin.RuleModule that joins a base game",
                      DeprecationWarning, stacklevel=3)


# -- checks of a declaration ----------------------------------------------------------------
def _check_reporter(r: MetricReporter, origin: str) -> None:
    what = f"metric reporter '{getattr(r, 'name', r)}'"
    if not isinstance(r, MetricReporter):
        _malformed(origin, what, f"is a {type(r).__name__}; expected a sim.MetricReporter")
    if not r.kinds or not callable(r.compute):
        _malformed(origin, what, "needs at least one metric in 'kinds' and a callable 'compute'")
    for metric, kind in r.kinds.items():
        if not isinstance(metric, str) or not re.match(r"^[a-z][a-z0-9_]*$", metric):
            _malformed(origin, what, f"metric name {metric!r} is not lower_snake_case")
        if kind not in ("binary", "count", "real"):
            _malformed(origin, what, f"metric '{metric}' has kind {kind!r}; expected binary, count or real")


def _check_step_moves(s: BaseGame | RuleModule, origin: str, what: str) -> None:
    moves = s.step_moves
    fields = s.order_keys.model_fields if s.order_keys is not None else {}
    types: Any = fields["type"].annotation if "type" in fields else None
    allowed = set(get_args(types)) - {"hold"}
    if not isinstance(moves, Mapping) or not all(
            isinstance(k, str) and k in allowed and type(v) is int and 1 <= v <= 12 for k, v in moves.items()):
        _malformed(origin, what, f"step_moves {moves!r}: expected step types of its order_keys' 'type' "
                                 f"(one of {sorted(allowed)}) mapped to whole numbers of moves from 1 to 12")


def _check_common(s: BaseGame | RuleModule, origin: str, what: str) -> None:
    if not isinstance(s.name, str) or not NAME.match(s.name):
        _malformed(origin, f"{what.split(' ')[0]} {s.name!r}", "its name must be lower_snake_case, 1-32 characters")
    check_models(origin, what, {"knobs": s.knobs, "base_knobs": getattr(s, "base_knobs", None),
                                "unit_keys": s.unit_keys, "order_keys": s.order_keys,
                                "policy_keys": s.policy_keys, "features": getattr(s, "features", None)})
    if s.example is not None and not isinstance(s.example, (str, Mapping)):
        _malformed(origin, what, "'example' must be a scenario file's path or a scenario document (a dict)")
    _check_step_moves(s, origin, what)
    if s.check is not None and not callable(s.check):
        _malformed(origin, what, "'check' must be callable")
    for r in s.metrics:
        _check_reporter(r, origin)
    if not all(isinstance(e, str) and e for e in s.events):
        _malformed(origin, what, "'events' must be event names (strings)")
    check_records(s.records, origin, what)
    unknown = [rid for rid in s.rules if rid not in catalogue.TITLES]
    if unknown:
        _malformed(origin, what, f"rule IDs {unknown} are not defined (sim.plugin.define_rules)")
    code = getattr(s, "game", None) or getattr(s, "play", None)
    package = str(getattr(code, "__module__", "")).partition(".")[0]
    marked = sorted(rid for rid, places in catalogue.undefined_marks().items()
                    if package and any(p.partition(".")[0] == package for p in places))
    if marked:
        _malformed(origin, what, f"its code is marked with rule IDs {marked} that no sim.plugin.define_rules "
                                 "defines (a misspelt ID?)")
    check_pickles(origin, what, s)


def _check_base(s: BaseGame, origin: str) -> None:
    what = f"base game '{s.name}'" if not isinstance(s, RuleSystem) else f"rule system '{s.name}'"
    spec = isinstance(s.phases, tuple)
    names = [p.name for p in s.phases if isinstance(p, PhaseSpec) and isinstance(p.name, str)] if spec else []
    if not spec or not s.phases or len(names) != len(s.phases) or not all(NAME.match(n) for n in names) \
            or not all(isinstance(p.moves, bool) for p in s.phases) \
            or len(set(names)) != len(names) or "setup" in names:
        _malformed(origin, what, f"phases {s.phases!r}: expected a tuple of sim.PhaseSpec(name, moves=True/False) "
                                 "with distinct lower_snake_case names (not 'setup')")
    if not callable(s.game):
        _malformed(origin, what, "'game' must be a callable that makes a Game")
    if not isinstance(s.provides, frozenset) or not all(isinstance(x, Service) for x in s.provides) \
            or not isinstance(s.service_records, Mapping) or not all(x in s.provides for x in s.service_records):
        _malformed(origin, what, "'provides' must be a frozenset of sim.plugin.Service, and 'service_records' map "
                                 "services it provides to their records")
    for records in s.service_records.values():
        check_records(records, origin, what)
    _check_common(s, origin, what)


def _check_module(m: RuleModule, origin: str) -> None:
    what = f"rule module '{m.name}'"
    if not callable(m.play):
        _malformed(origin, what, "'play' must be a callable that makes a sim.plugin.ModulePlay")
    _check_common(m, origin, what)


def _check_ruleset(r: Ruleset, origin: str) -> None:
    what = f"ruleset '{getattr(r, 'name', r)}'"
    if not isinstance(r.name, str) or not NAME.match(r.name):
        _malformed(origin, f"ruleset {r.name!r}", "its name must be lower_snake_case, 1-32 characters")
    if not isinstance(r.base, str) or not isinstance(r.modules, tuple) \
            or not all(isinstance(m, str) for m in r.modules) or len(set(r.modules)) != len(r.modules):
        _malformed(origin, what, "expected the name of a base game and a tuple of distinct module names")


# -- the registry -----------------------------------------------------------------------------
class Registry:
    """Every extension point, each a ``Section`` of declared objects (module doc)."""

    def __init__(self) -> None:
        self._generation = 0
        self.bases: Section[BaseGame] = Section("base game", "sim.bases", BaseGame, _check_base, self._bump)
        self.modules: Section[RuleModule] = Section("rule module", "sim.modules", RuleModule, _check_module,
                                                    self._bump)
        self.rulesets: Section[Ruleset] = Section("ruleset", "sim.rulesets", Ruleset, _check_ruleset, self._bump)
        self.metrics: Section[MetricReporter] = Section("metric reporter", None, MetricReporter,
                                                        self._check_metric, self._bump)
        self.records = RecordTypes(self.bases, self.modules)
        self._legacy: dict[str, tuple[str, str]] | None = None   # sim.systems entry points not loaded
        self._installed = False

    def _bump(self) -> None:
        self._generation += 1

    @property
    def generation(self) -> int:
        """A number that changes whenever anything is registered."""
        return self._generation + behaviour_generation()

    def _check_metric(self, r: MetricReporter, origin: str) -> None:
        _check_reporter(r, origin)
        mine = set(r.kinds)
        for other in self.metrics:
            if other.name == r.name:
                continue
            clash = mine & set(other.kinds)
            if clash:
                _malformed(origin, f"metric reporter '{r.name}'",
                           f"metrics {sorted(clash)} are already reported by '{other.name}'")

    # -- rule systems of an earlier version ------------------------------------------------
    def _legacy_waiting(self) -> dict[str, tuple[str, str]]:
        if self._legacy is None:
            self._legacy = {}
            for name, target, origin in entry_points("sim.systems"):
                if name in self.rulesets or name in self._legacy:
                    where = self._legacy[name][1] if name in self._legacy else self.rulesets.origin(name)
                    raise PluginError(f"names rule system '{name}', which {where} already provides "
                                      "(expected a new name)", file=origin)
                self._legacy[name] = (target, origin)
        return self._legacy

    def add_system(self, system: BaseGame, origin: str, replace: bool = False) -> None:
        """A rule system of an earlier version: its base game, and a ruleset of its name."""
        if origin == PYTHON and not replace and system.name in self.ruleset_names() \
                and self.rulesets.origin(self.ruleset(system.name).name) != PYTHON:
            _malformed(PYTHON, f"rule system '{system.name}'", f"the name is taken (ruleset "
                       f"'{system.name}', {self.rulesets.origin(system.name)}); pass replace=True to replace it")
        if origin == PYTHON:
            self.bases.register(system, replace=replace)
        else:
            self.bases.add(system, origin)
        ruleset = Ruleset(system.name, system.title, base=system.name)
        if origin == PYTHON:
            self.rulesets.register(ruleset, replace=True)
        else:
            self.rulesets.add(ruleset, origin)

    def ruleset(self, name: str) -> Ruleset:
        """The ruleset called ``name`` (a rule system of an earlier version too); KeyError if none."""
        if name not in self.rulesets and name in self._legacy_waiting():
            target, origin = self._legacy_waiting().pop(name)
            value = load_target(target, origin, "sim.RuleSystem")
            if not isinstance(value, BaseGame):
                raise PluginError(f"{target} is a {type(value).__name__}; expected a sim.RuleSystem", file=origin)
            if value.name != name:
                raise PluginError(f"{target} declares rule system '{value.name}' under the name "
                                  f"'{name}' (expected the same name)", file=origin)
            self.add_system(value, origin)
        return self.rulesets.get(name)

    def ruleset_names(self) -> list[str]:
        """Every ruleset's name (a rule system of an earlier version's too), without loading any."""
        return sorted(set(self.rulesets.names()) | set(self._legacy_waiting()))

    def load_installed(self) -> None:
        """Metric reporters and behaviours: the package's own, then the entry points' (once)."""
        if self._installed:
            return
        self._installed = True
        load_behaviours()
        for _, target, origin in entry_points("sim.metrics"):
            value = load_target(target, origin, "sim.MetricReporter")
            if not isinstance(value, MetricReporter):
                raise PluginError(f"{target} is a {type(value).__name__}; expected a sim.MetricReporter",
                                  file=origin)
            self.metrics.add(value, origin)


REGISTRY = Registry()


# -- the one door, from Python -----------------------------------------------------------------
def register(declared: Any, *, replace: bool = False) -> Any:
    """Register a base game, a rule module, a ruleset, a metric reporter or a behaviour; returns it.

    A name already taken by a built-in or an installed plug-in is refused unless ``replace``;
    one registered from Python before is replaced (re-running a cell).
    """
    arguments.flag(replace, "replace")
    if isinstance(declared, RuleSystem):
        REGISTRY.add_system(declared, PYTHON, replace)
    elif isinstance(declared, BaseGame):
        REGISTRY.bases.register(declared, replace)
    elif isinstance(declared, RuleModule):
        REGISTRY.modules.register(declared, replace)
    elif isinstance(declared, Ruleset):
        REGISTRY.rulesets.register(declared, replace)
    elif isinstance(declared, MetricReporter):
        REGISTRY.load_installed()
        REGISTRY.metrics.register(declared, True)
    elif isinstance(declared, Behaviour):
        register_behaviour(declared)
    else:
        _malformed(PYTHON, f"{getattr(declared, 'name', declared)!r}",
                   f"is a {type(declared).__name__}; expected a sim.plugin.BaseGame, RuleModule, Ruleset, "
                   "MetricReporter or Behaviour")
    return declared


def register_system(system: BaseGame, *, replace: bool = False) -> BaseGame:
    """Deprecated: ``sim.plugin.register`` (a rule system is a base game with a ruleset of its name)."""
    arguments.flag(replace, "replace")
    if not isinstance(system, BaseGame):
        _malformed(PYTHON, f"rule system {getattr(system, 'name', system)!r}",
                   f"is a {type(system).__name__}; expected a sim.RuleSystem", place="system")
    REGISTRY.add_system(system, PYTHON, replace)
    return system


def register_metric(reporter: MetricReporter) -> MetricReporter:
    """Register a metric reporter for every battle (or those of ``reporter.systems``)."""
    if not isinstance(reporter, MetricReporter):
        _malformed(PYTHON, f"metric reporter {getattr(reporter, 'name', reporter)!r}",
                   f"is a {type(reporter).__name__}; expected a sim.MetricReporter", place="reporter")
    REGISTRY.load_installed()
    REGISTRY.metrics.register(reporter, True)
    return reporter


def load_installed() -> None:
    """Metric reporters and behaviours: the package's own, then the entry points' (once)."""
    REGISTRY.load_installed()


# -- queries ----------------------------------------------------------------------------------
def compose(base: str, modules: tuple[str, ...] = (), name: str | None = None) -> Composition:
    """The composition of base game ``base`` with ``modules`` (KeyError naming an unknown one).

    ``name``: the ruleset's (None: a scenario names them by ``base`` and ``modules``).
    """
    game = REGISTRY.bases.get(base)
    parts = tuple(REGISTRY.modules.get(m) for m in modules)
    return Composition(name or "+".join((base, *modules)), game, parts, by_base=name is None,
                       title=game.title if not parts else f"{game.title}, with {', '.join(m.title for m in parts)}")


def system_names() -> list[str]:
    """Every ruleset's name (what a scenario's ``ruleset`` may be), without loading any."""
    return REGISTRY.ruleset_names()


def get_system(name: str) -> Composition:
    """The composition a ruleset names (loading its plug-ins on first use); KeyError if none."""
    r = REGISTRY.ruleset(name)
    composition = compose(r.base, r.modules, r.name)
    return replace(composition, title=r.title)


def rule_system(name: str, argument: str = "name") -> Composition:
    """The ruleset called ``name``'s composition; ``sim.InputError`` naming the known ones if none."""
    if not isinstance(name, str) or name not in system_names():
        raise InputError(f"expected the name of a rule system (one of {system_names()}), "
                         f"got {name!r}", place=argument)
    return get_system(name)


def all_systems() -> list[Composition]:
    """Every ruleset's composition, each loaded, in name order."""
    return [get_system(n) for n in system_names()]


def default_ruleset() -> str:
    """The ruleset of a scenario that names none: the one ruleset declared ``default``."""
    named = [n for n in system_names() if REGISTRY.ruleset(n).default]
    if len(named) != 1:
        raise PluginError(f"expected exactly one ruleset declared default, got {named or 'none'}")
    return named[0]


def builtin_rulesets() -> list[str]:
    """The package's own rulesets, by name."""
    return [n for n in system_names() if REGISTRY.ruleset(n) and REGISTRY.rulesets.origin(n) == BUILT_IN]


def origin_of(name: str) -> str:
    """Where a ruleset's base game came from: built-in, an entry point, or Python."""
    return REGISTRY.bases.origin(REGISTRY.ruleset(name).base)


def registered_from_python() -> list[Any]:
    """Every base game, module, ruleset, metric reporter and behaviour registered from Python."""
    bases = REGISTRY.bases.from_python()
    names = {b.name for b in bases}   # a rule system's ruleset is its base game's
    return [*bases, *REGISTRY.modules.from_python(), *(r for r in REGISTRY.rulesets.from_python()
                                                       if r.name not in names),
            *REGISTRY.metrics.from_python(), *behaviours_from_python()]


def origin_of_metric(reporter: MetricReporter) -> str:
    """Where a metric reporter came from: its base game's or module's, an entry point, or Python."""
    for section in (REGISTRY.bases, REGISTRY.modules):
        for name in section.names():
            if reporter in section.get(name).metrics:
                return f"of {section.kind} '{name}'"
    if reporter.name in REGISTRY.metrics and REGISTRY.metrics.get(reporter.name) is reporter:
        return REGISTRY.metrics.origin(reporter.name)
    return BUILT_IN


def metric_reporters(composition: Composition) -> list[MetricReporter]:
    """The reporters of a battle under ``composition``: its parts' own, then the registered ones."""
    REGISTRY.load_installed()
    names = {composition.name, *(p.name for p in composition.parts)}
    extra = [r for r in REGISTRY.metrics if r.systems is None or names & set(r.systems)]
    return [*composition.metrics, *extra]


def generation() -> int:
    """A number that changes whenever anything is registered."""
    return REGISTRY.generation


def events_of(composition: Composition) -> frozenset[str]:
    """Every event a battle under ``composition`` may write: its record types' and those its parts name."""
    return REGISTRY.records.events(composition)


def unregister_system(name: str) -> None:
    """Remove a rule system (a base game and its ruleset) registered from Python."""
    REGISTRY.bases.unregister(name)
    if name in REGISTRY.rulesets and REGISTRY.rulesets.origin(name) == PYTHON:
        REGISTRY.rulesets.unregister(name)


def unregister_metric(name: str) -> None:
    """Remove a metric reporter registered from Python."""
    REGISTRY.metrics.unregister(name)


def unregister(kind: type[BaseGame | RuleModule | Ruleset], name: str) -> None:
    """Remove a base game, module or ruleset registered from Python (``kind``: its class)."""
    if kind is RuleModule:
        REGISTRY.modules.unregister(name)
    elif kind is Ruleset:
        REGISTRY.rulesets.unregister(name)
    else:
        REGISTRY.bases.unregister(name)
