"""sim: discrete-event simulation of small-unit tactical engagements.

Load a scenario, run a battle, read its event log; run a what-if study; draw it all::

    import sim
    scenario = sim.load_scenario("scenarios/open_ground_advance.yaml")
    result = sim.run(scenario, seed=3)            # .log, .metrics, .winner, .reason
    study = sim.load_study("scenarios/snapfire_vs_zoc.yaml")
    outcome = sim.run_study(study, replications=200, workers=2)
    sim.viz.plot_map(scenario, result.log)
    sim.viz.replay_html(scenario, result.log)     # an offline HTML replay

Ask what to do at a decision: ``sim.branch(scenario, seed, at=..., branches=...)`` replays
a battle to a decision point and continues it under several orders (``sim.decide``);
``sim.gym`` (the ``gym`` extra) lets an agent play one side, or agents both (self-play).

``sim.first_entry`` is the referee's geometry (where a straight move first comes within a
radius); ``sim.too_tables`` the Theatre of Operation tables.

Extend it without forking: ``sim.plugin`` is the plug-in author's namespace (a base
game, a rule module that joins one, a ruleset that names them, a metric, a behaviour, and
``sim.plugin.register``, the one door); an installed distribution offers them through its
entry points. ``import sim`` is the user's front door: what is listed in ``__all__``. The
names an earlier version exported here for plug-in authors (``sim.RuleSystem``,
``sim.Watch``, ``sim.register_system``, ...) still work, with a deprecation warning that
names where each now lives.
What is not stable yet lives in ``sim.experimental``.
"""
from __future__ import annotations  # noqa: I001 - sim._start comes first

# First of all (before even the standard library's modules, which take a while): as the
# `sim` command, signals count from here.
from sim import _start  # noqa: F401

import importlib
import importlib.metadata
import warnings
from typing import TYPE_CHECKING, Any

from sim.errors import InputError

try:
    __version__: str = importlib.metadata.version("sim")
except importlib.metadata.PackageNotFoundError:  # run from a source tree, not installed
    __version__ = "0+unknown"

if TYPE_CHECKING:
    # The front door's names (loaded at first use, ``__getattr__`` below).
    from sim import events, plugin, viz
    from sim.decide.branch import branch as branch
    from sim.engine.instants import StalledBattle as StalledBattle
    from sim.engine.log import EventLog as EventLog
    from sim.exact import end_states as end_states
    from sim.exact import win_probability as win_probability
    from sim.metrics import compute_metrics as compute_metrics
    from sim.metrics import metric_kinds as metric_kinds
    from sim.replication import BattleResult as BattleResult
    from sim.scenario.load import apply_overrides as apply_overrides
    from sim.scenario.load import load_scenario as load_scenario
    from sim.scenario.load import scenario_from_dict as scenario_from_dict
    from sim.scenario.schema import Scenario as Scenario
    from sim.space.geometry import first_entry as first_entry
    from sim.systems.declarations import PluginError as PluginError
    from sim.systems.registry import system_names as system_names

if TYPE_CHECKING:
    # Moved (deprecated here, ``__getattr__`` below): for type checkers, as they were.
    from sim.engine.battle import Battle as Battle
    from sim.plugin import REACTION_MOVE as REACTION_MOVE
    from sim.plugin import ROUTE as ROUTE
    from sim.plugin import TARGET as TARGET
    from sim.plugin import BaseKnobs as BaseKnobs
    from sim.plugin import BattleContext as BattleContext
    from sim.plugin import Behaviour as Behaviour
    from sim.plugin import BehaviourKind as BehaviourKind
    from sim.plugin import Checks as Checks
    from sim.plugin import Dice as Dice
    from sim.plugin import Game as Game
    from sim.plugin import GroundEvent as GroundEvent
    from sim.plugin import GroundTrigger as GroundTrigger
    from sim.plugin import GroundWatch as GroundWatch
    from sim.plugin import Knobs as Knobs
    from sim.plugin import MetricReporter as MetricReporter
    from sim.plugin import Outcome as Outcome
    from sim.plugin import Phase as Phase
    from sim.plugin import PhaseSpec as PhaseSpec
    from sim.plugin import PlansView as PlansView
    from sim.plugin import RefereeView as RefereeView
    from sim.plugin import Response as Response
    from sim.plugin import Terrain as Terrain
    from sim.plugin import Trigger as Trigger
    from sim.plugin import TurnClock as TurnClock
    from sim.plugin import Unit as Unit
    from sim.plugin import Watch as Watch
    from sim.plugin import define_rules as define_rules
    from sim.plugin import go_straight as go_straight
    from sim.plugin import ground as ground
    from sim.plugin import implements as implements
    from sim.plugin import movement_process as movement_process
    from sim.study.analysis.study_analysis import StudyAnalysis
    from sim.study.plan.study_file import Study
    from sim.study.run.runner import StudyRun
    from sim.systems.behaviours import register_behaviour as register_behaviour
    from sim.systems.registry import RuleSystem as RuleSystem
    from sim.systems.registry import register_metric as register_metric
    from sim.systems.registry import register_system as register_system
    from sim.systems.registry import rule_system as rule_system
    from sim.systems.too import tables as too_tables

