"""Hostile input (issue 7, item 1): every command, every scenario key, every kind of
bad file gives exit 2 and one line on stderr naming the file, the place (line or key
path) and what was expected. Never a traceback, never a hang, never an object built
from a YAML tag, never memory blown by aliases.

tests/test_cli.py and tests/test_scenario_load.py hold the first, hand-picked cases;
this file adds the hostile ones and sweeps every key of every shipped scenario.
"""
from __future__ import annotations

import copy
import re
import subprocess
import sys

import pytest
import yaml

from conftest import ROOT, SCENARIOS, err_line
from sim.cli import main
from sim.scenario.schema import MAX_TURNS, MAX_UNITS
from sim.scenario.yamlfile import MAX_BYTES, MAX_DEPTH, MAX_NODES
from sim.space import checks

SCENARIO_FILES = ["open_ground_advance", "march_column", "village_sniper", "crossing_sniper",
                  "stalingrad_bookstore"]
STUDY = str(SCENARIOS / "march_halt.yaml")
OPEN = (SCENARIOS / "open_ground_advance.yaml").read_text()
VILLAGE = (SCENARIOS / "village_sniper.yaml").read_text()
CROSSING = (SCENARIOS / "crossing_sniper.yaml").read_text()
BOOKSTORE = (SCENARIOS / "stalingrad_bookstore.yaml").read_text()
PLACE = re.compile(r"line \d+|key [\w.\-]+|terrain[\w.\[\]\-]*|forces\.|rules\.|command line|--set")


def bad_file(tmp_path, capsys, content, *parts, name="bad.yaml", commands=("validate", "run")):
    """``content`` (str or bytes) in a file: every command refuses it the same way."""
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    for command in commands:
        line = err_line(capsys, [command, path])
        assert str(path) in line, line
        for part in parts:
            assert part in line, (part, line)
    return line


def sub(text, old, new):
    assert old in text, old
    return text.replace(old, new, 1)


