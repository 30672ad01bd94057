"""The strict, read-only models a scenario is made of: ``Sealed``, ``Knobs``, ``BaseKnobs``.

A leaf module (it imports no other part of ``sim`` but its errors), so the registry can
hold a rule system's models to ``Knobs`` when the system is registered.
"""
from __future__ import annotations

import copy
from typing import Any, ClassVar, NoReturn, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from sim.errors import InputError

# Every decimal knob refuses NaN and infinities: Field(..., allow_inf_nan=False).


class FrozenList(list[Any]):
    """A list of a loaded scenario: read as a list, refused when changed in place."""

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise InputError("cannot change a list of a scenario in place: a scenario is immutable "
                         "(use sim.apply_overrides(scenario, {'<key path>': [...]}), which returns "
                         "a checked copy)")

    append = extend = insert = remove = pop = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse

    def __reduce__(self) -> tuple[Any, ...]:   # pickled (to workers) as what it holds
        return (FrozenList, (list(self),))

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenList:
        return FrozenList(copy.deepcopy(list(self), memo))


class FrozenDict(dict[Any, Any]):
    """A mapping of a loaded scenario: read as a dict, refused when changed in place."""

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise InputError("cannot change a mapping of a scenario in place: a scenario is "
                         "immutable (use sim.apply_overrides(scenario, {'<key path>': ...}), "
                         "which returns a checked copy)")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenDict:
        return FrozenDict(copy.deepcopy(dict(self), memo))


def freeze(value: Any) -> Any:
    """``value`` with its lists and dicts, at any depth, made read-only.

    Models are left as they are: a ``Sealed`` part freezes its own.
    """
    if isinstance(value, list) and not isinstance(value, FrozenList):
        return FrozenList(freeze(v) for v in value)
    if isinstance(value, dict) and not isinstance(value, FrozenDict):
        return FrozenDict((k, freeze(v)) for k, v in value.items())
    return value


class Sealed(BaseModel):
    """A part of a loaded scenario: strict, and read-only once made.

    A scenario is checked as a whole and travels (to workers, through overrides) as the
    document it was read from, so a field set afterwards would hold in one path and be
    lost in another: setting or deleting a field is an ``InputError`` pointing to
    ``sim.apply_overrides``, which makes a checked copy.
    """

    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)

    @model_validator(mode="after")
    def _freeze_containers(self) -> Self:
        # Lists and dicts too: `scenario.forces["blue"].append(...)` would hold in
        # `sim.run(s)` and be lost where the document is rebuilt.
        for name, value in self.__dict__.items():
            frozen = freeze(value)
            if frozen is not value:
                self.__dict__[name] = frozen
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        if name.startswith("_"):   # private state: the loader's provenance, built caches
            super().__setattr__(name, value)
        else:
            self._refuse(name, value)

    def __delattr__(self, name: str) -> None:
        if name.startswith("_"):
            super().__delattr__(name)
        else:
            self._refuse(name, ...)

    # How the refusal writes the field's key path (a scenario's own fields: the key itself).
    _path_prefix: ClassVar[str] = "<key path>."

    def _refuse(self, name: str, value: Any) -> NoReturn:
        shown = repr(value) if value is not ... and len(repr(value)) <= 40 else "..."
        part = "" if not self._path_prefix else f" (of a {type(self).__name__})"
        raise InputError(f"cannot set '{name}'{part}: a scenario is immutable (use "
                         f"sim.apply_overrides(scenario, {{'{self._path_prefix}{name}': {shown}}}), "
                         "which returns a checked copy)")


class Knobs(Sealed):
    """A strict knob model: unknown keys are errors and nothing is coerced.

    ``radius: true`` or ``radius: "10"`` is refused.
    """


class BaseKnobs(Knobs):
    """``rules.base``: what every rule system reads (the length of a phase)."""

    phase_length: float = Field(1.0, gt=0, le=1000, allow_inf_nan=False, description=(
        "the simulated duration of each phase; a unit's move takes its share of it (the unit "
        "of simulated time in logs and timelines)"))
