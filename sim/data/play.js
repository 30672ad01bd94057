// The play board (sim.viz.play_board.PlayBoard), an anywidget front end: the map (the terrain
// picture, its nodes, the units where they stand), a row of orders for each unit or group
// of the person's side (the menu's choices, or "go to..." then a node clicked on the map),
// and End phase, which sends the orders and one more phase ended. Python plays the phase
// and the planner's answer and sends back the new state, the phase's replay (an HTML
// fragment whose own script draws it), what happened and the planner's answer in words,
// and at the end the debrief and the log. A message Python refuses comes back as
// "refused" (one line, shown by End phase, role=alert) with the orders it holds. The
// "class mode" button sets "classroom" (sim.viz.classroom): larger text, and what happened
// and the planner's answer beside the map with the orders. Nothing here plays the battle,
// and every text from the model goes in by textContent (the replay fragment is the
// package's own HTML, whose log text is escaped by the Python that made it).
const NS = "http://www.w3.org/2000/svg";
const CSS = `
.sim-play { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; font-size: 15px; color: #222;
            line-height: 1.35; max-width: 100%; --sp-px: 14px; }
.sim-play .sp-top { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }
.sim-play .sp-map { flex: 3 1 36em; min-width: 0; }
.sim-play .sp-map svg { width: 100%; height: auto; display: block; border: 1px solid #bbb; box-sizing: border-box; }
.sim-play .sp-side { flex: 1 1 16em; max-width: 30em; min-width: 0; }
.sim-play .sp-status { font-weight: bold; margin: 0.2em 0 0.5em; }
.sim-play .sp-error { color: #a00; margin-top: 0.4em; }
.sim-play .sp-error:empty { display: none; }
.sim-play .sp-control { border-top: 1px solid #ddd; padding: 0.35em 0; }
.sim-play .sp-control.armed { background: #fff6d6; }
.sim-play .sp-control .sp-name { font-weight: bold; }
.sim-play .sp-control .sp-order { color: #063; margin-left: 0.4em; }
.sim-play .sp-choices { display: flex; flex-wrap: wrap; gap: 0.25em; margin-top: 0.25em; }
.sim-play button { font: inherit; font-size: 14px; padding: 0.15em 0.5em; cursor: pointer; }
.sim-play button[aria-pressed=true] { background: #cfe3ff; border: 1px solid #06c; }
.sim-play .sp-buttons { display: flex; flex-wrap: wrap; gap: 0.5em; align-items: center; margin-top: 0.6em; }
.sim-play button.sp-end { font-weight: bold; font-size: 15px; padding: 0.3em 1em; }
.sim-play button.sp-class-mode[aria-pressed=true] { background: #06c; color: #fff; }
.sim-play .node { cursor: pointer; }
.sim-play .node .hit { fill: transparent; stroke: none; }
.sim-play .node:focus { outline: none; }   /* the destination's dot shows the choice */
/* the nodes faint until a destination is asked for: the map's names stay readable */
.sim-play .node .dot { r: 3px; fill: #fff; fill-opacity: 0.3; stroke: #888; stroke-opacity: 0.5; stroke-width: 1;
                       pointer-events: none; }
.sim-play.armed .node .dot { r: 5px; stroke: #06c; stroke-opacity: 1; stroke-width: 1.5; fill-opacity: 0.8; }
.sim-play .node:hover .dot, .sim-play .node.dest .dot { r: 5px; fill: #06c; fill-opacity: 0.9; stroke-opacity: 1; }
/* the map's text as large on the screen however far the map is scaled (--sp-k: its units a CSS px) */
.sim-play svg text { font-size: calc(var(--sp-k, 1) * var(--sp-px)); paint-order: stroke; stroke: #fff;
                     stroke-width: calc(var(--sp-k, 1) * 3px); stroke-linejoin: round; pointer-events: none; }
.sim-play h3 { font-size: 16px; margin: 0.9em 0 0.3em; }
.sim-play .sp-lines { font-size: 14px; margin: 0; }
.sim-play .sp-lines .sp-line { margin-top: 0.25em; }
.sim-play .sp-lines .sp-sub { margin-left: 1.5em; color: #333; }
.sim-play .sp-answer { background: #f4f7fb; border: 1px solid #ccd; padding: 0.4em 0.6em; }
.sim-play .sp-debrief { background: #f7fbf4; border: 1px solid #cdc; padding: 0.4em 0.6em; }
/* class mode (sim.viz.classroom): text at least 16 CSS px, larger with JupyterLab's content
   font size (its Presentation Mode raises it); the orders, what happened and the planner's
   answer beside the map when the width allows, the map no taller than the window */
.sim-play.sp-class { --sp-px: max(16px, calc(1.15 * var(--jp-content-font-size1, 14px))); font-size: var(--sp-px); }
.sim-play.sp-class .sp-map { flex: 3 1 20em; max-width: calc((100vh - 3em) * var(--sp-aspect, 2)); }
.sim-play.sp-class .sp-side { flex: 2 1 14em; max-width: none; display: flex; flex-direction: column;
                              max-height: calc(100vh - 8em); }
.sim-play.sp-class .sp-news { flex: 1 1 auto; min-height: 6em; overflow-y: auto; }
.sim-play.sp-class button, .sim-play.sp-class button.sp-end, .sim-play.sp-class h3,
.sim-play.sp-class .sp-lines { font-size: var(--sp-px); }
.sim-play.sp-class .sp-side h3 { margin-top: 0.6em; }
`;

