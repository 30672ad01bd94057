"""sim.viz: maps, timelines and replays drawn from real event logs.

Each picture is written to a PNG and checked for what it must show (the halt markers,
the units, the lanes); the interpolated tracks are checked against the records they
pass through and the constant speed of a move.
"""
from __future__ import annotations

import math

import pytest

from conftest import SCENARIOS, build, lane, scenario, unit
from sim import viz
from sim.engine.log import EventLog
from sim.replication import run_battle
from sim.scenario.load import load_scenario
from sim.viz.states import Span


@pytest.fixture(scope="module")
def advance():
    sc = load_scenario(SCENARIOS / "open_ground_advance.yaml")
    return sc, run_battle(sc, 1).log


@pytest.fixture(scope="module")
def one_lane():
    terrain, _ = lane()  # A (0, 50) → B (100, 50), firer F at (50, 58)
    data = scenario(terrain, [unit("m", "A", armour=7, move=100, orders={"type": "advance", "to": "B"})],
                    [unit("f", "F")], rules={"snapfire": {"radius": 10}}, destroy=False)
    sc = build(data)
    return sc, run_battle(sc, 1).log


def png_ok(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000


def halt_scatter(fig):
    (coll,) = [c for c in fig.axes[0].collections if c.get_label() == "halt"]
    return [p for p in coll.get_offsets().tolist() if not math.isnan(p[0])]


def test_map_marks_every_halt_and_saves_png(advance, tmp_path):
    sc, log = advance
    halts = log.where(rule="SF.HALT")
    assert halts
    fig = viz.plot_map(sc, log, path=tmp_path / "map.png")
    png_ok(tmp_path / "map.png")
    shown = halt_scatter(fig)
    assert len(shown) == len(halts)
    assert sorted(map(tuple, shown)) == sorted(tuple(h["pos"]) for h in halts)


def test_map_at_a_time_shows_only_what_happened_by_then(advance, tmp_path):
    sc, log = advance
    t = log.where(rule="SF.HALT")[2]["t"]
    fig = viz.plot_map(sc, log, t=t, los=True, path=tmp_path / "map_t.png")
    png_ok(tmp_path / "map_t.png")
    assert len(halt_scatter(fig)) == sum(h["t"] <= t for h in log.where(rule="SF.HALT"))
    # the blue units drawn stand where their tracks say, eliminated ones are not drawn
    (blue,) = [c for c in fig.axes[0].collections if c.get_label() == "blue"]
    where = viz.positions_at(sc, log, t)
    dead = {r["unit"] for r in log.where(event="eliminate") if r["t"] <= t}
    expect = sorted(where[u.id] for u in sc.forces["blue"] if u.id not in dead)
    shown = sorted(map(tuple, blue.get_offsets().tolist()))
    assert len(shown) == len(expect)
    assert [c for p in shown for c in p] == pytest.approx([c for p in expect for c in p])


def test_map_radii_are_the_reacting_sides(advance):
    sc, log = advance
    fig = viz.plot_map(sc, log)
    circles = [p for p in fig.axes[0].patches if type(p).__name__ == "Circle"]
    assert len(circles) == len(sc.forces["red"])
    assert all(c.get_radius() == sc.rules.snapfire.radius for c in circles)


def test_track_passes_through_every_record_at_its_time(advance):
    sc, log = advance
    tracks = viz.unit_tracks(log, sc)
    checked = 0
    for r in log:
        if r.get("unit") and r.get("pos") and r["event"] in ("halt", "stop", "arrive", "move"):
            p = viz.position_at(tracks[r["unit"]], r["t"])
            if r["event"] == "move":  # a move starts where the unit stands
                p = viz.position_at(tracks[r["unit"]], r["t"] - 1e-12)
            assert p == pytest.approx(tuple(r["pos"]), abs=1e-9), r
            checked += 1
    assert checked > 50


def test_interpolation_is_constant_speed_along_the_waypoints(one_lane):
    sc, log = one_lane
    (h,) = log.where(event="halt")
    assert h["pos"] == pytest.approx([44.0, 50.0]) and h["t"] == pytest.approx(0.44)
    track = viz.unit_tracks(log, sc)["m"]
    assert viz.position_at(track, h["t"]) == pytest.approx((44.0, 50.0))
    assert viz.position_at(track, 0.22) == pytest.approx((22.0, 50.0))  # 100 cm per unit time
    assert viz.position_at(track, 0.9) == pytest.approx((44.0, 50.0))   # halted: stays put


def test_interpolation_follows_corners():
    log = [{"t": 0.0, "event": "move", "unit": "u", "pos": [0, 0], "waypoints": [[3, 0], [3, 4]]},
           {"t": 7.0, "event": "stop", "unit": "u", "pos": [3, 4]}]
    track = viz.unit_tracks(log)["u"]
    assert [k[0] for k in track] == [0.0, 3.0, 7.0]
    assert viz.position_at(track, 5.0) == pytest.approx((3.0, 2.0))
    # a halt part-way along the second leg: the corner keeps its distance-share of the time
    log[1] = {"t": 5.0, "event": "halt", "unit": "u", "pos": [3, 2]}
    track = viz.unit_tracks(log)["u"]
    assert track[1] == pytest.approx((3.0, 3.0, 0.0))


def test_timeline_png_and_lanes(advance, tmp_path):
    sc, log = advance
    fig = viz.plot_timeline(log, scenario=sc, path=tmp_path / "tl.png")
    png_ok(tmp_path / "tl.png")
    ticks = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert ticks == [u.id for _, u in sc.units()]
    spans = viz.unit_states(log, sc)
    halted = [s for s in spans if s.state == "halted"]
    killed = {(r["unit"], r["t"]) for r in log.where(event="eliminate")}
    survived = [h for h in log.where(event="halt") if (h["unit"], h["t"]) not in killed]
    assert [(s.unit, s.start) for s in halted] == [(h["unit"], h["t"]) for h in survived]
    dead = {s.unit for s in spans if s.state == "eliminated"}
    assert dead == {r["unit"] for r in log.where(event="eliminate")}
    assert all(s.end == log.records[-1]["t"] for s in spans if s.state == "eliminated")


def _rec(t, event, unit=None, turn=1, phase="movement", **kw):
    return {"t": t, "turn": turn, "side": "a", "phase": phase, "event": event, "rule": None,
            "unit": unit, **kw}


def test_sniper_lifecycle_from_events_whatever_else_is_logged():
    log = [
        _rec(1.0, "activate", "s", pos=[0, 0], dice=[6, 6]),
        _rec(2.0, "something_new", "s"),                      # unknown: no state change
        _rec(3.0, "spot", "x", target="s", success=False),    # failed spotting: nothing
        _rec(4.0, "spot", "x", target="s", success=True),
        _rec(5.0, "to_reserve", "s"),
        _rec(7.0, "deploy", "s", pos=[1, 1]),
        _rec(8.0, "withdraw", "s"),
        _rec(9.0, "activate", "s", pos=[2, 2]),
        _rec(10.0, "eliminate", "s"),
        _rec(12.0, "end"),
    ]
    life = [(s.state, s.start, s.end) for s in viz.unit_states(log) if s.lane == "lifecycle"]
    assert life == [("off_board", 0.0, 1.0), ("hidden", 1.0, 4.0), ("revealed", 4.0, 5.0),
                    ("reserve", 5.0, 7.0), ("hidden", 7.0, 8.0), ("withdrawn", 8.0, 9.0),
                    ("hidden", 9.0, 10.0), ("eliminated", 10.0, 12.0)]


def test_a_records_own_state_wins_and_visible_deploys_are_revealed():
    log = [
        _rec(0.0, "deploy", "s", pos=[0, 0], sniper=True, hidden=True),
        _rec(0.0, "deploy", "f", pos=[1, 0], sniper=False, hidden=False),   # not a sniper
        _rec(0.0, "deploy", "v", pos=[2, 0], sniper=True, hidden=False),
        _rec(2.0, "eliminate", "s", state="killed", state_from="hidden"),
        _rec(3.0, "rehide", "v"),
        _rec(4.0, "end"),
    ]
    spans = viz.unit_states(log)
    life = {(s.unit, s.state, s.start, s.end) for s in spans if s.lane == "lifecycle"}
    assert life == {("s", "hidden", 0.0, 2.0), ("s", "killed", 2.0, 4.0),
                    ("v", "revealed", 0.0, 3.0), ("v", "hidden", 3.0, 4.0)}
    assert ("s", "eliminated", 2.0, 4.0, "activity") in spans


def test_halted_lasts_to_the_end_of_its_phase_and_pin_until_moving():
    log = [
        _rec(0.0, "move", "u", pos=[0, 0], waypoints=[[5, 0]]),
        _rec(0.5, "halt", "u", pos=[2.5, 0]),
        _rec(1.0, "shoot", "v", phase="shooting", pos=[9, 9]),
        _rec(1.5, "pin", "v", target="u"),
        _rec(3.0, "move", "u", turn=2, pos=[2.5, 0], waypoints=[[5, 0]]),
        _rec(4.0, "stop", "u", turn=2, pos=[5, 0]),
    ]
    spans = [(s.state, s.start, s.end) for s in viz.unit_states(log) if s.unit == "u"]
    assert spans == [("moving", 0.0, 0.5), ("halted", 0.5, 1.0), ("pinned", 1.5, 3.0),
                     ("moving", 3.0, 4.0)]


def test_replay_html_draws_the_terrain_once_and_a_frame_saves(advance, tmp_path):
    sc, log = advance
    html = viz.replay_html(sc, log, frames=6)
    assert "<script" in html and html.count("data:image/png;base64") == 1  # the terrain, once
    fig = viz.save_frame(sc, log, log.where(rule="SF.HALT")[0]["t"], tmp_path / "frame.png")
    png_ok(tmp_path / "frame.png")
    assert fig.axes[0].get_title().startswith(sc.name)


def test_animation_frames_place_units_on_their_tracks(advance):
    sc, log = advance
    h = log.where(rule="SF.HALT")[0]
    anim = viz.animate(sc, log, frames=[0.0, h["t"]])
    anim._draw_was_started = True
    anim.update_frame(1)
    dots = anim._fig.axes[0].collections
    units = [u for u in viz.unit_tracks(log, sc)]
    offsets = [c for c in dots if len(c.get_offsets()) == len(units)][0].get_offsets().tolist()
    assert offsets[units.index(h["unit"])] == pytest.approx(h["pos"])


def test_jsonl_log_and_hex_terrain(tmp_path):
    data = {"name": "hexes", "ruleset": "snapfire", "turns": 3, "sides": ["blue", "red"],
            "terrain": {"kind": "hex", "rows": ["......", "..WW..", "......", "..BB.."]},
            "forces": {"blue": [{"id": "b", "at": "0,0", "armour": 7, "move": 5,
                                 "orders": {"type": "advance", "to": "5,0"}}],
                       "red": [{"id": "r", "at": "3,2"}]},
            "victory": {"attacker": "blue", "destroy": False},
            "rules": {"snapfire": {"radius": 2.5}}}
    sc = build(data)
    res = run_battle(sc, 2)
    res.log.to_jsonl(tmp_path / "log.jsonl")
    fig = viz.plot_map(sc, str(tmp_path / "log.jsonl"), path=tmp_path / "hex.png")
    png_ok(tmp_path / "hex.png")
    assert len(halt_scatter(fig)) == len(res.log.where(event="halt"))
    assert viz.records_of(tmp_path / "log.jsonl") == EventLog.read_jsonl(tmp_path / "log.jsonl").records


def test_hex_map_is_drawn_as_its_rows_are_written(tmp_path):
    sc = load_scenario(SCENARIOS / "village_sniper.yaml")
    fig = viz.plot_map(sc, path=tmp_path / "village.png")
    ax = fig.axes[0]
    bottom, top = ax.get_ylim()
    assert top < bottom                  # y (the row) grows downwards: row 0 at the top
    # columns along the top and rows down the side, not a "q,r" crowding every hex ...
    assert [t.get_text() for t in ax.get_yticklabels()][:3] == ["0", "1", "2"]
    assert [t.get_text() for t in ax.get_xticklabels()][:3] == ["0", "1", "2"]
    assert not {"0,0", "-4,8", "12,4"} & {t.get_text() for t in ax.texts}
    assert viz.check_legible(fig) == []
    # ... unless asked for (a zoomed view)
    coords = {t.get_text() for t in viz.plot_map(sc, coords=True).axes[0].texts}
    assert {"0,0", "-4,8", "12,4"} <= coords   # the "q,r" keys use
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(t.startswith("W woods") for t in legend) and any(t.startswith("B building") for t in legend)
    assert not any(t == "halt" for t in legend)    # no halts in this picture, no halt entry


def test_units_on_one_spot_share_one_label():
    data = {"name": "crowd", "ruleset": "snapfire", "turns": 1, "sides": ["blue", "red"],
            "terrain": {"kind": "table", "width": 100, "height": 60, "waypoints": {"A": [10, 10], "B": [90, 50]}},
            "forces": {"blue": [{"id": "b1", "at": "A"}, {"id": "b2", "at": "A"}],
                       "red": [{"id": "r1", "at": "B"}]},
            "victory": {"attacker": "blue", "destroy": False}}
    fig = viz.plot_map(build(data))
    ax = fig.axes[0]

    def names() -> list[str]:
        fig.draw_without_rendering()   # labels are joined by spot when the figure is drawn
        return sorted(t.get_text() for t in ax.texts if t.get_visible() and t.get_text() in
                      ("b1, b2", "b1", "b2", "r1", "b3", "b3, b4", "b4", "b1, b2, b3, b4"))

    assert names() == ["b1, b2", "r1"]
    assert ax.get_xlabel() == "x (cm)" and ax.get_ylabel() == "y (cm)"
    # two units 4 cm apart: one spot on the whole 100 cm table, two once the map is zoomed to
    # 12 cm (as a lesson does after plot_map): the labels follow the scale the map is drawn at
    data["terrain"]["waypoints"] |= {"C": [50, 30], "D": [54, 30]}
    data["forces"]["blue"] += [{"id": "b3", "at": "C"}, {"id": "b4", "at": "D"}]
    from matplotlib.figure import Figure

    fig = Figure(figsize=(4, 3))
    ax = fig.add_subplot()
    viz.plot_map(build(data), ax=ax, legend=False)
    assert names() == ["b1, b2", "b3, b4", "r1"]
    ax.set_xlim(46, 58)
    ax.set_ylim(26, 34)
    assert names() == ["b1, b2", "b3", "b4", "r1"]   # (b1, b2 and r1 are out of view, not drawn)
    assert viz.check_legible(fig) == []


def test_span_fields():
    assert Span._fields == ("unit", "state", "start", "end", "lane")


def test_study_plots_reexported_if_present():
    pytest.importorskip("sim.viz.study_plots")
    assert callable(viz.plot_means) and callable(viz.plot_study)


def test_maps_timelines_and_frames_of_every_shipped_scenario_are_legible():
    """At 1280 px: labels of 10 pt or more, no text over text, legends beside the data."""
    for name in ("open_ground_advance", "crossing_sniper", "village_sniper",
                 "stalingrad_bookstore", "platoon_attack"):
        sc = load_scenario(SCENARIOS / f"{name}.yaml")
        log = run_battle(sc, 1).log
        mid = log.records[-1]["t"] / 2
        figs = {"map": viz.plot_map(sc, log), "map at t": viz.plot_map(sc, log, t=mid, los=True),
                "timeline": viz.plot_timeline(log, scenario=sc)}
        anim = viz.animate(sc, log, frames=[mid])
        anim._draw_was_started = True
        anim.update_frame(0)
        figs["frame"] = anim._fig
        for what, fig in figs.items():
            assert viz.check_legible(fig) == [], (name, what)


def test_one_legend_swatch_per_kind_of_ground_and_no_lattice(advance):
    sc, log = advance
    fig = viz.plot_map(sc, log)
    entries = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert [e for e in entries if "cover 1, hindrance 0" in e] == ["hedge (cover 1, hindrance 0, cost 1)"]
    assert not fig.axes[0].collections[0].__class__.__name__ == "LineCollection"
    assert not any(type(c).__name__ == "LineCollection" for c in fig.axes[0].collections)


def test_waypoint_names_are_not_printed_where_a_unit_is_named(advance):
    sc, log = advance
    fig = viz.plot_map(sc, log)
    fig.canvas.draw() if hasattr(fig.canvas, "renderer") else viz.check_legible(fig)
    drawn = {t.get_text() for t in fig.axes[0].texts if t.get_visible()}
    assert {"r1", "r2", "r3", "OBJ", "hedge1"} <= drawn
    assert not {"R1", "R2", "R3"} & drawn     # r1 stands on R1: its name is enough


def test_the_fallen_are_crosses_where_they_fell_and_labels_keep_clear(advance):
    sc, log = advance
    falls = log.where(event="eliminate")
    t = falls[0]["t"] + 0.01
    fig = viz.plot_map(sc, log, t=t)
    (cross,) = [c for c in fig.axes[0].collections if c.get_label().startswith("eliminated")]
    expect = viz.positions_at(sc, log, falls[0]["t"])[falls[0]["unit"]]
    assert cross.get_offsets().tolist()[0] == pytest.approx(list(expect))
    assert viz.check_legible(fig) == []
    # no label of a unit (or of anything) covers a cross, a unit or a halt
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    ax = fig.axes[0]
    marks = [ax.transData.transform(p) for c in ax.collections if c.get_label()
             and c.get_label()[0] != "_" for p in c.get_offsets().tolist() if not math.isnan(p[0])]
    assert len(marks) > 6
    for label in ax.texts:
        if label.get_visible() and label.get_text():
            box = label.get_window_extent(renderer)
            assert not any(box.contains(x, y) for x, y in marks), label.get_text()


def test_a_halts_firer_is_drawn_from_the_record_after_it_fell():
    sc = load_scenario(SCENARIOS / "open_ground_advance.yaml")
    log = run_battle(sc, 1).log
    dead = {r["unit"]: r["t"] for r in log.where(event="eliminate")}
    halt = next(h for h in log.where(event="halt") if h["firer"] in dead)
    fig = viz.plot_map(sc, log, t=dead[halt["firer"]] + 0.01)
    ax = fig.axes[0]
    (firers,) = [c for c in ax.collections if c.get_label().startswith("a halt's firer")]
    assert list(halt["firer_pos"]) in firers.get_offsets().tolist()
    rings = [p for p in ax.patches if type(p).__name__ == "Circle" and p.get_linestyle() == ":"]
    assert any(tuple(c.center) == tuple(halt["firer_pos"]) and c.get_radius() == halt["radius"]
               for c in rings)


def test_timeline_colours_are_distinct_and_each_state_has_one_entry():
    from matplotlib.colors import to_rgb

    def lab(c):
        def lin(v):
            return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
        r, g, b = (lin(v) for v in to_rgb(c))
        x, y, z = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.9505, \
            0.2126 * r + 0.7152 * g + 0.0722 * b, (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.089
        f = [v ** (1 / 3) if v > 0.008856 else 7.787 * v + 16 / 116 for v in (x, y, z)]
        return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])

    palette = {**{f"a:{k}": c for k, c in viz.ACTIVITY_COLOURS.items()},
               **{f"l:{k}": c for k, c in viz.LIFECYCLE_COLOURS.items() if k != "eliminated"}}
    assert viz.LIFECYCLE_COLOURS["eliminated"] == viz.ACTIVITY_COLOURS["eliminated"]
    for (a, ca), (b, cb) in __import__("itertools").combinations(palette.items(), 2):
        assert math.dist(lab(ca), lab(cb)) > 20, (a, b)   # CIE76: plainly different
    log = [_rec(0.0, "deploy", "s", pos=[0, 0], sniper=True, hidden=True),
           _rec(1.0, "move", "s", pos=[0, 0], waypoints=[[1, 0]]),
           _rec(2.0, "eliminate", "s"), _rec(3.0, "end")]
    fig = viz.plot_timeline(log)
    entries = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert sum("eliminated" in e for e in entries) == 1
    assert viz.check_legible(fig) == []


