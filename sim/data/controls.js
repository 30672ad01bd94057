// A lesson's controls (sim.viz.controls): a drop-down (kind "choice") or a slider of whole
// numbers (kind "slider"), an anywidget front end. The keys that move a control stay in it:
// an arrow key changes the control and never also moves JupyterLab's notebook to another
// cell. Python checks every value; every text goes in by textContent.
const CSS = `
.sim-control { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; font-size: 14px;
               color: #222; display: flex; gap: 0.6em; align-items: center; margin: 0.25em 0; }
.sim-control label { min-width: 7em; }
.sim-control select, .sim-control output { font-size: inherit; }
.sim-control input[type=range] { width: 16em; }
.sim-control output { min-width: 3em; font-variant-numeric: tabular-nums; }
.sim-control.sc-class { font-size: max(16px, calc(1.15 * var(--jp-content-font-size1, 14px))); }
`;

let ids = 0;

function render({ model, el }) {
  if (!document.getElementById("sim-control-css")) {
    const style = document.createElement("style");
    style.id = "sim-control-css";
    style.textContent = CSS;
    document.head.appendChild(style);
  }
  const root = document.createElement("div");
  root.className = "sim-control";
  keepMovingKeys(root);   // keys.js
  const id = `sim-control-${++ids}`;
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = model.get("description");
  root.appendChild(label);
  let input, readout = null;
  if (model.get("kind") === "choice") {
    input = document.createElement("select");
    for (const option of model.get("options")) {
      const o = document.createElement("option");
      o.value = option;
      o.textContent = option;
      input.appendChild(o);
    }
  } else {
    input = document.createElement("input");
    input.type = "range";
    input.min = model.get("least");
    input.max = model.get("most");
    input.step = model.get("step");
    readout = document.createElement("output");
    readout.htmlFor = id;
  }
  input.id = id;
  root.appendChild(input);
  if (readout) { root.appendChild(readout); }

  const show = () => {
    input.value = String(model.get("value"));
    if (readout) { readout.textContent = String(model.get("value")); }
    root.classList.toggle("sc-class", model.get("classroom"));
  };
  const send = () => {
    model.set("value", model.get("kind") === "choice" ? input.value : parseInt(input.value, 10));
    model.save_changes();
  };
  // a slider sends when it is let go (or a key moves it), not at every pixel of a drag: each
  // value may run a study
  input.addEventListener("change", send);
  if (readout) { input.addEventListener("input", () => { readout.textContent = input.value; }); }
  model.on("change:value", show);
  model.on("change:classroom", show);
  show();
  el.appendChild(root);
  return () => { model.off("change:value", show); model.off("change:classroom", show); };
}

export default { render };
