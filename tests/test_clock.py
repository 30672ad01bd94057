"""The turn clock (sim.engine.clock): alternating player-turns, phases, their times."""
from __future__ import annotations

import pytest
import simpy

from conftest import recs, run, scenario, table, unit
from sim.engine.clock import TurnClock


def _watch(sides=("blue", "red"), phases=("movement", "shooting", "assault"), L=2.0, turns=3):
    env = simpy.Environment()
    clock = TurnClock(env, list(sides), list(phases), L, turns)
    seen = []

    def watch():
        while True:
            p = yield clock.next_phase()
            seen.append((env.now, p.turn, p.side, p.phase, p.start, p.end))

    env.process(watch())
    env.process(clock.run())
    env.run()
    return env, clock, seen


def test_turns_alternate_and_phases_follow_the_ruleset():
    env, clock, seen = _watch()
    assert [(t, s, p) for _, t, s, p, _, _ in seen] == [
        (1, "blue", "movement"), (1, "blue", "shooting"), (1, "blue", "assault"),
        (2, "red", "movement"), (2, "red", "shooting"), (2, "red", "assault"),
        (3, "blue", "movement"), (3, "blue", "shooting"), (3, "blue", "assault")]
    assert clock.finished.triggered


def test_phase_times_are_back_to_back():
    """Turn k starts at (k-1)·phases·L; each phase lasts L and is announced at its start."""
    env, clock, seen = _watch(L=2.0)
    for i, (now, _turn, _side, _phase, start, end) in enumerate(seen):
        assert now == start == pytest.approx(2.0 * i)
        assert end == pytest.approx(start + 2.0)
    assert env.now == pytest.approx(18.0)


def test_side_of_turn():
    env = simpy.Environment()
    clock = TurnClock(env, ["a", "b"], ["movement"], 1.0, 5)
    assert [clock.side_of_turn(k) for k in range(1, 6)] == ["a", "b", "a", "b", "a"]


def test_wait_for_a_named_phase_of_a_side():
    env = simpy.Environment()
    clock = TurnClock(env, ["blue", "red"], ["movement", "shooting"], 1.0, 4)
    got = []

    def waiter():
        p = yield clock.wait("shooting", "red")
        got.append((env.now, p.turn, p.side))
        p = yield clock.wait("movement")
        got.append((env.now, p.turn, p.side))

    env.process(waiter())
    env.process(clock.run())
    env.run()
    assert got == [(3.0, 2, "red"), (4.0, 3, "blue")]


def test_stop_ends_after_the_current_phase():
    env = simpy.Environment()
    clock = TurnClock(env, ["blue", "red"], ["movement", "shooting"], 1.0, 10)
    seen = []

    def watch():
        while True:
            p = yield clock.next_phase()
            seen.append(p.phase)
            if len(seen) == 3:
                clock.stop()

    env.process(watch())
    env.process(clock.run())
    env.run()
    assert len(seen) == 3 and clock.finished.triggered


def test_battle_records_follow_the_clock():
    """In a battle every record's turn, side and phase match the clock's schedule: turn k
    is blue's if k is odd, and t lies within [start, end] of that phase."""
    terrain = table({"A": (0, 50), "B": (200, 50), "F": (60, 56), "G": (150, 50)}, [("A", "B")])
    data = scenario(terrain, [unit("m", "A", move=30, armour=6, orders={"type": "advance", "to": "B"})],
                    [unit("f", "F"), unit("g", "G")], turns=4,
                    rules={"base": {"phase_length": 2.5}})
    b = run(data)
    phases = ["movement", "shooting", "assault"]
    for r in b.log:
        if r["event"] == "end":
            continue
        if r["phase"] == "setup":   # where each unit starts, before the first phase
            assert r["event"] == "place" and r["t"] == 0.0 and r["turn"] == 1
            continue
        assert r["side"] == ("blue" if r["turn"] % 2 else "red")
        k = (r["turn"] - 1) * 3 + phases.index(r["phase"])
        assert 2.5 * k - 1e-9 <= r["t"] <= 2.5 * (k + 1) + 1e-9
    assert recs(b, event="move")
