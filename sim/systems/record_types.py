"""The registry's ``records`` section: every record type a battle may write, read through the declarations.

They are the kernel's (``sim.records.KERNEL_RECORDS``) and each base game's and rule
module's ``records``.

A record type is declared where its records are written, never listed apart: the section
reads them, so what a composition may log (``events``), the checks of a scenario's plans,
the reference's event tables and the check of a battle's records (``checker``) all see the
same declarations. An event a part names in ``events`` (a plug-in of an earlier version)
has records of no declared type: they are checked for the contract keys alone.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from sim.events import CONTRACT_KEYS
from sim.record_check import mismatch, shape
from sim.records import KERNEL_RECORDS
from sim.systems.composition import Composition
from sim.systems.declarations import malformed
from sim.systems.games import BaseGame, RuleModule
from sim.systems.sections import Section

__all__ = ["KERNEL", "RecordType", "RecordTypes", "check_records"]

#: Who declares the kernel's records.
KERNEL = "the kernel (sim.records)"
#: The check of one record: what keeps it from its event's declared types (None: nothing).
RecordCheck = Callable[[Mapping[str, Any]], "str | None"]


@dataclass(frozen=True)
class RecordType:
    """A declared record type: its event, its ``TypedDict`` (``kind``) and who declares it."""

    event: str
    kind: type
    declared_by: str


def check_records(records: Any, origin: str, what: str) -> None:
    """A part's ``records`` map event names to checkable record types; else a ``PluginError`` naming the event."""
    if not isinstance(records, Mapping):
        malformed(origin, what, f"'records' is a {type(records).__name__}; expected a dict of event names "
                                "to TypedDicts of sim.records.Record")
    for event, kind in records.items():
        if not isinstance(event, str) or not event:
            malformed(origin, what, f"'records' key {event!r}: expected an event name (a string)")
        try:
            shape(kind)
        except TypeError as exc:
            malformed(origin, what, f"records['{event}']: {exc}")


def _declared_by(part: BaseGame | RuleModule) -> str:
    return f"{'base game' if isinstance(part, BaseGame) else 'rule module'} '{part.name}'"


class RecordTypes:
    """Every declared record type, read through the kernel's and the parts' declarations (module doc)."""

    def __init__(self, bases: Section[BaseGame], modules: Section[RuleModule]) -> None:
        self._bases = bases
        self._modules = modules

    @staticmethod
    def kernel() -> list[RecordType]:
        """The records any battle may write, whatever its rules."""
        return [RecordType(event, kind, KERNEL) for event, kind in KERNEL_RECORDS.items()]

    @staticmethod
    def of_part(part: BaseGame | RuleModule) -> list[RecordType]:
        """The records a base game or rule module declares."""
        by = _declared_by(part)
        return [RecordType(event, kind, by) for event, kind in part.records.items()]

    def __iter__(self) -> Iterator[RecordType]:
        """The kernel's record types, then every base game's and module's (each loaded), by name."""
        yield from self.kernel()
        for part in [*self._bases, *self._modules]:
            yield from self.of_part(part)

    @staticmethod
    def of_services(composition: Composition) -> list[RecordType]:
        """The records of the base game's services its modules need (a pin's, say)."""
        base = composition.base
        needed = {n for m in composition.modules for n in m.needs}
        by = f"{_declared_by(base)}'s services"
        return [RecordType(event, kind, by) for service, records in base.service_records.items()
                if service in needed for event, kind in records.items()]

    def of(self, composition: Composition) -> dict[str, list[RecordType]]:
        """The record types a battle under ``composition`` may write, by event: the kernel's, then its parts'."""
        out: dict[str, list[RecordType]] = {}
        for declared in [*self.kernel(), *(t for p in composition.parts for t in self.of_part(p)),
                         *self.of_services(composition)]:
            out.setdefault(declared.event, []).append(declared)
        return out

    def events(self, composition: Composition) -> frozenset[str]:
        """Every event a battle under ``composition`` may write: its record types' and those its parts name."""
        return frozenset(self.of(composition)) | composition.events

    def checker(self, composition: Composition) -> RecordCheck:
        """The check of a record of a battle under ``composition`` against its event's declared types."""
        kinds = {event: tuple(dict.fromkeys(t.kind for t in types)) for event, types in self.of(composition).items()}
        named = frozenset().union(*(p.events for p in composition.parts))   # written by a part untyped

        def check(record: Mapping[str, Any]) -> str | None:
            event = record.get("event")
            if not isinstance(event, str) or (event not in kinds and event not in named):
                return f"event {event!r} is declared by none of {composition.name}'s parts nor the kernel"
            if event in named:   # some part writes it without a type: the contract keys at least
                missing = [k for k in CONTRACT_KEYS if k not in record]
                return f"no contract keys {missing}" if missing else None
            return mismatch(record, kinds[event])

        return check
