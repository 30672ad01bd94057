"""The offline replay: one self-contained HTML page (or notebook fragment) that plays a
battle from its event log with the network off.

The terrain is drawn once (``draw_terrain``) into a PNG kept inline as a data: URI; the
units, their trails, the reaction radii, the halt points and the clock are data (JSON)
that a small script (``sim/data/replay.js``) draws as SVG over it, frame by frame, with
play/pause, step, first/last and a time slider. Frames are the instants of
``frame_times`` and show what ``animate`` shows at them: each unit where its track says,
hidden snipers as rings, units out of play not at all. The page's Content-Security-Policy
forbids every fetch, so it cannot call out even by mistake; a 50-frame replay of a shipped
battle is about 100 KB.
"""
from __future__ import annotations

import json
from importlib import resources
from typing import Any

from matplotlib.colors import to_hex
from matplotlib.figure import Figure

from sim import arguments
from sim.events import HALT
from sim.viz.common import scenario_of
from sim.viz.html import escape, page, png_uri
from sim.viz.maps import draw_terrain
from sim.viz.tracks import GONE, Battle, position_at, state_at

CSS = """
.sim-replay { font-family: system-ui, sans-serif; font-size: 13px; max-width: 100%; }
.sim-replay svg { max-width: 100%; height: auto; border: 1px solid #ccc; display: block; }
.sim-replay .controls { display: flex; gap: 0.4em; align-items: center; margin: 0.4em 0; flex-wrap: wrap; }
.sim-replay button { font: inherit; padding: 0.15em 0.6em; cursor: pointer; }
.sim-replay input.time { flex: 1 1 16em; }
.sim-replay .clock { font-variant-numeric: tabular-nums; }
.sim-replay .legend span.key { display: inline-block; margin-right: 1em; white-space: nowrap; }
.sim-replay .swatch { display: inline-block; width: 0.9em; height: 0.9em; vertical-align: -0.1em;
                      margin-right: 0.3em; border: 1px solid #555; }
"""


def replay_data(scenario: Any, log: Any, frames: Any = 60, fps: int = 8,
                width: int = 760) -> tuple[dict[str, Any], str, list[tuple[str, str, float]]]:
    """The replay's frames as data (pixel positions over the terrain picture), the
    picture as a data: URI, and the ground legend (label, colour, alpha)."""
    arguments.count(fps, "fps")
    arguments.count(width, "width")
    b = Battle(scenario, log, frames)
    recs, terrain, times, tracks, spans = b.records, b.terrain, b.times, b.tracks, b.spans
    colours, side_of, snipers, attacker = b.colours, b.side_of, b.snipers, b.attacker
    radius, rlabel = b.radius, b.radius_label

    fig = Figure(figsize=(width / 100, width / 100), dpi=100)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ground = draw_terrain(ax, terrain)
    ax.set_axis_off()
    ax.set_aspect("auto")
    (left, right), (bottom, top) = ax.get_xlim(), ax.get_ylim()
    scale = width / (right - left)
    height = max(1, round(abs(top - bottom) * scale))
    fig.set_size_inches(width / 100, height / 100)

    def px(x: float, y: float) -> list[float]:
        return [round((x - left) * scale, 1), round((top - y) / (top - bottom) * height, 1)]

    units = [u for u in tracks if tracks[u]]
    pos, fill, clock = [], [], []
    for t in times:
        state = state_at(spans, t)
        row_pos: list[list[float] | None] = []
        row_fill = []
        for u in units:
            s = state.get(u)
            p = position_at(tracks[u], t)
            row_pos.append(None if s in GONE or p is None else px(*p))
            row_fill.append(0 if s == "hidden" or (u in snipers and s is None) else 1)
        pos.append(row_pos)
        fill.append(row_fill)
        now = b.clock(t)
        clock.append(f"t = {t:.2f}   turn {now[0]} ({now[1]}, {now[2]})")
    data = {
        "fps": fps, "t": times, "clock": clock, "pos": pos, "fill": fill,
        "units": [{"id": u, "side": side_of.get(u), "colour": to_hex(colours.get(side_of.get(u), "black")),
                   "radius": round(radius * scale, 2) if radius and side_of.get(u) not in (None, attacker) else 0,
                   "track": [[t, *px(x, y)] for t, x, y in tracks[u]]} for u in units],
        "halts": [[r["t"], *px(*r["pos"])] for r in recs if r.get("event") == HALT and r.get("pos")],
        "radius_label": rlabel if radius else "",
        "width": width, "height": height,
    }
    legend = [(h.get_label(), to_hex(h.get_facecolor()), float(h.get_alpha() or 1.0)) for h in ground]
    return data, png_uri(fig), legend


def _legend(data: dict[str, Any], ground: list[tuple[str, str, float]]) -> str:
    keys = []
    for side, colour in dict.fromkeys((u["side"], u["colour"]) for u in data["units"]):
        keys.append(f'<span class="key"><span class="swatch" style="background:{colour};'
                    f'border-radius:50%"></span>{escape(side)}</span>')
    if any(0 in row for row in data["fill"]):
        keys.append('<span class="key"><span class="swatch" style="background:white;border-radius:50%">'
                    "</span>hidden (not yet seen)</span>")
    if data["halts"]:
        keys.append('<span class="key"><span style="color:goldenrod;font-weight:bold">✕</span> halt</span>')
    if data["radius_label"]:
        keys.append(f'<span class="key">◌ {escape(data["radius_label"])} (dashed)</span>')
    for label, colour, alpha in ground:
        keys.append(f'<span class="key"><span class="swatch" style="background:{colour};opacity:{alpha:.2f}">'
                    f"</span>{escape(label)}</span>")
    return '<div class="legend">' + "".join(keys) + "</div>"


def replay_fragment(scenario: Any, log: Any, fps: int = 8, frames: Any = 60, width: int = 760) -> str:
    """The replay as an HTML fragment (a notebook output): player, legend, data, script."""
    scenario = scenario_of(scenario)
    data, picture, ground = replay_data(scenario, log, frames=frames, fps=fps, width=width)
    script = resources.files("sim").joinpath("data/replay.js").read_text(encoding="utf-8")
    blob = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    w, h = data["width"], data["height"]
    return (f'<div class="sim-replay" tabindex="0" data-frame="0" data-playing="0">'
            f"<style>{CSS}</style>"
            f'<div class="controls"><button class="first" title="first frame">« first</button>'
            f'<button class="back" title="one frame back">◀ step</button>'
            f'<button class="play" title="play or pause (space)">▶ play</button>'
            f'<button class="step" title="one frame on">step ▶</button>'
            f'<button class="last" title="last frame">last »</button>'
            f'<input class="time" type="range" min="0" max="{len(data["t"]) - 1}" value="0" '
            f'aria-label="time"><span class="clock"></span></div>'
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}">'
            f'<image href="{picture}" x="0" y="0" width="{w}" height="{h}"/></svg>'
            f"{_legend(data, ground)}"
            f'<script type="application/json" class="sim-replay-data">{blob}</script>'
            f"<script>{script}</script></div>")


def replay_html(scenario: Any, log: Any, fps: int = 8, frames: Any = 60, width: int = 760,
                page_title: str | None = None) -> str:
    """The replay as one self-contained HTML page: open it from a file, offline.

    In a notebook, ``IPython.display.HTML(replay_html(...))`` shows the same player.
    """
    scenario = scenario_of(scenario)
    title = page_title or f"{getattr(scenario, 'name', 'battle')}: replay"
    body = f"<h1>{escape(title)}</h1>\n" + replay_fragment(scenario, log, fps=fps, frames=frames, width=width)
    return page(title, body)