# -- malformed YAML and odd files -------------------------------------------------------------
MALFORMED = {
    "unclosed_flow": ("name: x\nsides: [a, b\nturns: 3\n", ["malformed YAML", "line "]),
    "bad_indent": ("name: x\n  turns: 3\n sides: [a]\n", ["malformed YAML", "line 2"]),
    "tab_indent": ("name: x\nterrain:\n\tkind: hex\n", ["malformed YAML", "line 3"]),
    "unterminated_string": ('name: "x\nturns: 3\n', ["malformed YAML", "line "]),
    "two_documents": ("name: x\n---\nname: y\n", ["malformed YAML", "line 2"]),
    "undefined_alias": ("name: *nowhere\n", ["malformed YAML", "undefined alias"]),
    "nul_byte": ("name: a\x00b\n", ["malformed YAML", "not allowed"]),
    "unhashable_key": ("? [a, b]\n: 1\n", ["malformed YAML", "line 1"]),
    "empty": ("", ["expected a mapping", "line 1"]),
    "only_comment": ("# nothing here\n", ["expected a mapping"]),
    "top_list": ("- name: x\n", ["expected a mapping", "list"]),
    "top_scalar": ("42\n", ["expected a mapping", "int"]),
    "duplicate_key": (sub(OPEN, "turns: 16", "turns: 16\nturns: 3"),
                      ["line 11", "'turns' appears twice"]),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_yaml(tmp_path, capsys, case):
    text, parts = MALFORMED[case]
    bad_file(tmp_path, capsys, text, *parts)


def test_not_utf8(tmp_path, capsys):
    bad_file(tmp_path, capsys, b"name: caf\xe9\n", "not UTF-8", "offset 9")
    bad_file(tmp_path, capsys, "name: x\n".encode("utf-16"), "not UTF-8")


def test_utf8_bom_and_crlf_are_fine(tmp_path, capsys):
    path = tmp_path / "ok.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + OPEN.replace("\n", "\r\n").encode())
    assert main(["validate", str(path)]) == 0
    assert "valid scenario" in capsys.readouterr().out


def test_paths_that_are_not_files(tmp_path, capsys):
    for command in (["validate"], ["run"], ["study"]):
        line = err_line(capsys, command + [tmp_path / "missing.yaml"])
        assert "missing.yaml: no such file" in line
        line = err_line(capsys, command + [tmp_path])
        assert f"{tmp_path}: is a directory" in line
        line = err_line(capsys, command + [""])
        assert "'': empty path" in line
    # one bad file among good ones: the bad one is named
    line = err_line(capsys, ["validate", SCENARIOS / "march_column.yaml", tmp_path / "nope.yaml"])
    assert "nope.yaml: no such file" in line


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_unreadable_file(tmp_path, capsys):
    import os

    path = tmp_path / "locked.yaml"
    path.write_text(OPEN)
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("running as root: permissions are not enforced")
        line = err_line(capsys, ["validate", path])
        assert "locked.yaml: cannot read file" in line
    finally:
        path.chmod(0o644)


def test_non_utf8_path_name(tmp_path, capsys):
    name = (str(tmp_path).encode() + b"/caf\xe9.yaml").decode("utf-8", "surrogateescape")
    line = err_line(capsys, ["validate", name])
    assert "no such file" in line


# -- YAML that would build objects, or blow up ------------------------------------------------
@pytest.mark.parametrize("tag", [
    "!!python/object/apply:os.system ['touch {flag}']",
    "!!python/object/new:os.system ['touch {flag}']",
    "!!python/name:os.system",
    "!!python/object:subprocess.Popen {{args: ['touch', '{flag}']}}",
    "!!set {{a, b}}",
    "!!binary aGVsbG8=",
    "!!omap [{{a: 1}}]",
    "!custom 1",
])
def test_yaml_tags_never_construct_objects(tmp_path, capsys, tag):
    flag = tmp_path / "pwned"
    text = sub(OPEN, "name: open_ground_advance", "name: " + tag.format(flag=flag))
    bad_file(tmp_path, capsys, text, "line 7", "is not allowed", "expected plain mappings")
    # also as a --set value
    line = err_line(capsys, ["run", SCENARIOS / "open_ground_advance.yaml", "--set",
                             "name=" + tag.format(flag=flag)])
    assert "--set" in line and "is not allowed" in line
    assert not flag.exists()


def billion_laughs(levels: int = 9, width: int = 9) -> str:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def test_billion_laughs_is_refused_quickly(tmp_path, capsys):
    # the line named is the first entry whose expansion alone is over the limit
    bad_file(tmp_path, capsys, billion_laughs(), "line 6:", "refused YAML", "aliases are expanded",
             f"at most {MAX_NODES}")


def test_merge_key_bomb_is_refused(tmp_path, capsys):
    lines = ["m0: &m0 {a: 1, b: 2}"]
    for i in range(1, 12):
        lines.append(f"m{i}: &m{i} {{<<: [*m{i - 1}, *m{i - 1}, *m{i - 1}, *m{i - 1}], k{i}: 1}}")
    bad_file(tmp_path, capsys, "\n".join(lines) + "\n", "refused YAML", "aliases are expanded")


def test_recursive_alias_is_refused(tmp_path, capsys):
    bad_file(tmp_path, capsys, "name: &a [*a]\n", "refused YAML", "recursive alias")


def test_billion_laughs_in_a_subprocess_ends_fast(tmp_path):
    """Through the real entry point, with a wall-clock bound: no hang, no memory blow-up."""
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(billion_laughs(10, 10))
    p = subprocess.run([sys.executable, "-m", "sim", "validate", str(bomb)],
                       capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and "aliases are expanded" in p.stderr


@pytest.mark.parametrize("text", [
    "a: " + "[" * 10_000 + "]" * 10_000 + "\n",
    "a: " + "{a: " * 2_000 + "1" + "}" * 2_000 + "\n",
    "".join("  " * i + f"k{i}:\n" for i in range(MAX_DEPTH + 5)) + "  " * (MAX_DEPTH + 5) + "x\n",
])
def test_deep_nesting_is_refused(tmp_path, capsys, text):
    bad_file(tmp_path, capsys, text, "refused YAML", f"nested more than {MAX_DEPTH} levels", "line ")


def test_huge_file_is_refused_by_size(tmp_path, capsys):
    path = tmp_path / "huge.yaml"
    with open(path, "wb") as fh:
        fh.write(b"name: x\n")
        fh.truncate(MAX_BYTES + 1)
    for command in ("validate", "run", "study"):
        line = err_line(capsys, [command, path])
        assert f"expected at most {MAX_BYTES}" in line and "huge.yaml" in line


def test_too_many_yaml_nodes_is_refused_while_parsing(tmp_path, capsys):
    text = "name: [" + ",".join(["0"] * (MAX_NODES + 10)) + "]\n"
    assert len(text) < MAX_BYTES
    bad_file(tmp_path, capsys, text, "refused YAML", f"more than {MAX_NODES} YAML nodes", "line 1",
             commands=("validate",))


# -- wrong types, absurd numbers ---------------------------------------------------------------
NUMBERS = {
    # key path, old text, new text, what the message says
    "move_1e300": ("forces.blue.0.move", "armour: 4, move: 15, orders", "armour: 4, move: 1e300, orders",
                   "less than or equal to 10000"),
    "move_negative": ("forces.blue.0.move", "armour: 4, move: 15, orders", "armour: 4, move: -15, orders",
                      "greater than 0"),
    "move_nan": ("forces.blue.0.move", "armour: 4, move: 15, orders", "armour: 4, move: .nan, orders",
                 "finite"),
    "move_minus_inf": ("forces.blue.0.move", "armour: 4, move: 15, orders", "armour: 4, move: -.inf, orders",
                       "finite"),
    "move_bool": ("forces.blue.0.move", "armour: 4, move: 15, orders", "armour: 4, move: true, orders",
                  "valid number"),
    "move_string": ("forces.blue.0.move", "armour: 4, move: 15, orders", "armour: 4, move: '15', orders",
                    "valid number"),
    "turns_1e9": ("turns", "turns: 16", "turns: 1000000000", f"less than or equal to {MAX_TURNS}"),
    "turns_bignum": ("turns", "turns: 16", "turns: " + "9" * 400, f"less than or equal to {MAX_TURNS}"),
    "turns_zero": ("turns", "turns: 16", "turns: 0", "greater than or equal to 1"),
    "turns_float": ("turns", "turns: 16", "turns: 2.5", "valid integer"),
    "turns_null": ("turns", "turns: 16", "turns: null", "valid integer"),
    "steps_negative": ("forces.blue.0.steps", "steps: 2, armour: 4, move: 15", "steps: -1, armour: 4, move: 15",
                       "greater than or equal to 1"),
    "steps_huge": ("forces.blue.0.steps", "steps: 2, armour: 4, move: 15", "steps: 1e9, armour: 4, move: 15",
                   "valid integer"),
    "armour_zero": ("forces.blue.0.armour", "steps: 2, armour: 4, move: 15", "steps: 2, armour: 0, move: 15",
                    "greater than or equal to 1"),
    "radius_zero": ("rules.snapfire.radius", "snapfire: {radius: 10,", "snapfire: {radius: 0,",
                    "greater than 0"),
    "radius_inf": ("rules.snapfire.radius", "snapfire: {radius: 10,", "snapfire: {radius: .inf,", "finite"),
    "radius_list": ("rules.snapfire.radius", "snapfire: {radius: 10,", "snapfire: {radius: [10],",
                    "valid number"),
    "zoc_radius_absurd": ("rules.snapfire.zoc_radius", "zoc_radius: 5}", "zoc_radius: 1.0e300}",
                          "less than or equal to 1000"),
    "reaction_unknown": ("rules.snapfire.reaction", "reaction: snap_fire", "reaction: ambush",
                         "unknown reaction kind 'ambush' (expected one of ['snap_fire', 'zoc']"),
    "phase_length_zero": ("rules.base.phase_length", "base: {shoot_range: 20,",
                          "base: {phase_length: 0, shoot_range: 20,", "greater than 0"),
    "shoot_range_negative": ("rules.base.shoot_range", "shoot_range: 20,", "shoot_range: -20,",
                             "greater than or equal to 0"),
    "sides_one": ("sides", "sides: [blue, red]", "sides: [blue]", "at least 2"),
    "sides_same": ("sides", "sides: [blue, red]", "sides: [blue, blue]", "different names"),
    "sides_string": ("sides", "sides: [blue, red]", "sides: blue", "valid list"),
    "name_empty": ("name", "name: open_ground_advance", "name: ''", "at least 1 character"),
    "name_mapping": ("name", "name: open_ground_advance", "name: {a: 1}", "valid string"),
    "unit_id_bad_chars": ("forces.blue.0.id", "id: b1,", "id: 'b 1; rm -rf',", "should match pattern"),
    "orders_type_unknown": ("forces.blue.0.orders.type", "type: advance, to: OBJ, charge: true}}",
                            "type: teleport, to: OBJ, charge: true}}", "'hold', 'advance', 'march' or 'charge'"),
    "advance_without_to": ("forces.blue.0.orders", "type: advance, to: OBJ, charge: true}}",
                           "type: advance, charge: true}}", "need a destination"),
    "flags_unknown": ("forces.blue.0.flags", "id: b1, at: \"0,1\",", "id: b1, at: \"0,1\", flags: [invisible],",
                      "'pinned', 'no_snap_fire' or 'hidden'"),
}


@pytest.mark.parametrize("case", sorted(NUMBERS))
def test_wrong_types_and_absurd_numbers(tmp_path, capsys, case):
    path_, old, new, expected = NUMBERS[case]
    line = bad_file(tmp_path, capsys, sub(OPEN, old, new), expected)
    assert f"key {path_}" in line and re.search(r"line \d+", line), line


TERRAIN = {
    "hex_too_big": (VILLAGE, "  rows:\n", "  width: 1000\n  height: 1000\n  xrows:\n",
                    ["terrain", f"at most {checks.MAX_NODES} hexes", "1000 x 1000"]),
    "hex_rows_too_big": (VILLAGE, '    - "...................."\n', '    - "' + "." * 300 + '"\n' * 1,
                         ["terrain.rows[1]", "expected 300 letters"]),
    "hex_zero_width": (VILLAGE, "  rows:\n", "  width: 0\n  height: 3\n  xrows:\n",
                       ["terrain.width", ">= 1"]),
    "hex_cover_absurd": (VILLAGE, "  kind: hex\n", "  kind: hex\n  types: {W: {cover: 1e300}}\n",
                         ["terrain.types.W.cover", f"<= {checks.MAX_COVER}"]),
    "hex_cost_negative": (VILLAGE, "  kind: hex\n", "  kind: hex\n  types: {W: {cost: -2}}\n",
                          ["terrain.types.W.cost", "> 0"]),
    "hex_letter_unknown": (VILLAGE, '    - "....W.......H..W...."', '    - "....W.......H..Q...."',
                           ["terrain.rows[1]", "unknown terrain letter 'Q'"]),
    "grid_too_fine": (OPEN, "grid: {spacing: 10}", "grid: {spacing: 0.001}",
                      ["terrain.grid.spacing", f"at most {checks.MAX_NODES} places"]),
    "grid_denormal": (OPEN, "grid: {spacing: 10}", "grid: {spacing: 1e-320}",
                      ["terrain.grid.spacing", f"at most {checks.MAX_NODES} places"]),
    "grid_zero": (OPEN, "grid: {spacing: 10}", "grid: {spacing: 0}", ["terrain.grid.spacing", "> 0"]),
    "table_too_wide": (OPEN, "width: 120", "width: 1e300", ["terrain.width", "<= 1e+06"]),
    "table_nan_height": (OPEN, "height: 80", "height: .nan", ["terrain.height", "expected a number"]),
    "waypoint_off_table": (OPEN, "OBJ: [115, 40]", "OBJ: [115, 400]", ["terrain.waypoints.OBJ", "on the 120 x 80"]),
    "waypoint_not_point": (OPEN, "OBJ: [115, 40]", "OBJ: [115]", ["terrain.waypoints.OBJ", "point [x, y]"]),
    "polygon_self_crossing": (OPEN, "[[50, 58], [66, 58], [66, 72], [50, 72]]",
                              "[[50, 58], [66, 72], [66, 58], [50, 72]]",
                              ["terrain.areas[0].polygon", "simple polygon"]),
    "polygon_two_points": (OPEN, "[[50, 58], [66, 58], [66, 72], [50, 72]]", "[[50, 58], [66, 58]]",
                           ["terrain.areas[0].polygon", "at least 3"]),
    "kind_unknown": (OPEN, "kind: table", "kind: sphere", ["terrain.kind", "'hex' or 'table'"]),
    "terrain_list": (OPEN, "terrain:\n  kind: table", "terrain: [1, 2]\nxterrain:\n  kind: table",
                     ["key terrain", "valid dictionary"]),
}


@pytest.mark.parametrize("case", sorted(TERRAIN))
def test_terrain_input_and_limits(tmp_path, capsys, case):
    base, old, new, parts = TERRAIN[case]
    text = sub(base, old, new)
    if case in ("hex_too_big", "hex_zero_width"):
        text = re.sub(r"  xrows:\n(    - .*\n)+", "", text)
    bad_file(tmp_path, capsys, text, *parts)


REFERENCES = {
    "unit_at_missing_node": (OPEN, "id: r1, at: R1", "id: r1, at: NOWHERE", ["key forces.red.0.at", "not on the map"]),
    "orders_to_missing_node": (OPEN, "to: OBJ, charge: true}}", "to: NOWHERE, charge: true}}",
                               ["key forces.blue.0.orders.to", "'NOWHERE' is not on the map"]),
    "objective_missing_node": (OPEN, "objective: OBJ", "objective: NOWHERE",
                               ["key victory.objective", "not on the map"]),
    "attacker_unknown_side": (OPEN, "attacker: blue", "attacker: green",
                              ["key victory.attacker: victory.attacker 'green'"]),
    "forces_side_unknown": (OPEN, "  red:\n", "  green:\n", ["key forces: forces must have exactly the sides"]),
    "duplicate_unit_id": (OPEN, "id: b2,", "id: b1,", ["unique", "b1"]),
    "empty_force": (OPEN, "  red:\n    - {id: r1, at: R1, steps: 2, armour: 4}\n"
                          "    - {id: r2, at: R2, steps: 2, armour: 4}\n"
                          "    - {id: r3, at: R3, steps: 2, armour: 4}\n", "  red: []\n",
                    ["key forces.red: force 'red' is empty"]),
    "no_forces": (OPEN, "forces:\n", "forces: {}\nxforces:\n", ["unknown key"]),
    "sniper_candidate_missing": (CROSSING, "candidates: [HIDE_RUIN,", "candidates: [NOPE,",
                                 ["sniper_team.candidates.0", "'NOPE' is not on the map"]),
    "two_h17_snipers": (VILLAGE, '    - {id: sniper, kind: sniper, at: "17,4", sniper_team: {start: off_board}}',
                        '    - {id: sniper, kind: sniper, at: "17,4"}\n    - {id: sniper2, kind: sniper, at: "16,4"}',
                        ["forces.red", "two snipers"]),
    "h17_sniper_in_reserve": (VILLAGE, "sniper_team: {start: off_board}", "sniper_team: {start: reserve}",
                              ["forces.red", "starts off_board"]),
    "unused_knob_section": (OPEN, "rules:\n", "rules:\n  fow: {}\n", ["key rules", "does not use it"]),
    "too_knob_nan_band": (BOOKSTORE, "opp_range: 80", "opp_range: 80\n    range_bands: [[a, .nan, 2], [b, null, 3]]",
                          ["key rules.too.range_bands", "finite"]),
    "too_knob_band_base": (BOOKSTORE, "opp_range: 80", "opp_range: 80\n    range_bands: [[a, 5, 200], [b, null, 3]]",
                           ["key rules.too.range_bands", "1..11"]),
    "too_knob_absurd_mod": (BOOKSTORE, "opp_range: 80",
                            "opp_range: 80\n"
                            "    acq_cover_mods: {open: 1000000, soft: 0, medium: 0, hard: 1, enclosed: 2}",
                            ["key rules.too.acq_cover_mods", "-12..12"]),
    "too_level_unknown": (BOOKSTORE, "level: seasoned, at: G_SNIPER", "level: godlike, at: G_SNIPER",
                          ["key forces.german.0.level"]),
}


@pytest.mark.parametrize("case", sorted(REFERENCES))
def test_references_and_setup(tmp_path, capsys, case):
    base, old, new, parts = REFERENCES[case]
    bad_file(tmp_path, capsys, sub(base, old, new), *parts)


def test_disconnected_maps(tmp_path, capsys):
    # a table whose destination has no route; a hex map cut in two by impassable hexes
    march = (SCENARIOS / "march_column.yaml").read_text()
    bad_file(tmp_path, capsys, sub(march, "[W2, W3], ", ""), "key forces.blue.0.orders.to", "cannot reach")
    cut = sub(VILLAGE, "  rows:\n", "  types: {Z: {passable: false}}\n  rows:\n")
    cut = re.sub(r'(    - "[^"]{5})[^"]', r"\1Z", cut)   # a wall of impassable Z at column 5
    bad_file(tmp_path, capsys, cut, "cannot reach", "expected a destination connected to its start")


def test_too_many_units_and_turns(tmp_path, capsys):
    units = "\n".join(f"    - {{id: b{i}, at: \"0,1\"}}" for i in range(MAX_UNITS))
    text = sub(OPEN, '    - {id: b1, at: "0,1"', units + '\n    - {id: b_last, at: "0,1"')
    bad_file(tmp_path, capsys, text, f"expected at most {MAX_UNITS}", commands=("validate",))
    bad_file(tmp_path, capsys, sub(OPEN, "turns: 16", f"turns: {MAX_TURNS + 1}"), "key turns")


# -- unknown keys and wrong types at every nesting level of every shipped scenario ---------------
def _paths(node, path=()):
    """Key paths of every mapping and every leaf (lists cut to their first two items)."""
    if isinstance(node, dict):
        yield "map", path
        for k, v in node.items():
            yield from _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node[:2]):
            yield from _paths(v, path + (i,))
    else:
        yield "leaf", path


def _set(doc, path, value):
    node = doc
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value


def _sweep_cases():
    cases = []
    for name in SCENARIO_FILES:
        data = yaml.safe_load((SCENARIOS / f"{name}.yaml").read_text())
        for kind, path in _paths(data):
            if kind == "map":
                cases.append((name, "unknown_key", path))
            else:
                cases.append((name, "wrong_type", path))
                leaf = data
                for p in path:
                    leaf = leaf[p]
                if isinstance(leaf, (int, float)) and not isinstance(leaf, bool):
                    cases.append((name, "nan", path))
                    cases.append((name, "absurd", path))
    return cases


SWEEP = _sweep_cases()


def _dotted(path):
    return ".".join(str(p) for p in path)


@pytest.mark.parametrize("name, kind, path", SWEEP, ids=[f"{n}:{k}:{_dotted(p)}" for n, k, p in SWEEP])
def test_every_key_of_every_shipped_scenario(tmp_path, capsys, name, kind, path):
    data = yaml.safe_load((SCENARIOS / f"{name}.yaml").read_text())
    doc = copy.deepcopy(data)
    if kind == "unknown_key":
        node = doc
        for p in path:
            node = node[p]
        node["zz_unknown"] = 1
    else:
        _set(doc, path, {"wrong_type": [[1]], "nan": float("nan"), "absurd": 1e300}[kind])
    file = tmp_path / f"{name}.yaml"
    file.write_text(yaml.safe_dump(doc, sort_keys=False))
    line = err_line(capsys, ["validate", file])
    assert str(file) in line and PLACE.search(line), line
    if kind == "unknown_key":
        assert "zz_unknown" in line, line


# -- the command line itself -------------------------------------------------------------------
@pytest.mark.parametrize("argv, parts", [
    (["run"], ["required", "sim run --help"]),
    (["validate"], ["required", "sim validate --help"]),
    (["rules", "extra"], ["unrecognized arguments: extra", "'sim --help'"]),
    (["rules", "--bogus"], ["unrecognized arguments"]),
    (["nonsense"], ["invalid choice"]),
    ([], ["required"]),
    (["run", "{OPEN}", "--seed"], ["expected one argument"]),
    (["run", "{OPEN}", "--seed", "1e3"], ["--seed '1e3' is not an integer"]),
    (["run", "{OPEN}", "--seed", "-5"], ["out of range"]),
    (["run", "{OPEN}", "--log", "{TMP}"], ["--log", "is a directory"]),
    (["run", "{OPEN}", "--set", "turns=true"], ["--set", "key turns", "valid integer"]),
    (["run", "{OPEN}", "--set", "turns=1000000000"], ["--set", "key turns", "less than or equal"]),
    (["run", "{OPEN}", "--set", "turns=1e9"], ["--set", "key turns", "valid integer"]),
    (["run", "{OPEN}", "--set", "forces.blue.0.move=.nan"], ["--set", "forces.blue.0.move", "finite"]),
    (["run", "{OPEN}", "--set", "forces.blue.99.move=3"], ["--set", "no list item '99'"]),
    (["run", "{OPEN}", "--set", "forces.blue.0.at=NOWHERE"], ["--set", "not on the map"]),
    (["run", "{OPEN}", "--set", "terrain.grid.spacing=0.0001"], ["--set", "at most"]),
    (["run", "{OPEN}", "--set", "turns=[1,"], ["--set", "malformed YAML"]),
    (["run", "{OPEN}", "--set", "rules.snapfire.nope=1"], ["--set", "unknown key"]),
    (["run", "{OPEN}", "--set", "a..b=1"], ["--set", "not a key path"]),
    (["study", "{STUDY}", "--replications", "0"], ["--replications", "from 1 to 1000000"]),
    (["study", "{STUDY}", "--replications", "10000000000"], ["--replications", "from 1 to 1000000"]),
    (["study", "{STUDY}", "--workers", "1000"], ["--workers", "from 1 to 256"]),
    (["study", "{STUDY}", "--replications", "many"], ["--replications", "whole number"]),
    (["study", "{STUDY}", "--workers", "-2"], ["--workers"]),
    (["study", "{STUDY}", "--executor", "mpi"], ["--executor", "invalid choice"]),
    (["study", "{STUDY}", "--resume"], ["--resume needs --db"]),
    (["study", "{OPEN}"], ["open_ground_advance.yaml", "key study"]),
    (["study"], ["required"]),
    (["demo", "--bogus"], ["unrecognized arguments"]),
    (["demo", "extra"], ["unrecognized arguments"]),
])
def test_command_line_arguments(tmp_path, capsys, argv, parts):
    argv = [a.format(OPEN=SCENARIOS / "open_ground_advance.yaml", STUDY=STUDY, TMP=tmp_path)
            for a in argv]
    line = err_line(capsys, argv)
    for part in parts:
        assert part in line, (part, line)


def test_subprocess_hostile_file_has_one_line_and_no_traceback(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"name: !!python/object/apply:os.system ['echo PWNED']\nturns: \xff\n")
    for command in ("run", "validate", "study"):
        p = subprocess.run([sys.executable, "-m", "sim", command, str(bad)], capture_output=True,
                           text=True, cwd=ROOT, timeout=60)
        assert p.returncode == 2 and p.stdout == "", (command, p.stdout, p.stderr)
        assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr
        assert "bad.yaml" in p.stderr and "PWNED" not in p.stdout


def test_yaml_12_floats_and_dates_as_text(tmp_path, capsys):
    """`1e1` is a number (YAML 1.1 would read a string); a date-like name stays text."""
    text = sub(OPEN, "snapfire: {radius: 10,", "snapfire: {radius: 1e1,")
    text = sub(text, "name: open_ground_advance", "name: 2024-06-01")
    path = tmp_path / "ok.yaml"
    path.write_text(text)
    assert main(["run", str(path), "--json"]) == 0
    assert '"scenario": "2024-06-01"' in capsys.readouterr().out
