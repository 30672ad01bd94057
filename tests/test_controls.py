"""sim.viz's notebook controls (``Choice``, ``Slider``): their values are checked as every
argument is, ipywidgets' ``interactive_output`` calls a function with them, and they follow
class mode. That their keys stay in them in JupyterLab is ``tests/test_classroom_jupyterlab.py``."""
from __future__ import annotations

import pytest

pytest.importorskip("anywidget")
import ipywidgets  # noqa: E402 - after the skip

from sim import viz  # noqa: E402
from sim.errors import InputError  # noqa: E402


def test_a_choice_holds_one_of_its_options():
    c = viz.Choice("variant", ["zone of control", "snap fire"])
    assert (c.value, c.options, c.description) == ("zone of control", ["zone of control", "snap fire"], "variant")
    c.value = "snap fire"
    assert viz.Choice("variant", ["a", "b"], value="b").value == "b"
    with pytest.raises(InputError, match="^value: expected one of a, b, got 'c'$"):
        viz.Choice("variant", ["a", "b"], value="c")
    for bad in ([], ["a", "a"], ["a", 1], "ab", None):
        with pytest.raises(InputError, match="^options: "):
            viz.Choice("variant", bad)
    with pytest.raises(InputError, match="^description: "):
        viz.Choice("", ["a"])
    for bad in ("minefield", 1, None):
        with pytest.raises(InputError, match="^value: "):
            c.value = bad
    assert c.value == "snap fire"   # a refused value leaves the one it had
    assert repr(c) == "Choice(variant: 'snap fire' of 2)"   # the text form the docs site shows


def test_a_slider_holds_a_whole_number_on_its_steps():
    s = viz.Slider("replications", 60, least=20, most=400, step=20)
    assert (s.value, s.least, s.most, s.step) == (60, 20, 400, 20)
    s.value = 400
    for bad in (70, 0, 420, 60.0, True, "60", None):
        with pytest.raises(InputError, match="^value: "):
            s.value = bad
    assert s.value == 400
    assert repr(s) == "Slider(replications: 400 of 20 to 400 in steps of 20)"
    with pytest.raises(InputError, match="^most: expected an integer >= 21, got 20$"):
        viz.Slider("n", 20, least=20, most=20)
    with pytest.raises(InputError, match="^step: "):
        viz.Slider("n", 20, least=20, most=40, step=0)
    with pytest.raises(InputError, match="^least: "):
        viz.Slider("n", 20, least=-1, most=40)


def test_interactive_output_calls_its_function_with_the_controls_values():
    seen = []
    variant, n = viz.Choice("variant", ["a", "b"]), viz.Slider("n", 2, least=1, most=5)
    ipywidgets.interactive_output(lambda variant, n: seen.append((variant, n)), {"variant": variant, "n": n})
    variant.value = "b"
    n.value = 5
    assert seen == [("a", 2), ("b", 2), ("b", 5)]


def test_controls_follow_class_mode():
    assert not viz.Choice("x", ["a"]).classroom and viz.Choice("x", ["a"], classroom=True).classroom
    with viz.class_mode():
        assert viz.Slider("n", 1, least=1, most=2).classroom
        assert not viz.Slider("n", 1, least=1, most=2, classroom=False).classroom
    with pytest.raises(InputError, match="^classroom: "):
        viz.Choice("x", ["a"], classroom="yes")
