"""Lazy cells: a study's cells hold their overrides, not their resolved scenarios.

A cell's scenario is the study's scenario with the cell's overrides applied. Building it
in full (schema, terrain, map and set-up checks) costs milliseconds and tens of kilobytes,
so a study of 10,000 cells that kept every one took minutes and gigabytes to load. Here:

- every cell is *checked cheaply* at load time: its overrides are applied to the raw
  document and the whole document is validated against the schema, which also gives the
  cell's scenario hash (the hash of the validated model, the same number a full build
  gives, so study hashes do not change);
- the full build (terrain, map references, the rules' set-up checks) runs at load time
  for every cell of a small study, and for a sample of the cells of a large one (each
  variant's first cell and the cells at each factor's lowest and highest value and at the
  first appearance of each of its levels); a cell is otherwise built in full only where it
  runs, once per worker process (``Recipe``);
- nothing keeps a resolved scenario: ``Cell.scenario`` builds it on demand.
"""
from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from sim.errors import InputError

# Up to this many cells, every cell is built in full at load time (about 3 s).
FULL_CHECK_CELLS = 200


@dataclass(frozen=True)
class ScenarioDoc:
    """A scenario as shipped to a worker: the document it was read from (cheap to pickle:
    a scenario's models are built per process from its rule system) and the rule systems
    registered from Python here that the worker may not know (a notebook's, a test's), and
    the plug-in modules imported here (``--plugin``, ``SIM_PLUGINS``), which it imports."""

    raw: dict[str, Any]
    file: str
    systems: tuple[Any, ...] = ()
    plugins: tuple[str, ...] = ()

    def build(self) -> Any:
        """The scenario, checked in full (its plug-ins and rule system registered first if need be)."""
        from sim.scenario.load import scenario_from_dict
        from sim.systems.plugins import load_modules
        from sim.systems.registry import REGISTRY, register

        load_modules(self.plugins, "the study's plug-in modules", checked=True)
        for declared in self.systems:   # what the study's process registered from Python
            if not any(declared.name in s and s.get(declared.name) is declared for s in
                       (REGISTRY.bases, REGISTRY.modules, REGISTRY.rulesets)):
                register(declared, replace=True)
        return scenario_from_dict(self.raw, self.file)


def portable(scenario: Any) -> Any:
    """What a task carries of a scenario: a ``ScenarioDoc`` for a loaded one, anything
    else (a test's stand-in) as it is."""
    from sim.scenario.schema import Scenario
    from sim.systems.plugins import imported
    from sim.systems.registry import REGISTRY

    if not isinstance(scenario, Scenario):
        return scenario
    composition = scenario.composition
    local: list[Any] = [p for p in composition.parts if p in REGISTRY.bases.from_python()
                        or p in REGISTRY.modules.from_python()]
    if composition.name in REGISTRY.rulesets and REGISTRY.rulesets.origin(composition.name) == "Python":
        local.append(REGISTRY.rulesets.get(composition.name))
    return ScenarioDoc(scenario.raw, scenario.file, tuple(local), imported())


@dataclass(frozen=True)
class Recipe:
    """How a worker builds a cell's scenario: the base scenario's document and the cell's
    overrides. Built once per worker process."""

    base: ScenarioDoc
    overrides: dict[str, Any]
    source: str

    def resolve(self) -> Any:
        """The cell's scenario, built and checked in full."""
        from sim.scenario.load import apply_overrides

        return apply_overrides(self.base.build(), self.overrides, source=self.source)


def resolved(shipped: Any) -> Any:
    """A task's scenario: a ``Recipe`` or a ``ScenarioDoc`` is built, anything else is
    taken as it is."""
    if isinstance(shipped, (Recipe, ScenarioDoc)):
        return shipped.resolve() if isinstance(shipped, Recipe) else shipped.build()
    return shipped


@dataclass
class Resolver:
    """Builds the cells' scenarios from the base scenario, cheaply or in full."""

    base: Any
    source: str
    full: Callable[[dict[str, Any]], Any] = field(repr=False)  # overrides -> scenario, InputError
    light: Any = field(default=None, repr=False)  # the base without its terrain: it pickles

    def scenario(self, overrides: dict[str, Any]) -> Any:
        """The scenario with ``overrides``, built in full (the base itself when none)."""
        return self.full(overrides) if overrides else self.base

    def cheap_hash(self, overrides: dict[str, Any]) -> str | None:
        """The scenario hash of the base with ``overrides``, from a schema check of the
        whole document; None when the check fails (the full build then says why)."""
        from sim.scenario import load as scen

        if not overrides:
            return scen.scenario_hash(self.base)
        doc = copy.deepcopy(self.base.raw)
        try:
            for key, value in overrides.items():
                # The loader's own dotted-path setter: a key means what it means in --set.
                scen.set_path(doc, key, value, self.source)
            model = scen.model_of(doc, self.source)
        except (ValidationError, InputError):
            return None
        text = json.dumps(model.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def recipe(self, overrides: dict[str, Any]) -> Any:
        """What a task ships for a cell: a ``Recipe`` (the base when there are no overrides).
        Every recipe shares one copy of the base, so tasks cost the parent little memory."""
        return Recipe(self.light, dict(overrides), self.source) if overrides else self.light


def probe_indices(points: list[tuple[tuple[str, Any], ...]]) -> set[int]:
    """The points a large study builds in full at load time: the first, and for each
    factor the points at its lowest and highest value and at each level's first use."""
    chosen = {0} if points else set()
    if not points or not points[0]:
        return chosen
    for k in range(len(points[0])):
        values = [p[k][1] for p in points]
        numeric = [i for i, v in enumerate(values)
                   if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if numeric:
            chosen.add(min(numeric, key=lambda i: values[i]))
            chosen.add(max(numeric, key=lambda i: values[i]))
        seen: set[str] = set()
        for i, v in enumerate(values):
            tag = json.dumps(v, sort_keys=True)
            if i not in numeric and tag not in seen:
                seen.add(tag)
                chosen.add(i)
    return chosen
