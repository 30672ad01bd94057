"""Checks of a declared object, each refusing in one line (a ``PluginError``) what would
fail later or in silence: a base game, a rule module, a ruleset, a metric reporter, a unit
kind, a reaction kind, a study design. The registry runs them when an object is added."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, get_args

from sim import catalogue
from sim.engine.clock import PhaseSpec
from sim.engine.services import Service
from sim.systems.declarations import BUILT_IN, check_models, check_pickles, malformed
from sim.systems.designs import Analysis, Design, DesignOptions
from sim.systems.games import BaseGame, MetricReporter, ReactionKind, RuleModule, Ruleset, UnitKind
from sim.systems.record_types import check_records

__all__ = ["NAME", "check_base", "check_design", "check_module", "check_reaction", "check_reporter",
           "check_ruleset", "check_unit_kind"]

NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


def _one_line(text: object) -> bool:
    return isinstance(text, str) and bool(text.strip()) and "\n" not in text


def check_reporter(r: MetricReporter, origin: str) -> None:
    """A metric reporter's declaration."""
    what = f"metric reporter '{getattr(r, 'name', r)}'"
    if not isinstance(r, MetricReporter):
        malformed(origin, what, f"is a {type(r).__name__}; expected a sim.plugin.MetricReporter")
    if not r.kinds or not callable(r.compute):
        malformed(origin, what, "needs at least one metric in 'kinds' and a callable 'compute'")
    for metric, kind in r.kinds.items():
        if not isinstance(metric, str) or not re.match(r"^[a-z][a-z0-9_]*$", metric):
            malformed(origin, what, f"metric name {metric!r} is not lower_snake_case")
        if kind not in ("binary", "count", "real"):
            malformed(origin, what, f"metric '{metric}' has kind {kind!r}; expected binary, count or real")


def _check_step_moves(s: BaseGame | RuleModule, origin: str, what: str) -> None:
    moves = s.step_moves
    fields = s.order_keys.model_fields if s.order_keys is not None else {}
    types: Any = fields["type"].annotation if "type" in fields else None
    allowed = set(get_args(types)) - {"hold"}
    if not isinstance(moves, Mapping) or not all(
            isinstance(k, str) and k in allowed and type(v) is int and 1 <= v <= 12 for k, v in moves.items()):
        malformed(origin, what, f"step_moves {moves!r}: expected step types of its order_keys' 'type' "
                                 f"(one of {sorted(allowed)}) mapped to whole numbers of moves from 1 to 12")


def _check_common(s: BaseGame | RuleModule, origin: str, what: str) -> None:
    if not isinstance(s.name, str) or not NAME.match(s.name):
        malformed(origin, f"{what.split(' ')[0]} {s.name!r}", "its name must be lower_snake_case, 1-32 characters")
    check_models(origin, what, {"knobs": s.knobs, "base_knobs": getattr(s, "base_knobs", None),
                                "unit_keys": s.unit_keys, "order_keys": s.order_keys,
                                "policy_keys": s.policy_keys, "features": getattr(s, "features", None)})
    if s.example is not None and not isinstance(s.example, (str, Mapping)):
        malformed(origin, what, "'example' must be a scenario file's path or a scenario document (a dict)")
    _check_step_moves(s, origin, what)
    if s.check is not None and not callable(s.check):
        malformed(origin, what, "'check' must be callable")
    for r in s.metrics:
        check_reporter(r, origin)
    if not all(isinstance(e, str) and e for e in s.events):
        malformed(origin, what, "'events' must be event names (strings)")
    check_records(s.records, origin, what)
    unknown = [rid for rid in s.rules if rid not in catalogue.TITLES]
    if unknown:
        malformed(origin, what, f"rule IDs {unknown} are not defined (sim.plugin.define_rules)")
    code = getattr(s, "game", None) or getattr(s, "play", None)
    package = str(getattr(code, "__module__", "")).partition(".")[0]
    marked = sorted(rid for rid, places in catalogue.undefined_marks().items()
                    if package and any(p.partition(".")[0] == package for p in places))
    if marked:
        malformed(origin, what, f"its code is marked with rule IDs {marked} that no sim.plugin.define_rules "
                                "defines (a misspelt ID?)")
    if not isinstance(s.unit_kinds, tuple) or not all(isinstance(k, UnitKind) for k in s.unit_kinds):
        malformed(origin, what, "'unit_kinds' must be a tuple of sim.plugin.UnitKind")
    if not isinstance(s.reactions, tuple) or not all(isinstance(r, ReactionKind) and r.module == s.name
                                                     for r in s.reactions):
        malformed(origin, what, f"'reactions' must be a tuple of sim.plugin.ReactionKind, each of module '{s.name}'")
    check_pickles(origin, what, s)


