"""The plug-in author's namespace: everything a base game, a rule module, a ruleset, a
metric or a behaviour is written with, and the one door they are registered through.

A rule module (``RuleModule``) joins a base game (``BaseGame``) in a scenario: it arms
``Watch``-es on movers and ``GroundWatch``-es on the ground with the referee, changes units
through the base game's ``services`` (hit, damage, pin, keep busy, eliminate) and writes
records; it declares what it ``needs`` of the base (a ``PhaseRole``, a ``Geometry``, a
``Service``). ``register`` takes any declared object (an installed distribution's entry
points of the groups ``sim.bases``, ``sim.modules``, ``sim.rulesets``, ``sim.metrics`` and
``sim.behaviours`` go through the same door). The toolkit (``sim.toolkit``: sniper teams,
target searches, declinable reactions, the small base games' rules) is written against
this namespace too. ``docs/howto/write-a-plugin.md`` walks through writing one.
"""
from __future__ import annotations

from sim import events, records
from sim.agents.choices import REACTION_MOVE, ROUTE, TARGET, Response
from sim.agents.movement import go_straight, movement_process
from sim.agents.outcome import Outcome
from sim.agents.unit import Unit
from sim.catalogue import define_rules, implements
from sim.engine.clock import Phase, PhaseRole, PhaseSpec, TurnClock
from sim.engine.context import (
    BattleContext,
    Game,
    GroundEvent,
    GroundTrigger,
    GroundWatch,
    HooksView,
    PlansView,
    RefereeView,
    ServicesView,
    Trigger,
    Watch,
)
from sim.engine.dice import Dice
from sim.engine.instants import StalledBattle
from sim.engine.log import EventLog
from sim.engine.services import Service, Services
from sim.errors import InputError
from sim.scenario.features import AreaFeature, EdgeFeature, LineFeature, features_in
from sim.space import ground
from sim.space.ground import Area, Edge, Line
from sim.space.terrain import Terrain
from sim.systems.behaviours import Behaviour, BehaviourKind
from sim.systems.declarations import PluginError
from sim.systems.games import (
    BaseGame,
    Checks,
    Geometry,
    MetricKind,
    MetricReporter,
    ModulePlay,
    Need,
    Observation,
    RuleModule,
    Ruleset,
    Shape,
    ShapeKind,
)
from sim.systems.knobs import BaseKnobs, Knobs, behaviour_of
from sim.systems.registry import register, unregister

__all__ = [
    "REACTION_MOVE", "ROUTE", "TARGET", "Area", "AreaFeature", "BaseGame", "BaseKnobs", "BattleContext", "Behaviour",
    "BehaviourKind", "Checks", "Dice", "Edge", "EdgeFeature", "EventLog", "Game", "Geometry", "GroundEvent",
    "GroundTrigger", "GroundWatch", "HooksView", "InputError", "Knobs", "Line", "LineFeature", "MetricKind",
    "MetricReporter", "ModulePlay", "Need", "Observation", "Outcome", "Phase", "PhaseRole", "PhaseSpec", "PlansView",
    "PluginError", "RefereeView", "Response", "RuleModule", "Ruleset", "Service", "Services", "ServicesView",
    "Shape", "ShapeKind", "StalledBattle", "Terrain", "Trigger", "TurnClock", "Unit", "Watch", "behaviour_of",
    "define_rules", "events", "features_in", "go_straight", "ground", "implements", "movement_process", "records",
    "register", "unregister",
]
