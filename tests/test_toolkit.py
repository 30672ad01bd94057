"""The toolkit (``sim.toolkit``) is a documented, stable surface any rule system builds on:
each module has a flat ``__all__`` whose every function and class has a docstring, it
names no built-in rule system (its own BASE.S rules aside), and its parts work on their own."""
from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re

import pytest

import sim
import sim.plugin as sp
import sim.toolkit
from conftest import ROOT, register_game, scenario, table, unit
from sim.engine.battle import Battle
from sim.experimental import unregister_system
from sim.toolkit.movers import move_side

MODULES = sorted(m.name for m in pkgutil.iter_modules(sim.toolkit.__path__))


def test_the_toolkit_lists_every_module_it_has():
    doc = sim.toolkit.__doc__
    assert len(MODULES) >= 8 and all(f"``sim.toolkit.{m}``" in doc for m in MODULES), MODULES


@pytest.mark.parametrize("name", MODULES)
def test_every_public_name_of_a_toolkit_module_is_listed_and_documented(name):
    module = importlib.import_module(f"sim.toolkit.{name}")
    assert module.__doc__ and isinstance(module.__all__, list) and module.__all__
    tree = ast.parse(inspect.getsource(module))
    defined = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))
               and not n.name.startswith("_")}
    assert defined <= set(module.__all__), defined - set(module.__all__)
    for public in module.__all__:
        obj = getattr(module, public)   # every listed name exists
        if inspect.isfunction(obj) or inspect.isclass(obj):
            assert (obj.__doc__ or "").strip(), f"{name}.{public} has no docstring"


def test_the_toolkit_names_no_built_in_rule_system():
    word = re.compile(r"\b(snapfire|h17|fow|H17|FOW|TOO|SF)\b|\b(H17|FOW|TOO|SF|BASE\.[HFT])\.[A-Za-z0-9]")
    found = [f"{p.relative_to(ROOT)}:{n}: {m.group(0)}" for p in sorted((ROOT / "sim" / "toolkit").glob("*.py"))
             for n, line in enumerate(p.read_text().splitlines(), 1) for m in word.finditer(line)]
    assert not found, found


class MovesTheSide:
    """A test game: in a moving phase the toolkit's ``move_side`` sets the movers off."""

    def __init__(self) -> None:
        self.state = None
        self.started: list[list[str]] = []

    def setup(self, battle) -> None:
        """Nothing to set up."""

    def on_phase(self, battle, phase) -> None:
        """The side's movers set off."""
        if phase.moves:
            self.started.append([u.id for u in move_side(battle, phase)])


def test_move_side_sets_off_every_mover_but_the_pinned():
    data = scenario(table({"A": (0.0, 50.0), "B": (100.0, 50.0), "C": (0.0, 10.0), "F": (190.0, 95.0)},
                          [("A", "B"), ("C", "B")]),
                    [unit("b1", "A", move=30, orders={"type": "advance", "to": "B"}),
                     unit("b2", "C", move=30, orders={"type": "advance", "to": "B"}, flags=["pinned"]),
                     unit("b3", "A")],
                    [unit("far", "F")], turns=1, destroy=False)
    register_game(sp.BaseGame(name="movers_test", title="t", game=MovesTheSide,
                              phases=(sp.PhaseSpec("go", moves=True),)))
    try:
        battle = Battle(sim.scenario_from_dict({**data, "ruleset": "movers_test"}), seed=1)
        battle.run()
    finally:
        unregister_system("movers_test")
    assert battle.game.started == [["b1"]]
    assert [r["unit"] for r in battle.log if r["event"] == "move"] == ["b1"]
