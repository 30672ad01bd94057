"""The scenario schema (pydantic v2): the keys every scenario has. Unknown keys are errors.

A scenario is: a terrain, the sides in turn order, each side's force, a rule system and
its knobs, a turn limit and the victory conditions. The keys every scenario has are
declared here; a base game or rule module adds its own (``unit_keys``, ``order_keys``,
``knobs``, ``base_knobs``), and the loader's ``model_for(system)`` builds the whole model
of a scenario under that system, so a key the system would not read is not in its model.
Terrain details are checked by the terrain builder (``sim.space``).
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, Field, PrivateAttr, field_validator, model_validator

from sim.scenario.orders import Group, Orders, Plan, Policies
from sim.space import build_terrain
from sim.space.terrain import Terrain
from sim.systems.knobs import Sealed

MAX_UNITS = 2000
MAX_TURNS = 200
M = TypeVar("M", bound=BaseModel)


class KeyedValueError(ValueError):
    """A whole-scenario check's failure that belongs to one key (``path``): the error names it."""

    def __init__(self, message: str, path: tuple[Any, ...]) -> None:
        super().__init__(message)
        self.path = path


class Strict(Sealed):
    """No unknown keys and no coercion: `move: true` or `steps: "3"` is an error.

    Read-only once made (``Sealed``).
    """


class UnitSpec(Strict):
    """A unit as the scenario gives it: the keys every rule system reads."""

    id: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.\-]+$", description=(
        "the unit's id, unique in the scenario (the log's `unit`, `target`, `firer`)"))
    kind: str = Field("infantry", min_length=1, description=(
        "what it is: a generic kind (any scenario) or one its base game or modules read (the unit "
        "kinds below)"))
    at: str = Field(description=(
        'where it starts: a node of the map (a waypoint name, a grid place `"gx,gy"`, or a '
        'hex `"q,r"`)'))
    steps: int = Field(1, ge=1, le=100, description=(
        "strength in steps (hits remove steps; 0 eliminates)"))
    armour: int = Field(4, ge=1, le=7, description=(
        "Armour: the d6 score a hit on it needs (7: cannot be hit), or its save, as its rule "
        "system reads it"))
    morale: int = Field(4, ge=1, le=12, description=(
        "morale score, as its rule system reads it (a pinned unit's rally roll, or morale and "
        "spotting checks against it)"))
    skill: int = Field(4, ge=1, le=7, description=(
        "skill rating, as its rule system reads it (e.g. the d6 score an enemy needs to hit "
        "it)"))
    move: float = Field(10.0, gt=0, le=10_000, allow_inf_nan=False, description=(
        "movement allowance per move, in cost units: cm of open ground on a table, hexes "
        "of open ground on a hex map"))
    orders: Orders = Field(default_factory=Orders, description=(
        "what it does in its own turns: one step (below); or give a `plan`"))
    plan: Plan | None = Field(None, description=(
        "its orders as steps, each starting when its `when` holds (below); not with `orders`"))
    flags: list[Literal["pinned", "hidden"]] = Field(default_factory=list, description=(
        "starting status: `pinned` units do not move or charge; `hidden` units start unseen "
        "(a rule system may add flags of its own: see its unit keys)"))

    @model_validator(mode="after")
    def _orders_or_plan(self) -> UnitSpec:
        if self.plan is not None and "orders" in self.model_fields_set:
            raise ValueError(f"unit '{self.id}' has both 'orders' and a 'plan' (expected one)")
        return self

    def plan_steps(self) -> list[Any]:
        """The unit's plan steps (its ``orders`` as a one-step plan when it has no plan)."""
        return list(self.plan.steps) if self.plan is not None else [self.orders]


class Victory(Strict):
    """How the battle is won.

    The attacker wins by reaching ``objective`` (any unit), or by destroying the defender;
    the defender wins by destroying the attacker or holding to the turn limit.
    """

    attacker: str = Field(description="the side that tries to take the objective")
    objective: str | None = Field(None, description=(
        "a node: the attacker wins when one of its units arrives there; at the turn limit "
        "the defender wins (none: the battle ends at the turn limit without a winner, "
        "unless a force is destroyed)"))
    destroy: bool = Field(True, description="a side whose units are all eliminated loses at once")


