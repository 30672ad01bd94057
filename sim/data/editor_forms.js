// The scenario editor's forms (joined after editor_map.js): the scenario's own keys, the
// ground, the selected area, waypoint or unit, and the knobs of the rules it names, each
// listed from what Python read in the registry. Every input carries the key it sets
// (data-key), so the check's error can mark the one it names. A value is sent on
// "change" (Enter, or leaving the field); an empty field leaves its key out (the default).

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
// What a typed number is sent as: the number, or the text itself (the check then says what was expected).
const typed = (text) => (NUMBER.test(text.trim()) ? Number(text) : text);

function setKey(obj, path, value) {
  const keys = path.split(".");
  let at = obj;
  for (const k of keys.slice(0, -1)) {
    if (typeof at[k] !== "object" || at[k] === null) { at[k] = {}; }
    at = at[k];
  }
  const last = keys[keys.length - 1];
  if (value === undefined || value === "") { delete at[last]; } else { at[last] = value; }
}

function getKey(obj, path) {
  return path.split(".").reduce((at, k) => (at === undefined || at === null ? undefined : at[k]), obj);
}

function row(parent, label, input, key, hint) {
  const l = html("label", { class: "row" }, parent);
  html("span", {}, l, label);
  l.appendChild(input);
  if (key) { input.dataset.key = key; }
  if (hint) { input.title = hint; }
  return input;
}

function textBox(value, onChange, attrs = {}) {
  const input = html("input", { type: "text", ...attrs });
  input.value = value === undefined || value === null ? "" : typeof value === "object" ? JSON.stringify(value) : String(value);
  input.addEventListener("change", () => onChange(input.value));
  // Enter sends the value (leaving the field fires its change), and is not the notebook's
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); e.stopPropagation(); input.blur(); }
  });
  return input;
}

function choiceBox(options, value, onChange, blank) {
  const select = html("select", {});
  if (blank !== undefined) { html("option", { value: "" }, select, blank); }
  for (const o of options) { html("option", { value: o }, select, o); }
  select.value = value === undefined || value === null ? "" : String(value);
  select.addEventListener("change", () => onChange(select.value));
  return select;
}

function flagBox(value, onChange) {
  const input = html("input", { type: "checkbox" });
  input.checked = Boolean(value);
  input.addEventListener("change", () => onChange(input.checked));
  return input;
}

function nodeList(parent, id, names) {
  const list = html("datalist", { id }, parent);
  for (const n of names) { html("option", { value: n }, list); }
  return id;
}

// The scenario's name, rules, turns, sides and victory.
function scenarioForm(box, ed) {
  const doc = ed.doc, cat = ed.catalogue;
  html("h3", {}, box, "Scenario");
  row(box, "name", textBox(doc.name, (v) => ed.change("name", v)), "name");
  const byBase = "base" in doc || "modules" in doc;
  const rules = choiceBox([...Object.keys(cat.rulesets), "base + modules"], byBase ? "base + modules" : doc.ruleset,
                          (v) => ed.chooseRules(v));
  row(box, "rules", rules, byBase ? "base" : "ruleset", byBase ? "" : (cat.rulesets[doc.ruleset] || {}).title);
  if (byBase) {
    row(box, "base", choiceBox(Object.keys(cat.bases), doc.base, (v) => ed.change("base", v)), "base");
    const mods = html("div", { class: "row modules", "data-key": "modules" }, box);
    html("span", {}, mods, "modules");
    for (const name of Object.keys(cat.modules)) {
      const l = html("label", { title: cat.modules[name] }, mods);
      const on = flagBox((doc.modules || []).includes(name), (checked) => {
        const now = (doc.modules || []).filter((m) => m !== name);
        ed.change("modules", checked ? [...now, name] : now);
      });
      on.dataset.module = name;
      l.appendChild(on);
      l.append(` ${name}`);
    }
  }
  row(box, "turns", textBox(doc.turns, (v) => ed.change("turns", typed(v)), { inputmode: "numeric", size: 5 }), "turns");
  (doc.sides || []).forEach((side, s) => {
    row(box, `side ${s + 1}`, textBox(side, (v) => ed.renameSide(s, v), { size: 10 }), `sides.${s}`);
    // the force itself, so an error about it (an empty force) marks a field of its own
    const units = ((doc.forces || {})[side] || []).length;
    row(box, `${side} units`, html("output", { class: "force" }, null, units ? String(units) : "none yet"), `forces.${side}`,
        "placed with the Unit tool");
  });
  const victory = doc.victory || {};
  row(box, "attacker", choiceBox(doc.sides || [], victory.attacker, (v) => ed.change("victory.attacker", v)),
      "victory.attacker");
  const list = nodeList(box, `${ed.uid}-nodes`, ed.nodeNames());
  row(box, "objective", textBox(victory.objective, (v) => ed.change("victory.objective", v), { list, size: 10 }),
      "victory.objective", "a node: the attacker wins when a unit of it arrives there");
  row(box, "destroy wins", flagBox(victory.destroy !== false, (v) => ed.change("victory.destroy", v ? undefined : false)),
      "victory.destroy");
}

