// The live snap-fire board (sim.viz.board.Board), an anywidget front end: draws the model's
// table, lane, firers and radius circles as SVG, with the engine's halts and a table of its
// snap-fire rolls. A firer drags with the pointer or moves with the arrow keys; a circle's
// edge handle, its arrow keys or the slider set the radius. Each change goes to Python,
// which re-runs the battle and sets halts and rolls; they are drawn when they arrive.
// Nothing here computes a halt, and every text goes in by textContent.
const NS = "http://www.w3.org/2000/svg";
const K = 5;        // SVG units a cm: the 120 cm table is 600 units wide
const M = 34;       // margin around the table, for the scale's labels
const CSS = `
.sim-board { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; font-size: 15px;
             color: #222; display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }
.sim-board svg { max-width: 100%; height: auto; display: block; touch-action: none;
                 user-select: none; }
.sim-board svg text { font-size: 15px; fill: #222; paint-order: stroke; stroke: #f7f6ef;
                      stroke-width: 4px; stroke-linejoin: round; }
.sim-board svg .scale text { font-size: 13.5px; fill: #555; }
.sim-board .firer, .sim-board .handle { cursor: grab; outline: none; }
.sim-board .firer:focus .dot, .sim-board .handle:focus { stroke: #000; stroke-width: 4; }
.sim-board .side { flex: 1 1 22em; max-width: 34em; }
.sim-board .controls { display: flex; gap: 0.5em 1.2em; flex-wrap: wrap; align-items: center; }
.sim-board .controls label { display: flex; gap: 0.4em; align-items: center; }
.sim-board .controls input[type=range] { width: 12em; }
.sim-board .readout { margin: 0.6em 0; }
.sim-board table { border-collapse: collapse; margin: 0.3em 0; border: 0; }
.sim-board th, .sim-board td { border: 0; border-bottom: 1px solid #ccc; padding: 0.2em 0.55em;
                               text-align: left; font-size: 15px; }
.sim-board td.num { text-align: right; font-variant-numeric: tabular-nums; }
.sim-board .note { color: #555; font-size: 14px; }
.sim-board button.class-mode[aria-pressed=true] { background: #06c; color: #fff; }
/* class mode (sim.viz.classroom): text at least 16 CSS px, larger with JupyterLab's content
   font size (its Presentation Mode raises it); on the table as large on the screen however far
   the table is scaled (--sb-k: SVG units a CSS px); the readout beside the table when the
   width allows, the table no taller than the window leaves room for */
.sim-board.sb-class { --sb-px: max(16px, calc(1.15 * var(--jp-content-font-size1, 14px))); font-size: var(--sb-px); }
.sim-board.sb-class svg { flex: 3 1 24em; min-width: 0; max-width: calc((100vh - 4em) * var(--sb-aspect, 1.3)); }
.sim-board.sb-class svg text, .sim-board.sb-class svg .scale text { font-size: calc(var(--sb-k, 1) * var(--sb-px)); }
.sim-board.sb-class .side { flex: 2 1 15em; max-width: none; }
.sim-board.sb-class th, .sim-board.sb-class td, .sim-board.sb-class .note,
.sim-board.sb-class button, .sim-board.sb-class select, .sim-board.sb-class output { font-size: var(--sb-px); }
`;

function make(tag, attrs, parent, ns = NS) {
  const el = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const k in attrs) { el.setAttribute(k, attrs[k]); }
  if (parent) { parent.appendChild(el); }
  return el;
}

function html(tag, attrs, parent, text) {
  const el = make(tag, attrs, parent, null);
  if (text !== undefined) { el.textContent = text; }
  return el;
}

const fmt = (v, d) => Number(v).toFixed(d);
const round = (v) => Math.round(v * 10) / 10;
const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

