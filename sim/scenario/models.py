"""The scenario model of a composition (a base game and its modules): the keys every
scenario has, plus each part's own, assembled from the registry and cached.

Two parts' choices of one key (their unit flags, their step types) are joined; a model one
part's derives from is that one. A unit's ``kind`` is one of the generic kinds and those
its parts read.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal, TypeVar, get_args, get_origin

from pydantic import BaseModel, Field, create_model

from sim.scenario.orders import MAX_STEPS, Group, Orders, Plan, Policies
from sim.scenario.schema import Scenario, UnitSpec
from sim.systems.composition import Composition
from sim.systems.declarations import PluginError
from sim.systems.knobs import BaseKnobs, Knobs
from sim.systems.registry import REGISTRY, compose, generation, unit_kinds_of
from sim.systems.sections import OneOf

__all__ = ["model_for"]

M = TypeVar("M", bound=BaseModel)
#: How a pickled scenario is read again (``sim.scenario.load.scenario_from_dict``, set there).
rebuild: Callable[..., Any] | None = None


class _Loaded(Scenario):
    """A scenario made by the loader: it pickles as its document, checked again where it lands."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # The model class is built per process from its rules, so a scenario travels as
        # its document, read again by the loader (``sim.scenario.load`` sets ``rebuild``).
        assert rebuild is not None
        return rebuild, (self.raw, self._file, self._lines)


def _subclass(name: str, bases: tuple[type[M], ...], **fields: Any) -> type[M]:
    return create_model(name, __base__=bases, __module__=__name__, **fields)


def _redefined(keys: type[BaseModel], common: type[BaseModel]) -> dict[str, Any]:
    """The common keys a system's model redefines, as ``create_model`` fields."""
    return {k: (f.annotation, f) for k, f in keys.model_fields.items() if k in common.model_fields}


def _union(annotations: list[Any]) -> Any | None:
    """Literal[...] or list[Literal[...]] annotations joined into one (None: not such)."""
    lists = [get_origin(a) is list for a in annotations]
    if any(lists) and not all(lists):
        return None
    inner = [get_args(a)[0] if is_list else a for a, is_list in zip(annotations, lists)]
    if not all(get_origin(a) is Literal for a in inner):
        return None
    joined = Literal[tuple(dict.fromkeys(v for a in inner for v in get_args(a)))]  # type: ignore[valid-type]
    return list[joined] if lists[0] else joined  # type: ignore[valid-type]


def _merged(name: str, models: list[type[BaseModel] | None], owners: list[str]) -> type[BaseModel] | None:
    """One model of the keys several parts add.

    A model another one derives from is that one; a key two models both define must be a
    choice (``Literal``, or a list of them), and its choices are joined (the unit flags
    of two modules, the step types of a base and a module).
    """
    given = [(m, o) for m, o in zip(models, owners) if m is not None]
    kept = [(m, o) for m, o in given if not any(n is not m and issubclass(n, m) for n, _ in given)]
    if not kept:
        return None
    if len(kept) == 1:
        return kept[0][0]
    fields: dict[str, Any] = {}
    for key in dict.fromkeys(k for m, _ in kept for k in m.model_fields):
        defining = [(m, o) for m, o in kept if key in m.model_fields]
        if len(defining) < 2:
            continue
        annotation = _union([m.model_fields[key].annotation for m, _ in defining])
        if annotation is None:
            raise PluginError(f"{' and '.join(o for _, o in defining)} both define the key '{key}' "
                              "(expected each key defined once, or a choice whose options are joined)")
        fields[key] = (annotation, defining[0][0].model_fields[key])
    return _subclass(name, tuple(m for m, _ in kept), **fields)


@dataclass(frozen=True)
class _KindCheck:
    """A unit's ``kind`` under one composition: one of ``kinds`` (the generic ones and its parts')."""

    label: str
    kinds: tuple[str, ...]

    def names(self) -> tuple[str, ...]:
        return self.kinds

    def __call__(self, value: str) -> str:
        if value not in self.kinds:
            readers = sorted(p.name for p in [*REGISTRY.bases, *REGISTRY.modules]
                             if any(k.name == value for k in p.unit_kinds))
            elsewhere = f"; '{value}' is read by {readers} only" if readers else ""
            raise ValueError(f"unknown unit kind {value!r} (expected one of {list(self.kinds)}: the generic "
                             f"kinds and those of ruleset '{self.label}'{elsewhere})")
        return value


