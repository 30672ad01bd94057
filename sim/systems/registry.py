"""The registry: rule systems, metric reporters and behaviours, each declared once.

A rule system is one ``RuleSystem`` value: its name and phases, its game (phase handlers
and referee watches), its knob model, its unit keys, its load-time checks, its metric
reporters, its event names and the catalogue IDs it implements. The scenario schema, the
knob sections, the unit-key checks, ``sim rules``, the metrics and the pictures are all
derived from it. The package's own systems and a user's go through the same door:
``register_system``, called for a built-in, for an installed distribution's entry point
(group ``sim.systems``; likewise ``sim.metrics`` and ``sim.behaviours``), from a
notebook, or from a module named by ``--plugin`` (``sim.systems.plugins``). A plug-in that
cannot be imported or is malformed (``sim.systems.declarations``) is a ``PluginError``: an
input error, one line, exit 2 on the command line.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, NoReturn, Protocol, cast, get_args

from pydantic import BaseModel

from sim import arguments, catalogue
from sim.engine.clock import PhaseSpec
from sim.engine.context import Game as Game  # re-exported (sim.Game)
from sim.errors import InputError
from sim.events import CORE_EVENTS
from sim.systems.behaviours import Behaviour as Behaviour  # re-exported: the extension surface
from sim.systems.behaviours import BehaviourKind as BehaviourKind
from sim.systems.behaviours import behaviour as behaviour
from sim.systems.behaviours import behaviours as behaviours
from sim.systems.behaviours import generation as behaviour_generation
from sim.systems.behaviours import load_behaviours
from sim.systems.behaviours import register_behaviour as register_behaviour
from sim.systems.behaviours import registered_from_python as behaviours_from_python
from sim.systems.behaviours import unregister_behaviour as unregister_behaviour
from sim.systems.builtin import BUILTIN_SYSTEMS as BUILTIN_SYSTEMS
from sim.systems.declarations import PluginError as PluginError  # re-exported (sim.PluginError)
from sim.systems.declarations import check_models, check_pickles, entry_points, expect_declared, load_target
from sim.systems.declarations import malformed as _malformed

if TYPE_CHECKING:
    from sim.scenario.schema import Scenario
    from sim.space.terrain import Terrain

MetricKind = Literal["binary", "count", "real"]
Record = Mapping[str, Any]
NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")



class Checks(Protocol):
    """What a rule system's load-time check sees: the scenario, its terrain, ``fail``."""

    @property
    def scenario(self) -> Scenario:
        """The loaded scenario (its ``rules`` and unit specs are the system's own models)."""

    @property
    def terrain(self) -> Terrain:
        """The scenario's terrain, built."""

    def fail(self, message: str, *path: str | int) -> NoReturn:
        """Raise the input error ``message`` at key ``path`` (file and line added)."""


@dataclass(frozen=True, eq=False)
class MetricReporter:
    """Numbers computed from a battle's records.

    ``kinds`` names each metric and says whether it is ``binary`` (a yes/no), a ``count``
    or ``real``; ``compute(records, scenario)`` returns every one of them. ``systems``
    limits a globally registered reporter to those rule systems (None: every battle).
    """

    name: str
    kinds: Mapping[str, MetricKind]
    compute: Callable[[Sequence[Record], Any], Mapping[str, float]]
    systems: tuple[str, ...] | None = None


@dataclass(frozen=True, eq=False)
class RuleSystem:
    """One rule system, declared once: everything the rest of ``sim`` needs of it.

    ``knobs`` is the model of the scenario's ``rules.<name>`` section, ``base_knobs``
    of ``rules.base``; ``unit_keys`` and ``order_keys`` are models of the extra keys a
    unit (and its ``orders``) may have under this system; ``check`` runs at load time
    (``sim validate`` too); ``reaction_radius(knobs)``, given the system's own knobs
    (``rules.<name>``; None if it has none), gives the pictures the radius to draw around
    the reacting side, with its label, or None. ``policy_keys`` is a model of
    the policies a side, group or unit may set under this system in ``policies.<who>``
    besides the common ones (such as a sniper's withdrawal), read at run time with
    ``battle.plans.policy(unit, key)``. ``phases`` are ``PhaseSpec``s (each says whether units
    move in it: the kernel never reads a phase's name). ``example`` is
    the scenario ``sim validate --plugins`` battles to check the system: a file's path
    (relative to the folder of the module that defines ``game``) or a scenario document;
    None: small generated ones. ``step_moves`` names the step types (of its
    ``order_keys``) that make more than one move in a phase in which units move, each in
    its own equal share of the phase (e.g. ``{"march": 3}``); every other step makes one.
    """

    name: str
    title: str
    phases: tuple[PhaseSpec, ...]
    game: Callable[[], Game]
    knobs: type[BaseModel] | None = None
    base_knobs: type[BaseModel] | None = None
    unit_keys: type[BaseModel] | None = None
    order_keys: type[BaseModel] | None = None
    policy_keys: type[BaseModel] | None = None
    check: Callable[[Checks], None] | None = None
    metrics: tuple[MetricReporter, ...] = ()
    events: frozenset[str] = frozenset()
    rules: tuple[str, ...] = ()
    source: str = ""
    reaction_radius: Callable[[Any], tuple[float, str] | None] | None = None
    example: str | Mapping[str, Any] | None = None
    step_moves: Mapping[str, int] = field(default_factory=dict)
    doc: str = field(default="", repr=False)



