"""Fuzzing ``sim.gym``: whatever an agent passes as an action, a seed or reset's options,
the environment either takes it, and then plays exactly as the same choices given as a
list of Python ints would, or raises ``InputError`` naming the argument, never another
exception.

An action is taken when it is a list, tuple or 1-d NumPy array of one whole number (an
``int`` or a NumPy integer, not a bool, not a float however whole) per unit, each naming
a choice of the menu; a seed when it is such a whole number in 0 .. 2**63-1.

Bounded: derandomized, no example database, 150 examples per test (a few seconds each).
"""
from __future__ import annotations

from numbers import Integral

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from conftest import SCENARIOS
from sim.errors import InputError

pytest.importorskip("gymnasium")
from sim.gym import BattleEnv  # noqa: E402

FUZZ = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

ENV = BattleEnv(str(SCENARIOS / "platoon_attack.yaml"), side="blue")   # six choices, each 0 .. 4
PLAIN = BattleEnv(str(SCENARIOS / "platoon_attack.yaml"), side="blue")
N, CHOICES = 6, 5
SEED_MAX = 2**63 - 1

# What an agent (or a careless caller) may pass where a number is expected.
NUMBERS = st.one_of(
    st.integers(0, CHOICES - 1), st.integers(0, CHOICES - 1), st.integers(-3, 8),
    st.sampled_from([2**31, 2**63, 2**70, -(2**70)]), st.booleans(), st.none(),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.0, 1.0, 2.9, 0.5, -0.0]),
    st.text(max_size=3), st.sampled_from(["1", "0"]),
    st.sampled_from([np.int8(1), np.int64(3), np.uint8(2), np.uint64(4), np.int32(-1), np.uint16(7),
                     np.float64(1.0), np.float32(2.0), np.bool_(True), np.str_("1")]),
    st.dictionaries(st.text(max_size=2), st.integers(0, 4), max_size=2),
)
DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.uint64, np.float16, np.float32,
          np.float64, np.bool_, np.complex64, object, "U2"]


def arrays():
    """NumPy arrays of every kind of dtype: mostly the action's shape, some other."""
    shape = st.one_of(st.just((N,)), st.just((N,)), hnp.array_shapes(min_dims=0, max_dims=2, max_side=7))
    return st.one_of(
        hnp.arrays(st.sampled_from(DTYPES[:7]), shape, elements=st.integers(0, CHOICES - 1)),
        hnp.arrays(st.sampled_from(DTYPES[:7]), shape),
        hnp.arrays(st.sampled_from([np.float32, np.float64]), shape,
                   elements=st.sampled_from([0.0, 1.0, 4.0, 2.5, np.nan])),
        hnp.arrays(st.sampled_from(DTYPES[7:]), shape))


@st.composite
def nearly(draw):
    """Whole numbers of the menu of any integer type, one of them maybe anything."""
    kinds = st.sampled_from([int, np.int8, np.int64, np.uint8, np.uint64])
    out = [draw(kinds)(draw(st.integers(0, CHOICES - 1))) for _ in range(N)]
    if draw(st.booleans()):
        out[draw(st.integers(0, N - 1))] = draw(NUMBERS)
    return out


def actions():
    """Lists, tuples and arrays of the action's length, of any length, nested, or no sequence."""
    exact = st.lists(NUMBERS, min_size=N, max_size=N)
    return st.one_of(
        nearly(), nearly().map(tuple), exact, exact.map(tuple), st.lists(NUMBERS, max_size=8), arrays(), arrays(),
        exact.map(lambda xs: np.array(xs, dtype=object)), st.lists(st.lists(NUMBERS, max_size=2), max_size=N),
        NUMBERS, st.sets(st.integers(0, 4), max_size=N), st.just(range(N)))


def _whole(value, least=0, most=CHOICES - 1) -> bool:
    return not isinstance(value, (bool, np.bool_)) and isinstance(value, Integral) and least <= value <= most


def _as_ints(action) -> list[int] | None:
    """The action as Python ints when it is one (the module's rule), else None."""
    items = list(action) if isinstance(action, (list, tuple)) or (
        isinstance(action, np.ndarray) and action.ndim == 1) else None
    if items is None or len(items) != N or not all(_whole(a) for a in items):
        return None
    return [int(a) for a in items]


def _state(env, obs) -> tuple:
    return list(env.log.lines()), {k: v.tolist() for k, v in obs.items()}


@FUZZ
@given(action=actions(), seed=st.integers(0, 3))
def test_an_action_plays_as_its_python_ints_or_is_an_input_error(action, seed):
    ENV.reset(seed=seed)
    expect = _as_ints(action)
    try:
        obs, reward, done, _, _ = ENV.step(action)
    except InputError as err:
        assert expect is None, f"refused {action!r}, whose ints are {expect}"
        assert err.place == "action" and "\n" not in str(err)
        return
    assert expect is not None, f"took {action!r}"
    PLAIN.reset(seed=seed)
    plain_obs, plain_reward, plain_done, _, _ = PLAIN.step(expect)
    assert _state(ENV, obs) == _state(PLAIN, plain_obs) and (reward, done) == (plain_reward, plain_done)


SEEDS = st.one_of(
    st.integers(0, 50), st.integers(-(2**70), 2**70), st.sampled_from([SEED_MAX, SEED_MAX + 1, -1, 2**64]),
    st.booleans(), st.none(), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=3),
    st.sampled_from([np.int64(5), np.uint64(5), np.int8(-3), np.float64(5.0), np.bool_(False), "5", [5], (5,)]))


@FUZZ
@given(seed=SEEDS)
def test_a_seed_starts_the_battle_its_int_starts_or_is_an_input_error(seed):
    taken = seed is None or _whole(seed, 0, SEED_MAX)
    try:
        obs, info = ENV.reset(seed=seed)
    except InputError as err:
        assert not taken, f"refused seed {seed!r}"
        assert err.place == "seed" and "\n" not in str(err)
        return
    assert taken, f"took seed {seed!r}"
    if seed is not None:
        plain_obs, plain_info = PLAIN.reset(seed=int(seed))
        assert info["seed"] == int(seed) and type(info["seed"]) is int
        assert _state(ENV, obs) == _state(PLAIN, plain_obs)


@FUZZ
@given(options=st.one_of(st.none(), st.just({}), st.dictionaries(st.text(max_size=4), NUMBERS, max_size=3),
                         NUMBERS, st.lists(st.text(max_size=2), max_size=2)))
def test_reset_takes_no_options_but_none_or_an_empty_mapping(options):
    try:
        ENV.reset(seed=1, options=options)
    except InputError as err:
        assert options is not None and options != {} and err.place == "options" and "\n" not in str(err)
        return
    assert options is None or options == {}
