// The scenario editor (sim.viz.Editor), an anywidget front end; joined after editor_map.js and
// editor_forms.js. It holds a copy of the model's document, changes it as the tools and
// forms say and sends it whole; Python checks it as `sim validate` checks a file and sets
// error and error_key, which are shown here, and saves and runs it when asked. Nothing here
// checks a scenario.

function render({ model, el }) {
  const root = html("div", { class: "sim-editor" }, el);
  keepMovingKeys(root);   // keys.js
  const bar = html("div", { class: "tools", role: "toolbar", "aria-label": "drawing tools" }, root);
  const main = html("div", { class: "main" }, root);
  const svg = make("svg", { role: "application", "aria-label": "the map: draw on it with the chosen tool" }, main);
  const layers = {};
  for (const name of ["ground", "areas", "points", "units", "sketch"]) { layers[name] = make("g", { class: name }, svg); }
  const side = html("div", { class: "side" }, main);
  const check = html("p", { class: "check", role: "status", "aria-live": "polite" }, side);
  const forms = html("div", { class: "forms" }, side);
  const out = html("div", { class: "out" }, side);
  const where = html("p", { class: "where note" }, root);

  const ed = {
    doc: clone(model.get("document")), catalogue: model.get("catalogue"), selected: null, underPointer: [], sketch: [],
    tool: TOOLS.SELECT, uid: `sim-editor-${Math.random().toString(36).slice(2)}`,
    rules: () => model.get("rules"),
    change(path, value) { setKey(ed.doc, path, value); ed.commit(); },
    commit() {
      model.set("document", clone(ed.doc));
      model.save_changes();
      draw();
    },
    // what a node field suggests: the waypoints on a table, every hex "q,r" on a hex map
    nodeNames: () => (ed.doc.terrain.kind === "hex" ? groundOf(ed.doc).hexes.map(([name]) => name)
      : Object.keys(ed.doc.terrain.waypoints || {})),
    chooseRules(choice) {
      const cat = ed.catalogue, now = cat.rulesets[ed.doc.ruleset] || { base: ed.doc.base, modules: ed.doc.modules || [] };
      const next = choice === "base + modules" ? { base: now.base || Object.keys(cat.bases)[0], modules: now.modules || [] }
        : cat.rulesets[choice];
      const { ruleset: _r, base: _b, modules: _m, ...rest } = ed.doc;
      ed.doc = choice === "base + modules" ? { ...rest, base: next.base, modules: [...next.modules] } : { ...rest, ruleset: choice };
      // knob sections the new rules do not read are dropped (rules.base too when the base game changes)
      const keep = new Set([...(next.base === now.base ? ["base"] : []), next.base, ...next.modules]);
      for (const section of Object.keys(ed.doc.rules || {})) { if (!keep.has(section)) { delete ed.doc.rules[section]; } }
      ed.commit();
    },
    renameSide(s, name) {
      const old = ed.doc.sides[s];
      if (!name || name === old) { return; }
      ed.doc.sides[s] = name;
      ed.doc.forces = Object.fromEntries(Object.entries(ed.doc.forces).map(([k, v]) => [k === old ? name : k, v]));
      if (ed.doc.victory && ed.doc.victory.attacker === old) { ed.doc.victory.attacker = name; }
      ed.selected = null;
      ed.commit();
    },
    renameWaypoint(old, name) {
      if (!name || name === old) { return; }
      const t = ed.doc.terrain;
      t.waypoints = Object.fromEntries(Object.entries(t.waypoints).map(([k, v]) => [k === old ? name : k, v]));
      const swap = (n) => (n === old ? name : n);
      for (const units of Object.values(ed.doc.forces)) {
        for (const u of units) {
          u.at = swap(u.at);
          if (u.orders && u.orders.to) { u.orders.to = swap(u.orders.to); }
        }
      }
      if (ed.doc.victory && ed.doc.victory.objective) { ed.doc.victory.objective = swap(ed.doc.victory.objective); }
      if (t.edges) { t.edges = t.edges.map((e) => e.map(swap)); }
      ed.selected = `waypoint:${name}`;
      ed.commit();
    },
  };

  // -- the tools -------------------------------------------------------------------------
  const toolButtons = {};
  for (const [name, label] of [[TOOLS.SELECT, "Select"], [TOOLS.AREA, "Area"], [TOOLS.WAYPOINT, "Waypoint"],
                               [TOOLS.UNIT, "Unit"]]) {
    const b = html("button", { type: "button", "data-tool": name, "aria-pressed": "false" }, bar, label);
    b.addEventListener("click", () => { ed.tool = name; ed.sketch = []; draw(); });
    toolButtons[name] = b;
  }
  const options = html("span", { class: "options" }, bar);
  const areaKind = html("select", { class: "area-kind", "aria-label": "the new area's ground" });
  const areaCover = html("input", { class: "area-cover", type: "text", size: 3, placeholder: "cover",
                                    "aria-label": "the new area's cover" });
  const unitSide = html("select", { class: "unit-side", "aria-label": "the new unit's side" });
  const closeButton = html("button", { type: "button", class: "close-area" }, null, "Close area");
  closeButton.addEventListener("click", () => closeArea());

  function fresh(prefix, taken) {
    let n = 1;
    while (taken.has(`${prefix}${n}`)) { n++; }
    return `${prefix}${n}`;
  }
  const unitIds = () => new Set(Object.values(ed.doc.forces || {}).flat().map((u) => u.id));

  function closeArea() {
    if (ed.sketch.length < 3) { return; }
    const t = ed.doc.terrain;
    if (t.kind === "hex") {
      paintHexes(t, groundOf(ed.doc), ed.sketch, areaKind.value);
    } else {
      const areas = t.areas || (t.areas = []);
      const area = { name: fresh("area", new Set(areas.map((a) => a.name))) };
      if (areaKind.value) { area.terrain = areaKind.value; }
      if (areaCover.value.trim() !== "") { area.cover = typed(areaCover.value); }
      area.polygon = ed.sketch;
      areas.push(area);
      ed.selected = `area:${areas.length - 1}`;
    }
    ed.sketch = [];
    ed.commit();
  }

  function pointOf(e) {
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
    return [p.x, p.y];
  }

  svg.addEventListener("click", (e) => {
    const ground = groundOf(ed.doc), screen = pointOf(e), p = ground.point(screen);
    if (ed.tool !== TOOLS.SELECT) { ed.underPointer = []; }
    if (ed.tool === TOOLS.AREA) {
      const first = ed.sketch.length ? ground.screen(ed.sketch[0]) : null;
      if (ed.sketch.length >= 3 && Math.hypot(first[0] - screen[0], first[1] - screen[1]) <= SNAP_PX) {
        closeArea();
      } else {
        ed.sketch.push(p);
        draw();
      }
    } else if (ed.tool === TOOLS.WAYPOINT && ground.kind === "table") {
      const t = ed.doc.terrain, name = fresh("W", new Set(Object.keys(t.waypoints || {})));
      t.waypoints = { ...(t.waypoints || {}), [name]: p };
      ed.selected = `waypoint:${name}`;
      ed.commit();
    } else if (ed.tool === TOOLS.UNIT) {
      const sideName = unitSide.value, s = ed.doc.sides.indexOf(sideName);
      let node = ground.near(p);
      if (!node && ground.kind === "table") {
        const t = ed.doc.terrain;
        node = fresh("P", new Set(Object.keys(t.waypoints || {})));
        t.waypoints = { ...(t.waypoints || {}), [node]: p };
      }
      if (!node || s < 0) { return; }
      const units = ed.doc.forces[sideName] || (ed.doc.forces[sideName] = []);
      units.push({ id: fresh(sideName.slice(0, 1).toLowerCase() || "u", unitIds()), at: node });
      ed.selected = `unit:${sideName}:${units.length - 1}`;
      ed.commit();
    } else if (ed.tool === TOOLS.SELECT) {
      // every mark under the pointer, topmost first; a click at the marks the last click found
      // chooses the next one down, so a waypoint under a unit or an area under both can be reached
      const marks = [];
      for (const el of root.getRootNode().elementsFromPoint(e.clientX, e.clientY)) {
        const hit = el.closest(".unit, .waypoint, .area");
        const mark = !hit || !svg.contains(hit) ? null : hit.classList.contains("unit")
          ? `unit:${hit.dataset.side}:${hit.dataset.index}`
          : hit.classList.contains("waypoint") ? `waypoint:${hit.dataset.name}` : `area:${hit.dataset.index}`;
        if (mark && !marks.includes(mark)) { marks.push(mark); }
      }
      const again = marks.length > 1 && marks.join("|") === ed.underPointer.join("|");   // the same place again
      ed.selected = !marks.length ? null : again ? marks[(marks.indexOf(ed.selected) + 1) % marks.length] : marks[0];
      ed.underPointer = marks;
      draw();
    }
  });
  svg.addEventListener("pointermove", (e) => {
    const ground = groundOf(ed.doc);
    where.textContent = ground.label(ground.point(pointOf(e)));
  });
  root.addEventListener("keydown", (e) => {
    if (e.key === "Escape") { ed.sketch = []; draw(); }
    if (e.key === "Enter" && ed.tool === TOOLS.AREA && ed.sketch.length >= 3) { closeArea(); }
  });

  // -- drawing everything ----------------------------------------------------------------
  function drawTools() {
    for (const [name, b] of Object.entries(toolButtons)) { b.setAttribute("aria-pressed", String(name === ed.tool)); }
    toolButtons[TOOLS.WAYPOINT].hidden = ed.doc.terrain.kind === "hex";
    options.replaceChildren();
    if (ed.tool === TOOLS.AREA) {
      const hex = ed.doc.terrain.kind === "hex", before = areaKind.value;
      areaKind.replaceChildren();
      const kinds = hex ? Object.keys({ ...ed.catalogue.letters, ...(ed.doc.terrain.types || {}) }) : ["", ...ed.catalogue.terrains];
      for (const k of kinds) { html("option", { value: k }, areaKind, hex ? `${k} ${letterName(ed.doc, ed.catalogue, k)}` : k || "(by name)"); }
      areaKind.value = kinds.includes(before) ? before : kinds[hex ? 1 : 2] || kinds[0];
      options.append(areaKind);
      if (!hex) { options.append(areaCover); }
      options.append(closeButton);
      closeButton.disabled = ed.sketch.length < 3;
    } else if (ed.tool === TOOLS.UNIT) {
      const before = unitSide.value;
      unitSide.replaceChildren();
      for (const s of ed.doc.sides || []) { html("option", { value: s }, unitSide, s); }
      if ((ed.doc.sides || []).includes(before)) { unitSide.value = before; }
      options.append(unitSide);
    }
    const hints = { select: "Click a unit, waypoint or area to edit it.",
                    area: "Click the corners; click the first corner again (or Enter) to close the area.",
                    waypoint: "Click to put a waypoint.",
                    unit: "Click a waypoint or grid place (or anywhere: a waypoint is made there)." };
    html("span", { class: "note" }, options, hints[ed.tool]);
  }

  function drawForms() {
    const focused = el.ownerDocument.activeElement, focusKey = focused && forms.contains(focused) ? focused.dataset.key : null;
    forms.replaceChildren();
    if (ed.selected) { selectionForm(html("section", { class: "selection" }, forms), ed); }
    scenarioForm(html("section", {}, forms), ed);
    groundForm(html("section", {}, forms), ed);
    knobsForm(html("section", { class: "knobs" }, forms), ed);
    if (focusKey) {
      const again = [...forms.querySelectorAll("[data-key]")].find((n) => n.dataset.key === focusKey);
      if (again) { again.focus(); }
    }
  }

  function drawCheck() {
    const error = model.get("error"), key = model.get("error_key");
    check.textContent = error || "✓ valid scenario";
    check.className = error ? "check bad" : "check ok";
    for (const n of root.querySelectorAll(".bad-key")) { n.classList.remove("bad-key"); }
    // the field of the error's key, or of the nearest key above it
    const fields = [...forms.querySelectorAll("[data-key]")]
      .filter((n) => key === n.dataset.key || key.startsWith(`${n.dataset.key}.`))
      .sort((a, b) => b.dataset.key.length - a.dataset.key.length);
    if (fields.length) { fields[0].classList.add("bad-key"); }
  }

  function drawOut() { outputs(out, model); }

  function drawGround() {
    const ground = groundOf(ed.doc);
    svg.setAttribute("viewBox", `-12 -12 ${ground.size[0] + 24} ${ground.size[1] + 24}`);
    svg.setAttribute("width", ground.size[0] + 24);
    drawMap(layers, ed.doc, ground, { selected: ed.selected, sketch: ed.sketch, errorKey: model.get("error_key") },
            ed.catalogue);
    svg.dataset.tool = ed.tool;
  }

  // the check's answer: the map's marks and the line (the forms stay, with what is being typed)
  function drawAnswer() { drawGround(); drawCheck(); }

  function draw() {
    if (ed.selected && !selectedExists()) { ed.selected = null; }
    drawGround();
    drawTools();
    drawForms();
    drawCheck();
  }

  function selectedExists() {
    const [kind, a, b] = ed.selected.split(":");
    if (kind === "area") { return Boolean((ed.doc.terrain.areas || [])[Number(a)]); }
    if (kind === "waypoint") { return a in (ed.doc.terrain.waypoints || {}); }
    return Boolean(((ed.doc.forces || {})[a] || [])[Number(b)]);
  }

  const fromKernel = () => { ed.doc = clone(model.get("document")); draw(); };
  const handlers = [["change:document", fromKernel], ["change:rules", draw], ["change:error", drawAnswer],
                    ["change:error_key", drawAnswer], ["change:answered", drawOut], ["change:run_kind", drawOut]];
  for (const [event, f] of handlers) { model.on(event, f); }
  draw();
  drawOut();
  return () => { for (const [event, f] of handlers) { model.off(event, f); } };
}