@pytest.fixture(scope="module")
def crossing():
    """Lesson 02's FoW battle (seed 1): mg falls at (60, 30) at t = 13, a2 stands there by
    t = 19; the sniper goes to its reserve from HIDE_RUIN at 15 and is placed at 21."""
    sc = load_scenario(SCENARIOS / "crossing_sniper.yaml")
    log = run_battle(sc, 1).log
    (mg,) = log.where(event="eliminate", unit="mg")
    assert tuple(mg["pos"]) == (60.0, 30.0)
    assert viz.positions_at(sc, log, 21.0)["a2"] == pytest.approx((60.0, 30.0))
    return sc, log


def test_a_living_unit_stays_above_and_clear_of_the_cross_where_another_fell(crossing):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.colors import to_rgb

    sc, log = crossing
    fig = viz.plot_map(sc, log, t=21.0)
    ax = fig.axes[0]
    (cross,) = [c for c in ax.collections if c.get_label().startswith("eliminated")]
    (blue,) = [c for c in ax.collections if c.get_label() == "blue"]
    assert [60.0, 30.0] in cross.get_offsets().tolist() and [60.0, 30.0] in blue.get_offsets().tolist()
    assert blue.get_zorder() > cross.get_zorder()
    assert viz.check_legible(fig) == []
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    pixels = __import__("numpy").asarray(canvas.buffer_rgba())[..., :3] / 255
    cx, cy = ax.transData.transform((60.0, 30.0))
    px = fig.dpi / 72

    def colour_at(dx, dy):   # offsets in points from the spot, y up
        return pixels[int(round(fig.bbox.height - cy - dy * px)), int(round(cx + dx * px))]

    dot = to_rgb(blue.get_facecolors()[0])
    assert colour_at(0, 0) == pytest.approx(dot, abs=0.05)      # the living unit on top
    half = math.sqrt(cross.get_sizes()[cross.get_offsets().tolist().index([60.0, 30.0])]) / 2
    dot_r = math.sqrt(blue.get_sizes()[0]) / 2
    arms = [colour_at(sx * d, sy * d) for sx in (-1, 1) for sy in (-1, 1)
            for d in [dot_r + 1.5 + k * 0.5 for k in range(int(2 * (half - dot_r - 2)))]]
    assert sum(max(c) < 0.3 for c in arms) >= 4                 # the cross shows around it
    r = half * px
    around = __import__("matplotlib").transforms.Bbox([[cx - r, cy - r], [cx + r, cy + r]])
    renderer = canvas.get_renderer()
    labels = [t for t in ax.texts if t.get_visible() and t.get_text()]
    assert any(t.get_text() == "a2" for t in labels)
    for t in labels:
        assert not t.get_window_extent(renderer).overlaps(around), t.get_text()