__all__ = [
    "BattleResult", "EventLog", "InputError", "PluginError", "Scenario", "StalledBattle", "__version__",
    "analyse_study", "apply_overrides", "branch", "compute_metrics", "end_states", "events", "first_entry",
    "load_scenario", "load_study", "metric_kinds", "plugin", "run", "run_study", "scenario_from_dict",
    "study_from_dict", "system_names", "too_tables", "viz", "win_probability",
]

#: Names an earlier version exported here, by where they now live (each still works, with a
#: deprecation warning naming its new place, for at least one version).
MOVED = {
    **{name: ("sim.plugin", name) for name in (
        "REACTION_MOVE", "ROUTE", "TARGET", "BaseKnobs", "BattleContext", "Behaviour", "BehaviourKind",
        "Checks", "Dice", "Game", "GroundEvent", "GroundTrigger", "GroundWatch", "Knobs", "MetricReporter",
        "Outcome", "Phase", "PhaseSpec", "PlansView", "RefereeView", "Response", "Terrain", "Trigger",
        "TurnClock", "Unit", "Watch", "define_rules", "go_straight", "ground", "implements",
        "movement_process")},
    "RuleSystem": ("sim.systems.registry", "RuleSystem"),
    "register_system": ("sim.systems.registry", "register_system"),
    "register_metric": ("sim.systems.registry", "register_metric"),
    "register_behaviour": ("sim.systems.behaviours", "register_behaviour"),
    "rule_system": ("sim.systems.registry", "rule_system"),
    "Battle": ("sim.engine.battle", "Battle"),
}
#: What a deprecation warning says instead, where the new way is not the same name.
_NEW_WAY = {
    "RuleSystem": "sim.plugin.BaseGame (registered with sim.plugin.register, with a sim.plugin.Ruleset "
                  "naming it), or a sim.plugin.RuleModule that joins a base game",
    "register_system": "sim.plugin.register", "register_metric": "sim.plugin.register",
    "register_behaviour": "sim.plugin.register",
    "rule_system": "sim.system_names() and a scenario's .composition",
    "Battle": "sim.run (a battle's class is not a stable interface: sim.engine.battle.Battle)",
}


def run(scenario: Scenario | str, seed: int = 1, overrides: dict[str, Any] | None = None) -> BattleResult:
    """Run one battle of a scenario (or a scenario file) at ``seed``.

    Dotted-key ``overrides`` (as ``--set``) are applied first; the same inputs always give
    the same log.
    """
    from sim import arguments
    from sim.replication import run_battle
    from sim.scenario.load import apply_overrides, load_scenario
    from sim.scenario.schema import Scenario

    seed = arguments.seed(seed)
    if overrides is not None:
        arguments.mapping(overrides, "overrides", keys="dotted-key strings")
    if not isinstance(scenario, Scenario):
        scenario = load_scenario(arguments.path(scenario, "scenario"))
    if overrides:
        scenario = apply_overrides(scenario, overrides, source="overrides")
    return run_battle(scenario, seed)


def load_study(path: str) -> Study:
    """Read, check and resolve a study file (every problem is an ``InputError``)."""
    from sim import arguments
    from sim.study.plan.study_file import load_study as load

    return load(arguments.path(path))


def study_from_dict(data: dict[str, Any], scenario: Scenario | str | None = None,
                    base_dir: str = ".") -> Study:
    """A study from a dict (as a study file would hold).

    Its ``scenario`` key is a path relative to ``base_dir``, unless ``scenario`` gives the
    scenario (loaded or a path).
    """
    from sim import arguments
    from sim.scenario.schema import Scenario
    from sim.study.plan.study_file import study_from_dict as build

    arguments.mapping(data, "data")
    if scenario is not None and not isinstance(scenario, Scenario):
        scenario = arguments.path(scenario, "scenario")
    base_dir = arguments.path(base_dir, "base_dir")
    return build(data, scenario=scenario, base_dir=base_dir)


