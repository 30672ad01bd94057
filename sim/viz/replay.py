"""The offline replay: one self-contained HTML page (or notebook fragment) that plays a
battle from its event log with the network off, and answers "why did that happen?".

The terrain is drawn once (``draw_terrain``) into a PNG kept inline as a data: URI; the
units (their table spells and trails, how they look over time), the reaction radii, the
marks of shots, hits, halts, pins and falls, the log's records with each roll told in
words (``sim.viz.rolls``) and the titles of the rule IDs in the log are data (JSON) that a
small script (``sim/data/replay.js``) draws as SVG over it at any instant: play/pause,
frame and *event* steps, first/last, a time slider, an inspector that shows the records
behind a clicked (or focused) unit or mark, and the clock in the URL hash (``#t=12.5``;
``#<id>-t=12.5`` in a fragment, so several on one page keep apart). The SVG scales with
its container. The page's Content-Security-Policy forbids every fetch.
"""
from __future__ import annotations

import hashlib
import json
from importlib import resources
from typing import Any

from matplotlib.colors import to_hex
from matplotlib.figure import Figure

from sim import arguments
from sim.catalogue import TITLES
from sim.engine.jsonl import clean
from sim.viz.classroom import classroom as is_classroom
from sim.viz.common import HEX_RADIUS, scenario_of
from sim.viz.features import draw_features
from sim.viz.html import escape, page, png_uri
from sim.viz.maps import draw_terrain
from sim.viz.marks import groups, looks, mark_list, segments
from sim.viz.rolls import explain, is_roll, learn_tests
from sim.viz.tracks import GONE, Battle, position_on, state_at

DPI = 160   # the picture's pixels per inch: its ground names stay readable when it scales
CLASS_DPI = 240   # in class mode: the ground's names half as large again, for a map scaled to fit
HEX_LABELS = 400   # a hex map of at most this many hexes gets each hex's "q,r" written over it (SVG text)
#: How a shot is drawn, by its roll's outcome: the page draws it and its legend key from this.
SHOT = {"ok": {"stroke": "#c00", "dash": "none", "words": "solid red"},
        "failed": {"stroke": "#555", "dash": "7 5", "words": "grey dashes"}}
CSS = """
.sim-replay { font-family: system-ui, sans-serif; font-size: 14px; line-height: 1.35; max-width: 100%; color: #222; }
.sim-replay .sr-board { display: flex; flex-wrap: wrap; gap: 0.6em; align-items: flex-start; }
.sim-replay .sr-map { flex: 1 1 100%; min-width: 0; }
.sim-replay svg.sr-svg { width: 100%; height: auto; border: 1px solid #ccc; display: block; box-sizing: border-box; }
.sim-replay .sr-controls { display: flex; gap: 0.3em; align-items: center; margin: 0.4em 0; flex-wrap: wrap; }
.sim-replay .sr-controls button { font: inherit; padding: 0.15em 0.5em; cursor: pointer; }
.sim-replay input.time { flex: 1 1 12em; }
.sim-replay .clock { font-variant-numeric: tabular-nums; }
.sim-replay .sr-inspector { flex: 1 1 100%; max-height: 26em; overflow-y: auto; border: 1px solid #ccc;
                            padding: 0.4em 0.6em; background: #fafafa; }
.sim-replay .sr-inspector .sr-rec { border-top: 1px solid #ddd; padding: 0.3em 0; }
.sim-replay .sr-inspector .sr-head { font-weight: bold; }
.sim-replay .sr-inspector .sr-why { color: #063; }
.sim-replay .sr-inspector .sr-fields { color: #555; word-break: break-word; }
.sim-replay .sr-off { color: #555; min-height: 1.35em; }
.sim-replay .sr-legend span.key { display: inline-block; margin-right: 1em; white-space: nowrap; }
.sim-replay .swatch { display: inline-block; width: 0.9em; height: 0.9em; vertical-align: -0.1em;
                      margin-right: 0.3em; border: 1px solid #555; }
.sim-replay [data-mark], .sim-replay [data-unit] { cursor: pointer; }
.sim-replay [data-mark]:focus, .sim-replay [data-unit]:focus { outline: 2px solid #06c; }
.sim-replay button.class-mode[aria-pressed=true] { background: #06c; color: #fff; }
"""
# Class mode (sim.viz.classroom): text at least 16 CSS px, and larger with JupyterLab's content
# font size (its Presentation Mode raises it); the map and the inspector side by side when
# the width allows (the legend's keys wrap in the narrower map), the map no taller than the
# window leaves room for (--sr-aspect: its width over its height), the inspector no taller.
CLASS_CSS = """
.sim-replay.sr-class { font-size: max(16px, calc(1.15 * var(--jp-content-font-size1, 14px))); }
.sim-replay.sr-class .sr-board { flex-wrap: wrap; }
.sim-replay.sr-class .sr-map { flex: 3 1 22em; max-width: calc((100vh - 15em) * var(--sr-aspect, 1.5)); }
.sim-replay.sr-class .sr-legend span.key { white-space: normal; }
.sim-replay.sr-class .sr-inspector { flex: 2 1 12em; max-height: calc(100vh - 15em); box-sizing: border-box; }
"""


