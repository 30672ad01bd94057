"""Issue 13, items 1 and 5: scenario and study YAML is read by the YAML 1.2 core schema
(no YAML 1.1 octal, sexagesimal, `_` separators or yes/no booleans), integers too long
for Python's int-string limit are refused in one line, and `--set` key paths and repeats
are checked.
"""
from __future__ import annotations

import json

import pytest

from conftest import SCENARIOS, err_line
from sim.cli import main
from sim.scenario.yamlfile import MAX_DIGITS, parse_yaml

OPEN = SCENARIOS / "open_ground_advance.yaml"

# Each plain scalar and what the YAML 1.2 core schema makes of it (PyYAML's YAML 1.1
# reading in the comment, where it differs).
CORE = {
    "010": 10,            # 8 (octal)
    "0777": 777,          # 511
    "08": 8,
    "-007": -7,
    "+5": 5,
    "0o17": 15,           # the string '0o17'
    "0x1F": 31,
    "1:30": "1:30",       # 90 (base 60)
    "-1:30": "-1:30",     # -90
    "1:30:00": "1:30:00",  # 5400
    "190:20:30.15": "190:20:30.15",  # 685230.15
    "1_000": "1_000",     # 1000
    "1_0.5": "1_0.5",     # 10.5
    "0b11": "0b11",       # 3
    "+.5": 0.5,           # the string '+.5'
    "1e3": 1000.0,        # the string '1e3'
    ".inf": float("inf"),
    "yes": "yes",         # True
    "no": "no",           # False
    "on": "on",           # True
    "off": "off",         # False
    "y": "y",             # True (as a key) in some readers
    "TRUE": True,
    "false": False,
    "~": None,
    "null": None,
    "=": "=",             # a 'value' tag nothing can construct
    "2024-06-01": "2024-06-01",
}


@pytest.mark.parametrize("text", sorted(CORE))
def test_plain_scalars_follow_the_yaml_12_core_schema(text):
    data, _ = parse_yaml(f"a: {text}\n")
    value = data["a"]
    assert value == CORE[text] and type(value) is type(CORE[text]), (text, value)


def test_octal_looking_number_in_a_scenario_is_decimal(capsys):
    """`turns: 010` is ten turns, not eight (YAML 1.1's octal)."""
    assert main(["run", str(OPEN), "--set", "turns=010", "--json"]) == 0
    ten = json.loads(capsys.readouterr().out)["metrics"]["turns"]
    assert main(["run", str(OPEN), "--set", "turns=10", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["metrics"]["turns"] == ten
    assert main(["run", str(OPEN), "--set", "turns=8", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["metrics"]["turns"] != ten


def test_sexagesimal_and_yes_are_text_so_strict_fields_refuse_them(tmp_path, capsys):
    line = err_line(capsys, ["run", OPEN, "--set", "turns=1:30"])
    assert "--set" in line and "turns" in line and "'1:30'" in line
    line = err_line(capsys, ["run", OPEN, "--set", "terrain.areas.0.blocks_sight=yes"])
    assert "--set" in line and "'yes'" in line


HUGE = "1" * (MAX_DIGITS + 1)


@pytest.mark.parametrize("value", [HUGE, "-" + HUGE, "0x" + "f" * 3600, "0" * 10 + HUGE])
def test_an_integer_beyond_the_int_string_limit_is_one_line(tmp_path, capsys, value):
    line = err_line(capsys, ["run", OPEN, "--set", f"turns={value}"])
    assert line.startswith("sim: error: --set: line 1: refused YAML: a whole number of more "
                           f"than {MAX_DIGITS} digits")
    text = OPEN.read_text()
    path = tmp_path / "big.yaml"
    path.write_text(text.replace("turns: 16", f"turns: {value}", 1))
    for command in ("run", "validate"):
        line = err_line(capsys, [command, path])
        assert f"{path}: line 10: refused YAML: a whole number of more than" in line


def test_the_largest_allowed_integer_is_read_and_refused_by_the_schema(capsys):
    line = err_line(capsys, ["run", OPEN, "--set", "turns=" + "9" * MAX_DIGITS])
    assert "key turns" in line and "less than or equal to 200" in line


@pytest.mark.parametrize("index", ["²", "٣", "１", "0x1", "-1", "1" * 5000])
def test_set_list_index_must_be_ascii_digits(capsys, index):
    line = err_line(capsys, ["run", OPEN, "--set", f"forces.blue.{index}.move=5"])
    assert f"no list item '{index}'" in line and "the list has 6 items" in line
    line = err_line(capsys, ["run", OPEN, "--set", f"sides.{index}=x"])
    assert f"no list item '{index}'" in line


@pytest.mark.parametrize("sets, parts", [
    (["turns=3", "turns=4"], ["--set: turns: sets turns twice"]),
    (["turns=3", " turns =3"], ["sets turns twice"]),
    (["rules.snapfire.radius=5", "rules.snapfire={reaction: zoc}"],
     ["sets rules.snapfire and also rules.snapfire.radius"]),
    (["rules.snapfire={reaction: zoc}", "rules.snapfire.radius=5"],
     ["sets rules.snapfire.radius and also rules.snapfire"]),
])
def test_a_repeated_set_is_an_error(capsys, sets, parts):
    argv = ["run", OPEN]
    for s in sets:
        argv += ["--set", s]
    line = err_line(capsys, argv)
    for part in parts:
        assert part in line, line


def test_distinct_sets_sharing_a_prefix_are_fine(capsys):
    assert main(["run", str(OPEN), "--set", "rules.snapfire.radius=5",
                 "--set", "rules.snapfire.reaction=zoc", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["metrics"]["sf_halts"] == 0
