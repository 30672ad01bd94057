"""The scenario editor: an anywidget on which a scenario is drawn, checked, saved and run.

``Editor`` holds one trait that matters, ``document``: the scenario as its YAML file would
hold it. The front end (``sim/data/editor_map.js``, ``editor_forms.js``, ``editor.js``)
draws it and sends it whole after each change; every change is checked here as
``sim validate`` checks a file (``error``: its one line, ``error_key``: the key it names).
What the rules offer (rulesets, base games, modules, each section's knobs, unit kinds,
order types) comes from the registry (``catalogue``, ``rules``). ``save`` writes the file
(never over one already there without ``overwrite``); ``run`` runs a battle or a small
study of it and sets ``summary``. The front end's Save and Run buttons call them.
"""
from __future__ import annotations

from typing import Any

import anywidget
import traitlets

from sim import arguments
from sim.errors import InputError
from sim.scenario.schema import Scenario
from sim.viz.editing.choices import catalogue, rules_view
from sim.viz.editing.document import UNSAVED, Ground, blank, check, ground_of, save, source_of, yaml_text
from sim.viz.editing.runs import MOST_REPLICATIONS, RunKind, run_drawn
from sim.viz.front_end import data_text, widget_script

FRONT_END = ("editor_map.js", "editor_forms.js", "editor.js")   # one module, in this order
DERIVED = frozenset({"catalogue", "rules", "error", "error_key", "status", "summary", "source", "answered"})


