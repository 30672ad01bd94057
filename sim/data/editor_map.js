// The scenario editor's map (sim.viz.Editor; joined with editor_forms.js and editor.js into
// one module): the ground's geometry (where a node is drawn, which node a click is near)
// and the SVG of the document: areas, hexes, grid, waypoints, units, the objective and the
// polygon being drawn. Every text goes in by textContent.
const NS = "http://www.w3.org/2000/svg";
const TOOLS = Object.freeze({ SELECT: "select", AREA: "area", WAYPOINT: "waypoint", UNIT: "unit" });
const SIDE_COLOURS = ["#1f5fa8", "#b8322a"];
const GROUND_COLOURS = Object.freeze({ open: "#f4f1e4", woods: "#8dbf6a", building: "#b49c7c", hedge: "#c3d69b",
                                       rubble: "#cdbfa8", impassable: "#5b5b5b" });
const SNAP_PX = 14;        // a click this near a node puts a unit on it; this near the first corner closes an area
const MAP_PX = [640, 480]; // the largest the map is drawn, in SVG units
const ROOT3 = Math.sqrt(3);

function make(tag, attrs, parent) {
  const el = document.createElementNS(NS, tag);
  for (const k in attrs) { el.setAttribute(k, attrs[k]); }
  if (parent) { parent.appendChild(el); }
  return el;
}

function html(tag, attrs, parent, text) {
  const el = document.createElement(tag);
  for (const k in attrs) { el.setAttribute(k, attrs[k]); }
  if (text !== undefined) { el.textContent = text; }
  if (parent) { parent.appendChild(el); }
  return el;
}

const clone = (v) => JSON.parse(JSON.stringify(v));
const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
const tenth = (v) => Math.round(v * 10) / 10;
const colourOf = (name) => GROUND_COLOURS[name] || "#e3dccb";
// An area's colour: its built-in terrain's, else its name's (woods, ...), else its cover's
const areaColour = (area) => GROUND_COLOURS[area.terrain || area.name] ||
  [GROUND_COLOURS.open, GROUND_COLOURS.hedge, GROUND_COLOURS.woods][area.cover] || GROUND_COLOURS.building;

function inside([x, y], polygon) {   // even-odd rule
  let odd = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i], [xj, yj] = polygon[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) { odd = !odd; }
  }
  return odd;
}

// A table in cm (y up): points are [x, y] cm; nodes are waypoints and grid places "gx,gy".
function tableGround(t) {
  const W = Number(t.width) || 1, H = Number(t.height) || 1;
  const K = Math.min(MAP_PX[0] / W, MAP_PX[1] / H);
  const spacing = t.grid && Number(t.grid.spacing) > 0 ? Number(t.grid.spacing) : null;
  const waypoints = t.waypoints || {};
  const grid = [];
  if (spacing && (W / spacing + 1) * (H / spacing + 1) <= 5000) {
    for (let gx = 0; gx * spacing <= W + 1e-9; gx++) {
      for (let gy = 0; gy * spacing <= H + 1e-9; gy++) { grid.push([`${gx},${gy}`, [gx * spacing, gy * spacing]]); }
    }
  }
  const nodes = [...Object.entries(waypoints), ...grid];
  return {
    kind: "table", size: [W * K, H * K], units: "cm", grid,
    screen: ([x, y]) => [x * K, (H - y) * K],
    point: ([px, py]) => [clamp(tenth(px / K), 0, W), clamp(tenth(H - py / K), 0, H)],
    where: (node) => (node in waypoints ? waypoints[node] : (grid.find(([n]) => n === node) || [])[1] || null),
    near(p) {
      let best = null, least = SNAP_PX / K;
      for (const [name, q] of nodes) {
        const d = Math.hypot(q[0] - p[0], q[1] - p[1]);
        if (d <= least) { best = name; least = d; }
      }
      return best;
    },
    label: (p) => `(${p[0]}, ${p[1]}) cm`,
  };
}

