"""Orders as data: a unit's plan of steps, the conditions that start them, groups that
share a plan, and the policies that say how units react.

A unit has either ``orders`` (one step) or a ``plan`` (a list of steps, optionally
looping ``until`` a condition). A step is a movement (``hold``, ``advance``, or a rule
system's own step type) towards ``to``, through the ``via`` nodes in order, along a route from a named planner
(``shortest``, ``covered``, ``via``); it starts at the first of its unit's movement
phases at whose start its ``when`` holds (every key given must hold) and the step before
it is done (a move is done when the unit reaches ``to``; ``hold`` at once). A group
(``groups``) gives the same plan to several units, each with a ``formation`` offset.
``policies`` (per side, group or unit) name what a unit does when fired on or halted,
and how it chooses its targets. The runtime is ``sim.agents.plans``.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, GetJsonSchemaHandler, SerializerFunctionWrapHandler, model_serializer, model_validator
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from sim.systems.knobs import Sealed, behaviour_of

MAX_STEPS = 50
# [dx, dy] in map units
Offset = Annotated[list[Annotated[float, Field(allow_inf_nan=False)]], Field(min_length=2, max_length=2)]


class _Strict(Sealed):
    """A part of a unit's orders: strict and, once loaded, read-only."""


class Arrived(_Strict):
    """``unit`` (or every living unit of ``group``) has reached node ``at``."""

    unit: str | None = Field(None, min_length=1, description="a unit id (or give `group`)")
    group: str | None = Field(None, min_length=1, description=(
        "a group name: every living unit of it (or give `unit`)"))
    at: str = Field(description="the node it must have reached (stood on) since the battle began")

    @model_validator(mode="after")
    def _one_subject(self) -> Arrived:
        if (self.unit is None) == (self.group is None):
            raise ValueError("name exactly one of 'unit' or 'group'")
        return self


class Condition(_Strict):
    """When a step may start: every key given must hold at the start of the unit's
    movement phase. ``fired_on``, ``halted``, ``pinned``, ``lost_steps`` name a unit (or
    ``self``) that has been fired on, halted, pinned or has lost a step since the step
    before began; ``enemy_within`` is a distance within which the unit sees an enemy (in
    line of sight); ``in_phase`` (0 to 1) delays the step's move to that fraction of the
    phase (its allowance shrinks to match)."""

    from_turn: int | None = Field(None, ge=1, le=1000, description=(
        "not before this turn (a player-turn number, as the log's `turn`)"))
    arrived: Arrived | None = Field(None, description=(
        "after a unit, or every living unit of a group (each at its formation place), has "
        "reached a node: `{unit|group, at}`"))
    fired_on: str | None = Field(None, min_length=1, description=(
        "after this unit (or `self`) has been fired on (any roll at it) since the step before began"))
    halted: str | None = Field(None, min_length=1, description=(
        "after this unit (or `self`) has been halted by a reaction since the step before began"))
    pinned: str | None = Field(None, min_length=1, description=(
        "after this unit (or `self`) has been pinned since the step before began"))
    lost_steps: str | None = Field(None, min_length=1, description=(
        "after this unit (or `self`) has lost a step since the step before began"))
    enemy_within: float | None = Field(None, gt=0, le=1_000_000, allow_inf_nan=False, description=(
        "when the unit sees an enemy (line of sight) within this distance (cm, or hex centres' "
        "distance on a hex map)"))
    in_phase: float | None = Field(None, ge=0, lt=1, allow_inf_nan=False, description=(
        "the step's first move starts this fraction into its phase, with the allowance left "
        "(a rule system whose moves take a whole phase refuses it)"))


class Orders(_Strict):
    """One step of a unit's orders.

    ``hold`` stays put; ``advance`` makes one move a turn towards ``to``; a base game's or
    rule module's order keys may add step types (its ``step_moves`` says how many moves
    each makes in a phase). ``via``: nodes the route passes, in order;
    ``route``: the planner (``shortest`` least cost, ``covered`` away from the ground the
    enemy sees at the start, ``via`` the shortest legs between the ``via`` nodes);
    ``when``: the step's start condition.
    """

    type: Literal["hold", "advance"] = Field("hold", description=(
        "`hold` stays put; `advance` makes one move per own movement phase along its route to "
        "`to` (a rule system may add step types of its own: see its order keys)"))
    to: str | None = Field(None, description=(
        "the destination node (required unless `hold`, refused with `hold`); reachable from "
        "where the step before leaves the unit"))
    via: list[str] = Field(default_factory=list, max_length=50, description=(
        "nodes the route passes through, in order, on its way to `to`"))
    route: Annotated[str, behaviour_of("route")] = Field("shortest", description=(
        "the route planner: `shortest` (least cost), `covered` (least cost with ground the "
        "enemy sees from its start 10 times dearer), `via` (least-cost legs between the `via` "
        "nodes), or a registered one"))
    when: Condition | None = Field(None, description=(
        "the condition on which the step starts (below); none: as soon as the step before is done"))

    @model_validator(mode="after")
    def _needs_destination(self) -> Orders:
        if self.type != "hold" and not self.to:
            raise ValueError(f"orders of type '{self.type}' need a destination node 'to'")
        if self.type == "hold" and (self.to or self.via):
            raise ValueError("a hold step has no destination ('to', 'via')")
        return self


