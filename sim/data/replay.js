// The replay player: draws frame k of the data in the <script type="application/json">
// beside it (units, trails, radii, halts, the clock) over the terrain picture, with
// play/pause, step, first/last and a time slider. It fetches nothing.
(function () {
  "use strict";
  var root = document.currentScript.closest(".sim-replay");
  var D = JSON.parse(root.querySelector("script.sim-replay-data").textContent);
  var NS = "http://www.w3.org/2000/svg";
  var svg = root.querySelector("svg");
  function make(tag, attrs, parent) {
    var el = document.createElementNS(NS, tag);
    for (var k in attrs) { el.setAttribute(k, attrs[k]); }
    parent.appendChild(el);
    return el;
  }
  var layers = {};
  ["trails", "radii", "halts", "units", "labels"].forEach(function (name) {
    layers[name] = make("g", {"class": name}, svg);
  });
  var n = D.units.length, last = D.t.length - 1;
  var trails = [], dots = [], rings = [];
  for (var i = 0; i < n; i++) {
    var u = D.units[i];
    trails.push(make("polyline", {fill: "none", stroke: u.colour, "stroke-opacity": 0.5,
                                  "stroke-width": 1.5}, layers.trails));
    rings.push(u.radius ? make("circle", {r: u.radius, fill: "none", stroke: u.colour,
                                          "stroke-dasharray": "5 3", "stroke-width": 1.2,
                                          "stroke-opacity": 0.8}, layers.radii) : null);
    dots.push(make("circle", {r: 6, stroke: u.colour, "stroke-width": 2,
                              "data-unit": u.id}, layers.units));
  }
  var haltMarks = D.halts.map(function (h) {
    return make("path", {d: "M" + (h[1] - 5) + "," + (h[2] - 5) + "l10,10m0,-10l-10,10",
                         stroke: "black", "stroke-width": 4, "stroke-linecap": "round",
                         visibility: "hidden"}, layers.halts);
  });
  var haltInner = D.halts.map(function (h) {
    return make("path", {d: "M" + (h[1] - 5) + "," + (h[2] - 5) + "l10,10m0,-10l-10,10",
                         stroke: "gold", "stroke-width": 2, "stroke-linecap": "round",
                         visibility: "hidden"}, layers.halts);
  });
  var slider = root.querySelector("input.time");
  var clock = root.querySelector(".clock");
  var playButton = root.querySelector("button.play");
  slider.max = last;
  var frame = 0, timer = null;

  function trailOf(i, t, here) {
    var pts = [];
    var keys = D.units[i].track;
    for (var j = 0; j < keys.length && keys[j][0] <= t; j++) { pts.push(keys[j][1] + "," + keys[j][2]); }
    if (here) { pts.push(here[0] + "," + here[1]); }
    return pts.join(" ");
  }

  function draw(k) {
    frame = Math.max(0, Math.min(last, k));
    var t = D.t[frame], pos = D.pos[frame], fill = D.fill[frame];
    var spots = [];
    for (var i = 0; i < n; i++) {
      var p = pos[i], u = D.units[i];
      var shown = p !== null;
      dots[i].setAttribute("visibility", shown ? "visible" : "hidden");
      if (rings[i]) { rings[i].setAttribute("visibility", shown ? "visible" : "hidden"); }
      trails[i].setAttribute("points", trailOf(i, t, p));
      if (!shown) { continue; }
      dots[i].setAttribute("cx", p[0]);
      dots[i].setAttribute("cy", p[1]);
      dots[i].setAttribute("fill", fill[i] ? u.colour : "white");
      if (rings[i]) { rings[i].setAttribute("cx", p[0]); rings[i].setAttribute("cy", p[1]); }
      // Units on (nearly) one spot share one label, so labels never sit on each other.
      var spot = null;
      for (var s = 0; s < spots.length; s++) {
        if (Math.abs(spots[s].x - p[0]) < 9 && Math.abs(spots[s].y - p[1]) < 9) { spot = spots[s]; break; }
      }
      if (spot) { spot.ids.push(u.id); } else { spots.push({x: p[0], y: p[1], ids: [u.id]}); }
    }
    while (layers.labels.firstChild) { layers.labels.removeChild(layers.labels.firstChild); }
    // Each label takes the first place around its spot that is clear of the labels
    // placed before it and of every unit (text size estimated from its length).
    var taken = spots.map(function (s) { return [s.x - 7, s.y - 7, s.x + 7, s.y + 7]; });
    var places = [[8, 14, "start"], [8, -6, "start"], [-8, 14, "end"], [-8, -6, "end"],
                  [10, 4, "start"], [-10, 4, "end"], [8, 26, "start"], [8, -18, "start"]];
    spots.forEach(function (s) {
      var text = s.ids.join(", "), w = 6.2 * text.length + 2, h = 12;
      var pick = places[0];
      for (var c = 0; c < places.length; c++) {
        var x = s.x + places[c][0], y = s.y + places[c][1];
        var box = places[c][2] === "start" ? [x, y - h + 2, x + w, y + 2] : [x - w, y - h + 2, x, y + 2];
        var clear = taken.every(function (t) {
          var own = t[0] === s.x - 7 && t[1] === s.y - 7;
          return own || box[2] <= t[0] || t[2] <= box[0] || box[3] <= t[1] || t[3] <= box[1];
        });
        if (clear) { pick = places[c]; taken.push(box); break; }
      }
      var label = make("text", {x: s.x + pick[0], y: s.y + pick[1], "text-anchor": pick[2],
                                "font-size": 11, "paint-order": "stroke", stroke: "white",
                                "stroke-width": 3}, layers.labels);
      label.textContent = text;
    });
    for (var h = 0; h < D.halts.length; h++) {
      var seen = D.halts[h][0] <= t ? "visible" : "hidden";
      haltMarks[h].setAttribute("visibility", seen);
      haltInner[h].setAttribute("visibility", seen);
    }
    slider.value = frame;
    clock.textContent = D.clock[frame];
    root.dataset.frame = String(frame);
    root.dataset.time = String(t);
  }

  function pause() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    root.dataset.playing = "0";
    playButton.textContent = "\u25B6 play";
  }
  function play() {
    if (frame >= last) { draw(0); }
    timer = setInterval(function () {
      if (frame >= last) { pause(); } else { draw(frame + 1); }
    }, 1000 / D.fps);
    root.dataset.playing = "1";
    playButton.textContent = "\u275A\u275A pause";
  }
  playButton.addEventListener("click", function () { if (timer === null) { play(); } else { pause(); } });
  root.querySelector("button.first").addEventListener("click", function () { pause(); draw(0); });
  root.querySelector("button.back").addEventListener("click", function () { pause(); draw(frame - 1); });
  root.querySelector("button.step").addEventListener("click", function () { pause(); draw(frame + 1); });
  root.querySelector("button.last").addEventListener("click", function () { pause(); draw(last); });
  slider.addEventListener("input", function () { pause(); draw(parseInt(slider.value, 10)); });
  root.addEventListener("keydown", function (e) {
    if (e.key === " ") { e.preventDefault(); playButton.click(); }
    else if (e.key === "ArrowRight") { pause(); draw(frame + 1); }
    else if (e.key === "ArrowLeft") { pause(); draw(frame - 1); }
  });
  draw(0);
  pause();
  root.dataset.ready = "1";
})();