def _picture(terrain: Any, width: int, starts: list[tuple[float, float]],
             scenario: Any = None, dpi: int = DPI) -> tuple[Any, float, int, str, list, bool]:
    """A map from table to picture pixels, its scale (pixels per table unit), the
    picture's height, the terrain as a PNG (data: URI), the ground legend handles, and
    whether the hexes' names are to be written over it (they are drawn as text, not in
    the picture, to stay readable). A waypoint's name is left out where a unit starts on it:
    the unit's own label, drawn over the picture, would cover it."""
    fig = Figure(figsize=(width / dpi, width / dpi), dpi=dpi)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    hexes = terrain.kind == "hex" and len(terrain.nodes) <= HEX_LABELS
    ground = draw_terrain(ax, terrain, graph=False, coords=False, obstacles=lambda: starts)
    ground += draw_features(ax, scenario)   # what the scenario's rule modules put on the map
    ax.set_axis_off()
    ax.set_aspect("auto")
    (left, right), (bottom, top) = ax.get_xlim(), ax.get_ylim()
    scale = width / (right - left)
    height = max(1, round(abs(top - bottom) * scale))
    fig.set_size_inches(width / dpi, height / dpi)

    def px(x: float, y: float) -> list[float]:
        return [round((x - left) * scale, 1), round((top - y) / (top - bottom) * height, 1)]
    return px, scale, height, png_uri(fig, dpi=dpi, colours=64), ground, hexes


def terrain_picture(scenario: Any, width: int = 1000, classroom: bool = False) -> tuple[Any, int, str]:
    """The replay's terrain picture of ``scenario`` (no unit's start left out): the map from
    table to picture pixels, the picture's height and the PNG as a data: URI (``sim.viz.play_board``);
    ``classroom``: its names drawn larger, as a replay's in class mode."""
    px, _, height, picture, _, _ = _picture(scenario.map, width, [], scenario, CLASS_DPI if classroom else DPI)
    return px, height, picture