// An element (HTML, or SVG when its tag is one of the map's), its attributes set, its text
// (as text) put in, appended to its parent.
const SVG_TAGS = new Set(["svg", "g", "image", "circle", "text", "title"]);
function html(tag, attrs, parent, text) {
  const made = SVG_TAGS.has(tag) ? document.createElementNS(NS, tag) : document.createElement(tag);
  Object.entries(attrs).forEach(([k, v]) => made.setAttribute(k, v));
  if (text !== undefined) { made.textContent = text; }
  return parent ? parent.appendChild(made) : made;
}
const make = html;

// Put the replay fragment in place and run its script (a script set by innerHTML does not run).
function showReplay(box, fragment) {
  box.innerHTML = fragment;
  for (const old of box.querySelectorAll("script:not([type])")) {
    const s = document.createElement("script");
    s.textContent = old.textContent;
    old.replaceWith(s);
  }
}

function words(order) {
  return order && order.startsWith("to ") ? "go to " + order.slice(3) : order;
}

function render({ model, el }) {
  const root = html("div", { class: "sim-play" }, el);
  keepMovingKeys(root);   // keys.js
  html("style", {}, root, CSS);
  const top = html("div", { class: "sp-top" }, root);
  const mapBox = html("div", { class: "sp-map" }, top);
  const [W, H] = model.get("size");
  root.style.setProperty("--sp-aspect", (W / H).toFixed(4));
  const svg = make("svg", { viewBox: `0 0 ${W} ${H}`, role: "group",
                            "aria-label": "the map: click a node to send the chosen unit there" }, mapBox);
  const picture = make("image", { href: model.get("picture"), x: 0, y: 0, width: W, height: H }, svg);
  const nodeLayer = make("g", { class: "nodes" }, svg);
  const unitLayer = make("g", { class: "units" }, svg);
  const side = html("div", { class: "sp-side" }, top);
  const status = html("div", { class: "sp-status", "aria-live": "polite" }, side);
  const rows = html("div", { class: "sp-controls" }, side);
  const buttons = html("div", { class: "sp-buttons" }, side);
  const endButton = html("button", { type: "button", class: "sp-end" }, buttons, "End phase");
  const classButton = html("button", { type: "button", class: "sp-class-mode",
                                       title: "class mode: larger text, what happened beside the map" },
                           buttons, "class mode");
  const error = html("div", { class: "sp-error", role: "alert" }, side);
  const after = html("div", { class: "sp-after" }, root);
  const debriefBox = html("div", { class: "sp-debrief-box" }, after);
  const news = html("div", { class: "sp-news" }, after);     // beside the map in class mode
  const storyBox = html("div", { class: "sp-story-box" }, news);
  const answerBox = html("div", { class: "sp-answer-box" }, news);
  const replayTitle = html("h3", { class: "sp-replay-title" }, after);
  const replayBox = html("div", { class: "sp-replay" }, after);

  let orders = {};        // control -> order, for this phase (none: keep to the plan)
  let armed = null;       // the control whose destination the next node clicked is
  let busy = false;
  let shown = null;       // the replay fragment on the page

  for (const [name, x, y] of model.get("nodes")) {
    const g = make("g", { class: "node", "data-node": name, tabindex: -1 }, nodeLayer);
    make("circle", { class: "hit", cx: x, cy: y, r: 12 }, g);
    make("circle", { class: "dot", cx: x, cy: y, r: 5 }, g);
    make("title", {}, g).textContent = name;
    g.addEventListener("click", () => {
      if (armed === null || busy) { return; }
      orders[armed] = "to " + name;
      armed = null;
      drawControls();
    });
  }

  // A unit's name under it (over it at the map's foot), clear of the picture's names, which
  // stand to the right of their places and at the top of their areas; never off the map.
  function label(x, y) {
    const below = y < H - 50;
    const anchor = x < 30 ? "start" : x > W - 30 ? "end" : "middle";
    return { x: anchor === "start" ? Math.max(x - 8, 2) : anchor === "end" ? Math.min(x + 8, W - 2) : x,
             y: below ? y + 13 : y - 15, "text-anchor": anchor,
             "dominant-baseline": below ? "hanging" : "alphabetic" };
  }

  function drawUnits() {
    unitLayer.replaceChildren();
    for (const u of model.get("state").units) {
      if (!u.on_board) { continue; }
      const g = make("g", { class: "unit", "data-unit": u.id }, unitLayer);
      make("circle", { cx: u.at[0], cy: u.at[1], r: 11, fill: u.colour, stroke: "#111", "stroke-width": 2,
                       "pointer-events": "none" }, g);
      make("text", label(u.at[0], u.at[1]), g).textContent = u.id;
    }
    for (const n of nodeLayer.children) {
      n.classList.toggle("dest", Object.values(orders).includes("to " + n.dataset.node));
    }
  }

  function drawControls() {
    const state = model.get("state");
    root.classList.toggle("armed", armed !== null);
    rows.replaceChildren();
    for (const c of state.controls) {
      const order = orders[c.name] || "plan";
      const row = html("div", { class: "sp-control" + (armed === c.name ? " armed" : ""),
                                "data-control": c.name }, rows);
      html("span", { class: "sp-name" }, row, c.units.length > 1 ? `${c.name} (${c.units.join(", ")})` : c.name);
      html("span", { class: "sp-order" }, row, armed === c.name ? "click a node on the map" : words(order));
      const choices = html("div", { class: "sp-choices" }, row);
      for (const [choice, text] of model.get("menu")) {
        const b = html("button", { type: "button", "data-choice": choice, title: text,
                                   "aria-pressed": String(order === choice && armed !== c.name) }, choices,
                       choice.replace("_", " "));
        b.addEventListener("click", () => { orders[c.name] = choice; armed = null; drawControls(); });
      }
      const go = html("button", { type: "button", "data-choice": "to",
                                  title: "then click a node on the map",
                                  "aria-pressed": String(order.startsWith("to ") || armed === c.name) },
                      choices, "go to…");
      go.addEventListener("click", () => { armed = c.name; drawControls(); });
    }
    drawUnits();
  }

  function drawStatus() {
    const s = model.get("state");
    if (s.over) {
      status.textContent = `The battle is over: ${s.winner ? s.winner + " wins" : "no winner"} (${s.reason}).`;
    } else if (busy) {
      status.textContent = "The engine plays the phase, then the planner answers…";
    } else {
      status.textContent = `Turn ${s.turn}, ${s.side}'s ${s.phase}: give each unit an order, then End phase.`;
    }
    endButton.disabled = busy || s.over;
    endButton.hidden = s.over;
  }

  function lines(box, title, cls, list) {
    box.replaceChildren();
    if (!list.length) { return; }
    html("h3", {}, box, title);
    const div = html("div", { class: "sp-lines " + cls }, box);
    for (const line of list) {   // a line indented by two spaces belongs to the one before it
      html("div", { class: line.startsWith("  ") ? "sp-sub" : "sp-line" }, div, line.trim());
    }
  }

  function drawAfter() {
    const s = model.get("state");
    lines(storyBox, s.over ? "The last phase" : "What happened", "sp-story", model.get("story"));
    lines(answerBox, "The planner's answer", "sp-answer", model.get("answers"));
    debriefBox.replaceChildren();
    if (s.over) {
      lines(debriefBox, "Debrief: your decisions against the planner's", "sp-debrief", model.get("debrief"));
      const blob = new Blob([model.get("log_jsonl")], { type: "application/x-ndjson" });
      const a = html("a", { class: "sp-log", download: "battle.jsonl", href: URL.createObjectURL(blob) },
                     debriefBox, "Download the battle's log (JSON Lines, as sim run --log writes it)");
      a.style.display = "inline-block";
      a.style.marginTop = "0.5em";
    }
    const fragment = model.get("replay");
    replayTitle.textContent = fragment ? (s.over ? "The whole battle" : "The phase, as it happened") : "";
    if (fragment && fragment !== shown) {   // a new phase's, or made again for the mode
      shown = fragment;
      showReplay(replayBox, fragment);
    }
  }

  // class mode: the class on the root, what happened beside the map, the map's text scale
  function drawMode() {
    const on = Boolean(model.get("classroom"));
    root.classList.toggle("sp-class", on);
    classButton.setAttribute("aria-pressed", String(on));
    if (on && news.parentNode !== side) { side.appendChild(news); }
    if (!on && news.parentNode !== after) { after.insertBefore(news, replayTitle); }
    const m = svg.getScreenCTM();   // CSS px a unit of the map's picture
    root.style.setProperty("--sp-k", m && m.a ? String(1 / m.a) : "1");
  }
  classButton.addEventListener("click", () => {
    model.set("classroom", !model.get("classroom"));
    model.save_changes();
  });
  const watch = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(drawMode);
  if (watch) { watch.observe(svg); }
  function redrawn() {
    picture.setAttribute("href", model.get("picture"));
    drawMode();
    drawAfter();
  }

  endButton.addEventListener("click", () => {
    if (busy) { return; }
    busy = true;
    error.textContent = "";
    drawStatus();
    const sent = {};
    for (const c of model.get("state").controls) {
      if (orders[c.name] && orders[c.name] !== "plan") { sent[c.name] = orders[c.name]; }
    }
    model.set("orders", sent);
    model.set("ended", model.get("ended") + 1);
    model.save_changes();
  });

  // Python refused what was sent: say why, and show the orders it holds (it sent them first)
  function told() {
    const why = model.get("refused");
    error.textContent = why ? "Not taken: " + why : "";
    if (!why) { return; }
    busy = false;
    orders = { ...model.get("orders") };
    armed = null;
    drawControls();
    drawStatus();
  }

  function refresh() {
    busy = false;
    orders = {};
    armed = null;
    drawControls();
    drawStatus();
    drawAfter();
    root.dataset.ended = String(model.get("ended"));
    root.dataset.over = String(model.get("state").over);
  }
  const listen = [["change:state", refresh], ["change:refused", told], ["change:classroom", redrawn],
                  ["change:picture", redrawn], ["change:replay", drawAfter]];
  for (const [event, f] of listen) { model.on(event, f); }
  drawMode();
  refresh();
  told();
  return () => {
    for (const [event, f] of listen) { model.off(event, f); }
    if (watch) { watch.disconnect(); }
  };
}

export default { render };
