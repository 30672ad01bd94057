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
``sim.gym`` (the ``gym`` extra) lets an agent play one side.

``sim.first_entry`` is the referee's geometry (where a straight move first comes within a
radius); ``sim.too_tables`` the Theatre of Operation tables.

Extend it without forking: a rule system is one ``RuleSystem`` (``register_system``),
a metric one ``MetricReporter`` (``register_metric``), a named choice a knob selects one
``Behaviour`` of a typed ``BehaviourKind`` (``register_behaviour``; the plans' kinds are
``ROUTE``, ``REACTION_MOVE`` answering a ``Response``, and ``TARGET``); an installed distribution offers
them through the entry-point groups ``sim.systems`` and ``sim.metrics``. Rules see the battle
through ``BattleContext``; exact reactions to movers are referee ``Watch``-es, whose
``react`` answers an ``Outcome``; a system's phases are ``PhaseSpec``-s (a name, and
whether units move in it).
What is not stable yet lives in ``sim.experimental``.
"""
from __future__ import annotations  # noqa: I001 - sim._start comes first

# First of all (before even the standard library's modules, which take a while): as the
# `sim` command, signals count from here.
from sim import _start  # noqa: F401

import importlib.metadata
from typing import TYPE_CHECKING, Any

try:
    __version__: str = importlib.metadata.version("sim")
except importlib.metadata.PackageNotFoundError:  # run from a source tree, not installed
    __version__ = "0+unknown"

from sim import arguments, events, records
from sim.agents.choices import REACTION_MOVE, ROUTE, TARGET, Response
from sim.agents.movement import go_straight, movement_process
from sim.agents.outcome import Outcome
from sim.agents.unit import Unit
from sim.catalogue import define_rules, implements
from sim.decide.branch import branch
from sim.engine.battle import Battle
from sim.engine.clock import Phase, PhaseSpec, TurnClock
from sim.engine.context import BattleContext, PlansView, RefereeView, Trigger, Watch
from sim.engine.dice import Dice
from sim.engine.instants import StalledBattle
from sim.engine.log import EventLog
from sim.errors import InputError
from sim.exact import end_states, win_probability
from sim.metrics import compute_metrics, metric_kinds
from sim.replication import BattleResult, run_battle
from sim.scenario.load import apply_overrides, load_scenario, scenario_from_dict
from sim.scenario.schema import Scenario
from sim.space.geometry import first_entry
from sim.space.terrain import Terrain
from sim.systems.behaviours import Behaviour, BehaviourKind, register_behaviour
from sim.systems.knobs import BaseKnobs, Knobs
from sim.systems.registry import (
    Checks,
    Game,
    MetricReporter,
    PluginError,
    RuleSystem,
    register_metric,
    register_system,
    rule_system,
    system_names,
)

if TYPE_CHECKING:
    from sim import viz
    from sim.study.analysis.study_analysis import StudyAnalysis
    from sim.study.plan.study_file import Study
    from sim.study.run.runner import StudyRun
    from sim.systems.too import tables as too_tables

__all__ = [
    "REACTION_MOVE", "ROUTE", "TARGET",
    "Battle", "BattleContext", "BattleResult", "BaseKnobs", "Behaviour", "BehaviourKind", "Checks", "Dice", "EventLog",
    "Game", "InputError", "Knobs", "MetricReporter", "Outcome", "Phase", "PhaseSpec", "PlansView", "PluginError",
    "RefereeView", "Response", "RuleSystem", "Scenario", "StalledBattle",
    "Terrain", "Trigger", "TurnClock", "Unit", "Watch", "__version__", "analyse_study", "apply_overrides",
    "branch", "compute_metrics",
    "define_rules", "end_states", "events", "first_entry", "go_straight", "implements", "load_scenario",
    "load_study", "metric_kinds", "movement_process", "records", "register_behaviour", "register_metric",
    "register_system", "rule_system", "run", "run_study", "scenario_from_dict", "study_from_dict",
    "system_names", "too_tables", "viz", "win_probability",
]


def run(scenario: Scenario | str, seed: int = 1, overrides: dict[str, Any] | None = None) -> BattleResult:
    """Run one battle of a scenario (or a scenario file) at ``seed``.

    Dotted-key ``overrides`` (as ``--set``) are applied first; the same inputs always give
    the same log.
    """
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
    from sim.study.plan.study_file import load_study as load

    return load(arguments.path(path))


def study_from_dict(data: dict[str, Any], scenario: Scenario | str | None = None,
                    base_dir: str = ".") -> Study:
    """A study from a dict (as a study file would hold).

    Its ``scenario`` key is a path relative to ``base_dir``, unless ``scenario`` gives the
    scenario (loaded or a path).
    """
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


def __getattr__(name: str) -> Any:
    # The pictures (matplotlib) and the TOO tables (the TOO system) are loaded on first
    # use: `import sim` stays light. ``sim.too_tables``: the Theatre of Operation tables
    # (levels and morale, spotting and counter-sniper modifiers, mortal damage, saves) as
    # pure functions and constants, for lessons and exact checks.
    modules = {"viz": "sim.viz", "too_tables": "sim.systems.too.tables"}
    if name in modules:
        import importlib

        return importlib.import_module(modules[name])
    raise AttributeError(f"module 'sim' has no attribute {name!r}")