@dataclass
class _Entry:
    value: Any
    origin: str          # "built-in", "entry point X = mod:attr (dist V)", "Python"


class _Registry:
    def __init__(self) -> None:
        self.systems: dict[str, _Entry] = {}
        self.metrics: dict[str, _Entry] = {}
        self.pending: dict[str, tuple[str, str]] | None = None   # system name -> (target, origin)
        self.loaded_others = False
        self.generation = 0   # bumped at every change: caches of derived schemas key on it


_REG = _Registry()


# -- loading ------------------------------------------------------------------------------
def _pending() -> dict[str, tuple[str, str]]:
    if _REG.pending is None:
        found = {name: (target, "built-in") for name, target in BUILTIN_SYSTEMS.items()}
        for name, target, origin in entry_points("system"):
            if name in found:
                raise PluginError(f"names rule system '{name}', which {found[name][1]} already "
                                  "provides (expected a new name)", file=origin)
            found[name] = (target, origin)
        _REG.pending = {n: v for n, v in found.items() if n not in _REG.systems}
    return _REG.pending


def _load_system(name: str) -> None:
    target, origin = _pending().pop(name)
    value = load_target(target, origin, "sim.RuleSystem")
    if not isinstance(value, RuleSystem):
        raise PluginError(f"{target} is a {type(value).__name__}; expected a sim.RuleSystem",
                          file=origin)
    if value.name != name:
        raise PluginError(f"{target} declares rule system '{value.name}' under the name "
                          f"'{name}' (expected the same name)", file=origin)
    _add_system(value, origin)


def load_installed() -> None:
    """Metric reporters and behaviours: the package's own, then the entry points'."""
    if _REG.loaded_others:
        return
    _REG.loaded_others = True
    load_behaviours()
    for _, target, origin in entry_points("metric"):
        value = load_target(target, origin, "sim.MetricReporter")
        if not isinstance(value, MetricReporter):
            raise PluginError(f"{target} is a {type(value).__name__}; expected a sim.MetricReporter",
                              file=origin)
        _add_metric(value, origin)


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


def _check_step_moves(s: RuleSystem, origin: str, what: str) -> None:
    moves = s.step_moves
    fields = s.order_keys.model_fields if s.order_keys is not None else {}
    types: Any = fields["type"].annotation if "type" in fields else None
    allowed = set(get_args(types)) - {"hold"}
    if not isinstance(moves, Mapping) or not all(
            isinstance(k, str) and k in allowed and type(v) is int and 1 <= v <= 12 for k, v in moves.items()):
        _malformed(origin, what, f"step_moves {moves!r}: expected step types of its order_keys' 'type' "
                                 f"(one of {sorted(allowed)}) mapped to whole numbers of moves from 1 to 12")


def _check_system(s: RuleSystem, origin: str) -> None:
    what = f"rule system '{s.name}'"
    if not isinstance(s.name, str) or not NAME.match(s.name):
        _malformed(origin, f"rule system {s.name!r}", "its name must be lower_snake_case, 1-32 characters")
    spec = isinstance(s.phases, tuple)
    names = [p.name for p in s.phases if isinstance(p, PhaseSpec) and isinstance(p.name, str)] if spec else []
    if not spec or not s.phases or len(names) != len(s.phases) or not all(NAME.match(n) for n in names) \
            or not all(isinstance(p.moves, bool) for p in s.phases) \
            or len(set(names)) != len(names) or "setup" in names:
        _malformed(origin, what, f"phases {s.phases!r}: expected a tuple of sim.PhaseSpec(name, moves=True/False) "
                                 "with distinct lower_snake_case names (not 'setup')")
    if not callable(s.game):
        _malformed(origin, what, "'game' must be a callable that makes a Game")
    check_models(origin, what, {"knobs": s.knobs, "base_knobs": s.base_knobs, "unit_keys": s.unit_keys,
                                "order_keys": s.order_keys, "policy_keys": s.policy_keys})
    if s.example is not None and not isinstance(s.example, (str, Mapping)):
        _malformed(origin, what, "'example' must be a scenario file's path or a scenario document (a dict)")
    _check_step_moves(s, origin, what)
    if s.check is not None and not callable(s.check):
        _malformed(origin, what, "'check' must be callable")
    for r in s.metrics:
        _check_reporter(r, origin)
    if not all(isinstance(e, str) and e for e in s.events):
        _malformed(origin, what, "'events' must be event names (strings)")
    unknown = [rid for rid in s.rules if rid not in catalogue.TITLES]
    if unknown:
        _malformed(origin, what, f"rule IDs {unknown} are not defined (sim.define_rules first)")
    check_pickles(origin, what, s)


