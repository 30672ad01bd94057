"""The kinds of behaviour the plans call, each a typed protocol with public arguments only.

* ``ROUTE`` (``route_planner(battle, unit, start, via, goal) -> [nodes]``): the nodes a
  step's move passes after ``start``, through ``via`` in order, ending at ``goal``;
* ``REACTION_MOVE`` (``reaction(battle, unit, policy) -> Response``): what a unit does when
  fired on or halted: carry on, hold, or move off its plan to a node (``Response``);
* ``TARGET`` (``choose(candidates, policy) -> enemy``): a unit's target among its
  ``(distance, enemy)`` candidates;
* ``DECIDE`` (``decide(battle, side, phase, policy)``): a side's decisions at the start of
  each of its movement phases, after its plans are brought up to date (``sim.planner``).

A user adds one with ``sim.plugin.register(sim.plugin.Behaviour(KIND, name, code))`` and names
it in a scenario's ``route`` or ``policies``; mypy checks ``code`` against the kind's protocol.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from sim.systems.behaviours import BehaviourKind

if TYPE_CHECKING:
    from sim.agents.unit import Unit
    from sim.engine.clock import Phase
    from sim.engine.context import BattleContext
    from sim.scenario.orders import DecidePolicy, MovePolicy, TargetPolicy

__all__ = ["DECIDE", "REACTION_MOVE", "ROUTE", "TARGET", "ReactionMove", "Response", "RoutePlanner",
           "SideDecision", "TargetChoice"]


class RoutePlanner(Protocol):
    """A route planner: the nodes after ``start``, through ``via`` in order, to ``goal``."""

    def __call__(self, battle: BattleContext, unit: Unit, start: str, via: list[str],
                 goal: str, /) -> list[str]:
        """The route (each node a neighbour of the one before, the first of ``start``)."""


@dataclass(frozen=True)
class Response:
    """What a unit does when fired on or halted, and what the ``decide`` record says.

    ``hold``: it stands for that many of its moving phases (this one included), then its
    plan's step starts again from where it is; ``to``: it moves off its plan to that node
    (back along its edge when it is the node it stands past), then starts the step again.
    Neither: it carries on.
    """

    choice: str
    hold: int = 0
    to: str | None = None

    @classmethod
    def carry_on(cls) -> Response:
        """Keep to the plan."""
        return cls("carry on")

    @classmethod
    def stand(cls, turns: int = 1, choice: str | None = None) -> Response:
        """Hold for ``turns`` moving phases (the record says ``choice``, or how long)."""
        return cls(choice if choice is not None else f"hold {turns} turn(s)", hold=turns)

    @classmethod
    def move_to(cls, node: str, choice: str | None = None) -> Response:
        """Move off the plan to ``node`` (the record says ``choice``, or where)."""
        return cls(choice if choice is not None else f"to {node}", to=node)


class ReactionMove(Protocol):
    """A reaction to being fired on or halted (kind ``reaction_move``)."""

    def __call__(self, battle: BattleContext, unit: Unit, policy: MovePolicy, /) -> Response:
        """What the unit does now."""


class TargetChoice(Protocol):
    """A target policy (kind ``target``)."""

    def __call__(self, candidates: list[tuple[float, Unit]], policy: TargetPolicy, /) -> Unit:
        """One of the candidates' enemies."""


class SideDecision(Protocol):
    """A side's decider (kind ``decide``): tells its units what to do at its movement phase."""

    def __call__(self, battle: BattleContext, side: str, phase: Phase, policy: DecidePolicy, /) -> None:
        """Decide now (``sim.decide.menu.tell``, and a ``decide`` record of why)."""


ROUTE: BehaviourKind[RoutePlanner] = BehaviourKind("route")
REACTION_MOVE: BehaviourKind[ReactionMove] = BehaviourKind("reaction_move")
TARGET: BehaviourKind[TargetChoice] = BehaviourKind("target")
DECIDE: BehaviourKind[SideDecision] = BehaviourKind("decide")
