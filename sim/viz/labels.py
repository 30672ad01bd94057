"""Labels on a map that do not collide: units on one spot share one label, and every label
(a unit's, an area's, a waypoint's) takes the first free place around its point.

The places are chosen when the figure is drawn (``Placer``, an artist drawn before the
labels), with the text's rendered box and the axes' final size and limits: so a label
stays clear after a layout, a zoom (``set_xlim``) or a resize. A place is free when the
label's box lies inside the axes and overlaps no label placed before it and no marker
given as an obstacle. Labels are placed by rank (units' first, then areas', then
waypoints'). A label marked ``optional`` (a waypoint's name) is not drawn when its point
is under a marker (a unit stands there and is named) or it finds no free place; any other
takes its first place.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from matplotlib.artist import Artist
from matplotlib.text import Annotation
from matplotlib.transforms import Bbox

FONT = 10.0  # points: every label a projector must carry
# Places tried around a point, in points (dx, dy, horizontal, vertical alignment):
# right, below right, above right, left, below left, above left, below, above, then
# further out.
AROUND: tuple[tuple[float, float, str, str], ...] = (
    (7, 0, "left", "center"), (5, -6, "left", "top"), (5, 6, "left", "bottom"),
    (-7, 0, "right", "center"), (-5, -6, "right", "top"), (-5, 6, "right", "bottom"),
    (0, -8, "center", "top"), (0, 8, "center", "bottom"), (12, -14, "left", "top"),
    (12, 14, "left", "bottom"), (-12, -14, "right", "top"), (-12, 14, "right", "bottom"),
    (0, -20, "center", "top"), (0, 20, "center", "bottom"))
# An area's name: at its centre first, then just above or below it.
CENTRE: tuple[tuple[float, float, str, str], ...] = (
    (0, 0, "center", "center"), (0, 9, "center", "bottom"), (0, -9, "center", "top"),
    *AROUND[6:])
MARKER = 6.0  # half the size of a unit's or a mark's marker, in points
PAD = 1.5     # points kept between two labels


def points_per_unit(ax) -> float:
    """How many points one unit of data spans on ``ax`` (equal aspect), from the axes' box
    before layout: close enough to tell which units share a spot."""
    fig = ax.figure
    box = ax.get_position()
    w = box.width * fig.get_figwidth() * 72
    h = box.height * fig.get_figheight() * 72
    (x0, x1), (y0, y1) = sorted(ax.get_xlim()), sorted(ax.get_ylim())
    return min(w / max(x1 - x0, 1e-9), h / max(y1 - y0, 1e-9))


def group_by_spot(ids: Sequence[str], points: Sequence[tuple[float, float]],
                  near: float) -> list[tuple[list[str], tuple[float, float]]]:
    """Units closer than ``near`` (data units) to a group's first unit join it."""
    groups: list[tuple[list[str], tuple[float, float]]] = []
    for uid, p in zip(ids, points):
        for members, q in groups:
            if math.dist(p, q) < near:
                members.append(uid)
                break
        else:
            groups.append(([uid], p))
    return groups


def _overlaps(a: Bbox, b: Bbox) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def _shared(a: Bbox, b: Bbox) -> float:
    """The area two boxes share (0 when apart)."""
    both = Bbox.intersection(a, b)
    return 0.0 if both is None else both.width * both.height


class Placer(Artist):
    """Drawn just before the labels of its axes: moves each to its first free place."""

    def __init__(self, ax, obstacles: Callable[[], list[tuple[float, float]]]):
        """``obstacles()``: the data points of the markers no label may cover."""
        super().__init__()
        self.set_zorder(-10)  # before every label (and the ground) is drawn
        self.set_in_layout(False)
        self.ax = ax
        self.obstacles = obstacles
        self.avoid: list[tuple[float, float]] = []   # small marks: no label on them either
        self.labels: list[tuple[int, Annotation, Sequence[tuple[float, float, str, str]], bool]] = []

    def add(self, text: str, xy: tuple[float, float], places=AROUND, optional: bool = False,
            rank: int = 1, **style: Any) -> Annotation:
        """A label ``text`` for the point ``xy``, to go at the first free one of ``places``."""
        dx, dy, ha, va = places[0]
        label = self.ax.annotate(text, xy, textcoords="offset points", xytext=(dx, dy), ha=ha,
                                 va=va, fontsize=style.pop("fontsize", FONT), **style)
        label.set_in_layout(False)
        self.labels.append((rank, label, places, optional))
        return label

    def draw(self, renderer) -> None:
        """Place the labels for this drawing (nothing of its own is drawn)."""
        px = renderer.points_to_pixels(1.0)
        taken = []
        for x, y in self.obstacles():
            if math.isfinite(x) and math.isfinite(y):
                cx, cy = self.ax.transData.transform((x, y))
                r = MARKER * px
                taken.append(Bbox([[cx - r, cy - r], [cx + r, cy + r]]))
        frame = self.ax.bbox
        marks = list(taken)
        for x, y in self.avoid:
            cx, cy = self.ax.transData.transform((x, y))
            r = 0.6 * MARKER * px
            taken.append(Bbox([[cx - r, cy - r], [cx + r, cy + r]]))
        for _, label, places, optional in sorted(self.labels, key=lambda k: k[0]):
            label.set_visible(bool(label.get_text()))   # an emptied label is not drawn
            if not label.get_text():
                continue
            at = self.ax.transData.transform(label.xy)
            if not frame.contains(*at):
                continue   # its point is out of view: matplotlib does not draw the label
            if optional and any(m.contains(*at) for m in marks):
                label.set_visible(False)
                continue
            chosen = None
            least: tuple[float, tuple[float, float, str, str]] | None = None
            for place in places:
                dx, dy, ha, va = place
                label.set(position=(dx, dy), horizontalalignment=ha, verticalalignment=va)
                box = label.get_window_extent(renderer).padded(PAD * px)
                inside = (box.x0 >= frame.x0 and box.x1 <= frame.x1 and box.y0 >= frame.y0
                          and box.y1 <= frame.y1)
                if inside and not any(_overlaps(box, t) for t in taken):
                    chosen = box
                    break
                # no free place: the one covering least (off the frame counts as covered)
                cost = sum(_shared(box, t) for t in taken) + (0.0 if inside else box.width * box.height)
                if least is None or cost < least[0]:
                    least = (cost, place)
            if chosen is None:
                if optional or least is None:
                    label.set_visible(False)
                    continue
                dx, dy, ha, va = least[1]
                label.set(position=(dx, dy), horizontalalignment=ha, verticalalignment=va)
                chosen = label.get_window_extent(renderer).padded(PAD * px)
            taken.append(chosen)
        self.stale = False


def placer(ax, obstacles: Callable[[], list[tuple[float, float]]]) -> Placer:
    """The axes' label placer (made and added on first use)."""
    for child in ax.get_children():
        if isinstance(child, Placer):
            return child
    found = Placer(ax, obstacles)
    ax.add_artist(found)
    return found


def annotate_units(ax, ids: Sequence[str], points: Sequence[tuple[float, float]],
                   fontsize: float = FONT, obstacles=None) -> None:
    """Label the units at ``points``: one label per spot, placed clear of the others."""
    if not ids:
        return
    scale = points_per_unit(ax)
    groups = group_by_spot(ids, points, near=2 * MARKER / scale)
    place = placer(ax, obstacles or (lambda: list(points)))
    for members, p in groups:
        place.add(", ".join(members), p, fontsize=fontsize, zorder=7, rank=0,
                  bbox={"boxstyle": "round,pad=0.1", "facecolor": "white", "alpha": 0.7,
                        "edgecolor": "none"})