// The ground's size (and the table's grid).
function groundForm(box, ed) {
  const t = ed.doc.terrain;
  html("h3", {}, box, t.kind === "hex" ? "Hex map" : "Table (cm)");
  if (Array.isArray(t.rows)) {
    html("p", { class: "note" }, box, `${t.rows.length} rows of ${(t.rows[0] || "").length} hexes, given row by row`);
    return;
  }
  row(box, "width", textBox(t.width, (v) => ed.change("terrain.width", typed(v)), { size: 6 }), "terrain.width");
  row(box, "height", textBox(t.height, (v) => ed.change("terrain.height", typed(v)), { size: 6 }), "terrain.height");
  if (t.kind === "hex") {
    const letters = Object.keys({ ...ed.catalogue.letters, ...(t.types || {}) });
    row(box, "ground", choiceBox(letters, t.default || ".", (v) => ed.change("terrain.default", v)), "terrain.default",
        "the letter of every hex no area paints");
  } else {
    row(box, "grid", textBox((t.grid || {}).spacing, (v) => ed.change("terrain.grid", v === "" ? undefined : { spacing: typed(v) }),
                             { size: 6, placeholder: "none" }), "terrain.grid.spacing", "grid places every so many cm");
  }
}

// The area, waypoint or unit selected on the map.
function selectionForm(box, ed) {
  const [kind, a, b] = (ed.selected || "").split(":"), here = ed.underPointer;
  if (here.length > 1 && here.includes(ed.selected)) {
    html("p", { class: "note under-pointer" }, box,
         `${here.indexOf(ed.selected) + 1} of ${here.length} marks here: click again for the next`);
  }
  if (kind === "area") {
    const i = Number(a), key = `terrain.areas.${i}`, area = ed.doc.terrain.areas[i];
    html("h3", {}, box, `Area ${area.name || `area${i}`}`);
    row(box, "name", textBox(area.name, (v) => ed.change(`${key}.name`, v)), `${key}.name`);
    row(box, "terrain", choiceBox(ed.catalogue.terrains, area.terrain, (v) => ed.change(`${key}.terrain`, v), "(by name)"),
        `${key}.terrain`);
    row(box, "cover", textBox(area.cover, (v) => ed.change(`${key}.cover`, typed(v)), { size: 4 }), `${key}.cover`);
    deleteButton(box, ed, () => ed.doc.terrain.areas.splice(i, 1));
  } else if (kind === "waypoint") {
    const p = ed.doc.terrain.waypoints[a];
    html("h3", {}, box, `Waypoint ${a}`);
    row(box, "name", textBox(a, (v) => ed.renameWaypoint(a, v)), `terrain.waypoints.${a}`);
    row(box, "x", textBox(p[0], (v) => ed.change(`terrain.waypoints.${a}`, [typed(v), p[1]]), { size: 6 }));
    row(box, "y", textBox(p[1], (v) => ed.change(`terrain.waypoints.${a}`, [p[0], typed(v)]), { size: 6 }));
    deleteButton(box, ed, () => { delete ed.doc.terrain.waypoints[a]; });
  } else if (kind === "unit") {
    unitForm(box, ed, a, Number(b));
  }
}

