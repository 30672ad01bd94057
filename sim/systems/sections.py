"""One kind of declared object in the registry: a ``Section`` of it, by name.

Each section is filled through one door: the entry points of its group (``sim.bases``,
``sim.modules``, ...), the package's own included (its ``pyproject.toml`` declares them as
any distribution does), and ``register`` from Python (a notebook, a ``--plugin`` module).
An entry point is imported the first time its name is asked for, so a plug-in that is
never used is never imported. Whatever a section refuses is a ``PluginError``: one line
naming the plug-in and what is wrong.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from pydantic import AfterValidator, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from sim.systems.declarations import BUILT_IN, PluginError, entry_points, load_target, malformed

__all__ = ["BUILT_IN", "PYTHON", "Entry", "OneOf", "Section", "one_of"]


class Named(Protocol):
    """A declared object: it has a name."""

    @property
    def name(self) -> str:
        """Its name, unique in its section."""


T = TypeVar("T", bound=Named)

#: The origin of what is registered from Python.
PYTHON = "Python"


@dataclass
class Entry(Generic[T]):
    """A declared object and where it came from."""

    value: T
    origin: str


class Section(Generic[T]):
    """The declared objects of one kind, by name (``kind`` says it in words).

    ``check(value, origin)`` refuses a malformed one; ``expected`` is its class.
    """

    def __init__(self, kind: str, group: str | None, expected: type[T],
                 check: Callable[[T, str], None], on_change: Callable[[], None]) -> None:
        self.kind = kind
        self.group = group
        self.expected = expected
        self._check = check
        self._changed = on_change
        self._entries: dict[str, Entry[T]] = {}
        self._pending: dict[str, tuple[str, str]] | None = None   # name -> (target, origin)

    # -- finding -----------------------------------------------------------------------
    def _waiting(self) -> dict[str, tuple[str, str]]:
        if self._pending is None:
            found: dict[str, tuple[str, str]] = {}
            for name, target, origin in entry_points(self.group) if self.group else []:
                taken = found.get(name)
                if taken is not None:
                    raise PluginError(f"names {self.kind} '{name}', which {taken[1]} already provides "
                                      "(expected a new name)", file=origin)
                found[name] = (target, origin)
            self._pending = {n: v for n, v in found.items() if n not in self._entries}
        return self._pending

    def _load(self, name: str) -> None:
        target, origin = self._waiting().pop(name)
        value = load_target(target, origin, f"sim {self.expected.__name__}")
        if not isinstance(value, self.expected):
            raise PluginError(f"{target} is a {type(value).__name__}; expected a {self.expected.__name__}",
                              file=origin)
        declared = getattr(value, "name", name)
        if declared != name:
            raise PluginError(f"{target} declares {self.kind} '{declared}' under the name '{name}' "
                              "(expected the same name)", file=origin)
        self.add(value, origin)

    def names(self) -> list[str]:
        """Every name, loaded or not, in order."""
        return sorted(set(self._entries) | set(self._waiting()))

    def get(self, name: str) -> T:
        """The object called ``name`` (imported on first use); KeyError if there is none."""
        entry = self._entries.get(name)
        if entry is None:
            if name not in self._waiting():
                raise KeyError(name)
            self._load(name)
            entry = self._entries[name]
        return entry.value

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in self._entries or name in self._waiting())

    def __iter__(self) -> Iterator[T]:
        """Every object, each loaded, in name order."""
        return iter([self.get(n) for n in self.names()])

    def origin(self, name: str) -> str:
        """Where ``name`` came from: built-in, an entry point, or Python."""
        self.get(name)
        return self._entries[name].origin

    def from_python(self) -> list[T]:
        """The objects registered from Python."""
        return [e.value for e in self._entries.values() if e.origin == PYTHON]

    # -- adding --------------------------------------------------------------------------
    def add(self, value: T, origin: str) -> None:
        """Add a declared object (checked first) from ``origin``."""
        self._check(value, origin)
        self._entries[value.name] = Entry(value, origin)
        self._changed()

    def register(self, value: Any, replace: bool = False) -> T:
        """Add from Python (a name another plug-in took is refused unless ``replace``).

        A name already taken by a built-in or an installed plug-in is refused unless
        ``replace``; one registered from Python before is replaced.
        """
        if not isinstance(value, self.expected):
            malformed(PYTHON, f"{self.kind} {getattr(value, 'name', value)!r}",
                      f"is a {type(value).__name__}; expected a sim {self.expected.__name__}")
        name = getattr(value, "name", None)
        waiting = self._waiting()
        taken = self._entries.get(name) if isinstance(name, str) else None
        if not replace and (name in waiting or (taken is not None and taken.origin != PYTHON)):
            where = waiting[name][1] if name in waiting else taken.origin if taken else ""
            malformed(PYTHON, f"{self.kind} '{name}'", f"the name is taken ({where}); pass replace=True "
                                                       "to replace it")
        if isinstance(name, str):
            waiting.pop(name, None)
        self.add(value, PYTHON)
        return value

    def forget(self, name: str) -> None:
        """Remove ``name`` whatever its origin (what came in with a declaration then refused)."""
        self._entries.pop(name, None)
        self._changed()

    def unregister(self, name: str) -> None:
        """Remove an object registered from Python (tests and notebooks clean up)."""
        entry = self._entries.get(name)
        if entry is None or entry.origin != PYTHON:
            raise KeyError(f"no {self.kind} '{name}' registered from Python")
        del self._entries[name]
        self._pending = None   # found afresh: an entry point of that name comes back
        self._changed()


@dataclass(frozen=True)
class OneOf(AfterValidator):
    """The check of a value naming a declared object, one of ``names()`` (``what`` says of what).

    Its JSON Schema lists the names declared when the schema is made.
    """

    names: Callable[[], Sequence[str]] = tuple
    what: str = ""

    def __get_pydantic_json_schema__(self, schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        """The string's schema, with the declared names as its enumeration."""
        out = handler(schema)
        out["enum"] = list(self.names())
        return out


def one_of(names: Callable[[], Sequence[str]], what: str, among: str = "") -> OneOf:
    """The check of a knob or key whose value is one of ``names()`` (looked up when it is checked).

    It is ``Annotated[str, one_of(...)]``; a value not among them is refused naming ``what``
    it should be and the names (``among`` adds where they come from).
    """
    def known(value: str) -> str:
        found = list(names())
        if value not in found:
            raise ValueError(f"unknown {what} {value!r} (expected one of {found}{among})")
        return value

    return OneOf(known, names=names, what=what)
