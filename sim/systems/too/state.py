"""What the TOO system keeps during a battle, in one typed object, and the queries the
fire, spotting and game modules share (who sees whom, the cover class a figure is in)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from sim.agents.unit import Unit
from sim.engine.context import BattleContext
from sim.space.geometry import dist
from sim.systems.knobs import BaseKnobs
from sim.systems.too.figure import Figure
from sim.systems.too.knobs import TooKnobs
from sim.systems.too.tables import COVER_CLASSES, CoverClass, cover_class
from sim.toolkit.targets import SpatialGrid, cell_for


@dataclass
class TooState:
    """The knobs, every figure by unit id, the file order, and the opportunity-fire
    moments declined this phase (a figure that could not fire then)."""

    k: TooKnobs = field(default_factory=TooKnobs)
    figs: dict[str, Figure] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    declined: set[tuple[str, str, float]] = field(default_factory=set)
    refused: set[tuple[str, str]] = field(default_factory=set)   # (figure, mover): policy said no
    # Made from ``figs`` and ``order`` at first use (both are set up once, at the start):
    # the figures of each side and of its enemy in file order, each figure's place in it.
    _sides: dict[tuple[str, bool], list[Figure]] = field(default_factory=dict)
    _rank: dict[str, int] = field(default_factory=dict)
    # Per phase, each side's figures indexed where they stand: (phase, {side: index}).
    _where: tuple[object, dict[str, SpatialGrid[Unit]]] | None = None
    # unit id -> (position, the ground's cover there): figures stand still most of the time.
    _cover: dict[str, tuple[tuple[float, float], int]] = field(default_factory=dict)

    def side_figs(self, side: str) -> list[Figure]:
        """A side's figures, in file order (a list kept by the state: not to be changed)."""
        return self._of(side, True)

    def enemy_figs(self, side: str) -> list[Figure]:
        """The other side's figures, in file order (a list kept by the state: not to be changed)."""
        return self._of(side, False)

    def _of(self, side: str, own: bool) -> list[Figure]:
        found = self._sides.get((side, own))
        if found is None:
            found = self._sides[(side, own)] = [self.figs[i] for i in self.order
                                               if (self.figs[i].side == side) == own]
        return found

    def rank(self, fig: Figure) -> int:
        """The figure's place in file order (``order.index``, looked up)."""
        if not self._rank:
            self._rank.update((fid, i) for i, fid in enumerate(self.order))
        return self._rank[fig.id]

    def near(self, battle: TooBattle, side: str, pos: tuple[float, float], r: float) -> list[Figure]:
        """``side``'s figures that may stand within ``r`` of ``pos`` (a superset, any order),
        from an index made once a phase; all of them while ``side`` is moving (its
        movement phase), when no index would hold still."""
        phase = battle.clock.current
        if phase.phase != "action" and side == phase.side:
            return self.side_figs(side)
        if self._where is None or self._where[0] is not phase:
            self._where = (phase, {})
        index = self._where[1].get(side)
        if index is None:
            units = [f.unit for f in self.side_figs(side)]
            grid: SpatialGrid[Unit] = SpatialGrid(cell_for(units, max(r, 1e-6)))
            index = self._where[1][side] = grid.add_all(units)
        figs = self.figs
        return [figs[u.id] for u in index.near_segment(pos, pos, r)]

    def cover_of(self, battle: TooBattle, fig: Figure) -> CoverClass:
        """The TOO cover class where the figure stands: on a table, the highest cover of
        the areas containing its exact position (boundary included); on a hex map, its
        hex's cover."""
        terrain = battle.terrain
        if terrain.kind == "table":
            pos = fig.unit.pos
            known = self._cover.get(fig.id)
            if known is not None and known[0] == pos:
                cover = known[1]
            else:
                areas = terrain.areas
                cover = max((areas[i].type.cover for i in terrain.areas_at(pos)), default=0)
                self._cover[fig.id] = (pos, cover)
        else:
            cover = battle.cover_at(fig.unit)
        return cover_class(cover, fig.prone, COVER_CLASSES)

    def sees(self, battle: TooBattle, viewer: Figure, target: Figure,
             at: tuple[float, float] | None = None) -> bool:
        """Viewer has LOS to the target (at ``at``, default its position) within range."""
        p = target.unit.pos if at is None else at
        return (dist(viewer.unit.pos, p) <= self.k.search_range
                and battle.terrain.los_xy(viewer.unit.pos, p))

    def visible(self, battle: TooBattle, viewer: Figure, target: Figure) -> bool:
        """The target is alive, not hidden, and seen by the viewer."""
        return target.alive and not target.hidden and self.sees(battle, viewer, target)


class TooRules(Protocol):
    """The scenario's ``rules`` under TOO: the base knobs and ``rules.too``."""

    @property
    def base(self) -> BaseKnobs:
        """``rules.base``."""

    @property
    def too(self) -> TooKnobs:
        """``rules.too``."""


#: A battle under TOO, as its rules see it: strict mypy checks their use of knobs and state.
TooBattle = BattleContext[TooRules, TooState]