def replay_data(scenario: Any, log: Any, frames: Any = 60, fps: int = 8, width: int = 1000,
                classroom: bool = False) -> tuple[dict[str, Any], str, list[tuple[str, str, float]]]:
    """The replay's data (pixel positions over the terrain picture), the picture as a
    data: URI, and the ground legend (label, colour, alpha). ``pos``/``fill`` (each frame's
    units) are for checks; the page computes them from ``units`` at any instant.
    ``classroom``: the picture's names drawn larger, for class mode."""
    arguments.count(fps, "fps")
    arguments.count(width, "width")
    b = Battle(scenario, log, frames)
    recs, times, tracks, spans = b.records, b.times, b.tracks, b.spans
    starts = [(tr[0][1], tr[0][2]) for tr in tracks.values() if tr]
    px, scale, height, picture, ground, hexes = _picture(b.terrain, width, starts, b.scenario,
                                                        CLASS_DPI if classroom else DPI)
    end = recs[-1]["t"] if recs else 0.0
    units = [u for u in tracks if tracks[u]]
    look = looks(spans, units, b.snipers)
    pos, fill = [], []
    for t in times:
        state = state_at(spans, t)
        row_pos: list[list[float] | None] = []
        for u in units:
            s = state.get(u)
            row_pos.append(None if s in GONE else px(*position_on(tracks[u], t)))
        pos.append(row_pos)
        fill.append([0 if state.get(u) == "hidden" or (u in b.snipers and state.get(u) is None) else 1
                     for u in units])

    def where(u: str, t: float) -> list[float] | None:
        return list(position_on(tracks[u], t)) if tracks.get(u) else None

    marks = mark_list(recs, where)
    behind = groups(recs)
    for m in marks:
        m["r"] = behind[m["g"]]
        p = m["p"]
        m["p"] = [*px(p[0], p[1]), *(px(p[2], p[3]) if len(p) == 4 else [])]
    tests = learn_tests(recs)
    clock: list[list[Any]] = []
    for r in recs:
        row = [r["t"], r.get("turn"), r.get("side"), r.get("phase")]
        if not clock or clock[-1][1:] != row[1:]:
            clock.append(row)
    step = (times[-1] - times[0]) / max(1, len(times) - 1)
    radius = b.radius
    data = {
        "fps": fps, "t": times, "shot": SHOT, "end": end, "linger": max(1.0, 1.5 * step),
        "instants": sorted({r["t"] for r in recs}), "clock": clock,
        "pos": pos, "fill": fill,
        "units": [{"id": u, "side": b.side_of.get(u), "colour": to_hex(b.colours.get(b.side_of.get(u), "black")),
                   "radius": round(radius * scale, 2) if radius and b.side_of.get(u) not in (None, b.attacker) else 0,
                   "looks": look[u],
                   "segs": [[[t, *px(x, y)] for t, x, y in seg] for seg in segments(tracks[u], look[u], end)],
                   "track": [[t, *px(x, y)] for t, x, y in tracks[u]]} for u in units],
        "marks": marks,
        "records": [clean(r) for r in recs],          # as the log file has them
        "why": {str(i): explain(r, tests) for i, r in enumerate(recs) if is_roll(r)},
        "titles": {rid: TITLES[rid] for rid in dict.fromkeys(r.get("rule") for r in recs)
                   if isinstance(rid, str) and rid in TITLES},
        "hexes": ([[*px(*b.terrain.pos(n)), str(n)] for n in b.terrain.nodes] if hexes else []),
        "hex_r": round(HEX_RADIUS * scale, 1),
        "radius_label": b.radius_label if radius else "",
        "width": width, "height": height,
    }
    legend = [(h.get_label(), to_hex(h.get_facecolor()), float(h.get_alpha() or 1.0)) for h in ground]
    return data, picture, legend


def _legend(data: dict[str, Any], ground: list[tuple[str, str, float]]) -> str:
    keys = []
    for side, colour in dict.fromkeys((u["side"], u["colour"]) for u in data["units"]):
        keys.append(f'<span class="key"><span class="swatch" style="background:{colour};'
                    f'border-radius:50%"></span>{escape(side)}</span>')
    kinds = {m["k"] for m in data["marks"]}
    if any(row[1] == "hidden" for u in data["units"] for row in u["looks"]):
        keys.append('<span class="key"><span class="swatch" style="background:white;border-radius:50%">'
                    "</span>hidden (not yet seen)</span>")
    shown = [("shot", _shot_key("ok", "a shot or roll at a target that succeeded")
              + _shot_key("failed", "one that failed")
              + _key("faint: a shot, hit or pin from before the latest instant")),
             ("hit", _key('<span style="color:#c00">◎</span> hit')),
             ("halt", _key('<span style="color:goldenrod">◆</span> halt (where the mover stopped)')),
             ("pin", _key('<span style="color:darkorange">▲</span> pinned')),
             ("fell", _key('<span style="font-weight:bold">✕</span> eliminated '
                           "(where it fell, in its side's colour)"))]
    keys += [text for kind, text in shown if kind in kinds]
    words = {w for u in data["units"] for row in u["looks"] if row[1] in ("hidden", "shown")
             for w in row[2].split(" · ") if w}
    if words:
        keys.append(f'<span class="key">a label names its unit\'s state: {escape(", ".join(sorted(words)))}</span>')
    if data["radius_label"]:
        keys.append(f'<span class="key">◌ {escape(data["radius_label"])} (dashed)</span>')
    for label, colour, alpha in ground:
        keys.append(f'<span class="key"><span class="swatch" style="background:{colour};opacity:{alpha:.2f}">'
                    f"</span>{escape(label)}</span>")
    return '<div class="sr-legend">' + "".join(keys) + "</div>"


def _key(text: str) -> str:
    """A legend key: ``text`` is markup."""
    return f'<span class="key">{text}</span>'


def _shot_key(outcome: str, text: str) -> str:
    """A legend key with a line drawn as the page draws a shot of that outcome."""
    look = SHOT[outcome]
    return (f'<span class="key" data-key="shot-{outcome}"><svg width="26" height="10" style="vertical-align:middle;'
            f'margin-right:0.3em"><line x1="1" y1="5" x2="25" y2="5" stroke="{look["stroke"]}" stroke-width="2.5" '
            f'stroke-dasharray="{look["dash"]}"/></svg>{look["words"]}: {text}</span>')


