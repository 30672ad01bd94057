"""The knob models' common ground.

Strict models, ``rules.base`` read by every system, and the ``charge`` order two systems read.

A scenario may set only the knob sections its rules read (``base`` and each part's own):
a knob that would be ignored is an error, never silently dropped. A base game or rule
module declares its section's model (a ``Knobs`` subclass) once, in its ``BaseGame`` or
``RuleModule``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from sim import arguments
from sim.systems.behaviours import behaviours

# The models themselves live in a leaf module (the registry checks plug-ins against them).
from sim.systems.sealed import BaseKnobs, FrozenDict, FrozenList, Knobs, Sealed, freeze
from sim.systems.sections import OneOf

__all__ = ["BaseKnobs", "BehaviourOf", "FrozenDict", "FrozenList", "Knobs", "Sealed",
           "behaviour_of", "freeze"]


@dataclass(frozen=True)
class BehaviourOf(OneOf):
    """The check of a knob naming a behaviour of ``kind``.

    Its JSON Schema lists the names registered when the schema is made.
    """

    kind: str = ""


def _behaviour_names(kind: str) -> list[str]:
    return list(behaviours(kind))


def behaviour_of(kind: str) -> BehaviourOf:
    """The check of a knob whose value names a registered behaviour of ``kind``.

    The knob is ``Annotated[str, behaviour_of(kind)]``, so a user's behaviour, registered
    with ``sim.plugin.register``, is a valid value.
    """
    def known(value: str) -> str:
        names = behaviours(kind)
        if value not in names:
            raise ValueError(f"'{value}' is not a {kind} behaviour (expected one of {sorted(names)})")
        return value

    arguments.text(kind, "kind")
    return BehaviourOf(known, names=partial(_behaviour_names, kind), what=f"{kind} behaviour", kind=kind)