class Editor(anywidget.AnyWidget):
    """A scenario drawn on a table or a hex map, checked as it is drawn, saved as YAML and run."""

    _esm = widget_script(*FRONT_END)
    _css = data_text("editor.css")
    #: the scenario, as its YAML file holds it
    document: traitlets.Dict[str, Any] = traitlets.Dict().tag(sync=True)
    #: what the registry offers: rulesets, base games, modules, built-in ground
    catalogue: traitlets.Dict[str, Any] = traitlets.Dict(read_only=True).tag(sync=True)
    #: the choices of the document's rules: knob sections, unit kinds, order types
    rules: traitlets.Dict[str, Any] = traitlets.Dict(read_only=True).tag(sync=True)
    #: the check's one line ("" for a valid scenario), and the dotted key it names
    error = traitlets.Unicode("", read_only=True).tag(sync=True)
    error_key = traitlets.Unicode("", read_only=True).tag(sync=True)
    #: where Save writes, and whether it may replace a file already there
    path = traitlets.Unicode("").tag(sync=True)
    overwrite = traitlets.Bool(False).tag(sync=True)
    #: the file the editor opened ("" for none): never replaced without overwrite
    source = traitlets.Unicode("", read_only=True).tag(sync=True)
    #: what the last save or run said, and how many the editor has answered
    status = traitlets.Unicode("", read_only=True).tag(sync=True)
    answered = traitlets.Int(0, read_only=True).tag(sync=True)
    run_kind = traitlets.Unicode(RunKind.BATTLE.value).tag(sync=True)
    seed = traitlets.Int(1).tag(sync=True)
    replications = traitlets.Int(20).tag(sync=True)
    #: the last run's summary: kind, title, (winner, reason,) rows
    summary: traitlets.Dict[str, Any] = traitlets.Dict(read_only=True).tag(sync=True)

    def __init__(self, scenario: Any = None, ground: Ground | str | None = None, **traits: Any):
        unknown = sorted(set(traits) - {"path", "overwrite", "run_kind", "seed", "replications"})
        if unknown:   # HasTraits would only warn
            raise InputError("expected scenario, ground, path, overwrite, run_kind, seed or replications",
                             place=unknown[0])
        wanted = None if ground is None else Ground(arguments.choice(ground, "ground", [g.value for g in Ground]))
        if scenario is None:
            document, path = blank(wanted or Ground.TABLE), None
        else:
            opened = source_of(scenario)
            document, path = opened.document, opened.path
            if wanted is not None and ground_of(document) is not wanted:
                raise InputError(f"expected the ground of the scenario ({ground_of(document).value}), "
                                 f"got {wanted.value}", place="ground")
        ground_of(document)
        super().__init__(**traits)
        with self.hold_sync():
            self.set_trait("catalogue", catalogue())
            self.set_trait("source", path or "")
            self.document = document
        self.on_msg(_on_message)

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """What the front end sends: the document and the save and run settings, never a result."""
        derived = sorted(set(sync_data) & DERIVED)
        if derived:
            raise InputError("is the editor's to set, not the front end's", place=derived[0])
        super().set_state(sync_data)

    @traitlets.validate("document")
    def _a_mapping(self, proposal: dict[str, Any]) -> dict[str, Any]:
        value = proposal["value"]
        arguments.mapping(value, "document")
        ground_of(value)
        return dict(value)

    @traitlets.validate("run_kind")
    def _a_kind(self, proposal: dict[str, Any]) -> str:
        return arguments.choice(proposal["value"], "run_kind", [k.value for k in RunKind])

    @traitlets.validate("seed")
    def _a_seed(self, proposal: dict[str, Any]) -> int:
        return arguments.seed(proposal["value"])

    @traitlets.validate("replications")
    def _a_count(self, proposal: dict[str, Any]) -> int:
        return arguments.whole(proposal["value"], "replications", 1, MOST_REPLICATIONS)

    @traitlets.observe("document", "path")
    def _changed(self, change: dict[str, Any]) -> None:
        checked = check(self.document, self.path or UNSAVED)
        with self.hold_sync():
            self.set_trait("rules", rules_view(self.document))
            self.set_trait("error", checked.error)
            self.set_trait("error_key", checked.key)

    def __repr__(self) -> str:
        # the text form: what a page without the widget's script shows
        return f"Editor({self.document.get('name', '?')!r} on {ground_of(self.document).value} ground): " + \
            (self.error or "valid scenario")

    def yaml(self) -> str:
        """The YAML file the editor would save."""
        return yaml_text(self.document)

    def scenario(self) -> Scenario:
        """The scenario drawn, checked (an ``InputError``, the one ``error`` shows, when it does not check)."""
        checked = check(self.document, self.path or UNSAVED)
        if checked.scenario is None:
            raise InputError(checked.error)
        return checked.scenario

    def save(self, path: str | None = None, overwrite: bool | None = None) -> Scenario:
        """Write the scenario to ``path`` (default: the ``path`` trait) and load it back.

        A file already there is replaced only with ``overwrite``; the file the editor opened
        is an input, which the same rule keeps.
        """
        target = self.path if path is None else arguments.path(path, "path")
        if not target:
            raise InputError("expected a file to save to (the path box, or save(path))", place="path")
        written = save(self.document, target, self.source or None, self.overwrite if overwrite is None else overwrite)
        self.set_trait("status", f"saved {target}: valid scenario")
        return written

    def run(self, kind: RunKind | str | None = None) -> dict[str, Any]:
        """Run the scenario drawn as a battle or a small study (``run_kind``); returns and shows its summary."""
        chosen = RunKind(self.run_kind if kind is None else arguments.choice(kind, "kind", [k.value for k in RunKind]))
        summary = run_drawn(self.scenario(), chosen, self.seed, self.replications)
        with self.hold_sync():
            self.set_trait("summary", summary)
            self.set_trait("status", f"ran {summary['title']}")
        return summary


def _on_message(widget: Editor, content: Any, buffers: Any) -> None:
    """The front end's buttons: save, run. A refusal is shown as the status, one line."""
    action = content.get("do") if isinstance(content, dict) else None
    if action not in ("save", "run"):
        return
    try:
        widget.save() if action == "save" else widget.run()
    except InputError as err:
        widget.set_trait("status", " ".join(str(err).splitlines()))
    widget.set_trait("answered", widget.answered + 1)


def editor(scenario: Any = None, ground: Ground | str | None = None) -> Editor:
    """An editor on which to draw a scenario (a file, a loaded scenario or a new one on ``ground``)."""
    return Editor(scenario, ground)


__all__ = ["Editor", "editor"]