class Scenario(Strict):
    """A checked scenario (every rule system's scenario model is a subclass).

    Immutable: setting a field of it or of any part (``s.turns = 2``,
    ``s.rules.base.phase_length = 3``), or ``s.model_copy(update=...)``, is an
    ``InputError``; its lists and maps are read-only too.
    ``sim.apply_overrides(s, {"turns": 2})`` gives a changed, checked copy, which every path
    (``sim.run``'s ``overrides``, studies, worker processes) then runs as it is.
    """

    _path_prefix: ClassVar[str] = ""
    #: The rules this model was made for (``sim.scenario.load.model_for``).
    made_for: ClassVar[Any] = None

    name: str = Field(min_length=1, max_length=120, description=(
        "the scenario's name (`sim run --json` echoes it as `scenario`)"))
    description: str = Field("", description="free text")
    ruleset: str = Field(description=(
        "the ruleset: a base game and its rule modules, by one name (see the rulesets below; "
        "none given: the default one); or give `base` and `modules` instead"))
    turns: int = Field(6, ge=1, le=MAX_TURNS, description=(
        "the turn limit in player-turns (turn 1 is the first side's, turn 2 the second's, ...)"))
    sides: list[str] = Field(min_length=2, max_length=2, description=(
        "the two sides, in turn order (distinct names)"))
    terrain: dict[str, Any] = Field(description="the map: `kind: hex` or `kind: table` (below)")
    forces: dict[str, list[UnitSpec]] = Field(description=(
        f"each side's units: exactly the names in `sides`, none empty, at most {MAX_UNITS:,} "
        "units in all, ids unique"))
    victory: Victory = Field(description="how the battle is won (below)")
    rules: Any = Field(None, description=(
        "knobs: `base` and the rule system's own section, every key optional (below)"))
    groups: dict[str, Group] = Field(default_factory=dict, max_length=500, description=(
        "named groups of units sharing one `plan`, each member at its `formation` offset (below)"))
    policies: dict[str, Policies] = Field(default_factory=dict, max_length=2500, description=(
        "what units do when fired on or halted, whom they shoot, when they take a reaction: by "
        "side, group or unit id, the unit's own first (below)"))

    # Where it came from, kept for error messages and overrides, and its built terrain.
    _raw: dict[str, Any] = PrivateAttr(default_factory=dict)
    _file: str = PrivateAttr(default="<scenario>")
    _lines: dict[tuple[Any, ...], int] = PrivateAttr(default_factory=dict)
    _terrain: Terrain | None = PrivateAttr(default=None)
    _composition: Any = PrivateAttr(default=None)

    @field_validator("sides")
    @classmethod
    def _distinct_sides(cls, v: list[str]) -> list[str]:
        if len(set(v)) != 2:
            raise ValueError("the two sides must have different names")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> Scenario:
        if set(self.forces) != set(self.sides):
            raise KeyedValueError(f"forces must have exactly the sides {self.sides}, got {sorted(self.forces)}",
                                  ("forces",))
        ids = [u.id for side in self.sides for u in self.forces[side]]
        if len(ids) > MAX_UNITS:
            raise ValueError(f"{len(ids)} units (expected at most {MAX_UNITS})")
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"unit ids must be unique, repeated: {dup}")
        for side in self.sides:
            if not self.forces[side]:
                raise KeyedValueError(f"force '{side}' is empty (expected at least one unit)", ("forces", side))
        if self.victory.attacker not in self.sides:
            raise KeyedValueError(f"victory.attacker '{self.victory.attacker}' is not one of {self.sides}",
                                  ("victory", "attacker"))
        return self

    def units(self) -> Iterator[tuple[str, Any]]:
        """(side, unit spec) in turn order, then file order."""
        for side in self.sides:
            for u in self.forces[side]:
                yield side, u

    def members(self, who: str) -> list[Any]:
        """The unit specs a ``policies`` key names: a unit, a group's units or a side's."""
        if who in self.forces:
            return list(self.forces[who])
        ids = set(self.groups[who].units) if who in self.groups else {who}
        return [spec for _, spec in self.units() if spec.id in ids]

    @property
    def file(self) -> str:
        """The file (or ``<scenario>``) the scenario came from."""
        return self._file

    @property
    def composition(self) -> Any:
        """Its rules: the base game and its modules (``sim.systems.composition.Composition``)."""
        return self._composition if self._composition is not None else type(self).made_for

    @property
    def map(self) -> Terrain:
        """The scenario's terrain, built once and kept with it (terrain is immutable)."""
        if self._terrain is None:
            self._terrain = build_terrain(self.terrain, file=self._file, lines=self._lines)
        return self._terrain

    @property
    def raw(self) -> dict[str, Any]:
        """The document as read (before defaults), which overrides are applied to.

        For a scenario made without the loader (``model_validate``): the keys it was given.
        """
        if not self._raw:
            self._raw = self.model_dump(mode="json", exclude_unset=True)
        return self._raw

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Any:
        """A copy; ``update`` is refused, as setting a field is (see the class)."""
        if update:
            key = next(iter(update))
            self._refuse(key, update[key])
        return super().model_copy(deep=deep)

