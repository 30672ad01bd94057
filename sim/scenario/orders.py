"""Orders as data: a unit's plan of steps, the conditions that start them, groups that
share a plan, and the policies that say how units react.

A unit has either ``orders`` (one step) or a ``plan`` (a list of steps, optionally
looping ``until`` a condition). A step is a movement (``hold``, ``advance``, ``march``)
towards ``to``, through the ``via`` nodes in order, along a route from a named planner
(``shortest``, ``covered``, ``via``); it starts at the first of its unit's movement
phases at whose start its ``when`` holds (every key given must hold) and the step before
it is done (a move is done when the unit reaches ``to``; ``hold`` at once). A group
(``groups``) gives the same plan to several units, each with a ``formation`` offset.
``policies`` (per side, group or unit) name what a unit does when fired on or halted,
and how it chooses its targets. The runtime is ``sim.agents.plans``.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from sim.systems.knobs import behaviour_of

MAX_STEPS = 50
# [dx, dy] in map units
Offset = Annotated[list[Annotated[float, Field(allow_inf_nan=False)]], Field(min_length=2, max_length=2)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False, validate_assignment=True, strict=True)


class Arrived(_Strict):
    """``unit`` (or every living unit of ``group``) has reached node ``at``."""

    unit: str | None = Field(None, min_length=1)
    group: str | None = Field(None, min_length=1)
    at: str

    @model_validator(mode="after")
    def _one_subject(self) -> Arrived:
        if (self.unit is None) == (self.group is None):
            raise ValueError("name exactly one of 'unit' or 'group'")
        return self


class Condition(_Strict):
    """When a step may start: every key given must hold at the start of the unit's
    movement phase. ``fired_on``, ``halted``, ``pinned``, ``lost_steps`` name a unit (or
    ``self``) that has been fired on, halted, pinned or has lost a step since its plan
    began; ``enemy_within`` is a distance within which the unit sees an enemy (in line
    of sight); ``in_phase`` (0 to 1) delays the step's move to that fraction of the phase
    (its allowance shrinks to match)."""

    from_turn: int | None = Field(None, ge=1, le=1000)
    arrived: Arrived | None = None
    fired_on: str | None = Field(None, min_length=1)
    halted: str | None = Field(None, min_length=1)
    pinned: str | None = Field(None, min_length=1)
    lost_steps: str | None = Field(None, min_length=1)
    enemy_within: float | None = Field(None, gt=0, le=1_000_000, allow_inf_nan=False)
    in_phase: float | None = Field(None, ge=0, lt=1, allow_inf_nan=False)


class Orders(_Strict):
    """One step of a unit's orders.

    ``hold`` stays put; ``advance`` makes one move a turn towards ``to``; ``march`` makes
    up to three moves a turn (SF.MARCH). ``via``: nodes the route passes, in order;
    ``route``: the planner (``shortest`` least cost, ``covered`` away from the ground the
    enemy sees at the start, ``via`` the shortest legs between the ``via`` nodes);
    ``when``: the step's start condition.
    """

    type: Literal["hold", "advance", "march"] = "hold"
    to: str | None = None
    via: list[str] = Field(default_factory=list, max_length=50)
    route: Annotated[str, behaviour_of("route")] = "shortest"
    when: Condition | None = None

    @model_validator(mode="after")
    def _needs_destination(self) -> Orders:
        if self.type != "hold" and not self.to:
            raise ValueError(f"orders of type '{self.type}' need a destination node 'to'")
        if self.type == "hold" and (self.to or self.via):
            raise ValueError("a hold step has no destination ('to', 'via')")
        return self


class Plan(_Strict):
    """Steps in order; with ``loop`` the plan starts again after its last step, until
    ``until`` holds (a loop needs that exit)."""

    steps: list[Any] = Field(min_length=1, max_length=MAX_STEPS)
    loop: bool = False
    until: Condition | None = None

    @model_validator(mode="before")
    @classmethod
    def _a_list_is_its_steps(cls, data: Any) -> Any:
        return {"steps": data} if isinstance(data, list) else data

    @model_validator(mode="after")
    def _loops_end(self) -> Plan:
        if self.loop and self.until is None:
            raise ValueError("a loop without an exit: give 'until' (a condition that ends it)")
        if self.until is not None and not self.loop:
            raise ValueError("'until' ends a loop: set 'loop: true' too")
        return self


class Group(_Strict):
    """Units that share one plan; ``formation`` offsets a member's destinations by
    ``[dx, dy]`` (map units; the nearest node to the offset point is used)."""

    units: list[str] = Field(min_length=1, max_length=2000)
    plan: Any
    formation: dict[str, Offset] = Field(default_factory=dict)


class Policy(_Strict):
    """A named policy and its parameters: ``kinds`` (an order of unit kinds, for the
    ``priority`` target choice) and ``turns`` (how long ``go_to_ground`` lasts)."""

    policy: str
    kinds: list[str] = Field(default_factory=list, max_length=10)
    turns: int = Field(1, ge=1, le=100)


class Policies(_Strict):
    """What units of a side, group or unit do: ``on_fired`` (when fired on) and
    ``on_halted`` (when a reaction halts them): ``carry_on``, ``go_to_ground``,
    ``fall_back``, ``seek_cover``; ``target``: ``nearest``, ``weakest``,
    ``most_dangerous``, ``priority``."""

    on_fired: Annotated[Policy, behaviour_of("reaction_move", field="policy")] | None = None
    on_halted: Annotated[Policy, behaviour_of("reaction_move", field="policy")] | None = None
    target: Annotated[Policy, behaviour_of("target", field="policy")] | None = None
