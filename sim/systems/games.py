"""What a scenario's rules are made of: a base game, rule modules, and named rulesets.

* A ``BaseGame`` sets the turn and its phases (each ``PhaseSpec`` says whether units move
  in it and whether it is a shooting or an assault phase), the geometries it plays on, the
  units' combat state and the ``Services`` that change it (``sim.engine.services``), and
  plays every phase (``game``, one ``Game`` a battle).
* A ``RuleModule`` adds rules to a base game: watches on the referee, its own knobs
  (``rules.<name>``), unit and order keys, features of its own on the map, metrics,
  records, drawings and observations. It declares what it ``needs`` of the base (a phase
  in which units move, a shooting phase, table or hex ground, the services it calls), and a
  scenario whose base lacks one is refused naming the module and the need. Its ``play``
  makes one ``ModulePlay`` a battle, whose hooks the base game calls at the points it
  offers (a phase's start, a unit's move).
* A ``Ruleset`` names a base game and its modules, so that a scenario's ``ruleset: NAME``
  stands for them. A scenario names a ruleset, or a ``base`` and its ``modules``.
* A ``UnitKind`` is what a unit may be (``forces.SIDE[i].kind``): the kernel declares the
  generic ones every scenario may use, and a base game or module lists the kinds of its
  own that it reads (``unit_kinds``), so a scenario's units may be of those kinds.
* A ``ReactionKind`` is one choice of a module's reaction knob: its watch, its radius,
  whether it may be declined, and what a mover must do before its move (leave a zone); a
  module lists them (``reactions``).

Each is declared once and registered through the one door (``sim.systems.registry``).
"""
from __future__ import annotations

import enum
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeVar

from pydantic import BaseModel

from sim.engine.clock import Phase, PhaseRole, PhaseSpec
from sim.engine.context import Game, Watch
from sim.engine.services import Service, Services

if TYPE_CHECKING:
    import simpy

    from sim.agents.unit import Unit
    from sim.engine.context import BattleContext
    from sim.scenario.schema import Scenario
    from sim.space.terrain import Terrain

__all__ = ["BaseGame", "Checks", "Geometry", "MetricKind", "MetricReporter", "ModulePlay", "Need",
           "Observation", "ReactionKind", "RuleModule", "Ruleset", "Shape", "ShapeKind", "UnitKind"]

MetricKind = Literal["binary", "count", "real"]
Record = Mapping[str, Any]
K = TypeVar("K")   # a module's knobs
W = TypeVar("W", bound=Watch)   # a reaction kind's watch


class Geometry(enum.Enum):
    """The ground a base game plays on, and a module may need."""

    TABLE = "table ground"
    HEX = "hex ground"


#: What a rule module may need of the base game: a kind of phase (``PhaseRole``), a
#: geometry, or a service.
Need = PhaseRole | Geometry | Service


class Checks(Protocol):
    """What a load-time check sees: the scenario, its terrain, ``fail``."""

    @property
    def scenario(self) -> Scenario:
        """The loaded scenario (its ``rules`` and unit specs are the composition's own models)."""

    @property
    def terrain(self) -> Terrain:
        """The scenario's terrain, built."""

    def fail(self, message: str, *path: str | int) -> Any:
        """Raise the input error ``message`` at key ``path`` (file and line added)."""


@dataclass(frozen=True, eq=False)
class MetricReporter:
    """Numbers computed from a battle's records.

    ``kinds`` names each metric and says whether it is ``binary`` (a yes/no), a ``count``
    or ``real``; ``compute(records, scenario)`` returns every one of them. ``systems``
    limits a globally registered reporter to battles of those base games or modules
    (None: every battle).
    """

    name: str
    kinds: Mapping[str, MetricKind]
    compute: Callable[[Any, Any], Mapping[str, float]]
    systems: tuple[str, ...] | None = None


class ShapeKind(enum.Enum):
    """What a module draws: an area (a polygon), a line (a polyline) or a point."""

    AREA = "area"
    LINE = "line"
    POINT = "point"


@dataclass(frozen=True)
class Shape:
    """A thing a rule module draws on the map (``plot_map``, the replay, the report), in cm.

    ``label`` is its legend entry (shapes with one label share one entry); ``colour`` any
    CSS or matplotlib colour; ``hatch`` a matplotlib hatch for an area (``"xx"``, ``"//"``).
    """

    kind: ShapeKind
    points: tuple[tuple[float, float], ...]
    label: str
    colour: str = "#8c564b"
    hatch: str = ""


@dataclass(frozen=True)
class Observation:
    """What a rule module adds to an agent's observation (``sim.gym``): a table in [0, 1].

    ``columns`` name its columns; ``rows(scenario)`` how many rows a scenario's battles give
    (fixed for the scenario); ``observe(battle, side)`` the rows now, as ``side`` knows them.
    """

    columns: tuple[str, ...]
    rows: Callable[[Any], int]
    observe: Callable[[Any, str], Any]
@dataclass(frozen=True)
class UnitKind:
    """What a unit may be (``forces.SIDE[i].kind``), declared once: its name and a one-line doc.

    ``generic``: a kind the kernel declares, which every scenario may use (a base game or
    module reads it as it will); any other is accepted only where a part lists it.
    """

    name: str
    doc: str
    generic: bool = False


