// The replay player: draws the battle at any instant from the data in the
// <script type="application/json"> beside it (units, trails, radii, marks of shots, hits,
// halts, pins and falls, the clock) over the terrain picture, with play/pause, frame and
// event steps, first/last, a time slider, an inspector of the log records behind a unit or
// a mark, and the clock in the URL hash. It fetches nothing, and writes log text only as
// text (textContent), never as markup.
(function () {
  "use strict";
  // the replay this script sits in (a notebook that runs scripts by eval has no
  // currentScript: then the first replay not yet started)
  var root = document.currentScript ? document.currentScript.closest(".sim-replay")
    : document.querySelector(".sim-replay:not([data-ready])");
  var D = JSON.parse(root.querySelector("script.sim-replay-data").textContent);
  var NS = "http://www.w3.org/2000/svg";
  var svg = root.querySelector("svg.sr-svg");
  var inspector = root.querySelector(".sr-inspector");
  var EPS = 1e-9;
  // the moving keys of sim/data/keys.js (this page script is not a module and cannot share it)
  var MOVING_KEYS = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"];
  function make(tag, attrs, parent) {
    var el = document.createElementNS(NS, tag);
    for (var k in attrs) { el.setAttribute(k, attrs[k]); }
    parent.appendChild(el);
    return el;
  }
  function html(tag, cls, text, parent) {
    var el = document.createElement(tag);
    if (cls) { el.className = cls; }
    if (text !== null) { el.textContent = text; }
    parent.appendChild(el);
    return el;
  }
  // halts above the passing marks: a click on a halt opens the halt, not the shot that
  // ends on it (the shot is still picked along its line)
  var layers = {};
  ["hexes", "trails", "radii", "fallen", "units", "passing", "halts", "labels"].forEach(function (name) {
    layers[name] = make("g", {"class": name}, svg);
  });
  // Text on the map is sized in the picture's units: ts is how much larger than at its
  // plain size (15) it is drawn. In class mode it is as large on the screen as the player's
  // own text (at least 16 CSS px, more in JupyterLab's Presentation Mode) however far the
  // map is scaled down to fit beside the inspector.
  var ts = 1;
  function textScale() {
    if (!root.classList.contains("sr-class")) { return 1; }
    var m = svg.getScreenCTM();   // the picture's scale on the screen (CSS px a unit)
    if (!m || !m.a) { return 1; }
    return Math.max(1, parseFloat(getComputedStyle(root).fontSize) / m.a / 15);
  }
  var hexText = D.hexes.map(function (h) {
    // in the top of its hex, clear of the unit at its centre and of the unit's label below
    var el = make("text", {x: h[0], y: h[1] - 0.42 * D.hex_r, "text-anchor": "middle", "font-size": 13, fill: "#888",
                           "pointer-events": "none"}, layers.hexes);
    el.textContent = h[2];
    return el;
  });
  var n = D.units.length, last = D.t.length - 1, now = 0, timer = null, chosen = null;

  // -- where a unit is, and how it looks, at t ------------------------------------------
  function lookAt(u, t) {
    var rows = u.looks, row = rows[0];
    for (var j = 0; j < rows.length && rows[j][0] <= t + EPS; j++) { row = rows[j]; }
    return row;
  }
  function along(keys, t) {
    if (t <= keys[0][0]) { return [keys[0][1], keys[0][2]]; }
    for (var j = 1; j < keys.length; j++) {
      var b = keys[j];
      if (t <= b[0]) {
        var a = keys[j - 1], s = b[0] > a[0] ? (t - a[0]) / (b[0] - a[0]) : 1;
        return [a[1] + s * (b[1] - a[1]), a[2] + s * (b[2] - a[2])];
      }
    }
    var z = keys[keys.length - 1];
    return [z[1], z[2]];
  }
  function whereAt(u, t) {
    var segs = u.segs, found = null;
    for (var j = 0; j < segs.length; j++) {
      if (segs[j][0][0] <= t + EPS) { found = segs[j]; }
    }
    return found ? along(found, t) : null;
  }
  function trailOf(u, t) {
    var out = [];
    u.segs.forEach(function (seg) {
      if (seg[0][0] > t + EPS) { return; }
      var pts = [];
      for (var j = 0; j < seg.length && seg[j][0] <= t; j++) { pts.push(seg[j][1] + "," + seg[j][2]); }
      var p = along(seg, t);
      pts.push(p[0] + "," + p[1]);
      out.push("M" + pts.join(" L"));
    });
    return out.join(" ");
  }

  // -- the drawing's parts ---------------------------------------------------------------
  var trails = [], dots = [], rings = [];
  D.units.forEach(function (u, i) {
    trails.push(make("path", {fill: "none", stroke: u.colour, "stroke-opacity": 0.5,
                              "stroke-width": 2}, layers.trails));
    rings.push(u.radius ? make("circle", {r: u.radius, fill: "none", stroke: u.colour,
                                          "stroke-dasharray": "6 4", "stroke-width": 1.5,
                                          "stroke-opacity": 0.8}, layers.radii) : null);
    var dot = make("circle", {r: 8, stroke: u.colour, "stroke-width": 2.5, "data-unit": u.id,
                              tabindex: 0, role: "button", "aria-label": "unit " + u.id}, layers.units);
    dot.addEventListener("click", function () { choose({unit: i}); });
    dots.push(dot);
  });
  function cross(x, y, r, outer, inner, parent) {
    var d = "M" + (x - r) + "," + (y - r) + "l" + 2 * r + "," + 2 * r + "m0," + (-2 * r) + "l" + (-2 * r) + "," + 2 * r;
    make("path", {d: d, stroke: outer, "stroke-width": 5, "stroke-linecap": "round"}, parent);
    make("path", {d: d, stroke: inner, "stroke-width": 2.5, "stroke-linecap": "round"}, parent);
  }
  var colourOf = {};
  D.units.forEach(function (u) { colourOf[u.id] = u.colour; });
  var NAMES = {shot: "shot", hit: "hit", halt: "halt", pin: "pin", fell: "eliminated"};
  var marks = D.marks.map(function (m, i) {
    var lasting = m.k === "halt" || m.k === "fell";
    var r = D.records[m.g];
    var g = make("g", {"data-mark": m.k, "data-index": i, tabindex: 0, role: "button",
                       "aria-label": NAMES[m.k] + " at t = " + m.t.toFixed(2) + (r.unit ? " (" + r.unit + ")" : ""),
                       visibility: "hidden"}, m.k === "fell" ? layers.fallen : m.k === "halt" ? layers.halts : layers.passing);
    var p = m.p;
    if (m.k === "shot") {
      // drawn as the legend's key for it says (D.shot: the page's one list of the styles)
      var look = D.shot[m.ok ? "ok" : "failed"];
      make("line", {x1: p[0], y1: p[1], x2: p[2], y2: p[3], stroke: look.stroke,
                    "stroke-width": 2.5, "stroke-dasharray": look.dash}, g);
      make("line", {x1: p[0], y1: p[1], x2: p[2], y2: p[3], stroke: "transparent", "stroke-width": 12}, g);
      make("circle", {cx: p[2], cy: p[3], r: 4, fill: look.stroke}, g);
    } else if (m.k === "hit") {
      make("circle", {cx: p[0], cy: p[1], r: 13, fill: "none", stroke: "#c00", "stroke-width": 3}, g);
    } else if (m.k === "halt") {
      make("path", {d: "M" + p[0] + "," + (p[1] - 8) + "l8,8l-8,8l-8,-8z", fill: "gold",
                    stroke: "black", "stroke-width": 1.5}, g);
    } else if (m.k === "pin") {
      make("path", {d: "M" + p[0] + "," + (p[1] - 24) + "l7,12h-14z", fill: "darkorange",
                    stroke: "black", "stroke-width": 1}, g);
    } else {
      cross(p[0], p[1], 8, "black", colourOf[m.u] || "grey", g);
    }
    g.addEventListener("click", function () { choose({mark: i}); });
    return {el: g, m: m, lasting: lasting};
  });

  var slider = root.querySelector("input.time");
  var clock = root.querySelector(".clock");
  var offTable = root.querySelector(".sr-off");
  var playButton = root.querySelector("button.play");
  slider.max = last;

  function clockText(t) {
    var row = D.clock[0] || [0, 1, "", ""];
    for (var j = 0; j < D.clock.length && D.clock[j][0] <= t + EPS; j++) { row = D.clock[j]; }
    return "t = " + t.toFixed(2) + "   turn " + row[1] + " (" + row[2] + ", " + row[3] + ")";
  }
  function frameOf(t) {
    var k = 0;
    while (k < last && D.t[k + 1] <= t + EPS) { k++; }
    return k;
  }

  function labels(spots) {
    while (layers.labels.firstChild) { layers.labels.removeChild(layers.labels.firstChild); }
    // Each label takes the first place around its spot that is clear of the labels
    // placed before it and of every unit, and of the picture's edges (a unit at the edge
    // would have its name cut off), and nearer its own spot than any other, so it is read
    // as that spot's (text size estimated from its length); failing that, the first place
    // nearer its own spot, or else the first clear one.
    var taken = spots.map(function (s) { return [s.x - 9, s.y - 9, s.x + 9, s.y + 9]; });
    var places = [[11, 18, "start"], [11, -8, "start"], [-11, 18, "end"], [-11, -8, "end"],
                  [13, 5, "start"], [-13, 5, "end"], [0, 24, "middle"], [0, -14, "middle"],
                  [11, 34, "start"], [11, -24, "start"], [-11, 34, "end"], [-11, -24, "end"],
                  [0, 40, "middle"], [0, -30, "middle"]].map(function (c) { return [c[0] * ts, c[1] * ts, c[2]]; });
    function gap(box, s) {
      var dx = Math.max(box[0] - s.x, 0, s.x - box[2]), dy = Math.max(box[1] - s.y, 0, s.y - box[3]);
      return Math.sqrt(dx * dx + dy * dy);
    }
    spots.forEach(function (s, si) {
      var text = s.ids.join(", "), w = 8.4 * ts * text.length + 2, h = 16 * ts;
      var best = null;
      for (var c = 0; c < places.length; c++) {
        var x = s.x + places[c][0], y = s.y + places[c][1], left = {start: x, end: x - w, middle: x - w / 2};
        var box = [left[places[c][2]], y - h + 3, left[places[c][2]] + w, y + 3];
        var clear = box[0] >= 0 && box[1] >= 0 && box[2] <= D.width && box[3] <= D.height &&
          taken.every(function (t, ti) {
            return ti === si || box[2] <= t[0] || t[2] <= box[0] || box[3] <= t[1] || t[3] <= box[1];
          });
        var own = spots.every(function (o, oi) { return oi === si || gap(box, s) < gap(box, o); });
        var score = (clear && own ? 3 : own ? 2 : clear ? 1 : 0);
        if (best === null || score > best[0]) { best = [score, places[c], box]; }
        if (score === 3) { break; }
      }
      var pick = best[1];
      taken.push(best[2]);
      make("text", {x: s.x + pick[0], y: s.y + pick[1], "text-anchor": pick[2], "font-size": 15 * ts,
                    "paint-order": "stroke", stroke: "white", "stroke-width": 4,
                    "pointer-events": "none"}, layers.labels).textContent = text;
    });
  }

  function draw(t, keepHash) {
    now = Math.max(D.t[0], Math.min(D.end, t));
    ts = textScale();
    var hexSize = root.classList.contains("sr-class") ? 15 * ts : 13;   // as large as a unit's in class mode
    hexText.forEach(function (el) { el.setAttribute("font-size", hexSize); });
    var spots = [];
    for (var i = 0; i < n; i++) {
      var u = D.units[i], look = lookAt(u, now), p = look[1] === "gone" ? null : whereAt(u, now);
      var shown = p !== null && look[1] !== "dead";
      dots[i].setAttribute("visibility", shown ? "visible" : "hidden");
      dots[i].setAttribute("data-look", look[1]);
      if (rings[i]) { rings[i].setAttribute("visibility", shown ? "visible" : "hidden"); }
      trails[i].setAttribute("d", look[1] === "gone" ? "" : trailOf(u, now));
      if (!shown) { continue; }
      dots[i].setAttribute("cx", p[0]);
      dots[i].setAttribute("cy", p[1]);
      dots[i].setAttribute("fill", look[1] === "hidden" ? "white" : u.colour);
      dots[i].setAttribute("stroke-dasharray", look[1] === "hidden" ? "4 3" : "none");
      if (rings[i]) { rings[i].setAttribute("cx", p[0]); rings[i].setAttribute("cy", p[1]); }
      var name = u.id + (look[2] ? " (" + look[2] + ")" : "");
      // Units on (nearly) one spot share one label, so labels never sit on each other.
      var spot = null;
      for (var s = 0; s < spots.length; s++) {
        if (Math.abs(spots[s].x - p[0]) < 12 && Math.abs(spots[s].y - p[1]) < 12) { spot = spots[s]; break; }
      }
      if (spot) { spot.ids.push(name); } else { spots.push({x: p[0], y: p[1], ids: [name]}); }
    }
    labels(spots);
    var off = [], fallen = [];
    D.units.forEach(function (u) {
      var look = lookAt(u, now);
      if (look[1] === "gone") { off.push(u.id + (look[2] ? " (" + look[2] + ")" : "")); }
      if (look[1] === "dead") { fallen.push(u.id); }
    });
    offTable.textContent = (off.length ? "not on the table: " + off.join(", ") : "") +
      (off.length && fallen.length ? " · " : "") + (fallen.length ? "eliminated: " + fallen.join(", ") : "");
    // A passing mark (shot, hit, pin) fades as it ages; one from before the latest instant
    // that has marks is faint, so an old hit under new misses does not read as new.
    var latest = -Infinity;
    marks.forEach(function (k) { if (k.m.t <= now + EPS) { latest = Math.max(latest, k.m.t); } });
    marks.forEach(function (k) {
      var age = now - k.m.t, on = age >= -EPS && (k.lasting || age < D.linger);
      k.el.setAttribute("visibility", on ? "visible" : "hidden");
      var strength = k.m.t < latest - EPS ? 0.3 : 1;
      if (on && !k.lasting) { k.el.setAttribute("opacity", (strength * (1 - 0.6 * Math.max(0, age) / D.linger)).toFixed(2)); }
    });
    var frame = frameOf(now);
    slider.value = frame;
    clock.textContent = clockText(now);
    root.dataset.frame = String(frame);
    root.dataset.time = String(now);
    if (chosen && chosen.unit !== undefined) { showUnit(chosen.unit); }
    if (!keepHash) { writeHash(); }
  }
  function drawFrame(k) { draw(D.t[Math.max(0, Math.min(last, k))]); }

  // -- the inspector ---------------------------------------------------------------------
  var SKIP = {t: 1, turn: 1, side: 1, phase: 1, event: 1, rule: 1, dice: 1, mods: 1, need: 1, success: 1};
  // the log holds floats at full precision; a person reads them to 3 decimals
  function readable(k, v) { return typeof v === "number" && !Number.isInteger(v) ? Number(v.toFixed(3)) : v; }
  function showRecord(i, parent) {
    var r = D.records[i], box = html("div", "sr-rec", null, parent);
    box.dataset.record = String(i);
    html("div", "sr-head", "t " + Number(r.t).toFixed(2) + " · turn " + r.turn + " (" + r.side + ", " +
         r.phase + ") · " + r.event, box);
    if (r.rule) { html("div", "sr-rule", "rule " + r.rule + (D.titles[r.rule] ? ": " + D.titles[r.rule] : ""), box); }
    if (D.why[String(i)] !== undefined) {
      html("div", "sr-roll", "dice " + JSON.stringify(r.dice) + " · mods " + r.mods + " · need " + r.need +
           " · success " + r.success, box);
      html("div", "sr-why", D.why[String(i)], box);
    }
    var rest = [];
    for (var k in r) { if (!SKIP[k]) { rest.push(k + ": " + JSON.stringify(r[k], readable)); } }
    if (rest.length) { html("div", "sr-fields", rest.join("; "), box); }
  }
  function clear() { while (inspector.firstChild) { inspector.removeChild(inspector.firstChild); } }
  function shownNow(j) { return marks[j].el.getAttribute("visibility") === "visible"; }
  function samePlace(a, b) {
    return a.k === b.k && a.p.length === b.p.length && a.p.every(function (v, c) { return Math.abs(v - b.p[c]) < 1; });
  }
  function showMark(i) {
    // marks of one kind drawn on one spot cover each other: a click on one shows them all
    var m = D.marks[i], stack = [], seen = {};
    D.marks.forEach(function (o, j) { if (j === i || (shownNow(j) && samePlace(o, m))) { stack.push(j); } });
    clear();
    if (stack.length > 1) {
      html("div", "sr-title", stack.length + " " + NAMES[m.k] + " marks on one spot, each with the records behind it:",
           inspector);
    }
    stack.forEach(function (j) {
      var o = D.marks[j], who = D.records[o.g].unit;
      html("div", "sr-title", NAMES[o.k] + " at t = " + o.t.toFixed(2) + (stack.length > 1 && who ? " (" + who + ")" : "") +
           ": the records behind it", inspector);
      o.r.forEach(function (r) { if (!seen[r]) { seen[r] = 1; showRecord(r, inspector); } });
    });
  }
  function names(r, id) {
    return ["unit", "target", "by", "firer"].some(function (k) {
      var v = r[k];
      return v === id || (Array.isArray(v) && v.indexOf(id) >= 0);
    });
  }
  function showUnit(i) {
    var u = D.units[i], look = lookAt(u, now), found = [];
    for (var j = 0; j < D.records.length && D.records[j].t <= now + EPS; j++) {
      if (names(D.records[j], u.id)) { found.push(j); }
    }
    clear();
    var where = {gone: "not on the table", hidden: "hidden", shown: "on the table", dead: "eliminated"}[look[1]];
    html("div", "sr-title", u.id + " (" + u.side + ") at t = " + now.toFixed(2) + ": " + where +
         (look[2] ? "; " + look[2] : "") + ". Its latest records (newest first):", inspector);
    found.slice(-8).reverse().forEach(function (j) { showRecord(j, inspector); });
    if (!found.length) { html("div", "sr-rec", "no record names it yet", inspector); }
  }
  function choose(what) {
    chosen = what;
    if (what.mark !== undefined) { showMark(what.mark); } else { showUnit(what.unit); }
    root.dataset.inspected = what.mark !== undefined ? "mark " + what.mark : "unit " + what.unit;
  }

  // -- the clock in the URL hash ---------------------------------------------------------
  var key = root.dataset.hash;
  function hashParts() { return location.hash.replace(/^#/, "").split("&").filter(function (s) { return s; }); }
  function hashTime() {
    var found = null;
    hashParts().forEach(function (s) {
      var eq = s.indexOf("=");
      if (eq > 0 && decodeURIComponent(s.slice(0, eq)) === key) {
        var v = parseFloat(decodeURIComponent(s.slice(eq + 1)));
        if (isFinite(v)) { found = atInstant(v); }
      }
    });
    return found;
  }
  // a time within 1e-9 of a record's instant is that instant (a link written with nine
  // decimals reopens on it), so the state drawn includes the records there
  function atInstant(v) {
    for (var j = 0; j < D.instants.length; j++) {
      if (Math.abs(D.instants[j] - v) <= 1e-9 * Math.max(1, Math.abs(v))) { return D.instants[j]; }
    }
    return v;
  }
  // The clock is also kept in the tab's sessionStorage, for a reload after the host dropped
  // it from the URL: JupyterLab writes a document's path alone in the URL whenever another
  // tab (and then this one again) is chosen. Read back on a reload only, and only when the
  // URL names no time: a link opens where it says, a fresh visit at the start.
  var stored = "sim-replay " + (key === "t" ? location.pathname + " " : "") + key;
  function keep() {
    try { sessionStorage.setItem(stored, String(now)); } catch (e) { /* no storage here */ }
  }
  function kept() {
    try {
      var nav = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
      if (!nav || nav.type !== "reload") { return null; }
      var v = parseFloat(sessionStorage.getItem(stored));
      return isFinite(v) ? v : null;
    } catch (e) { return null; }
  }
  function writeHash() {
    if (timer !== null) { return; }   // while playing the hash rests; it is written on pause
    keep();
    // nine decimals: short, and within 1e-9 of the instant, so the link reopens on it
    var mine = encodeURIComponent(key) + "=" + Number(now.toFixed(9));
    var parts = hashParts().filter(function (s) { return decodeURIComponent(s.split("=")[0]) !== key; });
    parts.push(mine);
    var hash = "#" + parts.join("&");
    if (location.hash === hash) { return; }
    try { history.replaceState(null, "", hash); } catch (e) { location.hash = hash; }
  }
  window.addEventListener("hashchange", function () {
    var t = hashTime();
    if (t !== null && Math.abs(t - now) > 1e-6) { pause(); draw(t, true); keep(); }
  });

  // -- the controls ----------------------------------------------------------------------
  function pause() {
    var was = timer !== null;
    if (was) { clearInterval(timer); timer = null; }
    root.dataset.playing = "0";
    playButton.textContent = "\u25B6 play";
    if (was) { writeHash(); }
  }
  function play() {
    if (now >= D.end - EPS) { drawFrame(0); }
    timer = setInterval(function () {
      var k = frameOf(now);
      if (k >= last) { pause(); } else { draw(D.t[k + 1]); }
    }, 1000 / D.fps);
    root.dataset.playing = "1";
    playButton.textContent = "\u275A\u275A pause";
  }
  function stepEvent(dir) {
    var list = D.instants, to = null;
    for (var j = 0; j < list.length; j++) {
      if (dir > 0 && list[j] > now + EPS) { to = list[j]; break; }
      if (dir < 0 && list[j] < now - EPS) { to = list[j]; }
    }
    pause();
    if (to !== null) { draw(to); }
  }
  function stepFrame(dir) {
    pause();
    var k = frameOf(now);
    if (dir < 0 && D.t[k] < now - EPS) { drawFrame(k); } else { drawFrame(k + dir); }
  }
  function on(cls, f) { root.querySelector("button." + cls).addEventListener("click", f); }
  on("play", function () { if (timer === null) { play(); } else { pause(); } });
  on("first", function () { pause(); drawFrame(0); });
  on("back", function () { stepFrame(-1); });
  on("step", function () { stepFrame(1); });
  on("last", function () { pause(); drawFrame(last); });
  on("prev-event", function () { stepEvent(-1); });
  on("next-event", function () { stepEvent(1); });
  slider.addEventListener("input", function () { pause(); drawFrame(parseInt(slider.value, 10)); });
  root.addEventListener("keydown", function (e) {
    var tag = e.target.tagName;
    // JupyterLab's notebook takes a key that reaches the page: an arrow key would move it to
    // another cell and cancel what the key does here (the slider's step). Those stay here.
    if (MOVING_KEYS.indexOf(e.key) >= 0 && !e.ctrlKey && !e.metaKey && !e.altKey) { e.stopPropagation(); }
    if (tag === "INPUT") { return; }                       // the slider keeps its own keys
    var el = e.target, handled = true;
    if (e.key === "Enter" && el.getAttribute && (el.hasAttribute("data-mark") || el.hasAttribute("data-unit"))) {
      e.preventDefault();
      el.dispatchEvent(new MouseEvent("click"));
    } else if (e.key === " " && tag !== "BUTTON") { e.preventDefault(); playButton.click(); }
    else if (e.key === "ArrowRight") { e.preventDefault(); if (e.shiftKey) { stepEvent(1); } else { stepFrame(1); } }
    else if (e.key === "ArrowLeft") { e.preventDefault(); if (e.shiftKey) { stepEvent(-1); } else { stepFrame(-1); } }
    else if (e.key === "Home") { e.preventDefault(); pause(); drawFrame(0); }
    else if (e.key === "End") { e.preventDefault(); pause(); drawFrame(last); }
    else { handled = false; }
    // a key the player used is not also a notebook's shortcut
    if (handled) { e.stopPropagation(); }
  });
  // -- class mode: a button turns it on and off; the map's text follows the map's size
  var classButton = root.querySelector("button.class-mode");
  classButton.addEventListener("click", function () {
    var on = !root.classList.contains("sr-class");
    root.classList.toggle("sr-class", on);
    classButton.setAttribute("aria-pressed", on ? "true" : "false");
    draw(now, true);
  });
  if (window.ResizeObserver) {
    var seen = "";
    var watch = new ResizeObserver(function () {
      var size = svg.getBoundingClientRect().width + " " + getComputedStyle(root).fontSize;
      if (size !== seen && root.dataset.ready) { seen = size; draw(now, true); }
    });
    watch.observe(svg);
    watch.observe(inspector);
  }
  var start = hashTime(), back = start === null ? kept() : null;
  if (back !== null) { start = atInstant(back); }
  draw(start === null ? D.t[0] : start, start === null);   // a time read back goes in the URL again
  pause();
  root.dataset.ready = "1";
})();
