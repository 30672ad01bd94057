"""Each built-in system (H17, FOW, snap fire) reaches its knobs and state one way: through
the typed generic context (``BattleContext[ItsRules, ItsState]``), not through helpers of
its own that cast (``knobs(battle)``, ``state_of(battle)``)."""
from __future__ import annotations

import ast
import typing
from pathlib import Path
from typing import Any

import pytest

from sim.engine.context import BattleContext
from sim.systems.fow.state import FowBattle, FowRules, FowState
from sim.systems.h17.state import H17Battle, H17Rules, H17State
from sim.systems.snapfire.game import SnapBattle, SnapRules
from sim.systems.too.state import TooBattle, TooRules, TooState

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("alias, rules, state, knob", [
    (H17Battle, H17Rules, H17State, "h17"), (FowBattle, FowRules, FowState, "fow"),
    (SnapBattle, SnapRules, Any, "snapfire"), (TooBattle, TooRules, TooState, "too")])
def test_a_system_declares_its_battle_type(alias, rules, state, knob):
    assert typing.get_origin(alias) is BattleContext and typing.get_args(alias) == (rules, state)
    assert knob in dir(rules)


@pytest.mark.parametrize("system", ["h17", "fow", "snapfire", "too"])
def test_no_system_defines_its_own_knobs_or_state_getter(system):
    found = [f"{path.name}:{node.lineno} {node.name}"
             for path in sorted((ROOT / "sim" / "systems" / system).glob("*.py"))
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.FunctionDef) and node.name in ("knobs", "state_of")]
    assert not found, found


def test_the_base_games_combat_modules_are_named_by_what_they_hold():
    """H17's and FOW's base-game modules no longer read alike (``hex_base``, ``fow_base``)."""
    import sim.systems.fow.team_combat as team_combat
    import sim.systems.h17.hex_combat as hex_combat

    assert hex_combat.ap_attack and hex_combat.apply_cp and team_combat.hit_need and team_combat.assault
    assert not any((ROOT / "sim" / "systems" / s).exists() for s in ("h17/hex_base.py", "fow/fow_base.py"))