function render({ model, el }) {
  const W = model.get("width"), H = model.get("height");
  const X = (x) => x * K, Y = (y) => (H - y) * K;        // y up, as on the maps
  const root = html("div", { class: "sim-board" }, el);
  keepMovingKeys(root);   // keys.js
  html("style", {}, root, CSS);
  const VW = W * K + 1.5 * M, VH = H * K + 1.5 * M;
  root.style.setProperty("--sb-aspect", (VW / VH).toFixed(4));
  const svg = make("svg", { viewBox: `${-M} ${-M / 2} ${VW} ${VH}`,
                            width: VW, role: "group",
                            "aria-label": "snap-fire board: drag a firer or its circle's edge" }, root);
  make("rect", { x: 0, y: 0, width: W * K, height: H * K, fill: "#f7f6ef", stroke: "#999" }, svg);
  const scale = make("g", { class: "scale" }, svg);
  for (let v = 0; v <= W; v += 10) {
    make("line", { x1: X(v), y1: Y(0), x2: X(v), y2: Y(0) + 5, stroke: "#777" }, scale);
    if (v % 20 === 0) {
      make("text", { x: X(v), y: Y(0) + 20, "text-anchor": "middle" }, scale).textContent = v;
    }
  }
  for (let v = 0; v <= H; v += 10) {
    make("line", { x1: -5, y1: Y(v), x2: 0, y2: Y(v), stroke: "#777" }, scale);
    if (v % 20 === 0) {
      make("text", { x: -8, y: Y(v) + 5, "text-anchor": "end" }, scale).textContent = v;
    }
  }
  const layer = {};
  for (const name of ["lane", "circles", "halts", "firers", "handles"]) {
    layer[name] = make("g", { class: name }, svg);
  }
  const lane = make("line", { stroke: "#1f77b4", "stroke-width": 3, "stroke-opacity": 0.6 }, layer.lane);
  const mover = make("circle", { r: 8, fill: "#1f77b4", stroke: "#0b3c61", "stroke-width": 2 }, layer.lane);
  const ends = [0, 1].map(() => make("text", { "text-anchor": "middle" }, layer.lane));
  const haltLabel = make("text", { class: "halt-label", "text-anchor": "middle" }, layer.halts);

  const side = html("div", { class: "side" }, root);
  const controls = html("div", { class: "controls" }, side);
  const rLabel = html("label", {}, controls, "radius ");
  const slider = html("input", { type: "range", min: 1, max: 40, step: 0.5, class: "radius",
                                 "aria-label": "snap-fire radius in cm" }, rLabel);
  const rText = html("output", { class: "radius-value" }, rLabel);
  const aLabel = html("label", {}, controls, "armour ");
  const armour = html("select", { class: "armour", "aria-label": "the mover's armour" }, aLabel);
  for (let a = 1; a <= 7; a++) { html("option", { value: a }, armour, String(a)); }
  const classButton = html("button", { type: "button", class: "class-mode",
                                       title: "class mode: larger text, the readout beside the table" },
                           controls, "class mode");
  const readout = html("p", { class: "readout", "aria-live": "polite" }, side);
  const table = html("table", { class: "rolls" }, side);
  const head = html("tr", {}, html("thead", {}, table));
  for (const h of ["firer", "turn", "t", "d6", "mods", "need", "hit", "P(hit)"]) { html("th", {}, head, h); }
  const body = html("tbody", {}, table);
  html("p", { class: "note" }, side, "Drag a firer (or focus it and use the arrow keys; Shift: " +
       "0.1 cm), or the square on its circle. The halt and the rolls are the engine's, from " +
       "the battle's log.");

  const firerEls = [];   // per firer: {g, dot, label, ring, handle}, made once and reused
  let drag = null;       // {kind: "firer" | "radius", index}

  function toTable(e) {
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
    return [clamp(round(p.x / K), 0, W), clamp(round(H - p.y / K), 0, H)];
  }
  function send(name, value) {
    model.set(name, value);
    model.save_changes();
    draw();
  }
  function moveFirer(i, p) {
    const firers = model.get("firers").map((q) => q.slice());
    firers[i] = p;
    send("firers", firers);
  }
  function setRadius(r) { send("radius", clamp(round(r), 0.5, 1000)); }

  function firer(i) {
    if (firerEls[i]) { return firerEls[i]; }
    const ring = make("circle", { fill: "#d62728", "fill-opacity": 0.06, stroke: "#d62728",
                                  "stroke-width": 2, "stroke-dasharray": "7 4" }, layer.circles);
    const g = make("g", { class: "firer", tabindex: 0, role: "button", "data-index": i }, layer.firers);
    make("circle", { class: "hit", r: 16, fill: "transparent" }, g);     // an easier target
    const dot = make("circle", { class: "dot", r: 8, fill: "#d62728", stroke: "#6b1010", "stroke-width": 2 }, g);
    const label = make("text", { "text-anchor": "start" }, g);
    const handle = make("rect", { class: "handle", width: 12, height: 12, fill: "#fff", stroke: "#d62728",
                                  "stroke-width": 2, tabindex: 0, role: "slider", "data-index": i,
                                  "aria-label": "snap-fire radius" }, layer.handles);
    for (const [node, kind] of [[g, "firer"], [handle, "radius"]]) {
      node.addEventListener("pointerdown", (e) => {
        e.preventDefault();
        node.focus();
        drag = { kind, index: i };
        try { node.setPointerCapture(e.pointerId); } catch (err) { /* a synthetic pointer */ }
      });
    }
    g.addEventListener("keydown", (e) => {
      const step = e.shiftKey ? 0.1 : 1;
      const d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] }[e.key];
      if (!d) { return; }
      e.preventDefault();
      const [x, y] = model.get("firers")[i];
      moveFirer(i, [clamp(round(x + d[0]), 0, W), clamp(round(y + d[1]), 0, H)]);
    });
    handle.addEventListener("keydown", (e) => {
      const d = { ArrowLeft: -0.5, ArrowDown: -0.5, ArrowRight: 0.5, ArrowUp: 0.5 }[e.key];
      if (!d) { return; }
      e.preventDefault();
      setRadius(model.get("radius") + d);
    });
    return (firerEls[i] = { g, dot, label, ring, handle });
  }

  function onMove(e) {
    if (!drag) { return; }
    const p = toTable(e);
    if (drag.kind === "firer") {
      moveFirer(drag.index, p);
    } else {
      const [fx, fy] = model.get("firers")[drag.index];
      setRadius(Math.hypot(p[0] - fx, p[1] - fy));
    }
  }
  function onUp() { drag = null; }
  svg.addEventListener("pointermove", onMove);
  svg.addEventListener("pointerup", onUp);
  svg.addEventListener("pointercancel", onUp);

  function drawGeometry() {
    const [[x0, y0], [x1, y1]] = model.get("path");
    const r = model.get("radius"), firers = model.get("firers");
    for (const [k, v] of Object.entries({ x1: X(x0), y1: Y(y0), x2: X(x1), y2: Y(y1) })) { lane.setAttribute(k, v); }
    mover.setAttribute("cx", X(x0)); mover.setAttribute("cy", Y(y0));
    [[x0, y0, "A (mover)"], [x1, y1, "B"]].forEach(([x, y, name], j) => {
      // kept inside the table: anchored at its end near an edge
      const anchor = x < 0.15 * W ? "start" : x > 0.85 * W ? "end" : "middle";
      ends[j].setAttribute("text-anchor", anchor);
      ends[j].setAttribute("x", X(x) + (anchor === "start" ? -4 : anchor === "end" ? 4 : 0));
      ends[j].setAttribute("y", Y(y) + (y > H - 12 ? 30 : -16));   // above the lane; the halt's label is below
      ends[j].textContent = name;
    });
    firers.forEach(([x, y], i) => {
      const f = firer(i), name = `F${i + 1}`;
      f.g.setAttribute("transform", `translate(${X(x)},${Y(y)})`);
      f.g.setAttribute("data-x", x); f.g.setAttribute("data-y", y);
      f.g.setAttribute("aria-label", `firer ${name} at (${fmt(x, 1)}, ${fmt(y, 1)}) cm: drag it, or arrow keys`);
      f.label.setAttribute("x", 12); f.label.setAttribute("y", -12);
      f.label.textContent = name;
      f.ring.setAttribute("cx", X(x)); f.ring.setAttribute("cy", Y(y)); f.ring.setAttribute("r", r * K);
      f.handle.setAttribute("x", X(x + r) - 6); f.handle.setAttribute("y", Y(y) - 6);
      f.handle.setAttribute("aria-valuenow", r);
    });
    while (firerEls.length > firers.length) {
      const f = firerEls.pop();
      for (const node of [f.g, f.ring, f.handle]) { node.remove(); }
    }
    slider.max = Math.max(40, r);
    slider.value = r;
    rText.textContent = `${fmt(r, 1)} cm`;
    armour.value = String(model.get("armour"));
  }

  function drawResult() {
    for (const old of layer.halts.querySelectorAll(".halt")) { old.remove(); }
    const halts = model.get("halts") || [], halt = model.get("halt"), t = model.get("entry_time");
    const seen = new Set();
    for (const h of halts) {
      const key = `${h.x},${h.y}`;
      if (seen.has(key)) { continue; }
      seen.add(key);
      const mark = make("g", { class: "halt", "data-x": h.x, "data-y": h.y,
                               transform: `translate(${X(h.x)},${Y(h.y)})` }, layer.halts);
      for (const [colour, width] of [["#000", 6], ["gold", 3]]) {
        make("path", { d: "M-7,-7L7,7M7,-7L-7,7", stroke: colour, "stroke-width": width,
                       "stroke-linecap": "round" }, mark);
      }
    }
    if (halt) {
      // the label goes on the far side of the halt from the firer that halted it
      const by = halts.length ? halts[0].firer : "";
      const f = model.get("firers")[Number(by.slice(1)) - 1] || [halt[0], halt[1] + 1];
      const len = Math.hypot(halt[0] - f[0], halt[1] - f[1]) || 1;
      const dx = (halt[0] - f[0]) / len || 0, dy = (halt[1] - f[1]) / len || -1;
      haltLabel.setAttribute("text-anchor", dx > 0.3 ? "start" : dx < -0.3 ? "end" : "middle");
      haltLabel.setAttribute("x", X(halt[0]) + 18 * dx); haltLabel.setAttribute("y", Y(halt[1]) - 22 * dy + 5);
      haltLabel.textContent = `halt (${fmt(halt[0], 2)}, ${fmt(halt[1], 2)})`;
      readout.textContent = `First halt at (${fmt(halt[0], 2)}, ${fmt(halt[1], 2)}) cm, ` +
        `at t = ${fmt(t, 3)}, in ${by}'s ${fmt(model.get("radius"), 1)} cm circle.`;
    } else {
      haltLabel.textContent = "";
      readout.textContent = "No halt: the mover passes outside every circle.";
    }
    body.replaceChildren();
    const rolls = model.get("rolls") || [];
    for (const r of rolls) {
      const tr = html("tr", {}, body);
      html("td", {}, tr, r.firer);
      html("td", { class: "num" }, tr, String(r.turn));
      html("td", { class: "num" }, tr, fmt(r.t, 3));
      html("td", { class: "num" }, tr, r.dice.join(", "));
      html("td", { class: "num" }, tr, String(r.mods));
      html("td", { class: "num" }, tr, `≥ ${r.need}`);
      html("td", {}, tr, r.success ? "hit" : "miss");
      html("td", { class: "num" }, tr, r.chance);
    }
    if (!rolls.length) { html("td", { colspan: 8 }, html("tr", {}, body), "no snap-fire roll"); }
  }

  function drawMode() {
    const on = Boolean(model.get("classroom"));
    root.classList.toggle("sb-class", on);
    classButton.setAttribute("aria-pressed", on ? "true" : "false");
    const m = svg.getScreenCTM();   // CSS px a unit of the table's drawing
    root.style.setProperty("--sb-k", m && m.a ? String(1 / m.a) : "1");
  }
  function draw() { drawMode(); drawGeometry(); drawResult(); }
  classButton.addEventListener("click", () => send("classroom", !model.get("classroom")));
  const watch = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(drawMode);
  if (watch) { watch.observe(svg); }
  slider.addEventListener("input", () => setRadius(Number(slider.value)));
  armour.addEventListener("change", () => send("armour", Number(armour.value)));
  const events = ["path", "firers", "radius", "armour", "halt", "entry_time", "halts", "rolls", "classroom"]
    .map((n) => `change:${n}`);
  for (const ev of events) { model.on(ev, draw); }
  draw();
  return () => {
    for (const ev of events) { model.off(ev, draw); }
    if (watch) { watch.disconnect(); }
  };
}

export default { render };