# -- registration ---------------------------------------------------------------------------
def _add_system(s: RuleSystem, origin: str) -> None:
    _check_system(s, origin)
    _REG.systems[s.name] = _Entry(s, origin)
    _REG.generation += 1


def _add_metric(r: MetricReporter, origin: str) -> None:
    _check_reporter(r, origin)
    mine = set(r.kinds)
    for other in list(_REG.metrics.values()):
        if other.value.name == r.name:
            continue
        clash = mine & set(other.value.kinds)
        if clash:
            _malformed(origin, f"metric reporter '{r.name}'",
                       f"metrics {sorted(clash)} are already reported by '{other.value.name}'")
    _REG.metrics[r.name] = _Entry(r, origin)
    _REG.generation += 1


def register_system(system: RuleSystem, *, replace: bool = False) -> RuleSystem:
    """Register a rule system (from a notebook or a script); returns it.

    A name already taken by a built-in or an installed plug-in is refused unless
    ``replace``; one registered from Python before is replaced (re-running a cell).
    """
    origin = "Python"
    expect_declared(system, RuleSystem, "rule system", "system")
    arguments.flag(replace, "replace")
    pending = _pending()
    taken = _REG.systems.get(system.name)
    if not replace and (system.name in pending or (taken is not None and taken.origin != origin)):
        where = pending[system.name][1] if system.name in pending else cast(_Entry, taken).origin  # taken: see above
        _malformed(origin, f"rule system '{system.name}'",
                   f"the name is taken ({where}); pass replace=True to replace it")
    pending.pop(system.name, None)
    _add_system(system, origin)
    return system


def register_metric(reporter: MetricReporter) -> MetricReporter:
    """Register a metric reporter for every battle (or those of ``reporter.systems``)."""
    expect_declared(reporter, MetricReporter, "metric reporter", "reporter")
    load_installed()
    _add_metric(reporter, "Python")
    return reporter


# -- queries --------------------------------------------------------------------------------
def system_names() -> list[str]:
    """Every rule system's name (built-in, installed or registered), without loading any."""
    return sorted(set(_REG.systems) | set(_pending()))


def get_system(name: str) -> RuleSystem:
    """The rule system called ``name`` (loading its plug-in on first use); KeyError if none."""
    if name not in _REG.systems:
        if name not in _pending():
            raise KeyError(name)
        _load_system(name)
    value: RuleSystem = _REG.systems[name].value
    return value


def rule_system(name: str, argument: str = "name") -> RuleSystem:
    """The rule system called ``name``; ``sim.InputError`` naming the known ones if none."""
    if not isinstance(name, str) or name not in system_names():
        raise InputError(f"expected the name of a rule system (one of {system_names()}), "
                         f"got {name!r}", place=argument)
    return get_system(name)


def all_systems() -> list[RuleSystem]:
    """Every rule system, each loaded, in name order."""
    return [get_system(n) for n in system_names()]


def registered_from_python() -> list[Any]:
    """Every rule system, metric reporter and behaviour registered from Python."""
    return [*(e.value for entries in (_REG.systems, _REG.metrics) for e in entries.values()
              if e.origin == "Python"), *behaviours_from_python()]


def origin_of(name: str) -> str:
    """Where a loaded rule system came from: built-in, an entry point, or Python."""
    get_system(name)
    return _REG.systems[name].origin


def origin_of_metric(reporter: MetricReporter) -> str:
    """Where a metric reporter came from: its rule system's, an entry point, or Python."""
    entry = _REG.metrics.get(reporter.name)
    if entry is not None and entry.value is reporter:
        return entry.origin
    owner = next((n for n, e in _REG.systems.items() if reporter in e.value.metrics), None)
    return f"of rule system '{owner}'" if owner else "built-in"


def metric_reporters(system: RuleSystem) -> list[MetricReporter]:
    """The reporters of a battle under ``system``: its own, then the registered ones."""
    load_installed()
    extra = [e.value for e in _REG.metrics.values()
             if e.value.systems is None or system.name in e.value.systems]
    return [*system.metrics, *extra]


def generation() -> int:
    """A number that changes whenever anything is registered."""
    return _REG.generation + behaviour_generation()


def events_of(system: RuleSystem) -> frozenset[str]:
    """Every event a battle under ``system`` may write: the core ones and its own."""
    return CORE_EVENTS | system.events


def unregister_system(name: str) -> None:
    """Remove a rule system registered from Python (tests and notebooks clean up)."""
    entry = _REG.systems.get(name)
    if entry is None or entry.origin != "Python":
        raise KeyError(f"no rule system '{name}' registered from Python")
    del _REG.systems[name]
    _REG.pending = None   # found afresh: a built-in or plug-in of that name comes back
    _REG.generation += 1


def unregister_metric(name: str) -> None:
    """Remove a metric reporter registered from Python."""
    entry = _REG.metrics.get(name)
    if entry is None or entry.origin != "Python":
        raise KeyError(f"no metric reporter '{name}' registered from Python")
    del _REG.metrics[name]
    _REG.generation += 1
