"""Snap fire's reaction kinds, one module a kind: what ``rules.snapfire.reaction`` chooses.

Each module here declares its ``KIND`` (a ``sim.systems.games.ReactionKind`` of module
``snapfire``: its watch, radius, whether a side may decline it, and what a mover must do
before its move); ``discover`` finds them all, and the snap-fire module lists them
(``RuleModule.reactions``), so they enter ``REGISTRY.reactions`` with it. A new kind is one
new file here; the knob then accepts its name, and its JSON Schema lists it.
"""
from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from sim.agents.unit import Unit
from sim.engine.context import Watch
from sim.systems.declarations import PluginError
from sim.systems.games import ReactionKind
from sim.systems.snapfire.knobs import SnapFireKnobs

__all__ = ["PhasedWatch", "SnapReaction", "discover"]


class PhasedWatch(Watch):
    """A snap-fire reaction's watch: told when a moving phase starts (SF.ONCE resets then)."""

    def begin_phase(self, movers: list[Unit]) -> None:
        """A moving phase starts for ``movers`` (default: nothing to reset)."""


#: A snap-fire reaction kind: made from ``rules.snapfire``, its watch told of each moving phase.
SnapReaction = ReactionKind[SnapFireKnobs, PhasedWatch]


def discover(package: str = __name__) -> tuple[ReactionKind[Any, Any], ...]:
    """The reaction kinds of ``package``'s modules (each declares ``KIND``), in name order.

    Every folder of the package's ``__path__`` is searched, so a module added to it is found.
    """
    kinds = []
    for found in sorted(pkgutil.iter_modules(importlib.import_module(package).__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{package}.{found.name}")
        kind = getattr(module, "KIND", None)
        if not isinstance(kind, ReactionKind):
            raise PluginError(f"{module.__name__} declares no reaction kind (expected KIND, a "
                              "sim.systems.games.ReactionKind)")
        kinds.append(kind)
    return tuple(kinds)
