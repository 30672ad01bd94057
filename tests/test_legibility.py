"""check_legible: deliberately bad figures are flagged (small text, labels over labels, a
legend over the data, text off the figure, a figure shrunk to fit 1280 px) and good ones
pass; it draws without changing the figure's canvas."""
from __future__ import annotations

import pytest
from matplotlib.figure import Figure

from sim.errors import InputError
from sim.viz import check_legible


def good(width=8.0):
    fig = Figure(figsize=(width, 4), layout="constrained")
    ax = fig.add_subplot()
    ax.plot([0, 1], [0, 1], label="a line")
    ax.set_title("a title")
    ax.set_xlabel("x")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1))
    return fig, ax


def test_a_good_figure_passes_and_keeps_its_canvas():
    fig, _ = good()
    canvas = fig.canvas
    assert check_legible(fig) == []
    assert fig.canvas is canvas


def test_small_text_is_flagged():
    fig, ax = good()
    ax.text(0.5, 0.2, "tiny", fontsize=7)
    assert check_legible(fig) == ['text "tiny" in the panel "a title" is 7 pt (at least 10 pt)']


def test_overlapping_labels_are_flagged_and_touching_ones_are_not():
    fig, ax = good()
    ax.text(0.5, 0.5, "hedge1", fontsize=10)
    ax.text(0.52, 0.5, "R1", fontsize=10)
    (problem,) = check_legible(fig)
    assert problem == 'text "hedge1" in the panel "a title" overlaps text "R1" in the panel "a title"'
    fig, ax = good()
    ax.text(0.1, 0.5, "left", fontsize=10)
    ax.text(0.6, 0.5, "right", fontsize=10)
    assert check_legible(fig) == []


def test_a_legend_over_the_data_is_flagged_wherever_it_sits_inside():
    fig = Figure(figsize=(6, 4), layout="constrained")
    ax = fig.add_subplot()
    ax.plot([0, 1], [0, 1], label="a line")
    ax.legend(loc="lower right")   # an empty corner: still over the data area
    assert check_legible(fig) == ['the legend ("a line", ...) lies over the data of the panel']


def test_a_figure_legend_over_another_panel_is_flagged():
    fig = Figure(figsize=(8, 3))
    a, b = fig.subplots(1, 2)
    a.plot([0, 1], label="one")
    b.plot([1, 0])
    fig.legend(loc="center")
    assert any("lies over the data" in p for p in check_legible(fig))


def test_text_off_the_figure_is_flagged():
    fig, ax = good()
    ax.text(1.6, 0.5, "beyond the edge", fontsize=10, transform=ax.transAxes)
    assert check_legible(fig) == ['text "beyond the edge" in the panel "a title" runs off the '
                                  "figure's edge"]


def test_a_wide_figure_is_judged_shrunk_to_1280_px():
    fig, _ = good(width=16.0)   # 1600 px at 100 dpi: 10 pt reads as 8 pt
    problems = check_legible(fig)
    assert problems and all("pt at 1280 px" in p for p in problems)
    assert 'text "x" is 10 pt, shrunk to 8.0 pt at 1280 px (at least 10 pt)' in problems
    assert check_legible(fig, width=1600) == []


def test_hidden_and_empty_texts_are_not_looked_at():
    fig, ax = good()
    ax.text(0.5, 0.5, "hidden", fontsize=6).set_visible(False)
    ax.text(0.5, 0.5, "   ", fontsize=6)
    ax.set_xticks([0.0, 0.5, 1.0, 7.0])   # 7 is out of view: not drawn
    assert check_legible(fig) == []


def test_not_a_figure_is_an_input_error():
    with pytest.raises(InputError, match="fig"):
        check_legible("figure.png")


def test_an_annotations_arrow_is_not_text():
    fig, ax = good()
    ax.text(0.5, 0.5, "mover", fontsize=10)
    ax.annotate("halt", (0.52, 0.52), xytext=(0.1, 0.9), fontsize=10,
                arrowprops={"arrowstyle": "->"})   # the arrow crosses "mover", its words do not
    assert check_legible(fig) == []


def test_texts_side_by_side_that_touch_are_flagged():
    """Tick labels with no space between them ("-0.0050-0.0025") read as one number."""
    fig, ax = good()
    first = ax.text(0.3, 0.5, "-0.0050", fontsize=10)
    fig.canvas.draw()
    box = first.get_window_extent()
    x = ax.transData.inverted().transform((box.x1 + 1.0, box.y0))[0]   # 1 px to its right
    ax.text(x, 0.5, "-0.0025", fontsize=10)
    (problem,) = check_legible(fig)
    assert problem == ('text "-0.0050" in the panel "a title" runs into text "-0.0025" in the panel '
                       '"a title" (less than 2 px apart)')


def test_a_differences_panel_of_small_numbers_keeps_its_tick_labels_apart():
    """The study plots' x axes hold at most 6 ticks: "-0.0050" and "-0.0025" do not touch."""
    from types import SimpleNamespace

    from sim.viz.study_plots import _draw

    fig = Figure(figsize=(12, 3), layout="constrained")
    ax = fig.add_subplot(1, 2, 1)
    e = SimpleNamespace(mean=0.005, ci_low=-0.005, ci_high=0.015, constant=False)
    _draw(ax, [("zoc - snap_fire", "")], [e], zero=True)
    fig.add_subplot(1, 2, 2)
    assert check_legible(fig) == []
    assert len([t for t in ax.get_xticklabels() if t.get_text()]) <= 7
