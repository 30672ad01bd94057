"""What the rule modules draw on a map: each module's ``draw(scenario)`` shapes (areas,
lines, points), with one legend entry per label. ``plot_map`` and the replay (and so the
report) draw them over the ground."""
from __future__ import annotations

from typing import Any

from matplotlib.patches import Patch, Polygon

from sim.systems.games import RuleModule, Shape, ShapeKind

__all__ = ["draw_features", "module_shapes"]


def module_shapes(scenario: Any) -> list[Shape]:
    """Every shape the scenario's rule modules draw, in module order (none without a scenario)."""
    composition = getattr(scenario, "composition", None)
    if composition is None:
        return []
    out: list[Shape] = []
    for module in composition.modules:
        if isinstance(module, RuleModule) and module.draw is not None:
            out += list(module.draw(scenario))
    return out


def draw_features(ax: Any, scenario: Any) -> list[Patch]:
    """Draw the modules' shapes on ``ax``; returns one legend handle per label."""
    keys: dict[str, Patch] = {}
    for shape in module_shapes(scenario):
        xs = [p[0] for p in shape.points]
        ys = [p[1] for p in shape.points]
        if shape.kind is ShapeKind.AREA:
            ax.add_patch(Polygon(list(shape.points), closed=True, facecolor=shape.colour, alpha=0.3,
                                 edgecolor=shape.colour, hatch=shape.hatch or None, linewidth=1.2, zorder=1.5))
        elif shape.kind is ShapeKind.LINE:
            ax.plot(xs, ys, color=shape.colour, linewidth=2.2, zorder=1.6, solid_capstyle="round")
        else:
            ax.scatter(xs, ys, marker="s", s=40, color=shape.colour, zorder=1.6)
        if shape.label not in keys:
            keys[shape.label] = Patch(facecolor=shape.colour, edgecolor=shape.colour, alpha=0.45,
                                      hatch=shape.hatch or None, label=shape.label)
    return list(keys.values())
