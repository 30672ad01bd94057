"""Keyed dice (sim.engine.dice): one reproducible stream per (unit, rule)."""
from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

from sim.engine.dice import Dice, _key, seed_sequence


def test_same_seed_same_stream_per_unit_and_rule():
    a, b = Dice(11), Dice(11)
    assert [a.roll("u1", "SF.ROLL") for _ in range(50)] == [b.roll("u1", "SF.ROLL") for _ in range(50)]


@pytest.mark.parametrize("sides", [2, 6, 10, 20])
def test_single_rolls_take_the_faces_an_array_draw_of_one_would(sides):
    """roll(n=1) draws a scalar (faster); it must read the stream exactly as the array
    draw did, or every stored log and study would change."""
    d = Dice(19)
    ref = np.random.Generator(np.random.PCG64(d.stream("u9", "SF.ROLL").bit_generator.seed_seq))
    got = [d.roll("u9", "SF.ROLL", 1, sides)[0] for _ in range(500)]
    want = [int(ref.integers(1, sides + 1, size=1)[0]) for _ in range(500)]
    assert got == want


def test_streams_do_not_depend_on_draw_order_across_keys():
    """Drawing from (u2, R) first must not change (u1, R)'s faces: keyed, not shared."""
    a, b = Dice(3), Dice(3)
    first = a.roll("u1", "SF.ROLL", 20)
    b.roll("u2", "SF.ROLL", 37)
    b.roll("u1", "BASE.S.SHOOT", 5)
    assert b.roll("u1", "SF.ROLL", 20) == first


def test_different_keys_and_seeds_give_different_streams():
    d = Dice(5)
    s1 = d.roll("u1", "SF.ROLL", 200)
    s2 = d.roll("u2", "SF.ROLL", 200)
    s3 = d.roll("u1", "BASE.S.SHOOT", 200)
    s4 = Dice(6).roll("u1", "SF.ROLL", 200)
    assert len({tuple(s) for s in (s1, s2, s3, s4)}) == 4


def test_different_keys_are_independent():
    """Streams of different keys are uncorrelated (|r| small over 20,000 faces)."""
    d = Dice(1)
    a = np.array(d.roll("u1", "SF.ROLL", 20_000), float)
    b = np.array(d.roll("u2", "SF.ROLL", 20_000), float)
    c = np.array(d.roll("u1", "BASE.S.SHOOT", 20_000), float)
    # sd of r under independence is 1/sqrt(n) ~ 0.007; 0.05 is > 7 sd
    assert abs(np.corrcoef(a, b)[0, 1]) < 0.05
    assert abs(np.corrcoef(a, c)[0, 1]) < 0.05


def test_faces_are_in_range_and_all_appear():
    d = Dice(9)
    faces = d.roll("u", "r", 6000)
    assert set(faces) == set(range(1, 7))
    assert all(isinstance(f, int) for f in faces)
    ten = d.roll("u", "d10", 2000, sides=10)
    assert set(ten) == set(range(1, 11))
    u = [d.uniform("u", "place") for _ in range(1000)]
    assert all(0.0 <= x < 1.0 for x in u)


def test_negative_seed_refused():
    with pytest.raises(ValueError):
        Dice(-1)


def test_streams_are_stable_across_processes():
    """The key is not Python's salted hash(): another interpreter sees the same faces."""
    code = "from sim.engine.dice import Dice; print(Dice(42).roll('b1', 'SF.ROLL', 12))"
    out = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"PYTHONHASHSEED": h, "PATH": ""}, cwd=".").stdout for h in ("1", "2")}
    assert len(out) == 1 and str(Dice(42).roll("b1", "SF.ROLL", 12)) in out.pop()


@pytest.mark.parametrize("seed", [0, 1, 7, 2**31, 2**32 - 1, 2**32, 2**63 + 5, 2**128 + 3, 2**160 - 1])
@pytest.mark.parametrize("keys", [(0, 0), (1, 2**32), (2**32 - 1, 5), (2**64 - 1, 2**63),
                                  (0x1234567890ABCDEF, 0xFEDCBA0987654321)])
def test_seed_sequence_shortcut_builds_numpys_own_pool(seed, keys):
    """The streams are numpy's SeedSequence(seed, spawn_key=(unit key, rule key)); the
    shortcut that assembles its words directly must give the very same pool and state,
    for one-word and many-word seeds and keys alike."""
    ref = np.random.SeedSequence(seed, spawn_key=keys)
    got = seed_sequence(seed, keys)
    assert list(got.pool) == list(ref.pool)
    assert list(got.generate_state(4, np.uint64)) == list(ref.generate_state(4, np.uint64))


def test_dice_streams_are_numpys_keyed_streams():
    d = Dice(123456789)
    ref = np.random.Generator(np.random.PCG64(np.random.SeedSequence(
        123456789, spawn_key=(_key("m7"), _key("SF.ROLL")))))
    assert d.roll("m7", "SF.ROLL", 40) == [int(v) for v in ref.integers(1, 7, size=40)]


def _numpy_stream(seed, unit, rule):
    return np.random.Generator(np.random.PCG64(seed_sequence(seed, (_key(unit), _key(rule)))))


@pytest.mark.parametrize("seed", [0, 1, 7, 2**32 - 1, 2**32, 2**40 + 3, 2**63 - 1, 2**130 + 5])
def test_dice_draw_what_numpys_generator_draws_whatever_the_mix_of_draws(seed):
    """The dice make and draw their streams in Python (sim.engine.pcg); every face and
    float must be numpy's Generator(PCG64(seed_sequence(...))) draw for draw, through
    any mix of dice sizes, counts and uniform draws, or every stored log would change."""
    rng = random.Random(seed)
    for unit, rule in [("u1", "SF.ROLL"), ("sniper", "TOO.DAMAGE"), ("é" * 3, "Z"), ("x" * 64, "BASE.S.SHOOT")]:
        d, ref = Dice(seed), _numpy_stream(seed, unit, rule)
        for _ in range(150):
            if rng.random() < 0.7:
                sides = rng.choice([1, 2, 3, 6, 7, 10, 12, 20, 100, 1000, 2**31 - 1, 2**31, 2**33])
                n = rng.choice([1, 1, 2, 3])
                assert d.roll(unit, rule, n, sides) == [int(v) for v in ref.integers(1, sides + 1, size=n)]
            else:
                assert d.uniform(unit, rule) == float(ref.random())


def test_a_stream_handed_out_is_the_one_the_dice_go_on_drawing_from():
    """``stream`` gives the key's numpy Generator where the dice left it (a 32-bit half
    still buffered included); draws from it and from the dice then interleave in one stream."""
    d, ref = Dice(9), _numpy_stream(9, "u", "R")
    got = d.roll("u", "R", 3) + d.roll("u", "R", 1, 10)
    g = d.stream("u", "R")
    assert d.stream("u", "R") is g
    assert list(g.bit_generator.seed_seq.entropy) == list(ref.bit_generator.seed_seq.entropy)
    got += [int(g.integers(1, 7)), d.roll("u", "R")[0], d.uniform("u", "R"), int(g.integers(1, 11))]
    want = [int(x) for x in ref.integers(1, 7, size=3)] + [int(ref.integers(1, 11))]
    want += [int(ref.integers(1, 7)), int(ref.integers(1, 7)), float(ref.random()), int(ref.integers(1, 11))]
    assert got == want