class Plan(_Strict):
    """Steps in order; with ``loop`` the plan starts again after its last step, until
    ``until`` holds (a loop needs that exit). A bare list is its ``steps``."""

    steps: list[Any] = Field(min_length=1, max_length=MAX_STEPS, description=(
        f"the steps, in order (at most {MAX_STEPS}); each is an `orders` entry with an optional `when`"))
    loop: bool = Field(False, description="after the last step, start again at the first (needs `until`)")
    until: Condition | None = Field(None, description=(
        "the loop ends when this holds at the end of a pass (a loop must have it)"))

    @model_validator(mode="before")
    @classmethod
    def _a_list_is_its_steps(cls, data: Any) -> Any:
        return {"steps": data} if isinstance(data, list) else data

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        """The mapping's schema, or (the shorthand) a bare list of its steps."""
        mapping = handler(core_schema)
        steps = handler.resolve_ref_schema(mapping)["properties"]["steps"]
        return {"anyOf": [mapping, {k: v for k, v in steps.items() if k != "title"}]}

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

    units: list[str] = Field(min_length=1, max_length=2000, description=(
        "the member units' ids (each in one group at most, with no orders of its own)"))
    plan: Any = Field(description="the plan every member follows (as a unit's `plan`)")
    formation: dict[str, Offset] = Field(default_factory=dict, description=(
        "unit id -> [dx, dy]: that member's destinations move by the offset, to the nearest node"))


class MovePolicy(_Strict):
    """What a unit does when fired on or halted: a behaviour of kind ``reaction_move``."""

    policy: Annotated[str, behaviour_of("reaction_move")] = Field(description=(
        "`carry_on` (keep to the plan), `go_to_ground` (hold `turns` movement phases), "
        "`fall_back` (back to the last node it passed), `seek_cover` (the nearest node with "
        "cover within one move), or a registered one"))
    turns: int = Field(1, ge=1, le=100, description="`go_to_ground`: how many of its movement phases it holds")


class TargetPolicy(_Strict):
    """Which enemy a unit shoots: a behaviour of kind ``target``."""

    policy: Annotated[str, behaviour_of("target")] = Field(description=(
        "`nearest` (the default), `weakest` (fewest steps), `most_dangerous` (most steps, then "
        "least armour), `priority` (by `kinds`), or a registered one; ties go to the nearest"))
    kinds: list[str] = Field(default_factory=list, max_length=10, description=(
        "`priority`: unit kinds, first choice first (others come after, nearest first)"))


class DecidePolicy(_Strict):
    """Who takes a side's decisions at its movement phases: a behaviour of kind ``decide``
    (``mcts``: a planner searching the menu of ``sim.decide.menu`` on branches of the battle)."""

    policy: Annotated[str, behaviour_of("decide")] = Field(description=(
        "`mcts` (Monte Carlo tree search over the menu: plan, hold, fall back, seek cover), or "
        "a registered one"))
    rollouts: int = Field(32, ge=1, le=100_000, description=(
        "rollouts per decision (the budget; with `seconds`, the most it spends)"))
    seconds: float | None = Field(None, gt=0, le=3600, allow_inf_nan=False, description=(
        "a wall-clock budget per decision too (the battle then depends on the machine's speed)"))
    depth: int = Field(2, ge=1, le=50, description=(
        "how many of the side's decisions the search tree looks ahead (then the plan)"))
    horizon: int | None = Field(None, ge=1, le=1000, description=(
        "a rollout stops after this many of the side's movement phases and is scored there "
        "(none: at the battle's end)"))
    exploration: float = Field(1.0, ge=0, le=100, allow_inf_nan=False, description=(
        "UCT's exploration constant (0: always the best mean so far)"))
    by: Literal["side", "group", "unit"] = Field("group", description=(
        "one choice for the whole side, one per group (and per unit in none), or one per unit"))
    material: float = Field(0.0, ge=0, le=100, allow_inf_nan=False, description=(
        "a rollout's score adds this times (enemy steps lost - own steps lost) / all steps "
        "to its outcome (win 1, loss -1, draw or horizon 0)"))


class Policies(_Strict):
    """What units of a side, group or unit do: ``on_fired`` (when fired on) and
    ``on_halted`` (when a reaction halts them), ``target`` (whom they shoot); a base game
    or rule module may add its own (its ``policy_keys``)."""

    on_fired: MovePolicy | None = Field(None, description=(
        "at the start of its next movement phase after it was fired on"))
    on_halted: MovePolicy | None = Field(None, description=(
        "at the start of its next movement phase after a reaction halted it"))
    target: TargetPolicy | None = Field(None, description="whom it shoots, of the enemies in range and sight")
    decide: DecidePolicy | None = Field(None, description=(
        "a side's only: who decides at its movement phases (`policy: mcts`, a planner)"))

    @model_serializer(mode="wrap")
    def _unset_decide(self, handler: SerializerFunctionWrapHandler) -> Any:
        # No planner, no key: a scenario's canonical form (its hash) is as it was before.
        out = handler(self)
        if isinstance(out, dict) and out.get("decide", 0) is None:
            del out["decide"]
        return out
