"""Behaviours: the named choices a knob can select (a route planner, a target policy, ...).

Each kind is declared once as a ``BehaviourKind[P]``: its name (what a knob's
``behaviour_of`` names) and, as its type, the protocol ``P`` that every behaviour of the
kind follows, so ``behaviour(KIND, name).choose`` is typed. A behaviour is registered
with ``register_behaviour`` (from Python), by an installed distribution's entry point
(group ``sim.behaviours``), or as one of the package's own.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, overload

from sim.systems.declarations import PluginError, entry_points, expect_declared, load_target, malformed

__all__ = ["Behaviour", "BehaviourKind", "behaviour", "behaviours", "generation", "load_behaviours",
           "plugged_in", "register_behaviour", "registered_from_python", "unregister_behaviour"]

P = TypeVar("P", bound=Callable[..., Any])
NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")



@dataclass(frozen=True)
class BehaviourKind(Generic[P]):
    """A kind of behaviour: its name, and (its type parameter) the protocol its code follows."""

    name: str


@dataclass(frozen=True, eq=False)
class Behaviour(Generic[P]):
    """A named choice a knob can select: its kind, its name, its code (``choose``), its doc.

    ``check``, for a behaviour a ``policies.<who>`` entry selects, runs when a scenario is
    loaded: ``check(scenario, who, policy)`` gives None, or what ``run`` would refuse as
    (the policy's key at fault, what was expected), refused then naming the file and key.
    """

    kind: BehaviourKind[P] | str
    name: str
    choose: P
    doc: str = ""
    check: Callable[[Any, str, Any], tuple[str, str] | None] | None = None

    @property
    def kind_name(self) -> str:
        """The name of its kind (what a knob's ``behaviour_of`` names)."""
        return self.kind if isinstance(self.kind, str) else self.kind.name


class _Table:
    def __init__(self) -> None:
        self.entries: dict[tuple[str, str], tuple[Behaviour[Any], str]] = {}   # -> (behaviour, origin)
        self.loaded = False
        self.generation = 0


_TABLE = _Table()


def _add(b: Behaviour[Any], origin: str) -> None:
    if not isinstance(b, Behaviour) or not isinstance(b.kind, (str, BehaviourKind)) \
            or not callable(b.choose) or not NAME.match(b.name or "") \
            or not (b.check is None or callable(b.check)):
        malformed(origin, f"behaviour {getattr(b, 'name', b)!r}", "expected a sim.plugin.Behaviour with a kind, "
                  "a lower_snake_case name, a callable 'choose' and a callable 'check' or None")
    _TABLE.entries[(b.kind_name, b.name)] = (b, origin)
    _TABLE.generation += 1


def load_behaviours() -> None:
    """The package's own behaviours, then the installed plug-ins' (once): entry points of
    ``sim.behaviours``, each a ``sim.plugin.Behaviour`` or a list of them."""
    if _TABLE.loaded:
        return
    _TABLE.loaded = True
    for _, target, origin in entry_points("sim.behaviours"):
        value = load_target(target, origin, "sim.plugin.Behaviour")
        for b in value if isinstance(value, (list, tuple)) else [value]:
            if not isinstance(b, Behaviour):
                raise PluginError(f"{target} is a {type(b).__name__}; expected a sim.plugin.Behaviour",
                                  file=origin)
            _add(b, origin)


def register_behaviour(behaviour: Behaviour[P]) -> Behaviour[P]:
    """Register a named behaviour that a knob of kind ``behaviour.kind`` can select."""
    expect_declared(behaviour, Behaviour, "behaviour", "behaviour")
    load_behaviours()
    _add(behaviour, "Python")
    return behaviour


def unregister_behaviour(kind: BehaviourKind[Any] | str, name: str) -> None:
    """Remove a behaviour registered from Python."""
    key = (kind if isinstance(kind, str) else kind.name, name)
    entry = _TABLE.entries.get(key)
    if entry is None or entry[1] != "Python":
        raise KeyError(f"no behaviour '{name}' of kind '{key[0]}' registered from Python")
    del _TABLE.entries[key]
    _TABLE.generation += 1


def behaviours(kind: BehaviourKind[Any] | str) -> dict[str, Behaviour[Any]]:
    """The behaviours of a kind, by name (in registration order)."""
    load_behaviours()
    name = kind if isinstance(kind, str) else kind.name
    return {n: b for (k, n), (b, _) in _TABLE.entries.items() if k == name}


@overload
def behaviour(kind: BehaviourKind[P], name: str) -> Behaviour[P]: ...
@overload
def behaviour(kind: str, name: str) -> Behaviour[Any]: ...
def behaviour(kind: BehaviourKind[Any] | str, name: str) -> Behaviour[Any]:
    """One behaviour of a kind (typed by the kind's protocol); KeyError if there is none."""
    load_behaviours()
    return _TABLE.entries[(kind if isinstance(kind, str) else kind.name, name)][0]


def registered_from_python() -> list[Behaviour[Any]]:
    """The behaviours registered from Python."""
    return [b for b, origin in _TABLE.entries.values() if origin == "Python"]


def plugged_in() -> list[tuple[Behaviour[Any], str]]:
    """The behaviours not built in, each with where it came from (an entry point, or Python)."""
    return [(b, origin) for b, origin in _TABLE.entries.values() if origin != "built-in"]


def generation() -> int:
    """A number that changes whenever a behaviour is registered or removed."""
    return _TABLE.generation