def test_no_trail_is_drawn_while_a_unit_is_off_the_table(crossing):
    sc, log = crossing
    away = log.where(event="to_reserve", unit="sniper")
    back = log.where(event="deploy", unit="sniper")
    jumps = [(tuple(a["pos"]), tuple(next(b for b in back if b["t"] > a["t"])["pos"]))
             for a in away if any(b["t"] > a["t"] for b in back)]
    jumps = [(p, q) for p, q in jumps if p != q]   # back at the same spot: no line to see
    assert ((66.0, 48.0), (30.0, 52.0)) in jumps
    for t in (21.0, None):
        ax = viz.plot_map(sc, log, t=t).axes[0]
        trails = [list(zip(*line.get_data())) for line in ax.lines if line.get_linestyle() == "-"]
        assert any((60.0, 30.0) in pts for pts in trails)           # a2's trail is drawn
        for pts in trails:
            for p, q in zip(pts, pts[1:]):
                assert (p, q) not in jumps and (q, p) not in jumps, (t, p, q)


def test_a_hidden_unit_has_a_legend_entry_exactly_when_one_is_drawn(crossing):
    sc, log = crossing
    key = "hidden (hollow: not yet seen)"
    for t, hidden in ((21.0, True), (8.0, False), (None, False)):
        fig = viz.plot_map(sc, log, t=t)
        entries = [e.get_text() for e in fig.axes[0].get_legend().get_texts()]
        hollow = any(c.get_label() in ("red", "blue") and any(f[3] == 0 for f in c.get_facecolors())
                     for c in fig.axes[0].collections)
        assert hollow is hidden, t
        assert entries.count(key) == (1 if hidden else 0), t
        assert viz.check_legible(fig) == []


