"""What rules and agents may see of a running battle: the ``BattleContext`` protocol.

A rule system's code, the agents (movement, the referee, sniper teams) and a plug-in's
code talk to the battle only through this protocol. They may *read* everything here;
they may *change* the battle only by writing records (``record``), by the outcomes
(``eliminate``, ``on_arrive``, ``end``), by moving and flagging the units they act on
(``Unit`` fields), through the referee (``referee.add`` / ``begin_phase``) and through
their own system's ``state``, a typed object the system's ``Game`` owns. Nothing else is
ever set on the battle or on a unit.
"""
from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from typing_extensions import TypeVar

from sim import arguments
from sim.agents.outcome import Outcome
from sim.space import ground
from sim.space.geometry import Point, moving_closer

if TYPE_CHECKING:
    import simpy

    from sim.agents.unit import Unit
    from sim.engine.clock import Phase, TurnClock
    from sim.engine.dice import Dice
    from sim.engine.log import EventLog
    from sim.scenario.schema import Scenario
    from sim.space.terrain import Terrain

#: The scenario's ``rules`` (a model assembled per system: ``.base``, ``.<system>``, ...).
RulesT = TypeVar("RulesT", covariant=True, default=Any)
#: The rule system's own typed state (``Game.state``).
StateT = TypeVar("StateT", covariant=True, default=Any)


class BattleContext(Protocol[RulesT, StateT]):
    """The battle as the rules see it (``sim.engine.battle.Battle`` implements it).

    Generic over the scenario's rules and the system's state: a system writes
    ``BattleContext[MyRules, MyState]`` and strict mypy checks its use of both.
    """

    env: simpy.Environment
    clock: TurnClock
    terrain: Terrain
    dice: Dice
    log: EventLog
    attacker: str
    defender: str
    done: simpy.Event

    @property
    def referee(self) -> RefereeView:
        """The referee: arm watches on movers (``referee.add``), index reactors a phase."""

    @property
    def plans(self) -> PlansView:
        """The units' plans: their policies and target choices."""

    @property
    def services(self) -> ServicesView:
        """The base game's services: hit, damage, pin, eliminate, keep busy (``sim.engine.services``)."""

    @property
    def hooks(self) -> HooksView:
        """The rule modules' hooks the base game calls (a unit's move taken over, ...)."""

    @property
    def scenario(self) -> Scenario:
        """The loaded scenario the battle fights (read-only)."""

    @property
    def knobs(self) -> RulesT:
        """The scenario's ``rules``: ``knobs.base`` and ``knobs.<system>`` (read-only)."""

    @property
    def state(self) -> StateT:
        """The rule system's own state for this battle (its ``Game.state``)."""

    @property
    def game(self) -> Game[Any]:
        """The rule system's play for this battle."""

    @property
    def units(self) -> Mapping[str, Unit]:
        """Every unit by id, in scenario order."""

    def units_of(self, side: str) -> list[Unit]:
        """A side's units, in scenario order (every one, on the board or not)."""

    def enemies_of(self, side: str) -> list[Unit]:
        """The other side's units that are on the board, in scenario order."""

    def moves_in_phase(self, unit: Unit) -> int:
        """How many moves the unit's step makes in a moving phase (a part's ``step_moves``, else 1)."""

    def movers_of(self, side: str) -> list[Unit]:
        """The side's units whose current orders move them."""

    def cover_at(self, unit: Unit) -> int:
        """The cover of the terrain node nearest to the unit."""

    def record(self, event: str, rule: str | None = None, **fields: Any) -> dict[str, Any]:
        """Write one record of the event log at the current instant; returns it."""

    def record_move(self, unit: Unit, move: int, waypoints: list[tuple[float, float]],
                    times: list[float]) -> None:
        """The ``move`` record of a unit setting off, with each waypoint's planned arrival."""

    def record_stop(self, unit: Unit) -> None:
        """The ``stop`` record of a move whose allowance is spent."""

    def record_arrive(self, unit: Unit) -> None:
        """The ``arrive`` record of a mover at its destination, then ``on_arrive``."""

    def eliminate(self, unit: Unit, rule: str | None = None, **fields: Any) -> None:
        """Remove a unit for good (it falls exactly where it is) and log it."""

    def on_arrive(self, unit: Unit) -> None:
        """Tell the battle a unit reached its destination (objective victory)."""

    def end(self, winner: str | None, reason: str) -> None:
        """End the battle now."""


