"""A battle keeps the garbage collector off what lives through it (Battle.run freezes
what outlives each phase and hands it all back at its end), and changes nothing else."""
from __future__ import annotations

import gc

from conftest import SCENARIOS
from sim.engine.battle import Battle
from sim.scenario.load import load_scenario


def _frozen_per_phase(battle):
    seen = []
    on_phase = battle.game.on_phase

    def spying(b, phase):
        seen.append(gc.get_freeze_count())
        on_phase(b, phase)
    battle.game.on_phase = spying
    return seen


def test_a_battle_freezes_while_it_runs_and_unfreezes_at_its_end():
    sc = load_scenario(SCENARIOS / "open_ground_advance.yaml")
    assert gc.get_freeze_count() == 0
    b = Battle(sc, 3)
    seen = _frozen_per_phase(b)
    b.run()
    assert len(seen) > 3 and all(n > 0 for n in seen)
    assert gc.get_freeze_count() == 0
    gc.disable()
    try:
        plain = Battle(sc, 3)
        quiet = _frozen_per_phase(plain)
        plain.run()
    finally:
        gc.enable()
    assert quiet == [0] * len(quiet)                 # the collector off: nothing frozen
    assert plain.log.records == b.log.records


def test_objects_frozen_by_the_caller_stay_frozen_and_nothing_more_is():
    sc = load_scenario(SCENARIOS / "village_sniper.yaml")
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        b = Battle(sc, 2)
        seen = _frozen_per_phase(b)
        b.run()
        # (frozen objects that die leave the count: it may only fall)
        assert seen and all(n <= before for n in seen) and 0 < gc.get_freeze_count() <= before
    finally:
        gc.unfreeze()
