"""The log's JSON text (sim.engine.jsonl): every float at full precision, the shortest text
that reads back as it (the digits of its repr, in orjson's notation); everything else
byte for byte what ``json.dumps`` of the cleaned record gives, for any value a record may hold."""
from __future__ import annotations

import json
from decimal import Decimal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.engine.jsonl import clean, line, text

PROPS = settings(max_examples=400, deadline=None, derandomize=True)


def _reference(record):
    return json.dumps(clean(record), separators=(",", ":"), ensure_ascii=False)


def _same_float_text(a: str, b: str) -> bool:
    """Two texts of one float with the same digits and exponent (``1e-7`` and ``1e-07``)."""
    return Decimal(a).normalize().as_tuple() == Decimal(b).normalize().as_tuple()


# Below 1e-4 and from 1e16 in size, repr writes an exponent; orjson writes one from 1e16
# and below 1e-5 only, and without repr's leading zero: there the texts may differ.
plain = st.one_of(st.floats(-1e15, 1e15).filter(lambda v: v == 0 or abs(v) >= 1e-4),
                  st.sampled_from([0.0, -0.0, 1e-4, 0.1 + 0.2, 123.4567895, 999999.9999999999, 1e15]))
floats = st.one_of(plain, st.floats(allow_nan=True, allow_infinity=True), st.floats(-2e-4, 2e-4),
                   st.sampled_from([9.99999999e-5, 1e-5, 1.5e-7, -3e-9, 1e-9, 1e16, 1e22, 5e-324]))
strings = st.one_of(st.text(max_size=8), st.sampled_from(["é", "\"q\"", "a\\b", "\n", "\u2028", "\x7f", "1e-7"]))


def _values(numbers):
    atoms = st.one_of(numbers, st.integers(-10**20, 10**20), st.booleans(), st.none(), strings)
    return st.recursive(atoms, lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.tuples(inner, inner),
        st.dictionaries(st.one_of(st.text(max_size=4), st.integers(-5, 5)), inner, max_size=3)), max_leaves=12)


@PROPS
@given(st.dictionaries(st.text(max_size=6), _values(plain), max_size=8))
def test_a_record_is_written_as_json_dumps_of_its_cleaned_self(record):
    """Keys in order, strings, whole numbers, lists, tuples, None, numpy scalars, a key
    not a string, a number beyond 64 bits, and floats in the range where orjson's notation
    is repr's: byte for byte ``json.dumps``."""
    assert line(record).decode() == _reference(record)


@PROPS
@given(floats)
def test_a_float_is_the_shortest_text_that_reads_back_as_itself(v):
    written = line({"v": v}).decode()
    assert written.startswith('{"v":') and written.endswith("}")
    number = written[5:-1]
    if v - v != 0:                                  # inf, -inf, nan
        assert number == "null"
    else:
        assert float(number) == v and number.startswith("-") == repr(v).startswith("-")
        assert _same_float_text(number, repr(v))    # repr's digits: the shortest that read back


@pytest.mark.parametrize("value, written", [
    (0.0, "0.0"), (-0.0, "-0.0"), (1.0, "1.0"), (0.1, "0.1"), (0.1 + 0.2, "0.30000000000000004"),
    (1e-4, "0.0001"), (1e-5, "0.00001"), (9.547852058093258e-05, "0.00009547852058093258"),
    (1.5e-7, "1.5e-7"), (1e-9, "1e-9"), (1e-10, "1e-10"), (5e-324, "5e-324"),
    (1e15, "1000000000000000.0"), (1e16, "1e+16"), (1.2345678901234568e16, "1.2345678901234568e+16"),
    (1.7976931348623157e308, "1.7976931348623157e+308"), (float("inf"), "null"), (float("nan"), "null"),
])
def test_the_notation_of_a_float_is_orjsons_as_pinned(value, written):
    """The log's bytes depend on it: orjson has changed its float notation before (3.11.7:
    1e+16, was 1e16), so an orjson whose notation differs from the one pinned here fails."""
    assert line({"v": value}) == b'{"v":' + written.encode() + b"}"


@PROPS
@given(st.lists(st.dictionaries(st.sampled_from(["t", "pos", "k{}", "%s", "q\"\\", "é"]), _values(floats),
                                max_size=5), max_size=6))
def test_a_log_is_its_records_lines_each_ended_by_a_newline(records):
    """The whole log, written in one call, is its records' lines: a record orjson refuses
    (a key not a string, a number beyond 64 bits) among them too."""
    assert text(records) == b"".join(line(r) + b"\n" for r in records)


def test_numpy_scalars_and_look_alike_values_keep_their_own_text():
    """1, 1.0 and True, (1, 2) and (1.0, 2.0), a numpy float and a Python one, -0.0: each as itself."""
    rec = {"a": 1.0, "b": 1, "c": True, "p": (1.0, 2.0), "q": (1, 2), "r": [1.0, 2.0],
           "n": np.float64(0.1 + 0.2), "i": np.int64(7), "z": -0.0, "k": {"1": 2.5, "x": (3.0, 4.0)}}
    assert line(rec).decode() == _reference(rec) == (
        '{"a":1.0,"b":1,"c":true,"p":[1.0,2.0],"q":[1,2],"r":[1.0,2.0],'
        '"n":0.30000000000000004,"i":7,"z":-0.0,"k":{"1":2.5,"x":[3.0,4.0]}}')
    odd = {1: "one", "t": 0.5}                       # a key that is not a string: json.dumps writes it
    assert text([odd, {"t": 1e-7}]) == b'{"1":"one","t":0.5}\n{"t":1e-7}\n'
