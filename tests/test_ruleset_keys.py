"""A setting the chosen ruleset would not read is refused, never silently ignored."""
from __future__ import annotations

import copy

import pytest
import yaml

from conftest import ROOT
from sim.errors import InputError
from sim.scenario.load import scenario_from_dict


def shipped(name):
    return yaml.safe_load((ROOT / "scenarios" / name).read_text())


def test_snapfire_base_knob_refused_under_h17():
    doc = shipped("village_sniper.yaml")
    doc.setdefault("rules", {}).setdefault("base", {})["shoot_range"] = 30
    with pytest.raises(InputError, match=r"rules\.base\.shoot_range is set but ruleset 'h17'"):
        scenario_from_dict(doc, "v.yaml")


def test_phase_length_is_read_by_every_ruleset():
    for name in ("village_sniper.yaml", "crossing_sniper.yaml", "stalingrad_bookstore.yaml"):
        doc = shipped(name)
        doc.setdefault("rules", {}).setdefault("base", {})["phase_length"] = 2.0
        assert scenario_from_dict(doc, name).rules.base.phase_length == 2.0


@pytest.mark.parametrize("key,value", [("level", "veteran"), ("medic", True), ("hunt", True),
                                       ("sniper_team", {"start": "reserve"})])
def test_unit_key_of_another_ruleset_refused(key, value):
    doc = shipped("open_ground_advance.yaml")
    doc["forces"]["red"][1][key] = value
    with pytest.raises(InputError) as err:
        scenario_from_dict(doc, "o.yaml")
    msg = str(err.value)
    assert f"key forces.red.1.{key}" in msg and "ruleset 'snapfire' does not read it" in msg


def test_charge_refused_where_no_ruleset_reads_it():
    doc = shipped("stalingrad_bookstore.yaml")
    side = doc["sides"][0]
    unit = copy.deepcopy(doc["forces"][side][0])
    unit.setdefault("orders", {"type": "hold"})["charge"] = True
    doc["forces"][side][0] = unit
    with pytest.raises(InputError, match=r"orders\.charge.*ruleset 'too' does not read it"):
        scenario_from_dict(doc, "s.yaml")
