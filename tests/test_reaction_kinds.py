"""Snap fire's reaction kinds are declared objects, one module a kind in
``sim.systems.snapfire.reactions``: the knob ``rules.snapfire.reaction`` takes the
registered kinds (its schema lists them), and a mover does first what its kind says.

A new kind is one new file in that folder. The test does not write into the package (the
checkout is shared): it adds a folder holding one file to the package's ``__path__``, which
is every folder ``discover`` searches, and declares the module as the package does
(``reactions=discover()``)."""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

import sim
from sim.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "open_ground_advance.yaml"

# A new kind in one file: nobody moves while an enemy holds the field (every mover stands fast).
STAND_FAST = '''\
"""``stand_fast``: a mover stands fast for the whole phase (a user's reaction kind)."""
from sim.systems.snapfire.reactions import PhasedWatch, SnapReaction


class StandFastWatch(PhasedWatch):
    rule = "SF.TRIGGER"

    def __init__(self, knobs):
        self.radius = knobs.radius

    def reactors(self, battle, side):
        return []


def radius(knobs):
    return float(knobs.radius), "stand fast"


def stand(watch, battle, unit):
    return True   # that was its move
    yield


KIND = SnapReaction("stand_fast", "snapfire", "every mover stands fast", watch=StandFastWatch,
                    radius=radius, declinable=False, before_move=stand)
'''


def _reaction_enum() -> list[str]:
    from sim.reference.jsonschema import scenario_schema

    defs = scenario_schema(builtin_only=True)["definitions"]
    return defs["SnapFireKnobs"]["properties"]["reaction"]["enum"]


def test_the_knob_takes_the_registered_kinds_and_its_schema_lists_them():
    from sim.systems.registry import REGISTRY

    assert [k.name for k in REGISTRY.modules.get("snapfire").reactions] == ["snap_fire", "zoc"]
    assert _reaction_enum() == ["snap_fire", "zoc"]
    with pytest.raises(InputError, match=r"unknown reaction kind 'ambush' \(expected one of \['snap_fire', "
                                         r"'zoc'\], the kinds of rule module 'snapfire'\)") as info:
        sim.apply_overrides(sim.load_scenario(str(SCENARIO)), {"rules.snapfire.reaction": "ambush"})
    assert "key rules.snapfire.reaction" in str(info.value)


@pytest.fixture
def stand_fast(tmp_path, monkeypatch):
    """The package's reactions with one more file, declared as the package declares them."""
    from sim.systems.games import RuleModule
    from sim.systems.registry import REGISTRY, register, unregister
    from sim.systems.snapfire import MODULE, reactions

    (tmp_path / "stand_fast.py").write_text(STAND_FAST)
    monkeypatch.setattr(reactions, "__path__", [*reactions.__path__, str(tmp_path)])
    module = dataclasses.replace(MODULE, reactions=reactions.discover())
    register(module, replace=True)
    yield module
    unregister(RuleModule, "snapfire")
    REGISTRY.reactions.unregister("stand_fast")
    sys.modules.pop("sim.systems.snapfire.reactions.stand_fast", None)


def test_a_new_reaction_kind_is_one_new_file(stand_fast):
    assert [k.name for k in stand_fast.reactions] == ["snap_fire", "stand_fast", "zoc"]
    assert _reaction_enum() == ["snap_fire", "stand_fast", "zoc"]
    moved = [r for r in sim.run(str(SCENARIO), 2).log.records if r["event"] == "move"]
    assert moved   # the scenario's units move under snap fire ...
    held = sim.run(str(SCENARIO), 2, overrides={"rules.snapfire.reaction": "stand_fast"})
    # ... and under the new kind every mover stands fast: the module asked the kind, before each move
    assert [r for r in held.log.records if r["event"] == "move"] == []
    assert held.log.records[-1]["t"] > 0