def test_two_kinds_of_ground_of_one_colour_are_told_apart():
    # the bookstore's two rubbles (cover 3 and cover 2): one colour, so the second is hatched
    sc = load_scenario(SCENARIOS / "stalingrad_bookstore.yaml")
    from matplotlib.patches import Patch
    legend = viz.plot_map(sc).axes[0].get_legend()
    swatches = {t.get_text(): (tuple(h.get_facecolor()), h.get_hatch())
                for t, h in zip(legend.get_texts(), legend.legend_handles) if isinstance(h, Patch)}
    rubble = [k for k in swatches if k.startswith("rubble")]
    assert len(rubble) == 2 and swatches[rubble[0]][0] == swatches[rubble[1]][0]
    assert len(set(swatches.values())) == len(swatches)   # no two entries look alike
    hatched = {p.get_hatch() for p in viz.plot_map(sc).axes[0].patches if p.get_hatch()}
    assert hatched == {swatches[k][1] for k in rubble} - {None}   # the map's areas as the legend


def _row_of_units():
    # six stands on three spots 4 cm apart along y = 40 (as lesson 7's crisis): each spot
    # named by one label, which must sit beside its own marker, not its neighbour's
    terrain = {"kind": "table", "width": 120, "height": 80,
               "waypoints": {"A": [29.7, 40], "B": [33.7, 40], "C": [37.9, 40], "E": [110, 40]}}
    blue = [unit(u, at) for u, at in (("a1", "A"), ("s3", "A"), ("a2", "B"), ("s2", "B"), ("a3", "C"), ("s1", "C"))]
    return build(scenario(terrain, blue, [unit("r1", "E")]))


