// Joined before a notebook widget's own script (sim.viz.front_end): the keys that move a
// widget's control (an arrow, Home, End, Page Up or Down, with no Ctrl, Meta or Alt) stay in
// it. JupyterLab's notebook takes a key that reaches the page: an arrow key would move it to
// another cell and cancel what the key does in the widget (a slider's step, a drop-down's
// choice). (data-lm-suppress-shortcuts does not do this: Lumino matches the focus first.)
const MOVING_KEYS = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"];

function keepMovingKeys(root) {
  root.addEventListener("keydown", (e) => {
    if (MOVING_KEYS.includes(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) { e.stopPropagation(); }
  });
}