#: A game's state type (invariant: the game both gives it and is handed a battle with it).
GameStateT = TypeVar("GameStateT", default=Any)


class Game(Protocol[GameStateT]):
    """A rule system's play for one battle: it owns the system's typed ``state``."""

    @property
    def state(self) -> GameStateT:
        """The system's own typed state for this battle (``BattleContext.state``)."""

    def setup(self, battle: BattleContext[Any, GameStateT]) -> None:
        """Before the first phase: place units, arm referee watches, start processes."""

    def on_phase(self, battle: BattleContext[Any, GameStateT], phase: Phase) -> None:
        """At the start of every phase of every player-turn."""


class RefereeView(Protocol):
    """The referee as rules see it (``sim.agents.referee.Referee``): watches armed on movers."""

    watches: list[Watch]
    ground_watches: list[GroundWatch]

    def add(self, watch: Watch) -> None:
        """Arm ``watch`` on every mover from now on."""

    def add_ground(self, watch: GroundWatch) -> None:
        """Arm the ground watch ``watch`` on every mover from now on."""

    def progress(self, mover: Unit, area: ground.Area) -> float:
        """The length ``mover`` has walked inside ``area`` in this battle, up to where it last stood."""

    def begin_phase(self) -> None:
        """Index the reactors afresh: they do not move while the other side moves."""

    def earliest(self, mover: Unit, p0: Point, p1: Point) -> tuple[float, Trigger | GroundTrigger] | None:
        """(s, Trigger) of the first reaction along p0→p1 (a GroundTrigger: the ground's), or None."""

    def quiet(self, mover: Unit, points: Sequence[Point]) -> bool:
        """True when no watch, of a unit or of the ground, can react anywhere along the polyline ``points``."""

    def arm(self, mover: Unit, p0: Point, p1: Point, duration: float,
            until: float | None = None) -> float | None:
        """Schedule the first reaction on the segment p0→p1 walked in ``duration`` (ending at ``until``)."""

    def disarm(self, mover: Unit) -> None:
        """Cancel the mover's scheduled reaction, if any; count its walk up to where it stands."""


class ServicesView(Protocol):
    """The base game's services as rules see them (``sim.engine.services.Services``)."""

    def hit(self, target: Unit, *, by: Unit | None = None, rule: str) -> None:
        """One hit scored on ``target``: the base game's effect of a hit."""

    def damage(self, target: Unit, steps: int, *, by: Unit | None = None, rule: str) -> None:
        """``steps`` steps taken off ``target``; at none left it is eliminated."""

    def pin(self, unit: Unit, *, by: Unit | None = None, rule: str) -> None:
        """``unit`` is pinned (the base game says what that stops and how it ends)."""

    def eliminate(self, unit: Unit, *, rule: str) -> None:
        """``unit`` is removed for good."""

    def can_react(self, unit: Unit) -> bool:
        """Whether ``unit`` may take a reaction a rule module offers (snap fire, say)."""

    def able_to_react(self, units: Iterable[Unit]) -> list[Unit]:
        """Those of ``units`` that ``can_react``, in order."""

    def keep_busy(self, unit: Unit, turns: int, *, rule: str) -> None:
        """``unit`` does nothing for the rest of this turn and its side's next ``turns`` turns."""

    def release(self, side: str, turn: int) -> None:
        """At the start of ``side``'s turn ``turn``: its busy units whose time is up act again."""


