"""The reference cannot go stale: the generated parts of docs/scenario.md and docs/study.md
and the committed JSON Schemas are what the code gives now, and the schema accepts what
the loader accepts (and refuses what it refuses)."""
from __future__ import annotations

import copy
import json

import jsonschema
import pytest
import yaml

from conftest import ROOT, SCENARIOS
from sim.cli import main
from sim.cli.parser import build_parser
from sim.errors import InputError
from sim.reference.docs import stale, undocumented_keys
from sim.reference.jsonschema import scenario_schema, study_schema
from sim.scenario.load import scenario_from_dict

DOCS = ROOT / "docs"
SHIPPED = sorted(SCENARIOS.glob("*.yaml"))


def test_generated_reference_matches_the_code():
    # After changing a model, a knob or a rule system: sim schema --docs docs
    assert stale(DOCS, build_parser()) == []


def test_every_key_is_described():
    # every key of every model in the reference has its meaning (a description, or its
    # bullet in the class's docstring)
    assert undocumented_keys() == []


def test_reference_documents_every_knob_of_every_built_in_system():
    text = (DOCS / "scenario.md").read_text(encoding="utf-8")
    from sim.systems.registry import builtin_rulesets, get_system

    for name in builtin_rulesets():
        system = get_system(name)
        assert f"| `{name}` | `{system.base.name}` |" in text   # the rulesets' table
        for part in system.parts:
            kind = "Base game" if part is system.base else "Rule module"
            assert f"### {kind} `{part.name}`" in text
            for model in (part.knobs, part.unit_keys, getattr(part, "base_knobs", None), part.policy_keys):
                for key in (model.model_fields if model is not None else ()):
                    assert f"| `{key}` |" in text, (name, key)
    # every shipped scenario is embedded under the rules it names
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        data = _doc(path)
        if "study" in data:
            continue
        rules = (f"`base: {data['base']}`, `modules: [{', '.join(data.get('modules', []))}]`" if "base" in data
                 else f"`ruleset: {data.get('ruleset', 'snapfire')}`")
        assert f"#### A complete {rules} scenario: `scenarios/{path.name}`" in text, path.name
    for key in ("sniper_team", "platoon", "hunt", "level", "sniper", "medic", "prone", "alert", "facing"):
        assert f"| `{key}` |" in text
    for key in ("plan", "via", "route", "when", "from_turn", "arrived", "fired_on", "enemy_within",
                "in_phase", "loop", "until", "units", "formation", "on_fired", "on_halted", "target",
                "kinds", "take_reaction", "withdraw", "relocate"):
        assert f"| `{key}` |" in text, key
    for name in ("shortest", "covered", "carry_on", "go_to_ground", "fall_back", "seek_cover",
                 "nearest", "weakest", "most_dangerous", "priority", "threshold"):
        assert f"| `{name}` |" in text, name


@pytest.fixture(scope="module")
def validators():
    # Draft 7: the dialect yaml-language-server supports.
    schemas = scenario_schema(), study_schema()
    for schema in schemas:
        jsonschema.Draft7Validator.check_schema(schema)
        assert "$defs" not in json.dumps(schema) and "prefixItems" not in json.dumps(schema)
    return tuple(jsonschema.Draft7Validator(s) for s in schemas)