@dataclass(frozen=True)
class ReactionKind(Generic[K, W]):
    """One choice of a rule module's reaction knob, declared once (its own module, one file a kind).

    ``module``: the rule module whose knob selects it; ``watch(knobs)`` makes its referee
    watch from that module's knobs; ``radius(knobs)`` is the radius it reacts at and its
    label, as the maps draw it; ``declinable``: whether a side's policy may decline it;
    ``before_move(watch, battle, unit)``: what a mover must do first in a moving phase (a
    generator for its process, returning True when that was its move), or None.
    """

    name: str
    module: str
    doc: str
    watch: Callable[[K], W]
    radius: Callable[[K], tuple[float, str]]
    declinable: bool = True
    before_move: Callable[[W, BattleContext[Any, Any], Unit], Generator[simpy.Event, Any, bool]] | None = None


@dataclass(frozen=True, eq=False)
class _Declared:
    """What a base game and a rule module both declare.

    ``records`` are the records it writes, by event, each a ``TypedDict`` built on
    ``sim.records.Record`` (``sim.records``: its keys and their types); ``events`` names
    events it writes without declaring their records (a plug-in of an earlier version).
    """

    name: str
    title: str
    knobs: type[BaseModel] | None = None
    unit_keys: type[BaseModel] | None = None
    order_keys: type[BaseModel] | None = None
    policy_keys: type[BaseModel] | None = None
    check: Callable[[Checks], None] | None = None
    metrics: tuple[MetricReporter, ...] = ()
    events: frozenset[str] = frozenset()
    records: Mapping[str, type] = field(default_factory=dict)
    rules: tuple[str, ...] = ()
    source: str = ""
    reaction_radius: Callable[[Any], tuple[float, str] | None] | None = None
    example: str | Mapping[str, Any] | None = None
    step_moves: Mapping[str, int] = field(default_factory=dict)
    unit_kinds: tuple[UnitKind, ...] = ()
    reactions: tuple[ReactionKind[Any, Any], ...] = ()
    doc: str = field(default="", repr=False)


@dataclass(frozen=True, eq=False)
class BaseGame(_Declared):
    """A base game, declared once: its phases and play, its ground, its combat services.

    ``phases`` are ``PhaseSpec``s (the kernel never reads a phase's name); ``game`` makes
    one ``Game`` a battle; ``base_knobs`` is the model of ``rules.base`` and ``knobs`` of
    its own ``rules.<name>`` (a whole game with rules of its own); ``services``
    is the class of its ``battle.services`` and ``provides`` what of it a module may call;
    ``geometries`` the ground it plays on; ``service_records`` the records a service
    writes only when a module calls it (a battle whose modules need no pin writes no pin
    record). Everything else is as ``RuleModule``'s.
    """

    phases: tuple[PhaseSpec, ...] = ()
    game: Callable[[], Game] | None = None
    base_knobs: type[BaseModel] | None = None
    services: type[Services] = Services
    provides: frozenset[Service] = frozenset()
    geometries: frozenset[Geometry] = frozenset({Geometry.TABLE, Geometry.HEX})
    service_records: Mapping[Service, Mapping[str, type]] = field(default_factory=dict)


class ModulePlay:
    """A rule module's play in one battle: hooks the base game calls, each a no-op here.

    ``setup`` arms the module's watches and starts its processes; ``phase_starts`` runs at
    every phase's start, before the base game plays it; ``move_of`` may take over a unit's
    move in a phase in which units move (the first module, in the scenario's order, that
    answers one moves it); a play that sets ``takes_moves`` False in ``setup`` is not asked
    in this battle. ``state`` is the module's own, for its code and its pictures.
    """

    state: Any = None
    takes_moves: bool = True

    def setup(self, battle: BattleContext[Any, Any]) -> None:
        """Before the first phase: arm watches, start processes."""

    def phase_starts(self, battle: BattleContext[Any, Any], phase: Phase) -> None:
        """At the start of every phase, before the base game plays it."""

    def move_of(self, battle: BattleContext[Any, Any], unit: Unit,
                phase: Phase) -> Callable[[BattleContext[Any, Any], Unit, Phase],
                                          Generator[simpy.Event, Any, Any]] | None:
        """How ``unit`` makes its moves this phase, if this module says (None: the base's way)."""
        return None


@dataclass(frozen=True, eq=False)
class RuleModule(_Declared):
    """A rule module, declared once: what it adds to a base game and what it needs of it.

    ``play`` makes one ``ModulePlay`` a battle; ``needs`` are the phases, geometry and
    services it relies on; ``knobs`` is the model of ``rules.<name>``; ``features`` the
    model of its own section of the scenario (``features.<name>``: what it puts on the
    map). ``draw(scenario)`` gives the ``Shape``s it draws on every map of the scenario;
    ``observe`` what it adds to an agent's observation.
    ``unit_kinds``: the unit kinds of its own it reads (a scenario's units may be of them);
    ``reactions``: the reaction kinds its knob chooses between. Both enter the registry
    with it.
    """

    play: Callable[[], ModulePlay] = ModulePlay
    needs: frozenset[Need] = frozenset()
    features: type[BaseModel] | None = None
    draw: Callable[[Any], Sequence[Shape]] | None = None
    observe: Observation | None = None


@dataclass(frozen=True, eq=False)
class Ruleset:
    """A named base game with its modules: what ``ruleset: NAME`` in a scenario stands for.

    ``default``: the ruleset of a scenario that names none (at most one declares it).
    """

    name: str
    title: str
    base: str
    modules: tuple[str, ...] = ()
    default: bool = False
    doc: str = field(default="", repr=False)