// A hex map, pointy-top, odd rows half a hex right: points are SVG units; nodes are hexes "q,r".
// Its size is `width` x `height`, or that of its `rows` (one letter a hex).
function hexGround(t) {
  const rows = Array.isArray(t.rows) ? t.rows.map(String) : null;
  const cols = Math.max(1, Math.min(200, rows ? Math.max(...rows.map((r) => r.length)) : Number(t.width) || 1));
  const nrows = Math.max(1, Math.min(200, rows ? rows.length : Number(t.height) || 1));
  const S = Math.min(MAP_PX[0] / (ROOT3 * (cols + 0.5)), MAP_PX[1] / (1.5 * nrows + 0.5));   // a hex's radius
  const centre = (c, r) => [ROOT3 * S * (c + 0.5 + 0.5 * (r & 1)), S * (1 + 1.5 * r)];
  const hexes = [];   // [name, centre, column, row]
  for (let r = 0; r < nrows; r++) {
    for (let c = 0; c < cols; c++) { hexes.push([`${c - Math.floor(r / 2)},${r}`, centre(c, r), c, r]); }
  }
  const corners = ([x, y]) => [0, 1, 2, 3, 4, 5].map((i) => {
    const a = (Math.PI / 180) * (60 * i - 30);
    return [x + S * Math.cos(a), y + S * Math.sin(a)];
  });
  return {
    kind: "hex", size: [ROOT3 * S * (cols + 0.5), S * (1.5 * nrows + 0.5)], units: "hex", hexes, corners, rows,
    screen: (p) => p,
    point: ([px, py]) => [tenth(px), tenth(py)],
    where: (node) => (hexes.find(([n]) => n === node) || [])[1] || null,
    letter: ([name, , c, r]) => (rows ? rows[r][c] || "." : (t.special || {})[name] || t.default || "."),
    near(p) {
      let best = null, least = S;
      for (const [name, q] of hexes) {
        const d = Math.hypot(q[0] - p[0], q[1] - p[1]);
        if (d <= least) { best = name; least = d; }
      }
      return best;
    },
    label: (p) => hexAt(hexes, p, S),
  };
}

function hexAt(hexes, p, S) {
  const found = hexes.find(([, q]) => Math.hypot(q[0] - p[0], q[1] - p[1]) <= S * 0.87);
  return found ? `hex ${found[0]}` : "";
}

function groundOf(doc) {
  const t = doc.terrain || {};
  return t.kind === "hex" ? hexGround(t) : tableGround(t);
}

// Paint with `letter` the hexes whose centres lie in a polygon (SVG units): an area drawn on hexes.
function paintHexes(terrain, ground, polygon, letter) {
  const painted = ground.hexes.filter(([, c]) => inside(c, polygon));
  if (ground.rows) {
    const rows = ground.rows.map((r) => r.split(""));
    for (const [, , c, r] of painted) { rows[r][c] = letter; }
    terrain.rows = rows.map((r) => r.join(""));
    return;
  }
  const special = { ...(terrain.special || {}) };
  for (const [name] of painted) {
    if (letter === (terrain.default || ".")) { delete special[name]; } else { special[name] = letter; }
  }
  terrain.special = special;
}

function letterName(doc, catalogue, letter) {
  const own = (doc.terrain.types || {})[letter];
  return (own && own.name) || catalogue.letters[letter] || letter;
}