def run_study(study: Study | str, *, replications: int | None = None, workers: int = 1,
              executor: str | None = None, db: str | None = None, resume: bool = False,
              crn: bool = True, precision: float | None = None,
              allow_changed_code: bool = False) -> StudyRun:
    """Run (or, with ``db`` and ``resume``, finish) a study; returns its outcomes and summary.

    The result has ``.summary`` and ``.rows()``. ``executor``: ``serial``, ``processes`` or
    ``dask`` (default: processes when ``workers`` > 1). ``precision`` (a half-width), or the
    study file's ``precision``, runs batches until every interval is that narrow, capped at
    ``replications``. A resume over rows that other code made (``sim`` or a plug-in, edited
    or upgraded) is an ``InputError`` unless ``allow_changed_code`` (then ``.notes`` and
    ``.mixed_code`` say what the results mix).
    """
    from sim import arguments
    from sim.study.plan.study_file import Study
    from sim.study.run.executors import make_executor
    from sim.study.run.runner import precision_target
    from sim.study.run.runner import run_study as run_it
    from sim.study.run.store import ResultStore

    if replications is not None:
        arguments.whole(replications, "replications", 1, arguments.MAX_REPLICATIONS)
    arguments.whole(workers, "workers", 1, arguments.MAX_WORKERS)
    if executor is not None:
        arguments.choice(executor, "executor", ("serial", "processes", "dask"))
    if db is not None:
        db = arguments.path(db, "db")
    arguments.flag(resume, "resume")
    arguments.flag(allow_changed_code, "allow_changed_code")
    arguments.flag(crn, "crn")
    if precision is not None:
        arguments.number(precision, "precision", positive=True)
    if not isinstance(study, Study):
        study = load_study(arguments.path(study, "study"))
    if resume and db is None:
        raise InputError("resume needs db (the store to resume from)", place="resume")
    if allow_changed_code and not resume:
        raise InputError("allow_changed_code needs resume=True (it continues a stored study whose "
                         "rows other code made)", place="allow_changed_code")
    store = ResultStore(db) if db else None
    try:
        with make_executor(executor, workers) as ex:
            return run_it(study, executor=ex, replications=replications, crn=crn, store=store,
                          resume=resume, precision=precision_target(study, precision, replications),
                          allow_changed_code=allow_changed_code)
    finally:
        if store is not None:
            store.close()


def analyse_study(study: Study | str, db: str, *, metrics: list[str] | None = None,
                  crn: bool = True, resamples: int = 1000) -> StudyAnalysis:
    """Sensitivity indices and metamodels of a designed study stored in ``db`` (``sim analyse``).

    The result's ``text()``, ``to_dict()`` and ``write(DIR)`` are what ``sim analyse`` prints
    and writes; ``indices()`` and ``responses()`` are DataFrames. Needs the ``analysis`` extra.
    """
    from sim.study.analysis.study_analysis import analyse_study as analyse

    return analyse(study, db, metrics=metrics, crn=crn, resamples=resamples)


#: The front door's names, each loaded from where it lives at its first use, so that
#: ``import sim`` loads no more than this module (tests/test_import_cost.py): a battle's
#: kernel when a scenario is loaded or run, the pictures (matplotlib) when ``sim.viz`` is
#: touched, the studies when one is loaded or run.
_NAMES = {
    "BattleResult": "sim.replication", "EventLog": "sim.engine.log", "PluginError": "sim.systems.declarations",
    "Scenario": "sim.scenario.schema", "StalledBattle": "sim.engine.instants", "branch": "sim.decide.branch",
    "compute_metrics": "sim.metrics", "metric_kinds": "sim.metrics", "end_states": "sim.exact",
    "win_probability": "sim.exact", "first_entry": "sim.space.geometry", "apply_overrides": "sim.scenario.load",
    "load_scenario": "sim.scenario.load", "scenario_from_dict": "sim.scenario.load",
    "system_names": "sim.systems.registry",
}
#: The front door's modules. ``sim.too_tables``: the Theatre of Operation tables (levels
#: and morale, spotting and counter-sniper modifiers, mortal damage, saves) as pure
#: functions and constants, for lessons and exact checks.
_MODULES = {"events": "sim.events", "plugin": "sim.plugin", "viz": "sim.viz", "too_tables": "sim.systems.too.tables"}


def __getattr__(name: str) -> Any:
    if name in MOVED:
        module, attr = MOVED[name]
        new = _NEW_WAY.get(name, f"sim.plugin.{name}")
        warnings.warn(f"sim.{name} is deprecated: use {new}", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(module), attr)
    if name in _NAMES:
        value = getattr(importlib.import_module(_NAMES[name]), name)
    elif name in _MODULES:
        value = importlib.import_module(_MODULES[name])
    else:
        raise AttributeError(f"module 'sim' has no attribute {name!r}")
    globals()[name] = value  # once: later uses find it here
    return value


def __dir__() -> list[str]:
    # A notebook's completion offers the names not loaded yet too.
    return sorted(set(globals()) | set(__all__))
