"""Phases are declared with what they allow (``sim.plugin.PhaseSpec``): plans, movement, the
reserve and the watches ask a phase whether units move in it, never its name; the kernel
modules hold no phase name at all."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
import simpy

import sim
import sim.plugin as sp
from conftest import ROOT, register_game, scenario, table, unit
from movers import MoveEveryMover, run_under
from sim.engine.clock import TurnClock

LANE = {"A": (0.0, 50.0), "W": (50.0, 50.0), "B": (100.0, 50.0), "FAR": (190.0, 95.0)}


def _two_steps(phases):
    """A unit that advances to W, then (a later step) on to B, under a base game of ``phases``."""
    data = scenario(table(LANE, [("A", "W"), ("W", "B")]),
                    [unit("b", "A", move=50, plan=[{"type": "advance", "to": "W"},
                                                   {"type": "advance", "to": "B"}])],
                    [unit("far", "FAR")], turns=4, destroy=False)
    return run_under("phase_test", phases, data)


def _arrivals(log):
    return [(r["node"], r["turn"], r["phase"]) for r in log if r["event"] == "arrive"]


def test_a_plans_second_step_starts_in_a_moving_phase_of_any_name():
    """Issue 23: the engine tested ``phase.phase == "movement"``, so under a system whose
    moving phase is called ``manoeuvre`` a plan's second step never started."""
    log = _two_steps((sp.PhaseSpec("manoeuvre", moves=True), sp.PhaseSpec("volley")))
    assert _arrivals(log) == [("W", 1, "manoeuvre"), ("B", 3, "manoeuvre")]
    (d,) = [r for r in log if r["event"] == "decide"]
    assert d["choice"].startswith("step 2: advance to B") and d["phase"] == "manoeuvre"


def test_a_phase_is_what_it_declares_whatever_its_name():
    """``movement`` declared without moves is a phase without moves (the registry read a
    plain ``"movement"`` as moving: a name the kernel knew); a plain name is refused."""
    assert _arrivals(_two_steps((sp.PhaseSpec("movement"), sp.PhaseSpec("volley")))) == []
    assert _arrivals(_two_steps((sp.PhaseSpec("movement", moves=True), sp.PhaseSpec("volley"))))[-1] \
        == ("B", 3, "movement")
    with pytest.raises(sim.PluginError, match=r"expected a tuple of sim\.plugin\.PhaseSpec"):
        register_game(sp.BaseGame(name="phase_test", title="t", phases=("movement", "volley"), game=MoveEveryMover))


@pytest.mark.parametrize("phases", [
    (sp.PhaseSpec("go", moves="yes"),), (sp.PhaseSpec("go"), "go"), (sp.PhaseSpec("Go"),),
    (sp.PhaseSpec("setup"),), "movement", ("movement",), ("toss", "volley"), (3,), (), 3, None])
def test_malformed_phase_declarations_are_refused(phases):
    with pytest.raises(sim.PluginError, match="phases"):
        register_game(sp.BaseGame(name="phase_test", title="t", phases=phases, game=MoveEveryMover))
    assert "phase_test" not in sim.system_names()


def test_the_clock_announces_the_next_moving_phase():
    env = simpy.Environment()
    clock = TurnClock(env, ["blue", "red"], [sp.PhaseSpec("volley"), sp.PhaseSpec("manoeuvre", moves=True)],
                      1.0, turns=3)
    seen = []

    def waiter(side):
        while True:
            p = yield clock.wait_moving(side)
            seen.append((side, env.now, p.turn, p.phase, p.moves))

    env.process(waiter("red"))
    env.process(waiter(None))
    env.process(clock.run())
    env.run()
    assert seen == [(None, 1.0, 1, "manoeuvre", True), ("red", 3.0, 2, "manoeuvre", True),
                    (None, 3.0, 2, "manoeuvre", True), (None, 5.0, 3, "manoeuvre", True)]


