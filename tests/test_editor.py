"""The scenario editor (``sim.viz.editor``), driven from Python as its front end drives it:
the document it is sent is checked as ``sim validate`` checks the saved file (the same
line, naming the key), what it saves loads back to the same scenario (a drawing, and every
shipped scenario opened and saved), a file already there (the one it opened above all) is
never replaced without ``overwrite``, what the rules offer comes from the registry, and
its run button gives what ``sim.run`` and ``sim.run_study`` give."""
from __future__ import annotations

import copy
import io
from contextlib import redirect_stderr
from pathlib import Path

import pytest

import sim

pytest.importorskip("anywidget")
from sim.scenario.load import canonical  # noqa: E402 - after the skip
from sim.systems.registry import REGISTRY, system_names  # noqa: E402
from sim.viz import Editor, editor  # noqa: E402
from sim.viz.editing.document import tidy, yaml_text  # noqa: E402
from sim.viz.editing.widget import _on_message  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted([*(ROOT / "scenarios").glob("*.yaml"), *(ROOT / "examples" / "plugins").glob("*/scenarios/*.yaml")])
SCENARIOS = [p for p in SHIPPED if "study:" not in p.read_text(encoding="utf-8")]


def drawn() -> dict:
    """A document as the front end makes it: an area drawn, waypoints, a unit a side, knobs set."""
    doc = editor().document
    doc["terrain"]["areas"].append({"name": "area1", "terrain": "woods", "cover": 2,
                                    "polygon": [[40.0, 20.0], [70.0, 20.0], [70.0, 50.0], [40.0, 50.0]]})
    doc["terrain"]["waypoints"] = {"W1": [110.0, 40.0], "P1": [12.5, 33.0]}
    doc["forces"]["blue"].append({"id": "b1", "at": "P1", "orders": {"type": "advance", "to": "W1"}})
    doc["forces"]["red"].append({"id": "r1", "at": "6,4", "armour": 5})
    doc["victory"]["objective"] = "W1"
    doc["rules"] = {"snapfire": {"radius": 12.5, "reaction": "zoc"}, "base": {}}
    return doc


def test_a_drawing_saved_loads_back_as_the_scenario_the_editor_checked(tmp_path):
    ed = Editor(drawn())
    assert ed.error == "" and ed.error_key == ""
    loaded = ed.save(str(tmp_path / "drawn.yaml"))
    assert canonical(sim.load_scenario(tmp_path / "drawn.yaml")) == canonical(loaded) == canonical(ed.scenario())
    assert canonical(loaded) == canonical(sim.scenario_from_dict(tidy(drawn())))
    assert loaded.terrain["areas"][0]["polygon"] == [[40, 20], [70, 20], [70, 50], [40, 50]]
    assert loaded.rules.snapfire.reaction == "zoc" and loaded.forces["blue"][0].orders.to == "W1"
    assert "rules:\n  snapfire:" in ed.yaml() and "base: {}" not in ed.yaml()   # an empty section left out
    assert ed.status == f"saved {tmp_path / 'drawn.yaml'}: valid scenario"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_a_shipped_scenario_opened_and_saved_is_the_same_scenario(path, tmp_path):
    ed = editor(str(path))
    assert ed.error == "" and ed.source == str(path)
    saved = ed.save(str(tmp_path / path.name))
    assert canonical(saved) == canonical(sim.load_scenario(path))


