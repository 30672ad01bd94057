"""Scenario loading (sim.scenario): safe YAML, a strict schema, map checks, and one
clear error naming file, place and expectation for every kind of bad input."""
from __future__ import annotations

import copy
import math
import pickle

import pytest

from conftest import SCENARIOS, build, scenario, table, unit
from sim.errors import InputError
from sim.scenario.load import apply_overrides, load_scenario, parse_assignment

OPEN = (SCENARIOS / "open_ground_advance.yaml").read_text()
MARCH = (SCENARIOS / "march_column.yaml").read_text()


def _sub(text, old, new):
    assert old in text, old
    return text.replace(old, new, 1)


def line_of(text, needle):
    """1-based line of the first occurrence of needle."""
    return f"line {text[:text.index(needle)].count(chr(10)) + 1},"


# name -> (file bytes, substrings the one-line message must contain)
BAD = {
    "malformed": (b"name: x\nturns: [1,\n  2\nsides: {a\n", ["line 4", "malformed YAML"]),
    "not_utf8": (b"name: \xff\xfe x\n", ["UTF-8"]),
    "not_mapping": (b"- 1\n- 2\n", ["mapping"]),
    "unknown_top_key": (_sub(OPEN, "turns: 16", "turns: 16\nturnz: 3").encode(),
                        [line_of(_sub(OPEN, "turns: 16", "turns: 16\nturnz: 3"), "turnz"), "key turnz", "unknown key",
                         "docs/scenario.md"]),
    "misspelt_knob": (_sub(OPEN, "snapfire: {radius: 10,", "snapfire: {radiuss: 10,").encode(),
                      ["key rules.snapfire.radiuss", "unknown key", line_of(OPEN, "snapfire: {radius")]),
    "negative_radius": (_sub(OPEN, "snapfire: {radius: 10,", "snapfire: {radius: -3,").encode(),
                        ["key rules.snapfire.radius", "greater than 0", line_of(OPEN, "snapfire: {radius")]),
    "nan_move": (_sub(OPEN, "armour: 4, move: 15, orders", "armour: 4, move: .nan, orders").encode(),
                 ["key forces.blue.0.move", "finite", line_of(OPEN, "id: b1")]),
    "inf_move": (_sub(OPEN, "armour: 4, move: 15, orders", "armour: 4, move: .inf, orders").encode(),
                 ["key forces.blue.0.move", "finite"]),
    "node_not_on_map": (_sub(OPEN, "id: r1, at: R1", "id: r1, at: NOWHERE").encode(),
                        ["key forces.red.0.at", "NOWHERE", "not on the map", line_of(OPEN, "id: r1")]),
    "unreachable_objective": (
        _sub(MARCH, "edges: [[S1, START], ", "edges: [").encode(),
        ["key forces.blue.1.orders.to", "cannot reach", line_of(MARCH, "id: c2")]),
    "unused_knob_section": (_sub(OPEN, "rules:\n", "rules:\n  h17: {}\n").encode(),
                            [line_of(OPEN, "rules:"), "key rules", "rules.h17", "does not use it"]),
    "bad_ruleset": (_sub(OPEN, "ruleset: snapfire", "ruleset: chess").encode(),
                    ["key ruleset", line_of(OPEN, "ruleset:")]),
    "missing_key": (_sub(OPEN, "victory:\n  attacker: blue\n  objective: OBJ\n", "").encode(),
                    ["key victory", "required"]),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_scenario_is_one_input_error_naming_file_and_place(tmp_path, case):
    data, parts = BAD[case]
    path = tmp_path / f"{case}.yaml"
    path.write_bytes(data)
    with pytest.raises(InputError) as info:
        load_scenario(path)
    msg = str(info.value)
    assert "\n" not in msg
    assert msg.startswith(str(path) + ":")
    for part in parts:
        assert part in msg, (part, msg)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        load_scenario(tmp_path / "nope.yaml")
    with pytest.raises(InputError, match="directory"):
        load_scenario(tmp_path)


def test_yaml_is_loaded_safely(tmp_path):
    """No Python objects from YAML tags: a !!python tag is an input error, not code."""
    path = tmp_path / "evil.yaml"
    path.write_text("name: !!python/object/apply:os.system ['echo hi']\n")
    with pytest.raises(InputError):
        load_scenario(path)


def test_shipped_scenarios_load():
    for name in ("open_ground_advance.yaml", "march_column.yaml"):
        sc = load_scenario(SCENARIOS / name)
        assert sc.ruleset == "snapfire" and sc.rules.snapfire.radius == 10


def test_defaults_are_filled():
    t = table({"A": (0, 0), "B": (10, 0)}, [("A", "B")])
    sc = build(scenario(t, [unit("m", "A")], [unit("r", "B")]))
    assert sc.rules.snapfire.reaction == "snap_fire" and sc.rules.snapfire.march_halt == "rest_of_phase"
    assert sc.rules.snapfire.zoc_radius == 5 and sc.rules.base.phase_length == 1
    (side, u), = [x for x in sc.units() if x[1].id == "m"]
    assert u.orders.type == "hold" and u.armour == 4 and u.steps == 1


def test_unreachable_destination_is_refused_at_load_not_a_hang():
    t = table({"A": (0, 0), "B": (10, 0), "C": (50, 50)}, [("A", "B")])
    with pytest.raises(InputError, match="cannot reach"):
        build(scenario(t, [unit("m", "A", orders={"type": "advance", "to": "C"})], [unit("r", "B")]))


def test_advance_without_destination_is_refused():
    t = table({"A": (0, 0), "B": (10, 0)}, [("A", "B")])
    with pytest.raises(InputError, match="orders"):
        build(scenario(t, [unit("m", "A", orders={"type": "advance"})], [unit("r", "B")]))


def test_overrides_are_validated_against_the_schema():
    sc = load_scenario(SCENARIOS / "open_ground_advance.yaml")
    new = apply_overrides(sc, {"rules.snapfire.radius": 12.5, "rules.snapfire.march_halt": "this_move"})
    assert new.rules.snapfire.radius == 12.5 and new.rules.snapfire.march_halt == "this_move"
    assert sc.rules.snapfire.radius == 10         # the original is unchanged
    for bad in ({"rules.snapfire.radiuss": 1}, {"rules.snapfire.radius": "abc"},
                {"rules.snapfire.radius": math.inf}, {"rules.snapfire.reaction": "ambush"},
                {"turns.x": 1}, {"rules.h17.anything": 1}):
        with pytest.raises(InputError):
            apply_overrides(sc, bad)


def test_parse_assignment():
    assert parse_assignment("rules.snapfire.radius=12") == ("rules.snapfire.radius", 12)
    assert parse_assignment("rules.snapfire.reaction=zoc") == ("rules.snapfire.reaction", "zoc")
    with pytest.raises(InputError, match="KEY=VALUE"):
        parse_assignment("rules.snapfire.radius")


def test_a_loaded_scenario_refuses_assignment_so_every_path_runs_the_same():
    # Issue 22, item 1: `s.turns = 2` held for sim.run(s) but not for overrides or studies,
    # which rebuild from the document (16 turns).
    import sim

    s = load_scenario(SCENARIOS / "open_ground_advance.yaml")
    for change in (lambda: setattr(s, "turns", 2),
                   lambda: setattr(s.rules.snapfire, "radius", 3),
                   lambda: setattr(s.forces[s.sides[0]][0], "steps", 3),
                   lambda: setattr(s.victory, "destroy", False),
                   lambda: delattr(s, "turns"),
                   lambda: s.model_copy(update={"turns": 2})):
        with pytest.raises(InputError, match="a scenario is immutable .*sim.apply_overrides"):
            change()
    blue = s.forces[s.sides[0]]
    for change in (lambda: blue.append(blue[0]), lambda: blue.pop(), lambda: blue.sort(),
                   lambda: blue.__setitem__(0, blue[-1]), lambda: s.sides.reverse(),
                   lambda: s.forces.pop(s.sides[1]), lambda: s.forces.update({}),
                   lambda: s.forces.__setitem__("green", blue),
                   lambda: s.terrain.__setitem__("kind", "hex") if isinstance(s.terrain, dict)
                   else s.forces.clear()):
        # In place too: an appended unit held in sim.run(s) and was lost to overrides.
        with pytest.raises(InputError, match="a scenario is immutable .*sim.apply_overrides"):
            change()
    assert len(s.forces) == 2 and len(blue) == len(load_scenario(
        SCENARIOS / "open_ground_advance.yaml").forces[s.sides[0]])
    clone = pickle.loads(pickle.dumps(s))   # as studies send it to workers
    assert clone.model_dump() == s.model_dump() and type(clone.forces[s.sides[0]]) is type(blue)
    assert copy.deepcopy(s).model_dump() == s.model_dump()
    with pytest.raises(InputError, match=r"\{'turns': 2\}"):
        s.turns = 2
    assert s.turns == 16 and s.rules.snapfire.radius != 3
    changed = sim.apply_overrides(s, {"turns": 2})
    study = sim.study_from_dict({"study": "t", "seed": 1, "replications": 1,
                                 "variants": {"a": {}}, "metrics": ["turns"]}, scenario=changed)
    run = sim.run_study(study)
    assert sim.run(changed, overrides={"rules.base.phase_length": 1.0}).metrics["turns"] <= 2
    assert run.rows()[(0, 0)]["turns"] <= 2


def test_overrides_with_a_key_inside_another_are_refused_and_never_write_into_the_callers():
    # Issue 22, item 7: key order decided the radius, and the caller's dict got it written in.
    import sim

    s = load_scenario(SCENARIOS / "open_ground_advance.yaml")
    section = {"reaction": "zoc"}
    with pytest.raises(InputError, match="sets rules.snapfire.radius and also rules.snapfire"):
        sim.run(s, overrides={"rules.snapfire": section, "rules.snapfire.radius": 5})
    assert section == {"reaction": "zoc"}
    changed = apply_overrides(s, {"rules.snapfire": section})
    section["radius"] = 3
    assert apply_overrides(changed, {"turns": 4}).rules.snapfire.radius == changed.rules.snapfire.radius != 3


def test_a_scenario_made_without_the_loader_takes_overrides_and_travels():
    """``model_validate`` of a scenario's dump ran in ``sim.run(m)`` but not with overrides
    ('required key is missing': it had no document), nor pickled to a worker."""
    import sim

    s = load_scenario(SCENARIOS / "open_ground_advance.yaml")
    m = type(s).model_validate(s.model_dump())
    assert sim.run(m, seed=3).log.records == sim.run(s, seed=3).log.records
    assert sim.run(m, seed=3, overrides={"turns": 4}).metrics == \
        sim.run(s, seed=3, overrides={"turns": 4}).metrics
    assert pickle.loads(pickle.dumps(m)).model_dump() == s.model_dump()