def test_too_refuses_in_phase_in_its_own_check():
    """TOO reads no ``in_phase`` (a figure's move takes its whole phase): the system's own
    check says so, not the core plan checks testing the ruleset's name."""
    data = scenario(table(LANE, [("A", "W"), ("W", "B")]),
                    [unit("b", "A", move=50, plan=[{"type": "advance", "to": "W"},
                                                   {"type": "advance", "to": "B", "when": {"in_phase": 0.5}}])],
                    [unit("far", "FAR")], turns=4, destroy=False)
    data["ruleset"] = "too"
    with pytest.raises(sim.InputError, match=r"forces\.blue\.0\.plan\.1\.when\.in_phase: is not read by "
                                             r"ruleset 'too'"):
        sim.scenario_from_dict(data)
    data["forces"]["blue"][0]["plan"] = {"steps": data["forces"]["blue"][0]["plan"]}
    with pytest.raises(sim.InputError, match=r"plan\.steps\.1\.when\.in_phase: is not read"):
        sim.scenario_from_dict(data)
    data["forces"]["blue"][0] = unit("b", "A", move=50, orders={"type": "advance", "to": "B",
                                                                 "when": {"in_phase": 0.5}})
    with pytest.raises(sim.InputError, match=r"orders\.when\.in_phase: is not read"):
        sim.scenario_from_dict(data)
    data["forces"]["blue"][0] = unit("b", "A", move=50)
    data["groups"] = {"g": {"units": ["b"], "plan": [{"type": "advance", "to": "B", "when": {"in_phase": 0.5}}]}}
    with pytest.raises(sim.InputError, match=r"groups\.g\.plan\.0\.when\.in_phase: is not read"):
        sim.scenario_from_dict(data)
    data["ruleset"] = "snapfire"   # read by the others
    sim.scenario_from_dict(data)


#: The kernel: the engine, the agents (the referee, movement, units, plans, the outcomes
#: of reactions), space, the scenario model and loader, the events, the catalogue, and the
#: extension surface a base game or rule module is declared through.
KERNEL = [*(path for part in ("engine", "agents", "space", "scenario")
            for path in sorted((ROOT / "sim" / part).glob("*.py"))),
          *(ROOT / "sim" / f"{m}.py" for m in ("events", "catalogue", "errors", "arguments")),
          *(ROOT / "sim" / "systems" / f"{m}.py" for m in ("registry", "knobs", "sealed", "declarations",
                                                            "behaviours", "sections", "games", "composition",
                                                            "designs", "checks", "kinds"))]


def _names_of_builtin_systems():
    from sim.systems.registry import REGISTRY, builtin_rulesets, get_system

    rulesets = builtin_rulesets()
    phases = {p.name for s in rulesets for p in get_system(s).phases}
    return phases | set(rulesets) | set(REGISTRY.bases.names()) | set(REGISTRY.modules.names())


def _literals(path: Path):
    """The string constants of a module that are not docstrings: (line, value)."""
    tree = ast.parse(path.read_text())
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs]


def test_no_kernel_module_names_a_phase_or_a_built_in_system():
    names = _names_of_builtin_systems()
    assert {"movement", "shooting", "assault", "fire", "action", "snapfire", "too"} <= names
    # (sim.events spells the log's event names: ``assault`` there is a record, not a phase)
    found = [f"{path.relative_to(ROOT)}:{line}: {value!r}" for path in KERNEL if path.name != "events.py"
             for line, value in _literals(path) if value in names]
    assert not found, found
    assert all(path.exists() for path in KERNEL) and len(KERNEL) > 10


def test_no_kernel_text_names_a_rule_system_or_a_rule_id():
    """Code, comments and docstrings alike: every built-in rule ID (as a word), and the
    built-in systems' names and abbreviations."""
    import re

    from sim import catalogue
    from sim.systems.registry import builtin_rulesets, get_system

    for name in builtin_rulesets():   # every built-in system's rule IDs defined
        get_system(name)
    ids = sorted(catalogue.TITLES, key=len, reverse=True)
    assert {"SF.HALT", "H17.2b", "FOW.RESERVE", "TOO.OPP", "BASE.S.SHOOT"} <= set(ids)
    word = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, ids)) + r")(?![\w.])"
                      r"|\b(snapfire|h17|fow|H17|FOW|TOO|SF)\b", re.IGNORECASE)
    found = [f"{path.relative_to(ROOT)}:{n}: {m.group(0)}" for path in KERNEL
             for n, line in enumerate(path.read_text().splitlines(), 1)
             for m in word.finditer(line) if m.group(0) != "too"]   # the English word
    assert not found, found
