"""The shipped snap-fire scenarios (issue 2, item 9): across seeds 1-8 each produces
SF.HALT and SF.ROLL records (SF.TRIGGER, SF.HALT, SF.ROLL), quickly."""
from __future__ import annotations

import pytest

from conftest import SCENARIOS, run
from sim.scenario.load import load_scenario


@pytest.mark.parametrize("name", ["open_ground_advance.yaml", "march_column.yaml"])
def test_shipped_scenario_has_sf_halts_and_rolls_for_seeds_1_to_8(name):
    sc = load_scenario(SCENARIOS / name)
    for seed in range(1, 9):
        b = run(sc, seed)
        halts = b.log.where(rule="SF.HALT")
        rolls = b.log.where(rule="SF.ROLL")
        assert halts, (name, seed)
        assert rolls, (name, seed)
        # every halt is followed by its roll, at the same instant, by the same firer
        for h in halts:
            assert any(r["t"] == h["t"] and r["unit"] == h["firer"] and r["target"] == h["unit"]
                       for r in rolls)
        assert b.log.records[-1]["event"] == "end"


def test_march_column_is_on_march_orders():
    """SF.MARCH: the march scenario's column really makes three moves a phase."""
    sc = load_scenario(SCENARIOS / "march_column.yaml")
    b = run(sc, 1)
    assert {r["move"] for r in b.log.where(event="move") if r["rule"] is None} >= {1, 2, 3}


@pytest.mark.parametrize("value", ["rest_of_phase", "this_move"])
def test_march_column_both_march_halt_readings_run(value):
    """SF.MARCH: both readings of the knob run; `this_move` lets halted units move on in
    the same phase, so it never makes fewer moves than `rest_of_phase`."""
    from sim.scenario.load import apply_overrides

    sc = load_scenario(SCENARIOS / "march_column.yaml")
    v = apply_overrides(sc, {"rules.snapfire.march_halt": value})
    b = run(v, 1)
    assert b.log.where(rule="SF.HALT")
    after_halt = 0
    for h in b.log.where(rule="SF.HALT"):
        after_halt += sum(1 for r in b.log.where(event="move", unit=h["unit"], turn=h["turn"])
                          if r["t"] > h["t"])
    if value == "rest_of_phase":
        assert after_halt == 0
    else:
        assert after_halt > 0
