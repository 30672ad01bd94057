"""Controls for a lesson's "try it live" cells whose keys stay in them: ``Choice`` (one of
several options) and ``Slider`` (a whole number in steps).

In JupyterLab a key pressed on an ipywidgets drop-down or slider reaches the notebook too,
and an arrow key there also moves the notebook to the next cell (its command-mode keys
match any focused element in an output). These two are anywidgets that keep a moving key
(an arrow, Home, End, Page Up, Page Down) to themselves (``sim/data/keys.js``): it changes
the control and nothing else. Both have a ``value`` trait, as ipywidgets' controls do, so
``ipywidgets.interactive_output(f, {"name": control, ...})`` calls ``f`` with their values on
every change. They follow class mode (``sim.viz.class_mode``): text of 16 CSS px
or more.

>>> variant = Choice("variant", ["zone of control", "snap fire"])
>>> variant.value
'zone of control'
>>> Slider("replications", 60, least=20, most=400, step=20).value
60
"""
from __future__ import annotations

from typing import Any

import anywidget
import traitlets

from sim import arguments
from sim.viz.classroom import classroom as class_mode_on
from sim.viz.front_end import widget_script

__all__ = ["Choice", "Slider"]

_ESM = widget_script("controls.js")


class _Checked(traitlets.Any):
    """Any value, None included, goes to the widget's own check (one InputError for each bad one)."""

    # traitlets' Any lets None past every validator, and ignores allow_none=False given to it
    allow_none = False


class Choice(anywidget.AnyWidget):
    """A drop-down of ``options`` (text) whose ``value`` is the one chosen."""

    _esm = _ESM
    kind = traitlets.Unicode("choice", read_only=True).tag(sync=True)
    options: traitlets.List[str] = traitlets.List(read_only=True).tag(sync=True)
    #: not Unicode: every value given goes through the check below (one InputError)
    value = _Checked("").tag(sync=True)
    description = traitlets.Unicode(read_only=True).tag(sync=True)
    classroom = traitlets.Bool(False).tag(sync=True)

    def __init__(self, description: str, options: Any, value: str | None = None,
                 classroom: bool | None = None) -> None:
        if not isinstance(options, (list, tuple)) or not options \
                or not all(isinstance(o, str) for o in options) or len(set(options)) != len(options):
            raise arguments.fail("options", "a list of different texts, one at least", options)
        super().__init__(classroom=class_mode_on(classroom))
        self.set_trait("options", list(options))
        self.set_trait("description", arguments.text(description, "description"))
        self.value = options[0] if value is None else value

    def __repr__(self) -> str:
        # the text form: what a page without the widget's script (the docs site) shows
        return f"Choice({self.description}: {self.value!r} of {len(self.options)})"

    @traitlets.validate("value")
    def _value(self, proposal: dict[str, Any]) -> str:
        return arguments.choice(proposal["value"], "value", self.options)


class Slider(anywidget.AnyWidget):
    """A whole number from ``least`` to ``most`` in steps of ``step``, moved by mouse or keys."""

    _esm = _ESM
    kind = traitlets.Unicode("slider", read_only=True).tag(sync=True)
    #: not Int: every value given goes through the check below (traitlets' Int takes 60.0)
    value = _Checked(0).tag(sync=True)
    least = traitlets.Int(read_only=True).tag(sync=True)
    most = traitlets.Int(read_only=True).tag(sync=True)
    step = traitlets.Int(read_only=True).tag(sync=True)
    description = traitlets.Unicode(read_only=True).tag(sync=True)
    classroom = traitlets.Bool(False).tag(sync=True)

    def __init__(self, description: str, value: int, least: int, most: int, step: int = 1,
                 classroom: bool | None = None) -> None:
        least = arguments.whole(least, "least")
        most, step = arguments.whole(most, "most", least + 1), arguments.count(step, "step")
        super().__init__(classroom=class_mode_on(classroom))
        with self.hold_trait_notifications():
            self.set_trait("least", least)
            self.set_trait("most", most)
            self.set_trait("step", step)
            self.set_trait("description", arguments.text(description, "description"))
        self.value = value

    def __repr__(self) -> str:
        return f"Slider({self.description}: {self.value} of {self.least} to {self.most} in steps of {self.step})"

    @traitlets.validate("value")
    def _value(self, proposal: dict[str, Any]) -> int:
        value = proposal["value"]
        whole = arguments.whole(value, "value", self.least, self.most)
        if (whole - self.least) % self.step:
            raise arguments.fail("value", f"{self.least} plus a multiple of {self.step}", value)
        return whole