// Save and run: the path, the overwrite box, the run's kind and the result's summary.
function outputs(box, model) {
  box.replaceChildren();
  html("p", { class: "status", role: "status" }, box, model.get("status"));
  const save = html("section", { class: "save" }, box);
  html("h3", {}, save, "Save");
  const path = row(save, "file", textBox(model.get("path"), (v) => { model.set("path", v); model.save_changes(); },
                                         { size: 24, placeholder: "my_scenario.yaml" }));
  path.classList.add("path");
  const over = row(save, "overwrite", flagBox(model.get("overwrite"), (v) => { model.set("overwrite", v); model.save_changes(); }));
  over.classList.add("overwrite");
  const button = html("button", { type: "button", class: "save-button" }, save, "Save");
  button.addEventListener("click", () => model.send({ do: "save" }));

  const run = html("section", { class: "run" }, box);
  html("h3", {}, run, "Run");
  const kind = row(run, "as", choiceBox(["battle", "study"], model.get("run_kind"),
                                        (v) => { model.set("run_kind", v); model.save_changes(); }));
  kind.classList.add("run-kind");
  for (const k of model.get("run_kind") === "study" ? ["seed", "replications"] : ["seed"]) {
    row(run, k, textBox(model.get(k), (v) => { model.set(k, typed(v)); model.save_changes(); }, { size: 6, class: k }));
  }
  const go = html("button", { type: "button", class: "run-button" }, run, "Run");
  go.addEventListener("click", () => { go.disabled = true; go.textContent = "Running…"; model.send({ do: "run" }); });
  summary(run, model.get("summary"));
}

function summary(box, s) {
  if (!s || !s.kind) { return; }
  const div = html("div", { class: "summary" }, box);
  html("p", {}, div, s.kind === "battle" ? `${s.title}: ${s.winner ? `${s.winner} wins` : "no winner"} (${s.reason})` : s.title);
  const table = html("table", {}, div);
  const head = html("tr", {}, html("thead", {}, table));
  for (const h of s.kind === "battle" ? ["metric", "value"] : ["metric", "mean", "95% low", "95% high"]) { html("th", {}, head, h); }
  const body = html("tbody", {}, table);
  for (const [name, ...values] of s.rows) {
    const tr = html("tr", {}, body);
    html("td", {}, tr, name);
    for (const v of values) { html("td", { class: "num" }, tr, v === null ? "–" : String(Math.round(v * 1000) / 1000)); }
  }
}

export default { render };