def _button(cls: str, text: str, title: str, pressed: bool | None = None) -> str:
    state = "" if pressed is None else f' aria-pressed="{"true" if pressed else "false"}"'
    return f'<button type="button" class="{cls}" title="{title}" aria-label="{title}"{state}>{text}</button>'


def _fragment(scenario: Any, log: Any, fps: int, frames: Any, width: int, page_hash: bool,
              classroom: bool) -> str:
    data, picture, ground = replay_data(scenario, log, frames=frames, fps=fps, width=width,
                                         classroom=classroom)
    legend = _legend(data, ground)
    for key in ("pos", "fill", "track"):   # the page computes these from the spells
        data.pop(key, None)
        for u in data["units"]:
            u.pop(key, None)
    script = resources.files("sim").joinpath("data/replay.js").read_text(encoding="utf-8")
    # every "<" as \u003c: no log text can end the script element or open a comment in it
    blob = json.dumps(data, separators=(",", ":"), default=str).replace("<", "\\u003c")
    rid = "sim-replay-" + hashlib.sha1(blob.encode()).hexdigest()[:10]
    key = "t" if page_hash else f"{rid}-t"
    w, h = data["width"], data["height"]
    controls = "".join([
        _button("first", "|◀", "first frame (Home)"),
        _button("prev-event", "◀ event", "previous event (Shift+Left)"),
        _button("back", "◀ frame", "one frame back (Left)"),
        _button("play", "▶ play", "play or pause (space)"),
        _button("step", "frame ▶", "one frame on (Right)"),
        _button("next-event", "event ▶", "next event (Shift+Right)"),
        _button("last", "▶|", "last frame (End)"),
        _button("class-mode", "class mode", "class mode: larger text, the inspector beside the map",
                pressed=classroom)])
    mode = " sr-class" if classroom else ""
    return (f'<div class="sim-replay{mode}" id="{rid}" data-hash="{key}" tabindex="0" data-frame="0" '
            f'data-playing="0" style="--sr-aspect: {w / h:.4f}">'
            f"<style>{CSS}{CLASS_CSS}</style>"
            f'<div class="sr-controls">{controls}'
            f'<input class="time" type="range" min="0" max="{len(data["t"]) - 1}" value="0" '
            f'aria-label="time"><span class="clock" aria-live="polite"></span></div>'
            f'<div class="sr-off"></div>'
            f'<div class="sr-board"><div class="sr-map">'
            f'<svg class="sr-svg" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" '
            f'preserveAspectRatio="xMidYMid meet" role="img" aria-label="the battle map">'
            f'<image href="{picture}" x="0" y="0" width="{w}" height="{h}"/></svg>{legend}</div>'
            f'<div class="sr-inspector" aria-live="polite"><div class="sr-hint">Click a unit or a mark '
            f'(or Tab to it and press Enter) to see the log records behind it.</div></div></div>'
            f'<script type="application/json" class="sim-replay-data">{blob}</script>'
            f"<script>{script}</script></div>")


def replay_fragment(scenario: Any, log: Any, fps: int = 8, frames: Any = 60, width: int = 1000,
                    classroom: bool | None = None) -> str:
    """The replay as an HTML fragment for a notebook cell (``IPython.display.HTML``): its
    styles apply to itself only, and its clock goes in the URL hash under its own id.
    ``classroom``: open it in class mode (None: as ``sim.viz.class_mode`` set it)."""
    return _fragment(scenario_of(scenario), log, fps, frames, width, page_hash=False,
                     classroom=is_classroom(classroom))


def replay_html(scenario: Any, log: Any, fps: int = 8, frames: Any = 60, width: int = 1000,
                page_title: str | None = None, classroom: bool | None = None) -> str:
    """The replay as one self-contained HTML page: open it from a file, offline; ``#t=12.5``
    opens it at that time. In a notebook, show ``replay_fragment`` instead. ``classroom``:
    open it in class mode (None: as ``sim.viz.class_mode`` set it)."""
    mode = is_classroom(classroom)
    scenario = scenario_of(scenario)
    title = page_title or f"{getattr(scenario, 'name', 'battle')}: replay"
    body = f"<h1>{escape(title)}</h1>\n" + _fragment(scenario, log, fps, frames, width, page_hash=True, classroom=mode)
    return page(title, body)