def test_the_error_is_the_line_sim_validate_prints_naming_the_key(tmp_path):
    from sim.cli import main

    ed = Editor(drawn(), path=str(tmp_path / "bad.yaml"))
    for key, value, named in [("turns", 0, "turns"), ("rules", {"snapfire": {"radius": -5}}, "rules.snapfire.radius"),
                              ("victory", {"attacker": "blue", "objective": "nowhere"}, "victory.objective")]:
        doc = copy.deepcopy(ed.document)
        doc[key] = value
        ed.document = doc
        (tmp_path / "bad.yaml").write_text(ed.yaml(), encoding="utf-8")
        said = io.StringIO()
        with redirect_stderr(said):
            assert main(["validate", str(tmp_path / "bad.yaml")]) == 2
        assert said.getvalue() == f"sim: error: {ed.error}\n"
        assert ed.error.startswith(f"{tmp_path / 'bad.yaml'}: line ") and f"key {named}:" in ed.error
        assert ed.error_key == named
        ed.document = drawn()
        assert ed.error == "" and ed.error_key == ""


def test_nothing_is_replaced_without_overwrite_least_of_all_the_file_it_opened(tmp_path):
    source = tmp_path / "mine.yaml"
    source.write_text((ROOT / "scenarios" / "open_ground_advance.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    before = source.read_bytes()
    ed = editor(source)
    with pytest.raises(sim.InputError, match="is the scenario the editor opened; an output never replaces an input"):
        ed.save(str(source))
    with pytest.raises(sim.InputError, match="is the scenario the editor opened"):
        ed.save(str(tmp_path / "." / "mine.yaml"))   # the same file, spelt another way
    other = tmp_path / "other.yaml"
    other.write_text("keep me", encoding="utf-8")
    with pytest.raises(sim.InputError, match="is a file already there"):
        ed.save(str(other))
    assert source.read_bytes() == before and other.read_text(encoding="utf-8") == "keep me"
    ed.save(str(other), overwrite=True)
    assert canonical(sim.load_scenario(other)) == canonical(sim.load_scenario(source))
    ed.overwrite = True
    doc = copy.deepcopy(ed.document)
    doc["turns"] = 9
    ed.document = doc
    assert ed.save(str(source)).turns == 9   # told to: the opened file is replaced


def test_a_scenario_that_does_not_check_is_not_saved_and_the_button_says_why(tmp_path):
    ed = editor()                      # no units yet
    ed.path = str(tmp_path / "new.yaml")
    _on_message(ed, {"do": "save"}, [])
    assert not (tmp_path / "new.yaml").exists()
    assert ed.status == f"{tmp_path / 'new.yaml'}: save: not saved: {ed.error}" and ed.answered == 1
    assert "force 'blue' is empty" in ed.error
    _on_message(ed, {"do": "run"}, [])
    assert ed.status == ed.error and ed.summary == {} and ed.answered == 2
    ed.path = ""
    ed.document = drawn()
    _on_message(ed, {"do": "save"}, [])
    assert ed.status == "path: expected a file to save to (the path box, or save(path))"


def test_the_rules_offered_are_the_registrys_own_and_follow_the_document():
    ed = editor()
    assert sorted(ed.catalogue["rulesets"]) == system_names()
    assert sorted(ed.catalogue["modules"]) == sorted(REGISTRY.modules.names())
    assert sorted(ed.catalogue["bases"]) == sorted(REGISTRY.bases.names())
    snapfire = {k["name"]: k for k in ed.rules["sections"]["snapfire"]}
    from sim.systems.snapfire.knobs import SnapFireKnobs

    assert list(snapfire) == list(SnapFireKnobs.model_fields)
    assert snapfire["reaction"]["type"] == "choice" and snapfire["reaction"]["choices"] == ["snap_fire", "zoc"]
    assert snapfire["radius"]["type"] == "number" and snapfire["radius"]["default"] == 10.0
    assert ed.rules["orders"] == ["hold", "advance", "march", "charge"]
    doc = drawn()
    del doc["ruleset"], doc["rules"]
    ed.document = {**doc, "base": "skirmish", "modules": ["snapfire", "minefield"]}
    assert list(ed.rules["sections"]) == ["base", "snapfire", "minefield"] and ed.error == ""
    ed.document = {**drawn(), "ruleset": "fow", "rules": {}}
    assert list(ed.rules["sections"]) == ["base", "fow"] and "sniper" in ed.rules["kinds"]
    assert "march" not in ed.rules["orders"]


def test_a_ruleset_registered_from_python_is_offered():
    ruleset = sim.plugin.Ruleset("editor_probe", "a ruleset registered in a notebook", "skirmish", ("snapfire",))
    sim.plugin.register(ruleset)
    try:
        ed = editor()
        assert ed.catalogue["rulesets"]["editor_probe"] == {"title": "a ruleset registered in a notebook",
                                                            "base": "skirmish", "modules": ["snapfire"]}
        ed.document = {**drawn(), "ruleset": "editor_probe"}
        assert ed.error == "" and list(ed.rules["sections"]) == ["base", "snapfire"]
    finally:
        sim.plugin.unregister(sim.plugin.Ruleset, "editor_probe")


def test_the_run_button_gives_what_sim_run_and_sim_run_study_give():
    ed = Editor(drawn(), seed=4)
    battle = sim.run(sim.scenario_from_dict(tidy(drawn())), seed=4)
    summary = ed.run()
    assert summary == ed.summary and summary["kind"] == "battle"
    assert (summary["winner"], summary["reason"]) == (battle.winner, battle.reason)
    assert summary["rows"] == [[k, float(v)] for k, v in sorted(battle.metrics.items())]
    ed.run_kind = "study"
    ed.replications = 5
    _on_message(ed, {"do": "run"}, [])
    study = sim.run_study(sim.study_from_dict({"study": "x", "seed": 4, "replications": 5, "variants": {"drawn": {}}},
                                              scenario=ed.scenario()))
    means = {m: e.mean for m, e in study.summary.cells["drawn"].items()}
    assert ed.summary["kind"] == "study" and ed.status == "ran 5 battles, seed 4"
    assert {name: mean for name, mean, _, _ in ed.summary["rows"]} == pytest.approx(means)


def test_hexes_painted_and_units_placed_on_a_hex_map_load_back(tmp_path):
    ed = editor(ground="hex")
    doc = ed.document
    doc["terrain"]["special"] = {"3,2": "W", "4,2": "W", "2,4": "B"}
    doc["forces"]["blue"].append({"id": "b1", "at": "0,0", "orders": {"type": "advance", "to": "6,5"}})
    doc["forces"]["red"].append({"id": "r1", "at": "3,2"})
    ed.document = {**doc, "victory": {"attacker": "blue", "objective": "6,5"}}
    assert ed.error == ""
    saved = ed.save(str(tmp_path / "hexes.yaml"))
    assert saved.map.has_node("3,2") and saved.terrain["special"]["3,2"] == "W"
    assert sim.run(saved, seed=1).log


@pytest.mark.parametrize(("call", "place"), [
    (lambda: editor(5), "scenario"),
    (lambda: editor(ground="moon"), "ground"),
    (lambda: editor(str(ROOT / "scenarios" / "village_sniper.yaml"), ground="table"), "ground"),
    (lambda: Editor(colour="red"), "colour"),
    (lambda: Editor(drawn(), seed=-1), "seed"),
    (lambda: Editor(drawn(), run_kind="campaign"), "run_kind"),
    (lambda: Editor({**drawn(), "terrain": {"kind": "globe"}}), "key terrain.kind"),
])
def test_bad_arguments_are_one_line_naming_them(call, place):
    with pytest.raises(sim.InputError) as err:
        call()
    assert err.value.place == place and "\n" not in str(err.value)


def test_the_front_end_sets_the_drawing_never_what_the_editor_answers():
    ed = Editor(drawn())
    for derived in ("error", "status", "summary", "catalogue"):
        with pytest.raises(sim.InputError, match="is the editor's to set"):
            ed.set_state({derived: "x"})
    ed.set_state({"document": {**drawn(), "turns": 0}})
    assert ed.error_key == "turns"
    assert yaml_text(ed.document).startswith("name: drawn\n")
