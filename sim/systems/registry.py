"""The registry: one object holding every extension point, each a declared object.

``REGISTRY`` has a ``Section`` for each kind: base games (``sim.bases``), rule modules
(``sim.modules``), rulesets (``sim.rulesets``: a named base with its modules, what a
scenario's ``ruleset`` names), metric reporters (``sim.metrics``), unit kinds
(``sim.unit_kinds``; a part's own kinds come with it), reaction kinds (a module's, with it),
study designs (``sim.designs``) and behaviours (``sim.behaviours``); its ``records`` are
the record types, read through the kernel's and the parts' declarations
(``sim.systems.record_types``). The package's own and
a user's come through the same door: an entry
point of an installed distribution (the package's own ``pyproject.toml`` declares its
built-ins as any plug-in does), or ``register`` from Python (a notebook, a ``--plugin``
module). A plug-in that cannot be imported or is malformed is a ``PluginError``: an input
error, one line, exit 2 on the command line.

A rule system of an earlier version (``sim.RuleSystem``, entry-point group ``sim.systems``)
is a base game with a ruleset of the same name: it still loads, with a deprecation warning.
"""
from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from sim import arguments
from sim.engine.context import Game as Game  # re-exported (sim.plugin.Game)
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
from sim.systems.checks import (
    check_base,
    check_design,
    check_module,
    check_reaction,
    check_reporter,
    check_ruleset,
    check_unit_kind,
)
from sim.systems.composition import Composition
from sim.systems.declarations import BUILT_IN, entry_points, load_target
from sim.systems.declarations import PluginError as PluginError  # re-exported (sim.PluginError)
from sim.systems.declarations import malformed as _malformed
from sim.systems.designs import Design
from sim.systems.games import BaseGame, Checks, MetricKind, MetricReporter, ReactionKind, RuleModule, Ruleset, UnitKind
from sim.systems.record_types import RecordTypes
from sim.systems.sections import PYTHON, OneOf, Section, one_of

__all__ = ["REGISTRY", "BaseGame", "Checks", "Composition", "Design", "MetricKind", "MetricReporter", "PluginError",
           "ReactionKind", "Registry", "RuleModule", "RuleSystem", "Ruleset", "UnitKind", "all_systems", "compose",
           "default_design", "default_ruleset", "events_of", "generation", "get_system", "metric_reporters",
           "reaction_of", "register", "register_metric", "register_system", "rule_system", "system_names",
           "unit_kinds_of"]

Record = Mapping[str, Any]


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


# -- the registry -----------------------------------------------------------------------------
class Registry:
    """Every extension point, each a ``Section`` of declared objects (module doc)."""

    def __init__(self) -> None:
        self._generation = 0
        self.bases: Section[BaseGame] = Section("base game", "sim.bases", BaseGame, self._check_base, self._bump)
        self.modules: Section[RuleModule] = Section("rule module", "sim.modules", RuleModule, self._check_module,
                                                    self._bump)
        self.rulesets: Section[Ruleset] = Section("ruleset", "sim.rulesets", Ruleset, check_ruleset, self._bump)
        self.metrics: Section[MetricReporter] = Section("metric reporter", None, MetricReporter,
                                                        self._check_metric, self._bump)
        self.records = RecordTypes(self.bases, self.modules)
        self.unit_kinds: Section[UnitKind] = Section("unit kind", "sim.unit_kinds", UnitKind, check_unit_kind,
                                                     self._bump)
        self.reactions: Section[ReactionKind[Any, Any]] = Section("reaction kind", None, ReactionKind,
                                                                  check_reaction, self._bump)
        self.designs: Section[Design] = Section("study design", "sim.designs", Design, check_design, self._bump)
        self._legacy: dict[str, tuple[str, str]] | None = None   # sim.systems entry points not loaded
        self._installed = False

    def _bump(self) -> None:
        self._generation += 1

    @property
    def generation(self) -> int:
        """A number that changes whenever anything is registered."""
        return self._generation + behaviour_generation()

    def sections(self) -> tuple[Section[Any], ...]:
        """Every section whose objects ``register`` takes as they are."""
        return (self.bases, self.modules, self.rulesets, self.unit_kinds, self.reactions, self.designs)

    def _check_base(self, s: BaseGame, origin: str) -> None:
        label = "rule system" if isinstance(s, RuleSystem) else "base game"
        self._with_kinds(s, origin, f"{label} '{s.name}'", partial(check_base, s, origin, label))

    def _check_module(self, m: RuleModule, origin: str) -> None:
        self._with_kinds(m, origin, f"rule module '{m.name}'", partial(check_module, m, origin))

    def _with_kinds(self, part: BaseGame | RuleModule, origin: str, owner: str, check: Callable[[], None]) -> None:
        """A part's own unit kinds and reaction kinds enter their sections with it.

        They come in before its checks (its knobs' defaults may name them) and leave again if
        it is refused. The same kind (or one equal to it) may be declared again; another of
        that name may not. What is no kind at all is left to ``check`` to refuse.
        """
        added: list[tuple[Section[Any], str]] = []
        own: tuple[tuple[Section[Any], Any], ...] = ((self.unit_kinds, part.unit_kinds),
                                                     (self.reactions, part.reactions))
        try:
            for section, declared in own:
                for value in declared if isinstance(declared, tuple) else ():
                    if not isinstance(value, section.expected):
                        continue
                    if value.name in section:
                        if section.get(value.name) != value:
                            _malformed(origin, owner, f"declares {section.kind} '{value.name}', which "
                                                      f"{section.origin(value.name)} declares otherwise "
                                                      "(expected a name of its own, or the registered one)")
                        continue
                    section.add(value, origin)
                    added.append((section, value.name))
            check()
        except BaseException:
            for section, name in added:
                section.forget(name)
            raise

    def _check_metric(self, r: MetricReporter, origin: str) -> None:
        check_reporter(r, origin)
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
            value = load_target(target, origin, "sim.plugin.BaseGame")
            if not isinstance(value, BaseGame):
                raise PluginError(f"{target} is a {type(value).__name__}; expected a sim.plugin.BaseGame "
                                  "(a legacy sim.RuleSystem is one)", file=origin)
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
            value = load_target(target, origin, "sim.plugin.MetricReporter")
            if not isinstance(value, MetricReporter):
                raise PluginError(f"{target} is a {type(value).__name__}; expected a sim.plugin.MetricReporter",
                                  file=origin)
            self.metrics.add(value, origin)


