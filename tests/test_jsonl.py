"""The log's JSON text (sim.engine.jsonl): byte for byte what ``json.dumps`` of the cleaned
record gives, the format every stored log has, for any value a record may hold."""
from __future__ import annotations

import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.engine.jsonl import Lines, clean, float_text

PROPS = settings(max_examples=400, deadline=None, derandomize=True)


def _reference(record):
    return json.dumps(clean(record), separators=(",", ":"), ensure_ascii=False)


floats = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(-1e7, 1e7),
    st.floats(-2e-4, 2e-4),
    st.sampled_from([0.0, -0.0, 1e-4, -1e-4, 9.99999999e-5, 1e6, -1e6, 999999.9999999999, 0.5e-9,
                     -0.5e-9, 1.5e-9, 2.5e-9, 123.4567895, 0.1 + 0.2, 1e16, 1e-10]))
atoms = st.one_of(floats, st.integers(-10**20, 10**20), st.booleans(), st.none(),
                  st.text(max_size=8), st.sampled_from(["é", "\"q\"", "a\\b", "\n", "\u2028"]))
values = st.recursive(atoms, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.tuples(inner, inner),
    st.dictionaries(st.one_of(st.text(max_size=4), st.integers(-5, 5)), inner, max_size=3)), max_leaves=12)


@PROPS
@given(st.dictionaries(st.text(max_size=6), values, max_size=8))
def test_a_record_is_written_as_json_dumps_of_its_cleaned_self(record):
    write = Lines()
    assert write(record) == _reference(record)
    assert write(record) == _reference(record)      # again, from what it remembered


@PROPS
@given(floats)
def test_float_text_is_repr_of_the_rounded_float(v):
    assert float_text(v) == json.dumps(clean(v))


def test_points_numpy_scalars_and_look_alike_values_keep_their_own_text():
    """A remembered value never stands for an equal one of another type: 1, 1.0 and True,
    (1, 2) and (1.0, 2.0), a numpy float and a Python one."""
    write = Lines()
    rec = {"a": 1.0, "b": 1, "c": True, "p": (1.0, 2.0), "q": (1, 2), "r": [1.0, 2.0],
           "n": np.float64(0.1 + 0.2), "i": np.int64(7), "z": -0.0, "k": {1: 2.5, "x": (3.0, 4.0)}}
    for _ in range(2):
        assert write(rec) == _reference(rec)
    odd = {1: "one", "t": 0.5}                       # a key that is not a string
    assert write(odd) == _reference(odd) == '{"1":"one","t":0.5}'


@PROPS
@given(st.lists(st.dictionaries(st.sampled_from(["t", "pos", "k{}", "%s", "q\"\\", "é"]), values, max_size=5),
                min_size=2, max_size=6))
def test_records_sharing_keys_with_other_kinds_of_values_are_each_written_as_themselves(records):
    """One writer serves every record with the same keys: a value of another kind than the
    first record's (None for a string, an int for a float, a list for a point) and keys that
    look like code or format fields still give the reference text."""
    write = Lines()
    for record in records:
        assert write(record) == _reference(record)
        same_keys = dict.fromkeys(record, None)
        assert write(same_keys) == _reference(same_keys)


def test_look_alike_lists_keep_their_own_text():
    """Equal lists of different element types ([1, 2], [1.0, 2.0], [True, 2]) are remembered apart."""
    write = Lines()
    for _ in range(2):
        for v in ([1, 2], [1.0, 2.0], [True, 2], [True, False], [1, 0], ["a"], [0.0], [-0.0],
                  [(1.0, 2.0)], [(1, 2)], [(1.0, 2)], [(True, 2.0), (1.0, 2.0, 3.0)], [[1.0, 2.0]]):
            rec = {"v": v}
            assert write(rec) == _reference(rec)