function unitForm(box, ed, side, i) {
  const unit = ed.doc.forces[side][i], key = `forces.${side}.${i}`, rules = ed.rules();
  html("h3", {}, box, `Unit ${unit.id} (${side})`);
  row(box, "id", textBox(unit.id, (v) => ed.change(`${key}.id`, v), { size: 10 }), `${key}.id`);
  row(box, "kind", choiceBox(rules.kinds || [], unit.kind, (v) => ed.change(`${key}.kind`, v), "(infantry)"), `${key}.kind`);
  row(box, "at", textBox(unit.at, (v) => ed.change(`${key}.at`, v), { size: 10, list: `${ed.uid}-nodes` }), `${key}.at`);
  for (const k of ["steps", "armour", "move"]) {
    row(box, k, textBox(unit[k], (v) => ed.change(`${key}.${k}`, typed(v)), { size: 5, placeholder: "default" }),
        `${key}.${k}`);
  }
  if (unit.plan) {
    html("p", { class: "note" }, box, `a plan of ${unit.plan.steps.length} steps (kept as it is)`);
  } else {
    const orders = unit.orders || {};
    row(box, "orders", choiceBox(rules.orders || [], orders.type || "hold",
                                 (v) => ed.change(`${key}.orders`, v === "hold" ? undefined : { ...orders, type: v })),
        `${key}.orders.type`);
    if (orders.type && orders.type !== "hold") {
      row(box, "to", textBox(orders.to, (v) => ed.change(`${key}.orders.to`, v), { size: 10, list: `${ed.uid}-nodes` }),
          `${key}.orders.to`);
    }
  }
  deleteButton(box, ed, () => ed.doc.forces[side].splice(i, 1));
}

function deleteButton(box, ed, remove) {
  const button = html("button", { type: "button", class: "delete" }, box, "Delete");
  button.addEventListener("click", () => { remove(); ed.selected = null; ed.commit(); });
}

// The knobs of every section of the rules the document names: `rules.<section>.<knob>`.
function knobsForm(box, ed) {
  const sections = ed.rules().sections || {};
  html("h3", {}, box, "Rules");
  for (const [section, knobs] of Object.entries(sections)) {
    if (!knobs.length) { continue; }
    const set = html("fieldset", {}, box);
    html("legend", {}, set, `rules.${section}`);
    for (const knob of knobs) {
      const key = `rules.${section}.${knob.name}`, value = getKey(ed.doc, key);
      let input;
      if (knob.type === "choice") {
        input = choiceBox(knob.choices, value, (v) => ed.change(key, v), `(${knob.default})`);
      } else if (knob.type === "flag") {
        input = choiceBox(["true", "false"], value === undefined ? "" : String(value),
                          (v) => ed.change(key, v === "" ? undefined : v === "true"), `(${knob.default})`);
      } else if (knob.type === "data") {
        input = textBox(value, (v) => ed.change(key, v === "" ? undefined : parsed(v)),
                        { placeholder: JSON.stringify(knob.default), size: 14 });
      } else {
        input = textBox(value, (v) => ed.change(key, typed(v)), { placeholder: String(knob.default), size: 7 });
      }
      row(set, knob.name, input, key, knob.doc);
    }
  }
}

function parsed(text) {
  try { return JSON.parse(text); } catch (err) { return text; }
}
