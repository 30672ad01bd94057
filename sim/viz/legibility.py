"""Can a class read this picture on a projector? ``check_legible(fig)`` draws the figure
and lists what would stop it, one line a problem (an empty list: nothing found).

The rules, measured on the rendered figure (window extents from the Agg renderer, so
after the layout engine has run):

- **size**: every text actually drawn (titles, axis and tick labels, annotations, legend
  entries and titles, colour-bar labels) is at least ``min_size`` points once the figure
  is shown ``width`` pixels wide. A figure saved at ``dpi`` dots per inch is
  ``figure width × dpi`` pixels; wider than ``width`` it is shrunk to fit, and so is its
  text (a 10 pt label on a 16 in figure at 100 dpi reads as 8 pt at 1280 px);
- **text over text**: no two drawn, non-empty texts have rendered boxes that overlap by
  more than ``slack`` pixels both ways (a box is the text's axis-aligned extent);
- **words apart**: two texts side by side on one line (their boxes overlap by more than
  half the lower one's height) are at least ``GAP`` pixels apart: tick labels that touch
  ("-0.0050-0.0025") read as one;
- **legends beside the data**: no legend's box overlaps the data area (the axes patch) of
  any visible axes of the figure by more than ``slack`` pixels both ways. Legends go
  outside the axes (``bbox_to_anchor``, ``fig.legend(loc="outside ...")``), never on top
  of the data, however empty that corner looks;
- **inside the figure**: no drawn text reaches more than ``slack`` pixels beyond the
  figure's edge (it would be cut off when saved);
- **labels beside their markers**: a map's unit label (``sim.viz.labels``) lies nearer one
  of the units it names than any other named unit, and close to it, or has a leader line
  to it: a label beside another unit's marker is read as that unit's.

Only what is drawn counts: a tick label outside the view, an annotation clipped away or a
hidden axes is not looked at. The figure keeps its canvas.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.legend import Legend
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from sim import arguments
from sim.viz.labels import Placer, strays

WIDTH = 1280      # pixels: what a classroom projector shows
DPI = 100         # the notebooks' inline pictures and sim's PNGs (farming plots: 110)
MIN_SIZE = 10.0   # points, once shown WIDTH pixels wide
SLACK = 1.0       # pixels: boxes that merely touch do not overlap
GAP = 2.0         # pixels: the least space between two texts on one line


def _drawn_texts(fig, renderer) -> list[Text]:
    """Draw ``fig`` with ``renderer``, recording every Text that reaches the renderer."""
    seen: dict[int, Text] = {}
    real = renderer.draw_text

    def record(gc, x, y, s, prop, angle, ismath=False, mtext=None):
        if mtext is not None:
            seen.setdefault(id(mtext), mtext)
        return real(gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)

    fig.draw(renderer)   # once to settle the layout (as saving it does), then looked at
    renderer.draw_text = record
    try:
        fig.draw(renderer)
    finally:
        del renderer.draw_text
    return [t for t in seen.values() if t.get_text().strip()]


def _name(text: Text) -> str:
    """A text as a reader finds it: its words, and the panel it is in."""
    words = " ".join(text.get_text().split())
    words = words if len(words) <= 40 else words[:37] + "..."
    title = getattr(text.axes, "get_title", str)()
    where = f' in the panel "{title}"' if title else ""
    return f'"{words}"{where}'


def _overlap(a: Bbox, b: Bbox, slack: float) -> bool:
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    return w > slack and h > slack


def _run_together(a: Bbox, b: Bbox) -> bool:
    """Side by side on one line, with less than ``GAP`` pixels between them."""
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    if h <= 0.5 * min(a.height, b.height):
        return False
    gap = max(a.x0, b.x0) - min(a.x1, b.x1)
    return gap < GAP
def _legends(fig) -> list[Legend]:
    found = [lg for lg in fig.legends if lg.get_visible()]
    for ax in fig.axes:
        lg = ax.get_legend()
        if ax.get_visible() and lg is not None and lg.get_visible():
            found.append(lg)
    return found


def check_legible(fig: Any, *, width: int = WIDTH, dpi: float = DPI,
                  min_size: float = MIN_SIZE, slack: float = SLACK) -> list[str]:
    """What keeps ``fig`` from being read ``width`` px wide: small text, text over text, legends on data."""
    from matplotlib.figure import Figure

    if not isinstance(fig, Figure):
        raise arguments.fail("fig", "a matplotlib Figure", fig)
    arguments.count(width, "width")
    arguments.number(dpi, "dpi", positive=True)
    arguments.number(min_size, "min_size", least=0)
    arguments.number(slack, "slack", least=0)
    old = fig.canvas
    try:
        renderer = FigureCanvasAgg(fig).get_renderer()
        texts = _drawn_texts(fig, renderer)
        boxes = [Text.get_window_extent(t, renderer) for t in texts]   # an arrow is not text
        legend_boxes = [(lg, lg.get_window_extent(renderer)) for lg in _legends(fig)]
        fig_box = fig.bbox.frozen()
        astray = [(ax, name) for ax in fig.axes if ax.get_visible() for child in ax.get_children()
                  if isinstance(child, Placer) for name in strays(child, renderer)]
    finally:
        fig.set_canvas(old)
    shown = width / (fig.get_figwidth() * dpi)
    scale = min(1.0, shown)
    problems = []
    for t in texts:
        size = float(t.get_fontsize()) * scale
        if size < min_size - 1e-9:
            shrunk = f", shrunk to {size:.1f} pt at {width} px" if scale < 1 else ""
            problems.append(f"text {_name(t)} is {t.get_fontsize():g} pt{shrunk} "
                            f"(at least {min_size:g} pt)")
    for (a, ba), (b, bb) in combinations(zip(texts, boxes), 2):
        if _overlap(ba, bb, slack):
            problems.append(f"text {_name(a)} overlaps text {_name(b)}")
        elif _run_together(ba, bb):
            problems.append(f"text {_name(a)} runs into text {_name(b)} (less than {GAP:g} px apart)")
    for t, box in zip(texts, boxes):
        if (box.x0 < fig_box.x0 - slack or box.y0 < fig_box.y0 - slack
                or box.x1 > fig_box.x1 + slack or box.y1 > fig_box.y1 + slack):
            problems.append(f"text {_name(t)} runs off the figure's edge")
    for lg, box in legend_boxes:
        for ax in fig.axes:
            if ax.get_visible() and _overlap(box, ax.bbox, slack):
                title = f' "{ax.get_title()}"' if ax.get_title() else ""
                first = lg.get_texts()[0].get_text() if lg.get_texts() else ""
                problems.append(f'the legend ("{first}", ...) lies over the data of the '
                                f"panel{title}")
    for ax, name in astray:
        title = f' "{ax.get_title()}"' if ax.get_title() else ""
        problems.append(f'the label "{name}" of the panel{title} lies beside another unit\'s marker, '
                        f"or away from its own with no line to it")
    return problems


__all__ = ["DPI", "MIN_SIZE", "WIDTH", "check_legible"]
