"""Study designs, each declared once: where in factor space a study runs.

A design is one module (the package's own: ``sim.study.plan.designs``, one file a design)
that declares a ``Design``: its name (a study's ``factors.design``), its one-line doc, the
model of its options (its keys of ``factors`` besides ``design`` and ``vary``), how it
places a study's points, how its size is vetted, and the analyses its points support. It
enters ``REGISTRY.designs`` as any declared object does: an entry point of group
``sim.designs`` (the package's own ``pyproject.toml`` declares them as a plug-in's does), or
``sim.systems.registry.register`` from Python.
"""
from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, Protocol

from pydantic import BaseModel, ConfigDict

__all__ = ["Analysis", "Design", "DesignOptions", "Fail", "Placement", "StudyFactors"]


class Analysis(enum.Enum):
    """What ``sim analyse`` computes from a design's responses."""

    METAMODEL = "a regression tree and a linear model"
    SOBOL = "first-order and total Sobol' indices (Saltelli blocks of k + 2 rows)"
    MORRIS = "Morris elementary effects (trajectories of k + 1 rows)"


class DesignOptions(BaseModel):
    """A design's options: strict, and a key it does not take is refused."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Fail(Protocol):
    """Refuses a study's ``factors`` at a key under it (file and line added)."""

    def __call__(self, message: str, *place: str | int) -> NoReturn:
        """Raise the input error ``message`` at ``factors.<place...>``."""


class StudyFactors(Protocol):
    """A study's ``factors`` as its design sees it: ``vary`` and its checked options."""

    @property
    def vary(self) -> Mapping[str, Any]:
        """Knob key -> what the file gives for it."""

    @property
    def options(self) -> Any:
        """The design's options (an instance of its ``options`` model)."""


class Placement(Protocol):
    """Where a design puts a study's points."""

    @property
    def points(self) -> Sequence[tuple[Any, ...]]:
        """Each point's values, in ``vary`` order; points in design order."""

    @property
    def plan(self) -> Any:
        """The design's plan for the analysis (``sim.study.plan.placing.Plan``), or None."""


@dataclass(frozen=True, eq=False)
class Design:
    """A study design, declared once (module doc).

    ``vet(factors, fail)`` refuses what its options' model alone cannot (a size that is
    no power of two, a table that is too small), each at its key; ``size(factors)`` is how
    many points it gives at most, counted from the document before any row is made;
    ``place(factors, seed)`` gives its points (every random choice drawn from ``seed``).
    ``analyses``: what ``sim analyse`` computes from its responses; ``in_report``: whether
    the HTML report analyses it (a grid's cells are compared as the variants are);
    ``default``: the design of a study whose ``factors`` names none (one design says so).
    """

    name: str
    doc: str
    options: type[DesignOptions]
    place: Callable[[StudyFactors, int], Placement]
    size: Callable[[StudyFactors], int]
    vet: Callable[[StudyFactors, Fail], None] | None = None
    analyses: frozenset[Analysis] = frozenset({Analysis.METAMODEL})
    in_report: bool = True
    default: bool = False
    library: str = ""
