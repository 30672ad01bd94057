"""Fuzzing the scenario loader (issue 7, item 1): whatever the document, loading either
succeeds or raises ``InputError``, never another exception.

Three sources of documents: hypothesis-built trees of mappings, lists and scalars with
plausible keys; the shipped scenarios with a few random mutations (a key deleted, a
value's type changed, an unknown key inserted, a number swapped for a string, a
negative, NaN, infinity or an absurd value); and raw YAML-ish text. A mutated scenario
that still loads is also run for one battle, which must not raise either.

Bounded: derandomized, no example database, 150–300 examples per test (< 30 s).
"""
from __future__ import annotations

import copy
import math

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import SCENARIOS
from sim.engine.battle import Battle
from sim.errors import InputError
from sim.scenario.load import apply_overrides, load_scenario, parse_assignment, scenario_from_dict
from sim.scenario.yamlfile import parse_yaml

FUZZ = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

SHIPPED = ["open_ground_advance", "march_column", "village_sniper", "crossing_sniper",
           "stalingrad_bookstore"]
DOCS = {name: yaml.safe_load((SCENARIOS / f"{name}.yaml").read_text()) for name in SHIPPED}

KEYS = ["name", "description", "ruleset", "turns", "sides", "terrain", "forces", "victory", "rules",
        "kind", "width", "height", "rows", "types", "default", "special", "waypoints", "edges", "grid",
        "spacing", "areas", "polygon", "cover", "hindrance", "blocks_sight", "cost", "passable",
        "id", "at", "steps", "armour", "morale", "skill", "move", "orders", "type", "to", "charge",
        "flags", "sniper_team", "start", "candidates", "platoon", "hunt", "level", "facing", "sniper",
        "medic", "prone", "alert", "attacker", "objective", "destroy", "base", "snapfire", "h17", "fow",
        "too", "radius", "reaction", "zoc_radius", "march_halt", "phase_length", "blue", "red", "A1",
        "0,0", "1,1", "zz"]
WORDS = ["snapfire", "h17", "fow", "too", "table", "hex", "advance", "march", "hold", "blue", "red",
         "sniper", "infantry", "zoc", "off_board", "reserve", "deployed", "....W..", "", "0,1", "OBJ"]

SCALARS = st.one_of(
    st.none(), st.booleans(),
    st.integers(-3, 20), st.sampled_from([0, -1, 10**9, 10**30, 2**63]),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([1e300, -1e300, 1e-300, 0.5]),
    st.sampled_from(WORDS), st.text(max_size=8),
)


def documents():
    return st.recursive(
        SCALARS,
        lambda inner: st.one_of(st.lists(inner, max_size=4),
                                st.dictionaries(st.sampled_from(KEYS), inner, max_size=6)),
        max_leaves=40)


def _loads_or_input_error(doc) -> object:
    try:
        return scenario_from_dict(doc)
    except InputError as err:
        assert "\n" not in str(err), str(err)
        return None


@FUZZ
@given(doc=st.dictionaries(st.sampled_from(KEYS), documents(), max_size=9))
def test_generated_documents(doc):
    _loads_or_input_error(doc)


@FUZZ
@given(doc=documents())
def test_generated_documents_through_yaml(doc):
    """The same, through YAML text: dump, then parse with the safe loader."""
    try:
        text = yaml.safe_dump(doc)
    except yaml.YAMLError:
        return
    try:
        data, _ = parse_yaml(text, "fuzz.yaml")
    except InputError:
        return
    _loads_or_input_error(data)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(text=st.text(alphabet=st.sampled_from(list("ab: -[]{},&*!?|>'\"#\n\t\\%@`0.1e~") + ["\x00", "é"]),
                    max_size=60))
def test_raw_text(text):
    try:
        data, lines = parse_yaml(text, "fuzz.yaml")
    except InputError as err:
        assert str(err).startswith("fuzz.yaml") and "\n" not in str(err)
        return
    _loads_or_input_error(data)


# -- mutated shipped scenarios -----------------------------------------------------------------
def _places(node, path=()):
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _places(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _places(v, path + (i,))


REPLACEMENTS = st.one_of(
    SCALARS, st.just([]), st.just({}), st.just([[1]]), st.just({"zz": 1}),
    st.sampled_from(["OBJ", "NOWHERE", "0,0", "3,4", "R1", "HIDE_RUIN", "blue", "red"]),
)


@st.composite
def mutated(draw):
    name = draw(st.sampled_from(SHIPPED))
    doc = copy.deepcopy(DOCS[name])
    for _ in range(draw(st.integers(1, 3))):
        places = list(_places(doc))
        path, node = draw(st.sampled_from(places))
        parent = doc
        for p in path[:-1]:
            parent = parent[p]
        op = draw(st.sampled_from(["delete", "replace", "insert", "number", "number", "duplicate"]))
        if op == "insert" and isinstance(node, dict):
            node[draw(st.sampled_from(KEYS))] = copy.deepcopy(draw(REPLACEMENTS))
        elif op == "duplicate" and isinstance(node, list) and node:
            node.append(copy.deepcopy(node[0]))
        elif not path:
            continue
        elif op == "delete":
            del parent[path[-1]]
        elif op == "number" and isinstance(node, (int, float)) and not isinstance(node, bool):
            parent[path[-1]] = draw(st.sampled_from(
                [-node, 0, -1, math.nan, math.inf, -math.inf, 1e300, 10**12, str(node), node + 0.5, True]))
        else:
            parent[path[-1]] = copy.deepcopy(draw(REPLACEMENTS))   # st.just objects are shared
    return name, doc


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=mutated())
def test_mutated_shipped_scenarios(case):
    name, doc = case
    scenario = _loads_or_input_error(doc)
    if scenario is not None and scenario.turns <= 16:
        Battle(scenario, 1).run()        # a scenario that loads must also run


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(key=st.lists(st.sampled_from(KEYS + ["0", "1", "99", "-1", ""]), min_size=1, max_size=4),
       value=st.sampled_from(["1", "-1", ".nan", "1e300", "true", "[1,", "{a: 1}", "x", "", "null",
                              "!!python/name:os.system", "&a [*a]", "[[1]]"]))
def test_random_overrides(key, value):
    """``--set KEY=VALUE`` with random key paths and values: applied or InputError."""
    scenario = BASE_SCENARIO
    try:
        k, v = parse_assignment(".".join(key) + "=" + value)
        apply_overrides(scenario, {k: v})
    except InputError as err:
        assert "\n" not in str(err)


BASE_SCENARIO = load_scenario(SCENARIOS / "open_ground_advance.yaml")
