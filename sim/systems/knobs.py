"""The knob models' common ground.

Strict models, ``rules.base`` read by every system, and the ``charge`` order two systems read.

A scenario may set only the knob sections its rule system reads (``base`` and its own):
a knob that would be ignored is an error, never silently dropped. A rule system declares
its section's model (a ``Knobs`` subclass) once, in its ``RuleSystem``.
"""
from __future__ import annotations

from dataclasses import dataclass

from pydantic import AfterValidator, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from sim.systems.behaviours import behaviours

# The models themselves live in a leaf module (the registry checks plug-ins against them).
from sim.systems.sealed import BaseKnobs, FrozenDict, FrozenList, Knobs, Sealed, freeze

__all__ = ["BaseKnobs", "BehaviourOf", "FrozenDict", "FrozenList", "Knobs", "Sealed",
           "behaviour_of", "freeze"]


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
