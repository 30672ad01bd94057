"""The scenario schema (pydantic v2). Unknown keys are errors everywhere.

A scenario is: a terrain, the sides in turn order, each side's force, a ruleset and its
knobs, a turn limit and the victory conditions. Terrain details are checked by the
terrain builder (``sim.space``), which knows hexes and polygons.
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from sim.rules.knobs import RuleKnobs

Finite = dict(allow_inf_nan=False)
MAX_UNITS = 2000
MAX_TURNS = 200


class Strict(BaseModel):
    # strict: no coercion, so `move: true` or `steps: "3"` is an error, not 1 or 3.
    model_config = ConfigDict(extra="forbid", frozen=False, validate_assignment=True, strict=True)


class Orders(Strict):
    """What a unit does in its own turns.

    ``hold`` stays put; ``advance`` makes one move a turn along the least-cost path to
    ``to``; ``march`` makes up to three moves a turn (SF.MARCH). ``charge`` lets it enter
    enemy zones of control (SF.ZOC) and assault in the assault phase.
    """

    type: Literal["hold", "advance", "march"] = "hold"
    to: str | None = None
    charge: bool = False

    @model_validator(mode="after")
    def _needs_destination(self):
        if self.type != "hold" and not self.to:
            raise ValueError(f"orders of type '{self.type}' need a destination node 'to'")
        return self


class SniperSpec(Strict):
    """A sniper team's lifecycle set-up (H17, FOW; see ``sim.agents.sniper``).

    ``start``: ``off_board`` (H17: in play only once activated, H17.1), ``reserve`` (FOW:
    in the Sniper Reserve, placed at the start of its owner's first turn) or ``deployed``
    (on the board at ``at`` from the start). ``candidates``: the nodes where FOW.RESERVE
    may place it (empty: only ``at``).
    """

    start: Literal["off_board", "reserve", "deployed"] = "off_board"
    candidates: list[str] = Field(default_factory=list, max_length=500)


class UnitSpec(Strict):
    id: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.\-]+$")
    kind: Literal["infantry", "sniper", "vehicle", "team", "hq", "figure"] = "infantry"
    at: str
    steps: int = Field(1, ge=1, le=100)
    armour: int = Field(4, ge=1, le=7)
    morale: int = Field(4, ge=1, le=12)
    skill: int = Field(4, ge=1, le=7)
    move: float = Field(10.0, gt=0, le=10_000, **Finite)
    orders: Orders = Orders()
    flags: list[Literal["pinned", "no_snap_fire", "hidden"]] = []
    # H17 / FOW (optional): a sniper's set-up, the unit's platoon (FOW.PIN pins a whole
    # platoon; default: the unit alone) and whether it hunts revealed enemy snipers.
    sniper_team: SniperSpec | None = None
    platoon: str | None = Field(None, min_length=1, max_length=64)
    hunt: bool = False
    # TOO figures (ruleset "too"); optional, ignored by the other rulesets.
    level: Literal["green", "recruit", "seasoned", "veteran", "elite"] | None = None
    facing: float | None = Field(None, ge=-360, le=360, **Finite)  # degrees, 0 = +x, 90 = +y
    sniper: bool = False
    medic: bool = False
    prone: bool = False
    alert: Literal["A", "B"] | None = None   # TOO.ALERT option this figure asks for


class Victory(Strict):
    """The attacker wins by reaching ``objective`` (any unit), or by destroying the
    defender; the defender wins by destroying the attacker or holding to the turn limit."""

    attacker: str
    objective: str | None = None
    destroy: bool = True


class Scenario(Strict):
    name: str = Field(min_length=1, max_length=120)
    description: str = ""
    ruleset: Literal["snapfire", "h17", "fow", "too"] = "snapfire"
    turns: int = Field(6, ge=1, le=MAX_TURNS)
    sides: list[str] = Field(min_length=2, max_length=2)
    terrain: dict[str, Any]
    forces: dict[str, list[UnitSpec]]
    victory: Victory
    rules: RuleKnobs = RuleKnobs()

    # Where it came from, kept for error messages, overrides and the terrain cache.
    _raw: dict = PrivateAttr(default_factory=dict)
    _file: str = PrivateAttr(default="<scenario>")
    _lines: dict = PrivateAttr(default_factory=dict)
    _terrain: Any = PrivateAttr(default=None)

    @field_validator("sides")
    @classmethod
    def _distinct_sides(cls, v):
        if len(set(v)) != 2:
            raise ValueError("the two sides must have different names")
        return v

    @field_validator("rules")
    @classmethod
    def _rules_used(cls, v, info):
        # Checked here (not only in _consistent) so the error's place is the `rules` key.
        ruleset = info.data.get("ruleset")
        if ruleset is not None:
            v.check_ruleset(ruleset)
        return v

    @model_validator(mode="after")
    def _consistent(self):
        if set(self.forces) != set(self.sides):
            raise ValueError(f"forces must have exactly the sides {self.sides}, got {sorted(self.forces)}")
        ids = [u.id for side in self.sides for u in self.forces[side]]
        if len(ids) > MAX_UNITS:
            raise ValueError(f"{len(ids)} units (expected at most {MAX_UNITS})")
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"unit ids must be unique, repeated: {dup}")
        for side in self.sides:
            if not self.forces[side]:
                raise ValueError(f"force '{side}' is empty (expected at least one unit)")
        if self.victory.attacker not in self.sides:
            raise ValueError(f"victory.attacker '{self.victory.attacker}' is not one of {self.sides}")
        self.rules.check_ruleset(self.ruleset)
        return self

    def units(self):
        """(side, UnitSpec) in turn order, then file order."""
        for side in self.sides:
            for u in self.forces[side]:
                yield side, u
