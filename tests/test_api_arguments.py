"""Issue 22, item 8: the Python API is as strict as the command line.

Every public function of ``sim`` (and ``sim.viz``) that takes arguments, and the plug-in
door of ``sim.plugin`` (``register``, ``define_rules``, ``implements``, the movement
functions), is called with bad ones; each call raises ``sim.InputError`` whose place is
the argument's name: no bool taken for a number, no float for a seed, no NaN, no raw
TypeError, AttributeError or RecursionError, no empty summary for a negative count.
"""
from __future__ import annotations

import inspect
import math
from pathlib import Path

import numpy as np
import pytest
from matplotlib.figure import Figure

import sim
import sim.engine.battle
import sim.plugin as sp
import sim.viz
from conftest import SCENARIOS


class Ref:
    """A placeholder in the table for an object the fixtures build (a scenario, a log...)."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


SC, LOG, STUDY, RUN, BATTLE, UNIT, PHASE, RULESET = (
    Ref(n) for n in ("scenario", "log", "study", "run", "battle", "unit", "phase", "ruleset"))
DEEP = Ref("deep")          # a dict nested 5,000 levels
NESTED_65 = Ref("nested")   # one level more than a YAML file may hold
SELF = Ref("self")          # a dict holding itself
NAN = math.nan


def study_doc(**more) -> dict:
    return {"study": "api", "seed": 3, "replications": 2, "variants": {"only": {}},
            "metrics": ["attacker_won"], **more}


def deep(levels: int) -> dict:
    doc: dict = {}
    for _ in range(levels - 1):
        doc = {"k": doc}
    return doc


@pytest.fixture(scope="module")
def things():
    scenario = sim.load_scenario(SCENARIOS / "open_ground_advance.yaml")
    study = sim.study_from_dict(study_doc(), scenario=scenario)
    battle = sim.engine.battle.Battle(scenario, 1)
    loop: dict = {}
    loop["k"] = loop
    return {"scenario": scenario, "log": sim.run(scenario, seed=3).log, "study": study,
            "run": sim.run_study(study), "battle": battle, "unit": next(iter(battle.units.values())),
            "phase": sp.Phase(1, "blue", "movement", 0.0, 1.0, moves=True),
            "ruleset": sp.Ruleset("api_test", "t", base="skirmish"),
            "deep": deep(5000), "nested": deep(65), "self": loop}


def resolve(value, things):
    if isinstance(value, Ref):
        return things[value.name]
    if isinstance(value, dict):
        return {k: resolve(v, things) for k, v in value.items()}
    return value


CASES = [
    # run
    ("run", {"scenario": SC, "seed": 3.5}, "seed"),
    ("run", {"scenario": SC, "seed": True}, "seed"),
    ("run", {"scenario": SC, "seed": 2**70}, "seed"),
    ("run", {"scenario": SC, "seed": -1}, "seed"),
    ("run", {"scenario": SC, "seed": NAN}, "seed"),
    ("run", {"scenario": SC, "seed": None}, "seed"),
    ("run", {"scenario": SC, "seed": "3"}, "seed"),
    ("run", {"scenario": SC, "overrides": ["rules.snapfire.radius=3"]}, "overrides"),
    ("run", {"scenario": SC, "overrides": {1: 2}}, "overrides"),
    ("run", {"scenario": SC, "overrides": {"name": DEEP}}, "overrides"),
    ("run", {"scenario": 5}, "scenario"),
    ("run", {"scenario": None}, "scenario"),
    ("run", {"scenario": SC, "seed": 3.0}, "seed"),
    ("engine.battle.Battle", {"scenario": SC, "seed": 3.5}, "seed"),
    ("engine.battle.Battle", {"scenario": SC, "seed": 2**63}, "seed"),
    ("engine.battle.Battle", {"scenario": {"name": "x"}, "seed": 1}, "scenario"),
    # analyse_study
    ("analyse_study", {"study": 5, "db": "r.db"}, "study"),
    ("analyse_study", {"study": STUDY, "db": 5}, "db"),
    ("analyse_study", {"study": STUDY, "db": "/nonexistent/r.db"}, "db"),
    ("analyse_study", {"study": STUDY, "db": None}, "db"),
    # run_study
    ("run_study", {"study": STUDY, "replications": -3}, "replications"),
    ("run_study", {"study": STUDY, "replications": 0}, "replications"),
    ("run_study", {"study": STUDY, "replications": 2.0}, "replications"),
    ("run_study", {"study": STUDY, "replications": True}, "replications"),
    ("run_study", {"study": STUDY, "workers": 0}, "workers"),
    ("run_study", {"study": STUDY, "workers": 1.5}, "workers"),
    ("run_study", {"study": STUDY, "workers": 257}, "workers"),
    ("run_study", {"study": STUDY, "replications": 10**6 + 1}, "replications"),
    ("run_study", {"study": STUDY, "precision": NAN}, "precision"),
    ("run_study", {"study": STUDY, "precision": math.inf}, "precision"),
    ("run_study", {"study": STUDY, "precision": -0.1}, "precision"),
    ("run_study", {"study": STUDY, "precision": "0.1"}, "precision"),
    ("run_study", {"study": STUDY, "executor": "threads"}, "executor"),
    ("run_study", {"study": STUDY, "executor": 2}, "executor"),
    ("run_study", {"study": STUDY, "db": 5}, "db"),
    ("run_study", {"study": STUDY, "resume": "yes"}, "resume"),
    ("run_study", {"study": STUDY, "resume": True}, "resume"),   # with no db to resume from
    ("run_study", {"study": STUDY, "crn": 0}, "crn"),
    ("run_study", {"study": 5}, "study"),
    ("run_study", {"study": None}, "study"),
    # branch
    ("branch", {"scenario": SC, "seed": 3.5, "at": {"turn": 1}, "branches": {"a": {}}}, "seed"),
    ("branch", {"scenario": 5, "at": {"turn": 1}, "branches": {"a": {}}}, "scenario"),
    ("branch", {"scenario": SC, "at": "turn 1", "branches": {"a": {}}}, "at"),
    ("branch", {"scenario": SC, "at": None, "branches": {"a": {}}}, "at"),
    ("branch", {"scenario": SC, "at": {"turn": 1}, "branches": ["a"]}, "branches"),
    ("branch", {"scenario": SC, "at": {"turn": 1}, "branches": {}}, "branches"),
    # studies and scenarios from files and dicts
    ("load_study", {"path": 5}, "path"),
    ("load_study", {"path": b"study.yaml"}, "path"),
    ("load_scenario", {"path": None}, "path"),
    ("load_scenario", {"path": 3.5}, "path"),
    ("study_from_dict", {"data": ["study"]}, "data"),
    ("study_from_dict", {"data": DEEP}, "data"),
    ("study_from_dict", {"data": {"study": "api", "variants": {"v": NESTED_65}}}, "data"),
    ("study_from_dict", {"data": study_doc(), "scenario": 5}, "scenario"),
    ("study_from_dict", {"data": study_doc(), "scenario": SC, "base_dir": None}, "base_dir"),
    ("scenario_from_dict", {"data": DEEP}, "data"),
    ("scenario_from_dict", {"data": NESTED_65}, "data"),
    ("scenario_from_dict", {"data": SELF}, "data"),
    ("scenario_from_dict", {"data": [1, 2]}, "data"),
    ("scenario_from_dict", {"data": None}, "data"),
    ("scenario_from_dict", {"data": {}, "file": 5}, "file"),
    ("scenario_from_dict", {"data": {}, "lines": []}, "lines"),
    ("apply_overrides", {"scenario": None, "overrides": {"name": "x"}}, "scenario"),
    ("apply_overrides", {"scenario": SC, "overrides": None}, "overrides"),
    ("apply_overrides", {"scenario": SC, "overrides": [("name", "x")]}, "overrides"),
    ("apply_overrides", {"scenario": SC, "overrides": {"name": DEEP}}, "overrides"),
    ("apply_overrides", {"scenario": SC, "overrides": {"name": "x"}, "source": None}, "source"),
    # exact answers
    ("win_probability", {"x": -1, "y": 2, "law": "square", "r": 1}, "x"),
    ("win_probability", {"x": 2.5, "y": 2, "law": "square", "r": 1}, "x"),
    ("win_probability", {"x": True, "y": 2, "law": "square", "r": 1}, "x"),
    ("win_probability", {"x": 0, "y": 0, "law": "square", "r": 1}, "x"),
    ("win_probability", {"x": 2, "y": "2", "law": "square", "r": 1}, "y"),
    ("win_probability", {"x": 2, "y": 2, "law": "cubic", "r": 1}, "law"),
    ("win_probability", {"x": 2, "y": 2, "law": "linear"}, "a"),
    ("win_probability", {"x": 2, "y": 2, "law": "linear", "a": 2}, "a"),
    ("win_probability", {"x": 2, "y": 2, "law": "linear", "a": NAN}, "a"),
    ("win_probability", {"x": 2, "y": 2, "law": "square", "r": 0}, "r"),
    ("win_probability", {"x": 2, "y": 2, "law": "square", "r": math.inf}, "r"),
    ("win_probability", {"x": 2, "y": 2, "law": "square", "r": True}, "r"),
    ("end_states", {"x": 2, "y": -2, "law": "square", "r": 1}, "y"),
    ("end_states", {"x": 2, "y": 2, "law": "square"}, "r"),
    ("end_states", {"x": 2, "y": 2, "law": None, "a": 0.5}, "law"),
    # geometry, movement, metrics
    ("first_entry", {"p0": (0, 0), "p1": (20, 0), "c": (10, 6), "r": NAN}, "r"),
    ("first_entry", {"p0": (0, 0), "p1": (20, 0), "c": (10, 6), "r": -1}, "r"),
    ("first_entry", {"p0": None, "p1": (20, 0), "c": (10, 6), "r": 10}, "p0"),
    ("first_entry", {"p0": (0, 0), "p1": (20, NAN), "c": (10, 6), "r": 10}, "p1"),
    ("first_entry", {"p0": (0, 0), "p1": (20, 0), "c": "10,6", "r": 10}, "c"),
    ("plugin.go_straight", {"battle": None, "unit": UNIT, "point": (0, 0), "duration": 1}, "battle"),
    ("plugin.go_straight", {"battle": BATTLE, "unit": "b1", "point": (0, 0), "duration": 1}, "unit"),
    ("plugin.go_straight", {"battle": BATTLE, "unit": UNIT, "point": (0,), "duration": 1}, "point"),
    ("plugin.go_straight", {"battle": BATTLE, "unit": UNIT, "point": (0, 0), "duration": NAN}, "duration"),
    ("plugin.movement_process", {"battle": 5, "unit": UNIT, "phase": PHASE}, "battle"),
    ("plugin.movement_process", {"battle": BATTLE, "unit": None, "phase": PHASE}, "unit"),
    ("plugin.movement_process", {"battle": BATTLE, "unit": UNIT, "phase": "movement"}, "phase"),
    ("compute_metrics", {"log": 5, "scenario": SC}, "log"),
    ("compute_metrics", {"log": [1, 2], "scenario": SC}, "log"),
    ("compute_metrics", {"log": LOG, "scenario": None}, "scenario"),
    ("compute_metrics", {"log": LOG, "scenario": "nosuch"}, "scenario"),
    ("metric_kinds", {"scenario_or_system": None}, "scenario_or_system"),
    ("metric_kinds", {"scenario_or_system": "nosuch"}, "scenario_or_system"),
    # the plug-in interface
    ("plugin.register", {"declared": 5}, "declared"),
    ("plugin.register", {"declared": None}, "declared"),
    ("plugin.register", {"declared": RULESET, "replace": "yes"}, "replace"),
    ("plugin.define_rules", {"titles": None}, "titles"),
    ("plugin.define_rules", {"titles": {"": "no ID"}}, "titles"),
    ("plugin.define_rules", {"titles": {"SF.MOVE": 5}}, "titles"),
    ("plugin.implements", {"ids": (5,)}, "ids"),
    ("plugin.unregister", {"kind": 5, "name": "x"}, "kind"),
    ("plugin.unregister", {"kind": str, "name": "x"}, "kind"),
    ("plugin.unregister", {"kind": sp.Ruleset, "name": "no_such_ruleset"}, "name"),
    ("plugin.unregister", {"kind": sp.Ruleset, "name": "fow"}, "name"),   # built in: not ours to remove
    ("plugin.unregister", {"kind": sp.Ruleset, "name": None}, "name"),
    ("plugin.behaviour_of", {"kind": 5}, "kind"),
    ("plugin.behaviour_of", {"kind": ""}, "kind"),
    ("plugin.features_in", {"model": None, "path": "section"}, "path"),
    # pictures
    ("viz.plot_map", {"scenario": None}, "scenario"),
    ("viz.plot_map", {"scenario": 5}, "scenario"),
    ("viz.plot_map", {"scenario": SC, "log": 5}, "log"),
    ("viz.plot_map", {"scenario": SC, "log": LOG, "t": NAN}, "t"),
    ("viz.plot_timeline", {"log": 5}, "log"),
    ("viz.plot_timeline", {"log": LOG, "scenario": 5}, "scenario"),
    ("viz.replay_html", {"scenario": SC, "log": LOG, "fps": 0}, "fps"),
    ("viz.replay_html", {"scenario": SC, "log": LOG, "frames": 0}, "frames"),
    ("viz.replay_html", {"scenario": SC, "log": LOG, "frames": [NAN]}, "frames"),
    ("viz.replay_html", {"scenario": SC, "log": LOG, "width": -5}, "width"),
    ("viz.replay_html", {"scenario": 5, "log": LOG}, "scenario"),
    ("viz.replay_fragment", {"scenario": SC, "log": LOG, "fps": 0}, "fps"),
    ("viz.replay_fragment", {"scenario": SC, "log": LOG, "frames": [NAN]}, "frames"),
    ("viz.replay_fragment", {"scenario": SC, "log": LOG, "width": -5}, "width"),
    ("viz.replay_fragment", {"scenario": 5, "log": LOG}, "scenario"),
    ("viz.replay_fragment", {"scenario": SC, "log": 5}, "log"),
    ("viz.replay_fragment", {"scenario": SC, "log": LOG, "classroom": "yes"}, "classroom"),
    ("viz.class_mode", {"on": 1}, "on"),
    ("viz.animate", {"scenario": SC, "log": LOG, "fps": 0}, "fps"),
    ("viz.animate", {"scenario": SC, "log": LOG, "frames": 2.5}, "frames"),
    ("viz.animate", {"scenario": SC, "log": {"t": 1}}, "log"),
    ("viz.save_frame", {"scenario": SC, "log": LOG, "t": NAN, "path": "x.png"}, "t"),
    ("viz.save_frame", {"scenario": SC, "log": LOG, "t": 1.0, "path": None}, "path"),
    ("viz.frame_times", {"log": LOG, "frames": 0}, "frames"),
    ("viz.frame_times", {"log": 7}, "log"),
    ("viz.halt_table", {"log": 7}, "log"),
    ("viz.records_of", {"log": 7}, "log"),
    ("viz.check_legible", {"fig": "figure.png"}, "fig"),
    ("viz.check_legible", {"fig": Figure(), "width": 0}, "width"),
    ("viz.check_legible", {"fig": Figure(), "dpi": NAN}, "dpi"),
    ("viz.check_legible", {"fig": Figure(), "min_size": -1}, "min_size"),
    ("viz.check_legible", {"fig": Figure(), "slack": "1"}, "slack"),
    ("viz.position_at", {"track": [(0.0, 1.0, 2.0)], "t": None}, "t"),
    ("viz.positions_at", {"scenario": SC, "log": LOG, "t": "soon"}, "t"),
    ("viz.positions_at", {"scenario": 5, "log": LOG, "t": 1.0}, "scenario"),
    ("viz.unit_tracks", {"log": 7}, "log"),
    ("viz.unit_tracks", {"log": LOG, "scenario": 7}, "scenario"),
    ("viz.unit_states", {"log": 7}, "log"),
    ("viz.unit_states", {"log": LOG, "scenario": 7}, "scenario"),
    ("viz.unit_states", {"log": LOG, "end": NAN}, "end"),
    ("viz.states_frame", {"log": 7}, "log"),
    ("viz.plot_means", {"run": None, "path": "m.png"}, "run"),
    ("viz.plot_means", {"run": RUN, "path": 5}, "path"),
    ("viz.plot_differences", {"run": STUDY, "path": "d.png"}, "run"),
    ("viz.plot_response", {"run": RUN, "key": "rules.nosuch", "path": "r.png"}, "key"),
    ("viz.plot_study", {"run": 5, "out_dir": "plots"}, "run"),
    ("viz.plot_study", {"run": RUN, "out_dir": None}, "out_dir"),
    ("viz.editor", {"scenario": 5}, "scenario"),
    ("viz.editor", {"ground": "moon"}, "ground"),
    ("viz.play", {"scenario": 5}, "scenario"),
    ("viz.play", {"scenario": str(SCENARIOS / "kill_zone_play.yaml"), "side": "green"}, "side"),
    ("viz.play", {"scenario": str(SCENARIOS / "kill_zone_play.yaml"), "seed": -1}, "seed"),
    ("viz.play", {"scenario": str(SCENARIOS / "kill_zone_play.yaml"), "debrief_rollouts": 0}, "debrief_rollouts"),
]


def entry(name: str):
    module, _, attr = name.rpartition(".")
    return getattr({"viz": sim.viz, "plugin": sp, "engine.battle": sim.engine.battle, "": sim}[module], attr)


@pytest.mark.parametrize("name, kwargs, argument", CASES,
                         ids=[f"{n}-{a}-{i}" for i, (n, _, a) in enumerate(CASES)])
def test_a_bad_argument_is_an_input_error_naming_it(name, kwargs, argument, things,
                                                    tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)   # whatever a wrong check let through writes nothing here
    kwargs = resolve(kwargs, things)
    ids = kwargs.pop("ids", None)
    call = entry(name)
    with pytest.raises(sim.InputError) as err:
        result = call(*ids) if ids is not None else call(**kwargs)
        if inspect.isgenerator(result):
            next(result)
    assert err.value.place == argument, str(err.value)
    assert str(err.value).startswith(f"{argument}: ") or f": {argument}: " in str(err.value)
    assert list(tmp_path.iterdir()) == []


def public_functions():
    for module, prefix in ((sim, ""), (sim.viz, "viz."), (sp, "plugin.")):
        for n in module.__all__:
            obj = getattr(module, n)
            if inspect.isfunction(obj) and inspect.signature(obj).parameters:
                yield prefix + n


def test_the_table_covers_every_public_function_that_takes_arguments():
    assert sorted(set(public_functions()) - {n for n, _, _ in CASES}) == []


def test_good_arguments_still_work(things):
    scenario = things["scenario"]
    assert sim.run(scenario).log.records == sim.run(scenario, seed=1).log.records
    assert sim.run(scenario, seed=np.int64(4)).log.records == sim.run(scenario, seed=4).log.records
    assert sim.run(str(SCENARIOS / "open_ground_advance.yaml"), seed=2**63 - 1).winner
    assert sim.run(Path(SCENARIOS / "open_ground_advance.yaml"), 3, {}).log.records \
        == sim.run(scenario, seed=3).log.records
    assert sim.apply_overrides(scenario, {}) is scenario
    from fractions import Fraction

    assert sim.win_probability(2, 1, law="linear", a=Fraction(1, 2)) == Fraction(3, 4)
    assert sim.first_entry((0, 0), (20, 0), (10, 6), 10.0) == 0.1
    assert sim.run_study(things["study"], replications=1, precision=None).replications == 1


def test_a_dict_as_deep_as_a_yaml_file_may_be_is_not_refused_for_its_depth(things):
    # 64 levels is what the YAML reader takes: the same document given as a dict gets past
    # the depth bound and is refused (if at all) for what it says, not for its nesting.
    doc = dict(things["scenario"]._raw)
    doc["name"] = deep(63)
    with pytest.raises(sim.InputError) as err:
        sim.scenario_from_dict(doc)
    assert "nested" not in str(err.value) and err.value.place != "data"