def _labels(fig):
    from sim.viz.labels import Placer
    ax = fig.axes[0]
    return ax, next(c for c in ax.get_children() if isinstance(c, Placer))


def test_a_units_label_sits_beside_its_own_marker_or_is_led_to_it():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from sim.viz.labels import MARKER, strays
    fig = viz.plot_map(_row_of_units(), title="three spots in a row")
    assert viz.check_legible(fig) == []
    ax, placer = _labels(fig)
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    assert strays(placer, renderer) == []
    spots = {"a1, s3": (29.7, 40), "a2, s2": (33.7, 40), "a3, s1": (37.9, 40)}
    for label in ax.texts:
        if label.get_text() not in spots:
            continue
        box = label.get_window_extent(renderer)
        cx, cy = (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2
        near = {name: math.dist((cx, cy), ax.transData.transform(p)) for name, p in spots.items()}
        leader = placer.owners[id(label)][1]
        if leader.get_visible():   # led: its line ends at its own marker's edge
            end = ax.transData.transform((leader.get_xdata()[1], leader.get_ydata()[1]))
            own = ax.transData.transform(spots[label.get_text()])
            assert math.dist(end, own) <= MARKER * renderer.points_to_pixels(1.0) + 1e-6
        else:
            assert min(near, key=near.get) == label.get_text()


def test_a_label_moved_beside_another_marker_is_reported():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from sim.viz.labels import strays
    fig = viz.plot_map(_row_of_units(), title="three spots in a row")
    ax, placer = _labels(fig)
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    label = next(t for t in ax.texts if t.get_text() == "a1, s3")
    placer.draw = lambda renderer: None          # keep it where it is put now
    label.xyann = (0, 0)
    label.set(horizontalalignment="center", verticalalignment="center")
    label.xy = (37.9, 44)                        # just above a3 and s1's marker
    placer.owners[id(label)][1].set_visible(False)
    assert strays(placer, renderer) == ["a1, s3"]
