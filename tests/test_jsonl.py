"""The log's JSON text (sim.engine.jsonl): byte for byte what ``json.dumps`` of the cleaned
record gives, for any value a record may hold; every float at full precision, as its repr."""
from __future__ import annotations

import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.engine.jsonl import clean, line, text

PROPS = settings(max_examples=400, deadline=None, derandomize=True)


def _reference(record):
    return json.dumps(clean(record), separators=(",", ":"), ensure_ascii=False)


floats = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(-1e7, 1e7),
    st.floats(-2e-4, 2e-4),
    st.sampled_from([0.0, -0.0, 1e-4, -1e-4, 9.99999999e-5, 1e-5, 1.5e-7, -3e-9, 1e-9, 9.9e-10, 1e6, -1e6,
                     999999.9999999999, 0.5e-9, 1e16, 1e22, 5e-324, 0.1 + 0.2, 10.00001]))
atoms = st.one_of(floats, st.integers(-10**20, 10**20), st.booleans(), st.none(),
                  st.text(max_size=8), st.sampled_from(["é", "\"q\"", "a\\b", "\n", "\u2028", "0.00001", "1e-7"]))
values = st.recursive(atoms, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.tuples(inner, inner),
    st.dictionaries(st.one_of(st.text(max_size=4), st.integers(-5, 5)), inner, max_size=3)), max_leaves=12)


@PROPS
@given(st.dictionaries(st.text(max_size=6), values, max_size=8))
def test_a_record_is_written_as_json_dumps_of_its_cleaned_self(record):
    assert line(record).decode() == _reference(record)


@PROPS
@given(floats)
def test_a_float_is_written_as_its_repr_and_reads_back_as_itself(v):
    written = line({"v": v}).decode()
    assert written == '{"v":' + (repr(v) if v - v == 0 else "null") + "}"
    if v - v == 0:
        assert json.loads(written)["v"] == v


@PROPS
@given(st.lists(st.dictionaries(st.sampled_from(["t", "pos", "k{}", "%s", "q\"\\", "é"]), values, max_size=5),
                max_size=6))
def test_a_log_is_its_records_lines_each_ended_by_a_newline(records):
    """The whole log, written in one call, is the lines of its records: a record orjson
    refuses (a key not a string, a number beyond 64 bits) or a line with a small float too."""
    assert text(records) == "".join(_reference(r) + "\n" for r in records).encode()


def test_numpy_scalars_and_look_alike_values_keep_their_own_text():
    """1, 1.0 and True, (1, 2) and (1.0, 2.0), a numpy float and a Python one, -0.0: each as itself."""
    rec = {"a": 1.0, "b": 1, "c": True, "p": (1.0, 2.0), "q": (1, 2), "r": [1.0, 2.0],
           "n": np.float64(0.1 + 0.2), "i": np.int64(7), "z": -0.0, "k": {1: 2.5, "x": (3.0, 4.0)}}
    assert line(rec).decode() == _reference(rec)
    assert _reference(rec).startswith('{"a":1.0,"b":1,"c":true,"p":[1.0,2.0],"q":[1,2],"r":[1.0,2.0],'
                                      '"n":0.30000000000000004,"i":7,"z":-0.0,')
    odd = {1: "one", "t": 0.5}                       # a key that is not a string
    assert text([odd, {"t": 1e-7}]) == b'{"1":"one","t":0.5}\n{"t":1e-07}\n'


def test_a_string_that_looks_like_a_small_float_is_written_as_itself():
    rec = {"unit": "0.00001", "why": "e-5 (1e-5)", "t": 12.5}
    assert text([rec, rec]) == (_reference(rec) + "\n").encode() * 2
