"""Metrics count records by their event first, and by their rule only where the rule is what
is counted: a sniper's attacks are its attack records (``sniper_shot``, ``sniper_attack``),
whatever rule another record names; a TOO sniper lost is lost whichever rule took it."""
from __future__ import annotations

import copy

import pytest

from conftest import SCENARIOS, benchmark
from sim import catalogue
from sim.errors import InputError
from sim.replication import run_battle
from sim.scenario.load import load_scenario, scenario_from_dict
from sim.systems.games import ModulePlay, RuleModule
from sim.systems.registry import register, unregister
from sim.toolkit.snipers import sniper_metrics

CASES = benchmark("cases")


def test_the_sniper_metrics_count_the_attack_records_by_their_event():
    scenario = load_scenario(SCENARIOS / "sniper_screen.yaml")   # FOW's sniper team, snap fire around it
    reporter = sniper_metrics(("sniper_shot",))
    counted = 0
    for seed in range(1, 6):
        records = run_battle(scenario, seed).log.records
        shots = [r for r in records if r["event"] == "sniper_shot"]
        m = reporter.compute(records, scenario)
        assert (m["sniper_attacks"], m["sniper_hits"]) == (len(shots), sum(r["success"] for r in shots)), seed
        counted += len(shots)
    assert counted > 0


@pytest.mark.parametrize("attacks", [("FOW.MARKSMAN",), ("H17.5",), (), "sniper_shot", ("sniper_shot", 3), None])
def test_the_sniper_metrics_refuse_a_rule_id_or_anything_but_event_names(attacks):
    with pytest.raises(InputError) as err:
        sniper_metrics(attacks)
    line = str(err.value)
    assert "attacks" in line and "event names" in line and "\n" not in line, line


class MinePlay(ModulePlay):
    """A mine under every TOO sniper: each is eliminated at the first phase (rule TEST.MINE)."""

    def phase_starts(self, battle, phase):
        if phase.turn == 1 and phase.phase == "movement":
            for r in battle.log.where(event="deploy", sniper=True):
                battle.eliminate(battle.units[r["unit"]], rule="TEST.MINE")


@pytest.fixture
def mines(monkeypatch):
    monkeypatch.setitem(catalogue.TITLES, "TEST.MINE", "a mine eliminates a sniper (a test's rule)")
    module = register(RuleModule(name="mines_test", title="Mines under the snipers", play=MinePlay,
                                 rules=("TEST.MINE",)))
    yield module
    unregister(RuleModule, module.name)


def test_a_too_sniper_another_module_eliminates_is_a_sniper_lost(mines):
    doc = copy.deepcopy(CASES.fight(8, "too", turns=2))
    del doc["ruleset"]
    doc.update(base="too", modules=["mines_test"])
    scenario = scenario_from_dict(doc)
    records = run_battle(scenario, 1).log.records
    snipers = {r["unit"] for r in records if r["event"] == "deploy" and r["sniper"]}
    mined = [r for r in records if r["event"] == "eliminate" and r["rule"] == "TEST.MINE"]
    assert len(snipers) == 2 and {r["unit"] for r in mined} == snipers
    metrics = run_battle(scenario, 1).metrics
    assert metrics["too_snipers_lost"] == 2
    assert metrics["too_killed_outright"] + metrics["too_bleed_deaths"] == sum(
        r["event"] == "eliminate" and r["rule"] == "TOO.DAMAGE" for r in records)