class HooksView(Protocol):
    """The rule modules' hooks a base game calls (``sim.systems.composition.ModuleHooks``)."""

    @property
    def takes_moves(self) -> bool:
        """Whether any module may take over a unit's move in this battle."""

    def move_of(self, battle: BattleContext[Any, Any], unit: Unit, phase: Phase) -> Any:
        """How ``unit`` makes its moves this phase, if a module says (None: the base's way)."""


class PlansView(Protocol):
    """The units' plans as rules see them (``sim.agents.plans.Plans``)."""

    def policy(self, unit: Unit, what: str) -> Any:
        """The unit's ``what`` policy: its own, else its group's, else its side's; or None."""

    def choose_target(self, unit: Unit, candidates: list[tuple[float, Unit]]) -> Unit | None:
        """The unit's target among (distance, enemy) candidates, by its ``target`` policy."""

    def start_fraction(self, unit: Unit) -> float:
        """How far into its moving phase the unit's move starts (``in_phase``)."""

    def route(self, unit: Unit, step: Any) -> list[str]:
        """The nodes the unit's step takes it through, by the step's route planner."""

    def last_passed(self, unit: Unit) -> str | None:
        """The node the unit last passed (None: it has not moved)."""

    def seen_by_enemies_of(self, side: str) -> frozenset[str]:
        """The ground the enemies of ``side`` saw from where they started."""


@dataclass
class Trigger:
    """Why a mover was interrupted: which watch, which enemy, where and when.

    ``s`` is the fraction of the segment at which it comes (1.0: the mover has reached
    the segment's end). ``tied`` are the other reactions due at the same instant, to the
    referee's tolerance (``sim.space.geometry.tolerance``), in the order the watches were
    added (``add`` and ``add_ground`` alike), then unit-id order: each reacts in turn
    after this one. A ground watch's reaction among them is a ``GroundTrigger``.
    ``feature`` is always None here: a unit reacts, not the ground.
    """

    watch: Watch
    reactor: Unit
    point: Point
    dist: float
    inside: bool          # the mover was strictly within the radius already
    s: float = 0.0
    tied: tuple[Trigger | GroundTrigger, ...] = ()
    feature: ground.Area | ground.Line | ground.Edge | None = None

    def each(self) -> tuple[Trigger | GroundTrigger, ...]:
        """This reaction and those tied with it, in the order they react."""
        return (self, *self.tied)


@dataclass
class GroundTrigger:
    """Why the ground interrupted a mover: which ground watch, which feature, where.

    ``point`` is where the mover is halted: the exact point of the event on the segment,
    a fraction ``s`` along it. ``tied`` as in ``Trigger``. ``reactor`` is always None:
    no unit reacts, the ground does.
    """

    watch: GroundWatch
    feature: ground.Area | ground.Line | ground.Edge
    point: Point
    s: float = 0.0
    tied: tuple[Trigger | GroundTrigger, ...] = ()
    reactor: None = None

    def each(self) -> tuple[Trigger | GroundTrigger, ...]:
        """This reaction and those tied with it, in the order they react."""
        return (self, *self.tied)


