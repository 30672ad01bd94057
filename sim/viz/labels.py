"""Unit labels that do not collide: units on one spot share one label, and each label
takes the first free place around its point (boxes measured in points, the text's size
estimated from its length), so a crowded hex or position stays readable."""
from __future__ import annotations

import math
from collections.abc import Sequence

# Places tried around a point, in points (dx, dy) with the text's horizontal alignment:
# below right (the usual place), above right, below left, above left, right, left, then
# further down and up.
CANDIDATES: tuple[tuple[float, float, str], ...] = (
    (5, -10, "left"), (5, 4, "left"), (-5, -10, "right"), (-5, 4, "right"),
    (7, -3, "left"), (-7, -3, "right"), (5, -18, "left"), (5, 12, "left"),
    (-5, -18, "right"), (-5, 12, "right"))
MARKER = 5.0  # half the size of a unit's marker, in points


def text_size(text: str, fontsize: float) -> tuple[float, float]:
    """An estimate of a one-line text's (width, height) in points."""
    return 0.6 * fontsize * len(text) + 2, fontsize + 1


def points_per_unit(ax) -> float:
    """How many points one unit of data spans on ``ax`` (equal aspect), from the axes' box
    before layout: close enough to keep labels apart."""
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


def _overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def place(points_pt: Sequence[tuple[float, float]], texts: Sequence[str],
          fontsize: float) -> list[tuple[float, float, str]]:
    """An offset (dx, dy, alignment) for each label, avoiding the labels placed before
    it and every marker; the first candidate when none is free."""
    taken = [(x - MARKER, y - MARKER, x + MARKER, y + MARKER) for x, y in points_pt]
    out = []
    for (x, y), text in zip(points_pt, texts):
        w, h = text_size(text, fontsize)
        chosen = None
        for dx, dy, ha in CANDIDATES:
            left = x + dx if ha == "left" else x + dx - w
            box = (left, y + dy, left + w, y + dy + h)
            own = (x - MARKER, y - MARKER, x + MARKER, y + MARKER)
            if not any(_overlaps(box, t) for t in taken if t != own):
                chosen = (dx, dy, ha, box)
                break
        if chosen is None:
            dx, dy, ha = CANDIDATES[0]
            left = x + dx
            chosen = (dx, dy, ha, (left, y + dy, left + w, y + dy + h))
        taken.append(chosen[3])
        out.append(chosen[:3])
    return out


def annotate_units(ax, ids: Sequence[str], points: Sequence[tuple[float, float]],
                   fontsize: float = 7, y_down: bool = False) -> None:
    """Label the units at ``points``: one label per spot, placed clear of the others."""
    if not ids:
        return
    scale = points_per_unit(ax)
    groups = group_by_spot(ids, points, near=2 * MARKER / scale)
    flip = -1.0 if y_down else 1.0
    pts = [(p[0] * scale, flip * p[1] * scale) for _, p in groups]
    texts = [", ".join(members) for members, _ in groups]
    for (_, p), text, (dx, dy, ha) in zip(groups, texts, place(pts, texts, fontsize)):
        ax.annotate(text, p, textcoords="offset points", xytext=(dx, dy), ha=ha, va="bottom",
                    fontsize=fontsize, zorder=7,
                    bbox={"boxstyle": "round,pad=0.1", "facecolor": "white", "alpha": 0.6,
                          "edgecolor": "none"})
