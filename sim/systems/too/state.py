"""What the TOO system keeps during a battle, in one typed object, and the queries the
fire, spotting and game modules share (who sees whom, the cover class a figure is in)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from shapely.geometry import Point

from sim.engine.context import BattleContext
from sim.space.geometry import dist
from sim.systems.too.figure import Figure
from sim.systems.too.knobs import TooKnobs
from sim.systems.too.tables import COVER_CLASSES, CoverClass, cover_class

if TYPE_CHECKING:
    from sim.systems.too.watch import OpportunityWatch


@dataclass
class TooState:
    """The knobs, every figure by unit id, the file order, and the opportunity-fire
    moments declined this phase (a figure that could not fire then)."""

    k: TooKnobs = field(default_factory=TooKnobs)
    figs: dict[str, Figure] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    declined: set[tuple[str, str, float]] = field(default_factory=set)
    refused: set[tuple[str, str]] = field(default_factory=set)   # (figure, mover): policy said no
    watch: OpportunityWatch | None = None

    def side_figs(self, side: str) -> list[Figure]:
        """A side's figures, in file order."""
        return [self.figs[i] for i in self.order if self.figs[i].side == side]

    def enemy_figs(self, side: str) -> list[Figure]:
        """The other side's figures, in file order."""
        return [self.figs[i] for i in self.order if self.figs[i].side != side]

    def cover_of(self, battle: BattleContext, fig: Figure) -> CoverClass:
        """The TOO cover class where the figure stands: on a table, the highest cover of
        the areas containing its exact position (boundary included); on a hex map, its
        hex's cover."""
        terrain = battle.terrain
        if terrain.kind == "table":
            p = Point(fig.unit.pos)
            cover = max((a.type.cover for a in terrain.areas if a.polygon.covers(p)), default=0)
        else:
            cover = battle.cover_at(fig.unit)
        return cover_class(cover, fig.prone, COVER_CLASSES)

    def sees(self, battle: BattleContext, viewer: Figure, target: Figure,
             at: tuple[float, float] | None = None) -> bool:
        """Viewer has LOS to the target (at ``at``, default its position) within range."""
        p = target.unit.pos if at is None else at
        return (dist(viewer.unit.pos, p) <= self.k.search_range
                and battle.terrain.los_xy(viewer.unit.pos, p))

    def visible(self, battle: BattleContext, viewer: Figure, target: Figure) -> bool:
        """The target is alive, not hidden, and seen by the viewer."""
        return target.alive and not target.hidden and self.sees(battle, viewer, target)


def state_of(battle: BattleContext) -> TooState:
    """The battle's TOO state."""
    return cast(TooState, battle.state)
