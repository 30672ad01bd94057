"""The knob models' common ground.

Strict models, ``rules.base`` read by every system, and the ``charge`` order two systems read.

A scenario may set only the knob sections its rule system reads (``base`` and its own):
a knob that would be ignored is an error, never silently dropped. A rule system declares
its section's model (a ``Knobs`` subclass) once, in its ``RuleSystem``.
"""
from __future__ import annotations

from typing import Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from sim.systems.registry import behaviours

# Every decimal knob refuses NaN and infinities: Field(..., allow_inf_nan=False).


class Knobs(BaseModel):
    """A strict knob model: unknown keys are errors and nothing is coerced.

    ``radius: true`` or ``radius: "10"`` is refused.
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=True, strict=True)


class BaseKnobs(Knobs):
    """``rules.base``: what every rule system reads (the length of a phase)."""

    phase_length: float = Field(1.0, gt=0, le=1000, allow_inf_nan=False)


class ChargeOrders(Knobs):
    """The orders key ``charge`` (and the step type ``charge``: an advance that charges).

    The unit may enter enemy zones of control (SF.ZOC) and assaults in the assault phase
    (BASE.S.ASSAULT, BASE.F.ASSAULT).
    """

    charge: bool = False

    @model_validator(mode="before")
    @classmethod
    def _charge_step(cls, data: Any) -> Any:
        # A plan names a charge as a movement: ``type: charge`` is an advance that charges.
        if isinstance(data, dict) and data.get("type") == "charge":
            if data.get("charge") is False:
                raise ValueError("a step of type 'charge' charges (drop 'charge: false')")
            return {**data, "type": "advance", "charge": True}
        return data


def behaviour_of(kind: str, field: str | None = None) -> AfterValidator:
    """The check of a knob whose value names a registered behaviour of ``kind``.

    The knob is ``Annotated[str, behaviour_of(kind)]`` (or a model whose ``field`` names
    it), so a user's behaviour, registered with ``sim.register_behaviour``, is a valid
    value.
    """
    def known(value: Any) -> Any:
        name = getattr(value, field) if field is not None else value
        names = behaviours(kind)
        if name not in names:
            raise ValueError(f"'{name}' is not a {kind} behaviour (expected one of {sorted(names)})")
        return value

    return AfterValidator(known)