def check_base(s: BaseGame, origin: str, label: str = "base game") -> None:
    """A base game's declaration (``label``: what it is called in a refusal)."""
    what = f"{label} '{s.name}'"
    spec = isinstance(s.phases, tuple)
    names = [p.name for p in s.phases if isinstance(p, PhaseSpec) and isinstance(p.name, str)] if spec else []
    if not spec or not s.phases or len(names) != len(s.phases) or not all(NAME.match(n) for n in names) \
            or not all(isinstance(p.moves, bool) for p in s.phases) \
            or len(set(names)) != len(names) or "setup" in names:
        malformed(origin, what, f"phases {s.phases!r}: expected a tuple of "
                                "sim.plugin.PhaseSpec(name, moves=True/False) "
                                "with distinct lower_snake_case names (not 'setup')")
    if not callable(s.game):
        malformed(origin, what, "'game' must be a callable that makes a Game")
    if not isinstance(s.provides, frozenset) or not all(isinstance(x, Service) for x in s.provides) \
            or not isinstance(s.service_records, Mapping) or not all(x in s.provides for x in s.service_records):
        malformed(origin, what, "'provides' must be a frozenset of sim.plugin.Service, and 'service_records' map "
                                "services it provides to their records")
    for records in s.service_records.values():
        check_records(records, origin, what)
    _check_common(s, origin, what)


def check_module(m: RuleModule, origin: str) -> None:
    """A rule module's declaration."""
    what = f"rule module '{m.name}'"
    if not callable(m.play):
        malformed(origin, what, "'play' must be a callable that makes a sim.plugin.ModulePlay")
    _check_common(m, origin, what)


def check_ruleset(r: Ruleset, origin: str) -> None:
    """A ruleset's declaration."""
    what = f"ruleset '{getattr(r, 'name', r)}'"
    if not isinstance(r.name, str) or not NAME.match(r.name):
        malformed(origin, f"ruleset {r.name!r}", "its name must be lower_snake_case, 1-32 characters")
    if not isinstance(r.base, str) or not isinstance(r.modules, tuple) \
            or not all(isinstance(m, str) for m in r.modules) or len(set(r.modules)) != len(r.modules):
        malformed(origin, what, "expected the name of a base game and a tuple of distinct module names")


def check_unit_kind(k: UnitKind, origin: str) -> None:
    """A unit kind: a lower_snake_case name, a one-line doc; generic only if the kernel's."""
    what = f"unit kind {getattr(k, 'name', k)!r}"
    if not isinstance(k.name, str) or not NAME.match(k.name) or not _one_line(k.doc):
        malformed(origin, what, "expected a lower_snake_case name (1-32 characters) and a one-line doc")
    if k.generic is not False and (k.generic is not True or origin != BUILT_IN):
        malformed(origin, what, "'generic' is the kernel's (a kind every scenario may use); a plug-in's "
                                "kind is listed in its parts' unit_kinds")


def check_reaction(r: ReactionKind[Any, Any], origin: str) -> None:
    """A reaction kind: a name, its module, a one-line doc, its watch and radius, its flags."""
    what = f"reaction kind {getattr(r, 'name', r)!r}"
    if not isinstance(r.name, str) or not NAME.match(r.name) or not _one_line(r.doc) \
            or not isinstance(r.module, str) or not NAME.match(r.module):
        malformed(origin, what, "expected a lower_snake_case name, its rule module's name and a one-line doc")
    if not callable(r.watch) or not callable(r.radius) or not isinstance(r.declinable, bool) \
            or not (r.before_move is None or callable(r.before_move)):
        malformed(origin, what, "expected a callable 'watch' and 'radius', 'declinable' True or False and "
                                "'before_move' callable or None")


def check_design(d: Design, origin: str) -> None:
    """A study design: a name, a one-line doc, an options model, its hooks, its analyses."""
    what = f"study design {getattr(d, 'name', d)!r}"
    if not isinstance(d.name, str) or not NAME.match(d.name) or not _one_line(d.doc):
        malformed(origin, what, "expected a lower_snake_case name (1-32 characters) and a one-line doc")
    if not (isinstance(d.options, type) and issubclass(d.options, DesignOptions)):
        malformed(origin, what, f"'options' is {d.options!r}; expected a subclass of "
                                "sim.systems.designs.DesignOptions, which refuses unknown keys")
    reserved = sorted({"design", "vary"} & set(d.options.model_fields))
    if reserved:
        malformed(origin, what, f"its options may not be called {reserved} (the factors section's own keys)")
    if not callable(d.place) or not callable(d.size) or not (d.vet is None or callable(d.vet)):
        malformed(origin, what, "expected callable 'place' and 'size', and 'vet' callable or None")
    if not isinstance(d.analyses, frozenset) or not all(isinstance(a, Analysis) for a in d.analyses) \
            or not all(isinstance(flag, bool) for flag in (d.in_report, d.default)):
        malformed(origin, what, "expected 'analyses' a frozenset of sim.systems.designs.Analysis, and "
                                "'in_report' and 'default' True or False")