// Draw the document on the map's layers; `state` has the drawing in progress, the selection
// and the key of the error (whose unit, waypoint or area is marked).
function drawMap(layers, doc, ground, state, catalogue) {
  for (const layer of Object.values(layers)) { layer.replaceChildren(); }
  const t = doc.terrain || {};
  const [w, h] = ground.size;
  make("rect", { x: 0, y: 0, width: w, height: h, fill: colourOf("open"), stroke: "#888" }, layers.ground);
  if (ground.kind === "hex") {
    for (const hex of ground.hexes) {
      const [name, c] = hex, letter = ground.letter(hex);
      const kind = letterName(doc, catalogue, letter);
      make("polygon", { points: ground.corners(c).map((p) => p.join(",")).join(" "), fill: colourOf(kind),
                        stroke: "#b3ab95", "stroke-width": 1, class: "hex", "data-hex": name,
                        "data-letter": letter }, layers.ground);
    }
  } else {
    for (const [, p] of ground.grid) {
      const [x, y] = ground.screen(p);
      make("circle", { cx: x, cy: y, r: 1.6, fill: "#a8a293" }, layers.ground);
    }
    (t.areas || []).forEach((area, i) => {
      const points = (area.polygon || []).map((p) => ground.screen(p).join(",")).join(" ");
      const g = make("g", { class: "area", "data-index": i }, layers.areas);
      make("polygon", { points, fill: area.passable === false ? GROUND_COLOURS.impassable : areaColour(area), "fill-opacity": 0.85,
                        stroke: "#4d4632", "stroke-width": state.selected === `area:${i}` ? 3 : 1.2 }, g);
      const [cx, cy] = centroid((area.polygon || []).map(ground.screen));
      make("text", { x: cx, y: cy + 5, "text-anchor": "middle", class: "name" }, g).textContent =
        `${area.name || `area${i}`}${area.cover !== undefined ? ` · cover ${area.cover}` : ""}`;
    });
    for (const [a, b] of t.edges || []) {
      const p = ground.where(a), q = ground.where(b);
      if (p && q) {
        const [x1, y1] = ground.screen(p), [x2, y2] = ground.screen(q);
        make("line", { x1, y1, x2, y2, stroke: "#7a6f55", "stroke-width": 2, "stroke-dasharray": "6 4" }, layers.areas);
      }
    }
    for (const [name, p] of Object.entries(t.waypoints || {})) {
      const [x, y] = ground.screen(p);
      const g = make("g", { class: "waypoint", "data-name": name, transform: `translate(${x},${y})` }, layers.points);
      make("path", { d: "M0,-8L8,0L0,8L-8,0Z", fill: "#fff", stroke: "#333",
                     "stroke-width": state.selected === `waypoint:${name}` ? 3.5 : 2 }, g);
      make("text", { x: 10, y: -8, class: "name" }, g).textContent = name;
    }
  }
  const objective = (doc.victory || {}).objective;
  const goal = objective ? ground.where(objective) : null;
  if (goal) {
    const [x, y] = ground.screen(goal);
    make("path", { class: "objective", transform: `translate(${x},${y})`, fill: "gold", stroke: "#6b5200",
                   "stroke-width": 1.5, d: "M0,-13L3.8,-4.2L13,-4L5.9,2.2L8.2,11.5L0,6.2L-8.2,11.5L-5.9,2.2L-13,-4L-3.8,-4.2Z" },
         layers.areas);   // under the waypoint it names
  }
  drawUnits(layers.units, doc, ground, state);
  drawSketch(layers.sketch, ground, state.sketch);
}

function drawUnits(layer, doc, ground, state) {
  const stacked = {};
  (doc.sides || []).forEach((side, s) => {
    ((doc.forces || {})[side] || []).forEach((unit, i) => {
      const p = ground.where(unit.at);
      if (!p) { return; }
      const [x0, y0] = ground.screen(p);
      const k = (stacked[unit.at] = (stacked[unit.at] || 0) + 1) - 1;    // units on one node fan out
      const x = x0 + 7 * k, y = y0 - 7 * k;
      const key = `forces.${side}.${i}`;
      const bad = state.errorKey === key || state.errorKey.startsWith(`${key}.`);
      const g = make("g", { class: `unit${bad ? " bad" : ""}`, "data-side": side, "data-index": i,
                            "data-id": unit.id, transform: `translate(${x},${y})` }, layer);
      make("circle", { r: 9, fill: SIDE_COLOURS[s] || "#444", stroke: bad ? "#e00" : "#111",
                       "stroke-width": state.selected === `unit:${side}:${i}` || bad ? 4 : 1.5 }, g);
      const right = x > ground.size[0] - 70;   // a label near the right edge goes on the unit's left
      make("text", { x: right ? -12 : 12, y: 16, "text-anchor": right ? "end" : "start", class: "name" }, g)
        .textContent = unit.id;
    });
  });
}

function drawSketch(layer, ground, sketch) {
  if (!sketch || !sketch.length) { return; }
  const points = sketch.map(ground.screen);
  make("polyline", { points: points.map((p) => p.join(",")).join(" "), fill: "none", stroke: "#000",
                     "stroke-width": 2, "stroke-dasharray": "5 3" }, layer);
  points.forEach(([x, y], i) => {
    make("circle", { cx: x, cy: y, r: i === 0 ? 7 : 4, fill: i === 0 ? "#fff" : "#000", stroke: "#000",
                     "stroke-width": 2, class: i === 0 ? "first-corner" : "corner" }, layer);
  });
}

function centroid(points) {
  if (!points.length) { return [0, 0]; }
  const sum = points.reduce(([a, b], [x, y]) => [a + x, b + y], [0, 0]);
  return [sum[0] / points.length, sum[1] / points.length];
}