REGISTRY = Registry()


# -- the one door, from Python -----------------------------------------------------------------
def register(declared: Any, *, replace: bool = False) -> Any:
    """Register any declared object (a base game, a module, a study design, ...); returns it.

    A name already taken by a built-in or an installed plug-in is refused unless ``replace``;
    one registered from Python before is replaced (re-running a cell).
    """
    arguments.flag(replace, "replace")
    section = next((s for s in REGISTRY.sections() if isinstance(declared, s.expected)), None)
    if isinstance(declared, RuleSystem):
        REGISTRY.add_system(declared, PYTHON, replace)
    elif isinstance(declared, MetricReporter):
        REGISTRY.load_installed()
        REGISTRY.metrics.register(declared, True)
    elif isinstance(declared, Behaviour):
        register_behaviour(declared)
    elif section is not None:
        section.register(declared, replace)
    else:
        kinds = ", ".join(s.expected.__name__ for s in REGISTRY.sections())
        _malformed(PYTHON, f"{getattr(declared, 'name', declared)!r}",
                   f"is a {type(declared).__name__}; expected a sim.plugin {kinds}, MetricReporter or Behaviour",
                   place="declared")
    return declared


def register_system(system: BaseGame, *, replace: bool = False) -> BaseGame:
    """Deprecated: ``sim.plugin.register`` (a rule system is a base game with a ruleset of its name)."""
    arguments.flag(replace, "replace")
    if not isinstance(system, BaseGame):
        _malformed(PYTHON, f"rule system {getattr(system, 'name', system)!r}",
                   f"is a {type(system).__name__}; expected a sim.plugin.BaseGame (a legacy sim.RuleSystem "
                   "is one)", place="system")
    REGISTRY.add_system(system, PYTHON, replace)
    return system


def register_metric(reporter: MetricReporter) -> MetricReporter:
    """Register a metric reporter for every battle (or those of ``reporter.systems``)."""
    if not isinstance(reporter, MetricReporter):
        _malformed(PYTHON, f"metric reporter {getattr(reporter, 'name', reporter)!r}",
                   f"is a {type(reporter).__name__}; expected a sim.plugin.MetricReporter", place="reporter")
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


def default_design() -> str:
    """The design of a study whose ``factors`` names none: the one design declared ``default``."""
    named = [d.name for d in REGISTRY.designs if d.default]
    if len(named) != 1:
        raise PluginError(f"expected exactly one study design declared default, got {named or 'none'}")
    return named[0]


def unit_kinds_of(composition: Composition) -> list[str]:
    """The unit kinds a scenario under ``composition`` may use: the generic ones, then its parts' own.

    A rule system of an earlier version lists none: it takes every registered kind, as it did.
    """
    if isinstance(composition.base, RuleSystem):
        return [k.name for k in sorted(REGISTRY.unit_kinds, key=lambda k: not k.generic)]
    generic = [k.name for k in REGISTRY.unit_kinds if k.generic]
    return list(dict.fromkeys([*generic, *(k.name for p in composition.parts for k in p.unit_kinds)]))


def _reaction_names(module: str) -> list[str]:
    return [k.name for k in REGISTRY.reactions if k.module == module]


def reaction_of(module: str) -> OneOf:
    """The check of rule module ``module``'s knob naming one of its reaction kinds.

    The knob is ``Annotated[str, reaction_of(module)]``: its value names a registered
    ``ReactionKind`` of that module (its own, or one registered from Python), and its JSON
    Schema lists them.
    """
    return one_of(partial(_reaction_names, module), "reaction kind", f", the kinds of rule module '{module}'")


def default_ruleset() -> str:
    """The ruleset of a scenario that names none: the one ruleset declared ``default``."""
    # (a rule system of an earlier version declares none: none is imported to ask)
    named = [n for n in REGISTRY.rulesets.names() if REGISTRY.rulesets.get(n).default]
    if len(named) != 1:
        raise PluginError(f"expected exactly one ruleset declared default, got {named or 'none'}")
    return named[0]


def builtin_rulesets() -> list[str]:
    """The package's own rulesets, by name (no rule system of an earlier version is loaded to find them)."""
    return [n for n in REGISTRY.rulesets.names() if REGISTRY.rulesets.origin(n) == BUILT_IN]


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


def unregister(kind: type[Any], name: str) -> None:
    """Remove a declared object registered from Python (``kind``: its class, ``sim.plugin.Design`` say)."""
    sections = REGISTRY.sections()
    section = next((s for s in sections if isinstance(kind, type) and issubclass(kind, s.expected)), None)
    if section is None:
        raise arguments.fail("kind", "the class of a declared object (" + ", ".join(
            sorted(s.expected.__name__ for s in sections)) + ")", kind)
    ours = sorted(getattr(v, "name", "") for v in section.from_python())
    if arguments.text(name, "name") not in ours:
        raise arguments.fail("name", f"the name of a {section.kind} registered from Python (one of {ours})", name)
    section.unregister(name)
