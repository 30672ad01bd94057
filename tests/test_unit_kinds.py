"""Unit kinds are declared objects in the registry: the kernel declares the generic ones, the
toolkit ``sniper``, TOO ``figure``; a scenario's units may be of the generic kinds and of
those its base game and modules list (``unit_kinds``), and the kernel names no other."""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

import sim
from sim.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
KERNEL = ["sim/engine", "sim/agents", "sim/space", "sim/scenario"]


def _system_kinds() -> set[str]:
    from sim.systems.registry import REGISTRY, all_systems

    all_systems()   # every built-in part loaded, with the kinds it declares
    return {k.name for k in REGISTRY.unit_kinds if not k.generic}


def test_the_kernel_names_no_systems_unit_kind():
    kinds = _system_kinds()
    assert {"sniper", "figure"} <= kinds
    files = [p for d in KERNEL for p in (ROOT / d).rglob("*.py")] + sorted((ROOT / "sim" / "systems").glob("*.py"))
    found = [f"{p.relative_to(ROOT)}: {sorted(hits)}" for p in files
             if (hits := {n.value for n in ast.walk(ast.parse(p.read_text()))
                          if isinstance(n, ast.Constant) and isinstance(n.value, str)} & kinds)]
    assert found == []


def _doc(kind: str, scenario: str = "crossing_sniper") -> dict:
    import yaml

    doc = yaml.safe_load((ROOT / "scenarios" / f"{scenario}.yaml").read_text())
    doc["forces"]["blue"][0]["kind"] = kind
    return doc


def test_a_ruleset_takes_the_generic_kinds_and_its_parts_own():
    assert sim.scenario_from_dict(_doc("sniper")).forces["blue"][0].kind == "sniper"
    assert sim.scenario_from_dict(_doc("hq")).forces["blue"][0].kind == "hq"
    with pytest.raises(InputError) as info:
        sim.scenario_from_dict(_doc("figure"), "crossing.yaml")
    assert (info.value.file, info.value.place) == ("crossing.yaml", "key forces.blue.0.kind")
    assert info.value.detail == ("unknown unit kind 'figure' (expected one of ['hq', 'infantry', 'team', 'vehicle', "
                                 "'sniper']: the generic kinds and those of ruleset 'fow'; 'figure' is read by "
                                 "['too'] only)")


def test_a_plugins_unit_kind_is_one_declaration_in_its_part():
    from sim.systems.games import BaseGame, Ruleset, UnitKind
    from sim.systems.registry import REGISTRY, register, unregister
    from sim.systems.skirmish import BASE

    scout = UnitKind("scout", "a scout (a plug-in's kind)")
    register(dataclasses.replace(BASE, name="scouting", unit_kinds=(scout,)))
    register(Ruleset("scouting", "Skirmish with scouts", base="scouting"))
    try:
        assert REGISTRY.unit_kinds.get("scout") == scout
        doc = _doc("scout", "open_ground_advance")
        doc["ruleset"] = "scouting"
        del doc["rules"]["snapfire"]
        assert sim.scenario_from_dict(doc).forces["blue"][0].kind == "scout"
        doc["forces"]["blue"][0]["kind"] = "sniper"   # the skirmish base reads it; this one does not
        with pytest.raises(InputError, match=r"unknown unit kind 'sniper' \(expected one of \['hq', 'infantry', "
                                             r"'team', 'vehicle', 'scout'\]"):
            sim.scenario_from_dict(doc)
    finally:
        unregister(Ruleset, "scouting")
        unregister(BaseGame, "scouting")
        REGISTRY.unit_kinds.unregister("scout")
