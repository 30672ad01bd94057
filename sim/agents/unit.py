"""A unit on the board: its fixed characteristics and its state during a battle."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sim.space.geometry import Point

if TYPE_CHECKING:
    import simpy

    from sim.scenario.schema import UnitSpec

#: One leg of a move: (where it ends, the node reached there or None, its cost).
Leg = tuple[Point, str | None, float]
#: A move under way: (start time, start point, legs, speed, end of its slot or None).
Course = tuple[float, Point, list[Leg], float, float | None]


@dataclass(eq=False)
class Unit:
    """A unit: who it is (from its scenario spec) and where and how it stands now."""

    id: str
    side: str
    kind: str
    steps: int
    armour: int
    morale: int
    skill: int
    move: float
    # The scenario's orders: ``Orders`` plus the keys its rule system adds (``charge``),
    # a model assembled per system (sim.scenario.load.model_for).
    orders: Any
    node: str
    pos: Point
    flags: set[str] = field(default_factory=set)
    start_steps: int = 0
    process: simpy.Process | None = None   # the SimPy process moving it, while it moves
    route: list[str] = field(default_factory=list)
    # The move it is making, while it makes it (see sim.agents.runs.place_and_passed):
    # ``pos`` is updated at waypoints, its exact position is known at any instant.
    course: Course | None = None

    @classmethod
    def from_spec(cls, spec: UnitSpec, side: str, pos: Point) -> Unit:
        """The unit a scenario's unit spec describes, standing at ``pos``."""
        return cls(id=spec.id, side=side, kind=spec.kind, steps=spec.steps, armour=spec.armour,
                   morale=spec.morale, skill=spec.skill, move=spec.move, orders=spec.orders,
                   node=spec.at, pos=(float(pos[0]), float(pos[1])), flags=set(spec.flags),
                   start_steps=spec.steps)

    @property
    def alive(self) -> bool:
        """Not eliminated (it may be off the board)."""
        return "eliminated" not in self.flags

    @property
    def pinned(self) -> bool:
        """Pinned (it carries the ``pinned`` flag; each rule system says what that stops)."""
        return "pinned" in self.flags

    @property
    def busy(self) -> bool:
        """Kept busy by a rule (the ``busy`` flag: ``battle.services.keep_busy``): it does nothing."""
        return "busy" in self.flags

    @property
    def on_board(self) -> bool:
        """Neither eliminated nor off the board."""
        # Asked of every unit every phase: two set lookups, no nested property (and
        # written out the same way in Battle.enemies_of).
        flags = self.flags
        return "eliminated" not in flags and "off_board" not in flags


class OnUnit:
    """Mixin for what stands for a unit on the board: its ``id`` and ``side`` are the unit's.

    A rule system's figure or sniper team is such, with a ``unit`` attribute.
    """

    unit: Unit

    @property
    def id(self) -> str:
        """The unit's id."""
        return self.unit.id

    @property
    def side(self) -> str:
        """The unit's side."""
        return self.unit.side