def _kind_field(composition: Composition) -> tuple[Any, Any]:
    """The ``kind`` key of a unit under ``composition``: its kinds, checked and listed by its schema."""
    check = _KindCheck(composition.name, tuple(unit_kinds_of(composition)))
    common = UnitSpec.model_fields["kind"]
    return (Annotated[str, OneOf(check, names=check.names, what="unit kind")],
            Field(common.default, description=common.description))


@lru_cache(maxsize=64)
def _model(key: tuple[str, str, tuple[str, ...], bool], _generation: int) -> type[Scenario]:
    label, base_name, module_names, by_base = key
    composition = compose(base_name, module_names, None if by_base else label)
    parts = composition.parts
    owners = [f"{'base game' if p is composition.base else 'rule module'} '{p.name}'" for p in parts]
    name = ("base_" if by_base else "") + label.replace("+", "_")
    order_keys = _merged(f"OrderKeys_{name}", [p.order_keys for p in parts], owners)
    orders: type[BaseModel] = Orders
    if order_keys is not None:
        # an order-keys model may redefine a common key (``type``, to add a step type)
        orders = _subclass(f"Orders_{name}", (Orders, order_keys), **_redefined(order_keys, Orders))
    # list[orders], list[unit]: lists of models made at run time, types mypy cannot check.
    plan = _subclass(f"Plan_{name}", (Plan,),
                     steps=(list[orders], Field(min_length=1, max_length=MAX_STEPS)))  # type: ignore[valid-type]
    group = _subclass(f"Group_{name}", (Group,), plan=(plan, ...))
    unit_keys = _merged(f"UnitKeys_{name}", [p.unit_keys for p in parts], owners)
    unit_bases = (UnitSpec, unit_keys) if unit_keys else (UnitSpec,)
    # unit keys may redefine a common key too (``flags``: to add their own)
    own = _redefined(unit_keys, UnitSpec) if unit_keys else {}
    # unit keys of an earlier version may redefine ``kind`` (their own Literal): theirs holds
    own = {"kind": _kind_field(composition), **own}
    unit = _subclass(f"Unit_{name}", unit_bases, orders=(orders, orders()), plan=(plan | None, None), **own)
    policy_keys = _merged(f"PolicyKeys_{name}", [p.policy_keys for p in parts], owners)
    policies = _subclass(f"Policies_{name}", (Policies, policy_keys)) if policy_keys else Policies
    sections: dict[str, Any] = {}
    for section, model in composition.sections.items():
        model = model or BaseKnobs
        sections[section] = (model, model())
    rules = _subclass(f"Rules_{name}", (Knobs,), **sections)
    extra: dict[str, Any] = {}
    if by_base:   # the document names its base game and modules
        extra = {"base": (Literal[base_name], Field(description="the base game")),
                 "modules": (list[Literal[module_names]] if module_names else list[str],  # type: ignore[valid-type]
                             Field(default_factory=list, max_length=32, description="its rule modules, in order"))}
    features = {m.name: (m.features, m.features()) for m in composition.modules if m.features is not None}
    if features:
        model = _subclass(f"Features_{name}", (Knobs,), **features)
        extra["features"] = (model, model())
    model = _subclass(f"Scenario_{name}", (_Loaded,),
                      ruleset=(Literal[label], label),
                      forces=(dict[str, list[unit]], ...),  # type: ignore[valid-type]
                      rules=(rules, rules()),
                      groups=(dict[str, group], Field(default_factory=dict, max_length=500)),  # type: ignore[valid-type]
                      policies=(dict[str, policies], Field(default_factory=dict, max_length=2500)),  # type: ignore[valid-type]
                      **extra)
    model.made_for = composition
    return model


def model_for(composition: Composition) -> type[Scenario]:
    """The scenario model of a composition (a ruleset's): base keys plus its parts' own."""
    names = tuple(m.name for m in composition.modules)
    return _model((composition.name, composition.base.name, names, composition.by_base), generation())