class Watch:
    """A reaction rule the referee arms on movers.

    Subclasses set ``rule`` and ``radius``, decide which enemies react (``reactors``)
    and whether one may (``eligible``), and say in ``react`` what the mover does then.
    """

    rule: str = ""
    radius: float = 0.0

    def active(self, battle: BattleContext, mover: Unit) -> bool:
        """Whether the watch applies to this mover at all (default: always)."""
        return True

    def reactors(self, battle: BattleContext, side: str) -> list[Unit]:
        """The units that may react to movers of ``side`` this phase."""
        raise NotImplementedError

    def eligible(self, battle: BattleContext, reactor: Unit, mover: Unit) -> bool:
        """Whether ``reactor`` may react to ``mover`` now (default: yes)."""
        return True

    def inside_triggers(self, battle: BattleContext, reactor: Unit, mover: Unit, p0: Point, p1: Point) -> bool:
        """A mover that starts within the radius triggers at once only if it moves closer."""
        return moving_closer(p0, p1, reactor.pos)

    # A watch whose reaction needs more than the radius (sight, an arc) sets this and
    # says, in ``first_moment``, when along the segment that first holds.
    delays = False

    def first_moment(self, battle: BattleContext, reactor: Unit, mover: Unit, p0: Point, p1: Point,
                     s: float) -> float | None:
        """The first fraction >= s of p0→p1 at which ``reactor`` reacts (None: not on this segment).

        The mover first comes within the radius at s. It may leave the radius again
        further on: the watch checks that itself.
        """
        return s

    def react(self, battle: BattleContext, mover: Unit, trigger: Trigger) -> Outcome:
        """Apply the rule; return what the mover does next (a ``sim.plugin.Outcome``).

        A halt that this method itself recorded (a ``halt`` record) is ``HALT_*_RECORDED``;
        a plain ``HALT_*`` has the movement close the move (``stop``, reason ``halted``).
        """
        raise NotImplementedError


class GroundEvent(enum.Enum):
    """What a ground watch reacts to (``sim.space.ground`` gives each reading exactly)."""

    ENTER = "enter"   # a mover passes into an Area
    CROSS = "cross"   # a mover comes onto a Line
    EVERY = "every"   # each further ``every`` of length a mover walks inside an Area
    USE = "use"       # a mover starts to run along an Edge


#: The feature each event is of.
_FEATURE_OF = {GroundEvent.ENTER: ground.Area, GroundEvent.EVERY: ground.Area, GroundEvent.CROSS: ground.Line,
               GroundEvent.USE: ground.Edge}


class GroundWatch:
    """A reaction of the ground the referee arms on movers: a ``feature`` and the ``event`` on it.

    ``every`` (EVERY only) is the length, in the map's units, between two reactions. A
    subclass sets ``rule``, may say whether the watch applies to a mover (``active``,
    asked before any geometry) and whether a reaction found on a segment happens
    (``eligible``), and says in ``react`` what the mover does then.
    """

    rule: str = ""
    feature: ground.Area | ground.Line | ground.Edge
    event: GroundEvent
    every: float | None = None

    def __init__(self, feature: ground.Area | ground.Line | ground.Edge, event: GroundEvent,
                 every: float | None = None) -> None:
        self.feature = feature
        self.event = event
        self.every = every
        check_ground_watch(self, type(self).__name__)

    def active(self, battle: BattleContext, mover: Unit) -> bool:
        """Whether the watch applies to this mover at all (default: always)."""
        return True

    def eligible(self, battle: BattleContext, mover: Unit) -> bool:
        """Whether a reaction found on the mover's segment happens (default: yes)."""
        return True

    def react(self, battle: BattleContext, mover: Unit, trigger: GroundTrigger) -> Outcome:
        """Apply the rule; return what the mover does next (a ``sim.plugin.Outcome``, as ``Watch.react``)."""
        raise NotImplementedError


def check_ground_watch(watch: Any, place: str) -> GroundWatch:
    """``watch`` if it is a ``GroundWatch`` whose feature, event and ``every`` agree; else an ``InputError``."""
    checked: GroundWatch = arguments.instance(watch, place, GroundWatch, "a sim.plugin.GroundWatch")
    event = arguments.instance(getattr(watch, "event", None), f"{place}.event", GroundEvent, "a sim.plugin.GroundEvent")
    kind = _FEATURE_OF[event]
    arguments.instance(getattr(watch, "feature", None), f"{place}.feature", kind,
                       f"a sim.plugin.{kind.__name__} (the feature of {event.name})")
    every = getattr(watch, "every", None)
    if event is GroundEvent.EVERY:
        arguments.number(every, f"{place}.every", positive=True)
    elif every is not None:
        raise arguments.fail(f"{place}.every", f"None (only EVERY has a length, not {event.name})", every)
    return checked
