"""Study plots a reader can read: with factors, rows are the factor points (short names),
variants are colours with one legend, axes carry units, constant metrics are marked, and
matplotlib has nothing to warn about (no label that does not fit)."""
from __future__ import annotations

import shutil
import warnings

import pytest
from matplotlib.image import imread

import sim
from conftest import SCENARIOS
from sim.viz import study_plots

STUDY = """\
study: plots
scenario: open_ground_advance.yaml
seed: 3
replications: 4
baseline: snap_fire
variants:
  snap_fire: {}
  zone_of_control_variant: {rules.snapfire.reaction: zoc}
factors:
  design: grid
  vary: {rules.snapfire.radius: [6, 12], rules.snapfire.zoc_radius: [3.5, 7.5]}
metrics: [attacker_won, end_time, arrived]
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("plots")
    shutil.copy(SCENARIOS / "open_ground_advance.yaml", folder)
    (folder / "study.yaml").write_text(STUDY)
    return sim.run_study(str(folder / "study.yaml"))


def test_study_plots_with_factors_fit_and_say_what_they_show(run, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # e.g. "constrained_layout not applied"
        paths = study_plots.plot_study(run, str(tmp_path))
    assert sorted(p.rsplit("/", 1)[1] for p in paths) == [
        "differences.png", "means.png", "response_rules_snapfire_radius.png",
        "response_rules_snapfire_zoc_radius.png"]
    for p in paths:
        assert imread(p).shape[1] <= 1400   # no figure stretched by a label


def test_rows_are_factor_points_and_variants_are_colours(run, tmp_path):
    path = study_plots.plot_differences(run, str(tmp_path / "d.png"))
    assert path.endswith("d.png")
    rows = study_plots._rows(run, [(d, next(c for c in run.study.cells if c.label == d.split(" - ")[0]))
                                   for d in run.summary.differences])
    assert {r for r, _ in rows} == {"radius=6, zoc_radius=3.5", "radius=6, zoc_radius=7.5",
                                    "radius=12, zoc_radius=3.5", "radius=12, zoc_radius=7.5"}
    assert {g for _, g in rows} == {"zone_of_control_variant − snap_fire"}


def test_axes_carry_units_and_constant_metrics_are_marked(run, tmp_path):
    from matplotlib.figure import Figure

    captured = {}
    real_savefig = Figure.savefig

    def keep(fig, *a, **k):
        captured["fig"] = fig
        return real_savefig(fig, *a, **k)

    Figure.savefig = keep
    try:
        study_plots.plot_means(run, str(tmp_path / "m.png"))
    finally:
        Figure.savefig = real_savefig
    axes = {ax.get_title(): ax for ax in captured["fig"].axes if ax.get_visible()}
    assert axes["attacker_won"].get_xlabel() == "probability"
    assert axes["end_time"].get_xlabel() == "time units"
    assert axes["arrived"].get_xlabel() == "per battle"
    assert "constant" in [t.get_text() for t in axes["arrived"].texts]   # 0 in every replication
    legend = captured["fig"].legends[0]
    assert [t.get_text() for t in legend.get_texts()] == ["snap_fire", "zone_of_control_variant"]


def drawn(monkeypatch, *modules):
    """Every Figure the plotting ``modules`` write, with the dpi it is written at."""
    from sim import files

    found = []

    def keep(fig, path, dpi=100):
        found.append((str(path), fig, dpi))
        return files.write_figure(fig, path, dpi=dpi)

    for m in modules:
        monkeypatch.setattr(m, "write_figure", keep)
    return found


def test_the_demos_and_plot_pictures_are_legible_at_1280_px(run, tmp_path, monkeypatch):
    """What `sim demo` and `sim study --plot` write (and the report embeds)."""
    from sim.cli import main
    from sim.viz import check_legible

    figs = drawn(monkeypatch, study_plots)
    assert main(["demo", "--fast", "--quiet", "--workers", "1", "--out", str(tmp_path / "demo")]) == 0
    study_plots.plot_study(run, str(tmp_path / "factors"))
    assert len(figs) == 6
    for path, fig, dpi in figs:
        assert check_legible(fig, dpi=dpi) == [], path




def test_the_farming_pictures_are_legible_at_1280_px(tmp_path, monkeypatch):
    """What `sim analyse --out` writes (and a designed study's report embeds)."""
    from sim.cli import main
    from sim.viz import check_legible, farming_plots
    from test_study_farming import FARM  # the farming tests' small study, 16 points

    shutil.copy(SCENARIOS / "village_sniper.yaml", tmp_path)
    (tmp_path / "farm.yaml").write_text(FARM.replace("SAMPLES", "16").replace("replications: 3",
                                                                            "replications: 2"))
    db = str(tmp_path / "r.db")
    assert main(["study", str(tmp_path / "farm.yaml"), "--db", db, "--quiet"]) == 0
    figs = drawn(monkeypatch, farming_plots)
    assert main(["analyse", str(tmp_path / "farm.yaml"), "--db", db, "--out",
                 str(tmp_path / "out"), "--resamples", "20"]) == 0
    assert {p.rsplit("/", 1)[1].split("_")[0] for p, _, _ in figs} == {
        "main", "interactions", "tornado", "tree"}
    for path, fig, dpi in figs:
        assert check_legible(fig, dpi=dpi) == [], path