def _doc(path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_files_pass_the_schema_and_point_an_editor_at_it(path, validators):
    scenario, study = validators
    data = _doc(path)
    kind = "study" if "study" in data else "scenario"
    errors = list((study if kind == "study" else scenario).iter_errors(data))
    assert errors == []
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first == f"# yaml-language-server: $schema=../docs/{kind}.schema.json"


def test_committed_schemas_are_the_generated_ones():
    assert json.loads((DOCS / "study.schema.json").read_text()) == study_schema()
    assert json.loads((DOCS / "scenario.schema.json").read_text()) == scenario_schema(builtin_only=True)


def _break(data, path, value):
    out = copy.deepcopy(data)
    *head, last = path
    node = out
    for key in head:
        node = node[key]
    if value is KeyError:
        del node[last]
    else:
        node[last] = value
    return out


BROKEN = {
    "unknown top key": ("village_sniper", ("colour",), "red"),
    "unknown knob": ("village_sniper", ("rules", "h17", "placment"), "random"),
    "another system's knob": ("village_sniper", ("rules", "snapfire"), {"radius": 5}),
    "knob out of range": ("village_sniper", ("rules", "h17", "ap_range"), 300),
    "knob not a choice": ("village_sniper", ("rules", "h17", "withdraw_phase"), "sometimes"),
    "behaviour not registered": ("village_sniper", ("rules", "h17", "placement"), "anywhere"),
    "string for a number": ("crossing_sniper", ("turns",), "12"),
    "unit key of another system": ("open_ground_advance", ("forces", "blue", 0, "hunt"), True),
    "too figure level": ("stalingrad_bookstore", ("forces", "german", 0, "level"), "legendary"),
    "unknown terrain type": ("crossing_sniper", ("terrain", "areas", 0, "terrain"), "forest"),
    "unknown terrain key": ("village_sniper", ("terrain", "colour"), "green"),
    "area polygon too short": ("crossing_sniper", ("terrain", "areas", 0, "polygon"), [[1, 1], [2, 2]]),
    "missing victory": ("march_column", ("victory",), KeyError),
    "unknown ruleset": ("march_column", ("ruleset",), "chess"),
}


@pytest.mark.parametrize("case", BROKEN, ids=list(BROKEN))
def test_schema_and_loader_refuse_the_same_documents(case, validators):
    name, path, value = BROKEN[case]
    data = _break(_doc(SCENARIOS / f"{name}.yaml"), path, value)
    assert list(validators[0].iter_errors(data)), case
    with pytest.raises(InputError):
        scenario_from_dict(data, f"{name}.yaml")


def test_sim_schema_prints_both_schemas_with_installed_plugins(capsys):
    assert main(["schema"]) == 0
    scenario = json.loads(capsys.readouterr().out)
    rulesets = {d["properties"]["ruleset"]["const"] for k, d in scenario["definitions"].items()
                if k.startswith("Scenario_")}
    assert {"snapfire", "h17", "fow", "too"} <= rulesets
    assert main(["schema", "study"]) == 0
    study = json.loads(capsys.readouterr().out)
    assert study["properties"]["factors"] and "variants" in study["required"]


def test_sim_schema_check_names_a_stale_file(tmp_path, capsys):
    for name in ("scenario.md", "study.md", "extending.md", "reference/cli.md", "reference/events.md",
                 "reference/rules.md", "background/architecture.md"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text((DOCS / name).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path.parent / "scenarios").mkdir(exist_ok=True)
    assert main(["schema", "--docs", str(tmp_path), "--check"]) == 1
    out = capsys.readouterr().out
    assert "scenario.schema.json: out of date" in out
    assert main(["schema", "--docs", str(tmp_path)]) == 0
    assert main(["schema", "--docs", str(tmp_path), "--check"]) == 0


def test_a_docs_folder_with_no_scenarios_beside_it_is_refused_not_emptied(tmp_path, capsys):
    """Rewriting such a folder dropped every embedded example and said 'wrote'."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("scenario.md", "study.md"):
        (docs / name).write_text((DOCS / name).read_text(encoding="utf-8"), encoding="utf-8")
    before = (docs / "scenario.md").read_bytes()
    assert main(["schema", "--docs", str(docs)]) == 2
    assert (docs / "scenario.md").read_bytes() == before
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--docs: no scenarios folder beside it" in err[0]


def test_the_site_reference_pages_cover_every_option_event_and_rule():
    """The generated command line, event log and rule catalogue pages are complete: every
    option of every command, every event a built-in system may log and every record type
    declared for it (a halt's keys are the contract's), every rule ID sim rules lists."""
    from sim.cli.rules import rule_rows
    from sim.reference.site import cli_parts, events_parts, rules_parts
    from sim.systems.registry import REGISTRY, builtin_rulesets, events_of, get_system

    BUILTIN_SYSTEMS = builtin_rulesets()

    parser = build_parser()
    cli = cli_parts(parser)["commands"]
    for name, sub in parser._subparsers._group_actions[0].choices.items():
        assert f"## `sim {name}`" in cli
        for action in sub._actions:
            for option in action.option_strings:
                assert option == "-h" or option == "--help" or f"`{option}`" in cli, (name, option)
    rows = {line.split(" | ")[0].strip("| `"): line for line in events_parts()["event-names"].splitlines()
            if line.startswith("| `")}
    assert set().union(*(events_of(get_system(n)) for n in BUILTIN_SYSTEMS)) <= set(rows)
    records = events_parts()["event-records"]
    for n in BUILTIN_SYSTEMS:
        for event, types in REGISTRY.records.of(get_system(n)).items():
            assert all(f"`{t.kind.__name__}`" in rows[event] for t in types), (n, event)
            assert all(f"| `{event}` | `{t.kind.__module__}.{t.kind.__name__}` |" in records for t in types)
    (halt,) = [line for line in records.splitlines() if line.startswith("| `halt` |")]
    assert all(f"`{f}` (" in halt for f in ("firer", "firer_pos", "dist", "radius", "inside"))
    assert "`dist` (float)" in halt and "`firer_pos` (tuple[float, float])" in halt
    rules = rules_parts()["rules"]
    assert all(f"| `{r['id']}` |" in rules for r in rule_rows(list(BUILTIN_SYSTEMS)))
