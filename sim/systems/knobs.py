"""The knob models' common ground.

Strict models, ``rules.base`` read by every system, and the ``charge`` order two systems read.

A scenario may set only the knob sections its rule system reads (``base`` and its own):
a knob that would be ignored is an error, never silently dropped. A rule system declares
its section's model (a ``Knobs`` subclass) once, in its ``RuleSystem``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import AfterValidator, Field, GetJsonSchemaHandler, model_validator
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from sim.systems.registry import behaviours

# The models themselves live in a leaf module (the registry checks plug-ins against them).
from sim.systems.sealed import BaseKnobs, FrozenDict, FrozenList, Knobs, Sealed, freeze

__all__ = ["BaseKnobs", "BehaviourOf", "ChargeOrders", "FrozenDict", "FrozenList", "Knobs", "Sealed",
           "behaviour_of", "freeze"]


class ChargeOrders(Knobs):
    """The orders key ``charge`` (and the step type ``charge``: an advance that charges).

    The unit may enter enemy zones of control (SF.ZOC) and assaults in the assault phase
    (BASE.S.ASSAULT, BASE.F.ASSAULT).
    """

    type: Literal["hold", "advance", "march", "charge"] = Field("hold", description=(
        "`hold` stays put; `advance` makes one move per own movement phase along its route to "
        "`to`; `march` makes up to three moves a phase, each in its own third of it (SF.MARCH); "
        "`charge` is an `advance` with `charge: true`"))
    charge: bool = Field(False, description=(
        "the unit may enter enemy zones of control (SF.ZOC) and assaults in the assault phase "
        "(BASE.S.ASSAULT, BASE.F.ASSAULT)"))

    @model_validator(mode="before")
    @classmethod
    def _charge_step(cls, data: Any) -> Any:
        # A plan names a charge as a movement: ``type: charge`` is an advance that charges.
        if isinstance(data, dict) and data.get("type") == "charge":
            if data.get("charge") is False:
                raise ValueError("a step of type 'charge' charges (drop 'charge: false')")
            return {**data, "type": "advance", "charge": True}
        return data


@dataclass(frozen=True)
class BehaviourOf(AfterValidator):
    """The check of a knob naming a behaviour of ``kind``.

    Its JSON Schema lists the names registered when the schema is made.
    """

    kind: str = ""

    def __get_pydantic_json_schema__(self, schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        """The string's schema, with the registered behaviours as its enumeration."""
        out = handler(schema)
        out["enum"] = list(behaviours(self.kind))
        return out


def behaviour_of(kind: str) -> BehaviourOf:
    """The check of a knob whose value names a registered behaviour of ``kind``.

    The knob is ``Annotated[str, behaviour_of(kind)]``, so a user's behaviour, registered
    with ``sim.register_behaviour``, is a valid value.
    """
    def known(value: str) -> str:
        names = behaviours(kind)
        if value not in names:
            raise ValueError(f"'{value}' is not a {kind} behaviour (expected one of {sorted(names)})")
        return value

    return BehaviourOf(known, kind=kind)
