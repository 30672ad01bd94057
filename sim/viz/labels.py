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

A unit's label names its own marker: a place is free for it only when the label lies nearer
to one of the units it names than to any other named unit's marker (a reader takes a label
for the nearest marker's), and within ``BESIDE`` points of it. A label that finds no such
place takes the first free place further off (or, with none, the place covering least) and
a leader line to its marker (``strays`` lists the labels that would be read as another
marker's; ``check_legible`` reports them).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from matplotlib.artist import Artist
from matplotlib.lines import Line2D
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
BESIDE = 2 * MARKER   # points: a unit's label this close to its marker needs no leader line


def points_per_unit(ax) -> float:
    """How many points one unit of data spans on ``ax`` (equal aspect), from the axes' box
    before layout: close enough to tell which units share a spot."""
    fig = ax.figure
    box = ax.get_position()
    w = box.width * fig.get_figwidth() * 72
    h = box.height * fig.get_figheight() * 72
    (x0, x1), (y0, y1) = sorted(ax.get_xlim()), sorted(ax.get_ylim())
    return min(w / max(x1 - x0, 1e-9), h / max(y1 - y0, 1e-9))


def group_by_spot(ids: Sequence[Any], points: Sequence[tuple[float, float]],
                  near: float) -> list[tuple[list[Any], tuple[float, float]]]:
    """Units closer than ``near`` (in the points' units) to a group's first unit join it."""
    groups: list[tuple[list[Any], tuple[float, float]]] = []
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


def _reach(box: Bbox, x: float, y: float) -> float:
    """How far the point (x, y) lies from ``box`` (0 inside it)."""
    return math.hypot(max(box.x0 - x, 0.0, x - box.x1), max(box.y0 - y, 0.0, y - box.y1))


def _nearest_own(box: Bbox, own: list[tuple[float, float]], others: list[tuple[float, float]]) -> bool:
    """Whether ``box`` lies nearer one of the points ``own`` than every point of ``others``."""
    mine = min(_reach(box, x, y) for x, y in own)
    return all(mine < _reach(box, x, y) for x, y in others)


def _beside(box: Bbox, own: list[tuple[float, float]], others: list[tuple[float, float]],
            px: float) -> bool:
    """Whether a label in ``box`` reads as naming the markers at ``own``: nearer one of them
    than any of ``others``, and within ``BESIDE`` points of it (pixels: ``px`` a point)."""
    return _nearest_own(box, own, others) and min(_reach(box, x, y) for x, y in own) <= BESIDE * px


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
        # a unit's label: the points of the markers it names, and its leader line
        self.owners: dict[int, tuple[list[tuple[float, float]], Line2D]] = {}
        # annotate_units' labels, one a unit: joined by spot when drawn, at the final scale
        self.units: list[tuple[str, tuple[float, float], Annotation]] = []

    def add(self, text: str, xy: tuple[float, float], places=AROUND, optional: bool = False,
            rank: int = 1, names: Sequence[tuple[float, float]] | None = None,
            **style: Any) -> Annotation:
        """A label ``text`` for the point ``xy``, to go at the first free one of ``places``;
        ``names``: the points of the markers it names (it must lie nearest one of them)."""
        dx, dy, ha, va = places[0]
        label = self.ax.annotate(text, xy, textcoords="offset points", xytext=(dx, dy), ha=ha,
                                 va=va, fontsize=style.pop("fontsize", FONT), **style)
        label.set_in_layout(False)
        self.labels.append((rank, label, places, optional))
        if names is not None:
            leader = Line2D([], [], color="dimgrey", linewidth=0.8, zorder=label.get_zorder() - 0.05,
                            visible=False)
            leader.set_in_layout(False)
            self.ax.add_line(leader)
            self.owners[id(label)] = ([(float(p[0]), float(p[1])) for p in names], leader)
        return label

    def _others(self, own: list[tuple[float, float]]) -> list[tuple[float, float]]:
        """The other named markers' points (in pixels): a label naming ``own`` must not lie
        nearer to one of them."""
        mine = {(round(x, 9), round(y, 9)) for x, y in own}
        return [tuple(self.ax.transData.transform(p)) for points, _ in self.owners.values() for p in points
                if (round(p[0], 9), round(p[1], 9)) not in mine]

    def _join_units(self, px: float) -> None:
        """One label a spot, for the axes' limits and size as drawn (a zoom after the map was
        drawn parts units the whole map's scale put on one spot): units whose markers
        overlap there share their first unit's label, naming them all; the others' are emptied."""
        if not self.units:
            return
        screen = [tuple(self.ax.transData.transform(p)) for _, p, _ in self.units]
        spots = group_by_spot(range(len(self.units)), screen, near=2 * MARKER * px)
        for members, _ in spots:
            first = self.units[members[0]][2]
            first.set_text(", ".join(self.units[m][0] for m in members))
            self.owners[id(first)] = ([self.units[m][1] for m in members], self.owners[id(first)][1])
            for m in members[1:]:
                self.units[m][2].set_text("")

    def draw(self, renderer) -> None:
        """Place the labels for this drawing (nothing of its own is drawn)."""
        px = renderer.points_to_pixels(1.0)
        self._join_units(px)
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
            owner = self.owners.get(id(label))
            own = [tuple(self.ax.transData.transform(p)) for p in owner[0]] if owner else []
            others = self._others(owner[0]) if owner else []
            chosen, apart = None, None   # a free place beside its markers; a free one away
            least: tuple[float, tuple[float, float, str, str]] | None = None
            for place in places:
                dx, dy, ha, va = place
                label.set(position=(dx, dy), horizontalalignment=ha, verticalalignment=va)
                box = label.get_window_extent(renderer).padded(PAD * px)
                inside = (box.x0 >= frame.x0 and box.x1 <= frame.x1 and box.y0 >= frame.y0
                          and box.y1 <= frame.y1)
                if inside and not any(_overlaps(box, t) for t in taken):
                    if not owner or _beside(box, own, others, px):
                        chosen = box
                        break
                    apart = apart or place
                # no free place: the one covering least (off the frame counts as covered)
                cost = sum(_shared(box, t) for t in taken) + (0.0 if inside else box.width * box.height)
                if least is None or cost < least[0]:
                    least = (cost, place)
            if owner:
                owner[1].set_visible(False)
            if chosen is None:
                fallback = apart or (least[1] if least else None)
                if optional or fallback is None:
                    label.set_visible(False)
                    continue
                dx, dy, ha, va = fallback
                label.set(position=(dx, dy), horizontalalignment=ha, verticalalignment=va)
                chosen = label.get_window_extent(renderer).padded(PAD * px)
                if owner and not _beside(chosen, own, others, px):
                    self._lead(owner[1], chosen, own, px)
            taken.append(chosen)
        self.stale = False

    def _lead(self, leader: Line2D, box: Bbox, own: list[tuple[float, float]], px: float) -> None:
        """Join the label in ``box`` to the nearest of its markers ``own`` (pixels)."""
        x, y = min(own, key=lambda p: _reach(box, *p))
        bx, by = min(max(x, box.x0), box.x1), min(max(y, box.y0), box.y1)   # the box's nearest point
        gap = math.hypot(bx - x, by - y)
        r = min(MARKER * px, gap)          # stop at the marker's edge
        ex, ey = (x + (bx - x) * r / gap, y + (by - y) * r / gap) if gap else (x, y)
        inverse = self.ax.transData.inverted()
        (x0, y0), (x1, y1) = inverse.transform([(bx, by), (ex, ey)])
        leader.set_data([x0, x1], [y0, y1])
        leader.set_visible(True)


def strays(placer: Placer, renderer) -> list[str]:
    """The unit labels of ``placer`` (drawn with ``renderer``) that are not beside their own
    markers (nearer another named marker, or further than ``BESIDE`` points) and have no
    leader line to them: a reader cannot tell, or takes them for another's."""
    found = []
    for _, label, _, _ in placer.labels:
        owner = placer.owners.get(id(label))
        if owner is None or not label.get_visible() or owner[1].get_visible():
            continue
        if not placer.ax.bbox.contains(*placer.ax.transData.transform(label.xy)):
            continue   # its unit is out of view: the label is not drawn
        box = label.get_window_extent(renderer)
        own = [tuple(placer.ax.transData.transform(p)) for p in owner[0]]
        if not _beside(box, own, placer._others(owner[0]), renderer.points_to_pixels(1.0)):
            found.append(label.get_text())
    return found


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
    place = placer(ax, obstacles or (lambda: list(points)))
    for uid, p in zip(ids, points):   # joined by spot when drawn (Placer._join_units)
        label = place.add(uid, p, fontsize=fontsize, zorder=7, rank=0, names=[p],
                          bbox={"boxstyle": "round,pad=0.1", "facecolor": "white", "alpha": 0.7,
                                "edgecolor": "none"})
        place.units.append((uid, (float(p[0]), float(p[1])), label))
