"""The framework's doors: a base game (with a ruleset naming it), a metric reporter and a
behaviour added from Python or from an installed distribution's entry point, a rule system
of an earlier version (still registered, with a warning), and the flat public API."""
from __future__ import annotations

import copy
import json
import subprocess
import textwrap
from collections.abc import Generator
from typing import Any

import pytest

import sim
import sim.plugin as sp
from conftest import PY, ROOT, register_game, scenario, table, unit
from sim.experimental import Behaviour, register_behaviour, unregister_behaviour, unregister_metric, unregister_system

# -- a throw-away base game, all of it in this one module --------------------------------
sp.define_rules({"TOSS.ROLL": "Each unit of the side whose turn it is rolls d6; a need or "
                              "more eliminates the first enemy still standing"})


class TossKnobs(sp.Knobs):
    """``rules.toss``: the face that eliminates."""

    need: int = 6


class TossGame:
    """One phase a turn; in it every unit of the phasing side rolls."""

    def __init__(self) -> None:
        self.state = {"rolls": 0}

    def setup(self, battle: sp.BattleContext) -> None:
        """Nothing to set up."""

    def on_phase(self, battle: sp.BattleContext, phase: sp.Phase) -> None:
        """Every unit of the phasing side rolls, in scenario order."""
        battle.env.process(self._roll(battle, phase))

    @sp.implements("TOSS.ROLL")
    def _roll(self, battle: sp.BattleContext, phase: sp.Phase) -> Generator[Any, Any, None]:
        need = battle.knobs.toss.need
        for u in list(battle.units_of(phase.side)):
            if not u.on_board or battle.done.triggered:
                return
            (face,) = battle.dice.roll(u.id, "TOSS.ROLL")
            self.state["rolls"] += 1
            target = next(e for e in battle.enemies_of(u.side))
            battle.record("toss", rule="TOSS.ROLL", unit=u.id, target=target.id,
                          dice=[face], mods=0, need=need, success=face >= need)
            if face >= need:
                battle.eliminate(target, rule="TOSS.ROLL")
        yield battle.env.timeout(0)


def _tosses(records, scenario):
    return {"tosses": float(sum(r["event"] == "toss" for r in records))}


TOSS_FIELDS: dict[str, Any] = dict(
    name="toss", title="A throw-away base game", phases=(sp.PhaseSpec("toss"),), game=TossGame, knobs=TossKnobs,
    events=frozenset({"toss"}), metrics=(sp.MetricReporter("toss", {"tosses": "count"}, _tosses),),
    rules=("TOSS.ROLL",))
TOSS = sp.BaseGame(**TOSS_FIELDS)


def toss_scenario(need=6, turns=6):
    wp = {"A": (10.0, 10.0), "B": (90.0, 10.0)}
    data = scenario(table(wp), [unit("a1", "A"), unit("a2", "A")], [unit("b1", "B"), unit("b2", "B")],
                    turns=turns)
    data["ruleset"] = "toss"
    data["rules"] = {"toss": {"need": need}}
    return data


@pytest.fixture
def toss():
    register_game(TOSS)
    yield TOSS
    unregister_system("toss")


def test_a_new_base_game_is_one_module_and_one_registration(toss):
    sc = sim.scenario_from_dict(toss_scenario())
    result = sim.run(sc, seed=5)
    rolls = [r for r in result.log if r["event"] == "toss"]
    assert rolls and all(r["rule"] == "TOSS.ROLL" and r["success"] == (r["dice"][0] >= 6) for r in rolls)
    assert result.metrics["tosses"] == len(rolls)
    assert {r["phase"] for r in result.log if r["event"] not in ("end", "place")} == {"toss"}
    assert [r["unit"] for r in result.log if r["event"] == "place"] == ["a1", "a2", "b1", "b2"]
    # Same seed, same log; the knob is read.
    assert list(sim.run(sc, seed=5).log.lines()) == list(result.log.lines())
    easy = sim.run(sim.scenario_from_dict(toss_scenario(need=1)), seed=5)
    assert easy.winner == "blue" and easy.reason == "destroyed"
    # sim rules knows where TOSS.ROLL is applied and by which system (of it and the built-in ones).
    from sim.cli.rules import rule_rows
    from sim.systems.registry import builtin_rulesets
    row = next(r for r in rule_rows(["toss", *builtin_rulesets()]) if r["id"] == "TOSS.ROLL")
    assert row["systems"] == ["toss"] and any("TossGame._roll" in w for w in row["where"])


@pytest.mark.parametrize("executor,workers", [("serial", 1), ("processes", 2)])
def test_a_registered_base_game_runs_a_study(toss, executor, workers):
    doc = {"study": "toss_need", "seed": 7, "replications": 12,
           "variants": {"six": {}, "four": {"rules.toss.need": 4}}, "metrics": ["tosses", "attacker_won"]}
    study = sim.study_from_dict(doc, scenario=sim.scenario_from_dict(toss_scenario()))
    run = sim.run_study(study, executor=executor, workers=workers)
    assert not run.failures
    four, six = run.summary.cells["four"], run.summary.cells["six"]
    assert four["tosses"].n == six["tosses"].n == 12
    # Eliminating on 4+ ends battles sooner: fewer tosses than on 6 only.
    assert four["tosses"].mean < six["tosses"].mean


def test_a_rule_system_of_an_earlier_version_still_registers_with_deprecation_warnings():
    """``sim.RuleSystem`` and ``sim.register_system``, as a plug-in of the version before rule
    modules wrote them: each warns, naming the new way, and the battle is the base game's."""
    with pytest.warns(DeprecationWarning, match=r"sim\.RuleSystem is deprecated: use sim\.plugin\.BaseGame"):
        legacy_class = sim.RuleSystem
    with pytest.warns(DeprecationWarning, match=r"sim\.RuleSystem is deprecated: declare a sim\.plugin\.BaseGame"):
        legacy = legacy_class(**TOSS_FIELDS)
    with pytest.warns(DeprecationWarning, match=r"sim\.register_system is deprecated: use sim\.plugin\.register"):
        register = sim.register_system
    register(legacy)
    try:
        old = sim.run(sim.scenario_from_dict(toss_scenario()), seed=5)
    finally:
        unregister_system("toss")
    register_game(TOSS)
    try:
        new = sim.run(sim.scenario_from_dict(toss_scenario()), seed=5)
    finally:
        unregister_system("toss")
    assert any(r["event"] == "toss" for r in old.log)
    assert list(old.log.lines()) == list(new.log.lines()) and old.metrics == new.metrics


def test_registered_scenario_keys_and_errors(toss):
    bad = toss_scenario()
    bad["rules"]["toss"]["needd"] = 3
    with pytest.raises(sim.InputError, match=r"rules\.toss\.needd.*unknown key"):
        sim.scenario_from_dict(bad)
    other = toss_scenario()
    other["rules"]["snapfire"] = {"radius": 3}
    with pytest.raises(sim.InputError, match=r"rules\.snapfire is set but ruleset 'toss' does not use it"):
        sim.scenario_from_dict(other)
    hunt = toss_scenario()
    hunt["forces"]["blue"][0]["hunt"] = True
    with pytest.raises(sim.InputError, match=r"'hunt' is set but ruleset 'toss' does not read it"):
        sim.scenario_from_dict(hunt)


def test_unknown_rule_system_names_the_known_ones():
    data = toss_scenario()
    with pytest.raises(sim.InputError) as err:
        sim.scenario_from_dict(data, "x.yaml")
    msg = str(err.value)
    assert "x.yaml" in msg and "ruleset" in msg and "'toss'" in msg
    for name in ("snapfire", "h17", "fow", "too"):
        assert name in msg


def test_malformed_systems_are_refused_when_registered():
    ok = dict(name="bad", title="t", phases=(sp.PhaseSpec("p"),), game=TossGame)
    cases = [
        ({**ok, "name": "Bad Name"}, "lower_snake_case"),
        ({**ok, "phases": ()}, "phases"),
        ({**ok, "phases": ("setup",)}, "phases"),
        ({**ok, "game": 3}, "callable"),
        ({**ok, "knobs": dict}, "subclass of sim.plugin.Knobs"),
        ({**ok, "rules": ("NOPE.1",)}, "not defined"),
        ({**ok, "metrics": (sp.MetricReporter("m", {"X": "count"}, _tosses),)}, "lower_snake_case"),
        ({**ok, "metrics": (sp.MetricReporter("m", {"x": "float"}, _tosses),)}, "kind"),
    ]
    for kw, text in cases:
        with pytest.raises(sim.PluginError, match=text):
            register_game(sp.BaseGame(**kw))
    with pytest.raises(sim.PluginError, match="taken"):
        register_game(sp.BaseGame(**{**ok, "name": "skirmish"}))
    assert "bad" not in sim.system_names()


# -- behaviours and metric reporters from Python ------------------------------------------
def _farthest(battle, team, found):
    return max(found, key=lambda f: (f[2], -f[3]))


def test_a_registered_behaviour_is_a_knob_value():
    village = ROOT / "scenarios" / "village_sniper.yaml"
    base = sim.load_scenario(village)
    with pytest.raises(sim.InputError, match=r"'farthest' is not a h17.placement behaviour.*best_cover"):
        sim.apply_overrides(base, {"rules.h17.placement": "farthest"})
    register_behaviour(Behaviour("h17.placement", "farthest", _farthest, "farthest hex"))
    try:
        sc = sim.apply_overrides(base, {"rules.h17.placement": "farthest"})
        placed = [r for seed in range(1, 41) for r in sim.run(sc, seed).log
                  if r["event"] == "deploy" and r.get("policy") == "farthest"]
    finally:
        unregister_behaviour("h17.placement", "farthest")
    nearest = [r for seed in range(1, 41) for r in sim.run(base, seed).log
               if r["event"] == "deploy" and r.get("policy") == "best_cover"]
    assert placed and nearest
    assert max(r["dist"] for r in placed) >= max(r["dist"] for r in nearest)
    assert all(r["dist"] >= 1 for r in placed)


def test_a_registered_metric_reporter_joins_the_metrics_of_its_systems():
    def hits(records, scenario):
        return {"custom_hits": float(sum(r["event"] == "hit" for r in records))}

    sp.register(sp.MetricReporter("custom", {"custom_hits": "count"}, hits, systems=("snapfire",)))
    try:
        sf = sim.load_scenario(ROOT / "scenarios" / "open_ground_advance.yaml")
        res = sim.run(sf, 3)
        assert res.metrics["custom_hits"] == sum(r["event"] == "hit" for r in res.log) > 0
        assert sim.metric_kinds(sf)["custom_hits"] == "count"
        too = sim.run(ROOT / "scenarios" / "stalingrad_bookstore.yaml", 3)
        assert "custom_hits" not in too.metrics
        with pytest.raises(sim.PluginError, match="already reported"):
            sp.register(sp.MetricReporter("other", {"custom_hits": "count"}, hits))
    finally:
        unregister_metric("custom")
    assert "custom_hits" not in sim.run(sf, 3).metrics


# -- plug-ins from installed distributions (entry points) ---------------------------------
TOY = '''
import sim.plugin as sp
sp.define_rules({"TOY.WAIT": "The toy game waits"})

class Game:
    def __init__(self):
        self.state = None
    def setup(self, battle):
        pass
    def on_phase(self, battle, phase):
        pass

BASE = sp.BaseGame(name="toy", title="toy", phases=(sp.PhaseSpec("wait"),), game=Game, rules=("TOY.WAIT",))
RULESET = sp.Ruleset("toy", "toy", base="toy")
NOT_A_GAME = {"name": "toy"}
WRONG_NAME = sp.BaseGame(name="other", title="t", phases=(sp.PhaseSpec("wait"),), game=Game)
'''


def fake_distribution(tmp_path, entry_points: str, module: str | None = TOY):
    """A distribution 'toy-plugin' on a path of its own: what pip would install."""
    root = tmp_path / "site"
    dist = root / "toy_plugin-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(textwrap.dedent(entry_points))
    if module is not None:
        (root / "toy_plugin.py").write_text(module)
    return root


def run_sim(args, site, cwd):
    env = {"PYTHONPATH": f"{site}", "PATH": "/usr/bin:/bin"}
    return subprocess.run([PY, "-m", "sim", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=120)


def toy_file(tmp_path):
    data = toss_scenario()
    data["ruleset"] = "toy"
    del data["rules"]
    path = tmp_path / "toy.yaml"
    path.write_text(json.dumps(data))   # JSON is YAML
    return path


TOY_ENTRY_POINTS = "[sim.bases]\ntoy = toy_plugin:BASE\n[sim.rulesets]\ntoy = toy_plugin:RULESET\n"


def test_an_entry_point_base_game_is_found_and_runs(tmp_path):
    site = fake_distribution(tmp_path, TOY_ENTRY_POINTS)
    out = run_sim(["rules"], site, tmp_path)
    assert out.returncode == 0 and "TOY.WAIT" in out.stdout and "[toy]" in out.stdout
    out = run_sim(["run", str(toy_file(tmp_path)), "--json"], site, tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["metrics"]["attacker_won"] == 0.0


@pytest.mark.parametrize("entry,module,words", [
    ("[sim.bases]\ntoy = toy_plugin:BASE", "import numpyy\n", ["toy_plugin:", "No module named 'numpyy'",
                                                               "toy-plugin 1.0"]),
    ("[sim.bases]\ntoy = toy_plugin:NOT_A_GAME", TOY, ["is a dict", "expected a BaseGame"]),
    ("[sim.bases]\ntoy = toy_plugin:WRONG_NAME", TOY, ["base game 'other'", "under the name 'toy'"]),
    ("[sim.bases]\ntoy = toy_plugin:MISSING", TOY, ["has no attribute 'MISSING'"]),
    ("[sim.rulesets]\nsnapfire = toy_plugin:RULESET", TOY, ["names ruleset 'snapfire'", "built-in"]),
    # the entry-point group of an earlier version (a rule system: a base game with a ruleset of its name)
    ("[sim.systems]\ntoy = toy_plugin:NOT_A_GAME", TOY, ["is a dict", "expected a sim.plugin.BaseGame"]),
    ("[sim.systems]\nsnapfire = toy_plugin:BASE", TOY, ["names rule system 'snapfire'", "built-in"]),
])
def test_a_broken_or_malformed_plugin_is_one_line_exit_2(tmp_path, entry, module, words):
    rulesets = "" if "snapfire" in entry or "systems" in entry else "[sim.rulesets]\ntoy = toy_plugin:RULESET\n"
    site = fake_distribution(tmp_path, f"{entry}\n{rulesets}", module)
    out = run_sim(["validate", str(toy_file(tmp_path))], site, tmp_path)
    assert out.returncode == 2, out.stdout + out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sim: error:") and "Traceback" not in out.stderr
    for w in words:
        assert w in lines[0]


def test_a_scenario_naming_no_ruleset_imports_no_rule_system_of_an_earlier_version(tmp_path):
    """Finding the default ruleset imported every installed plug-in of the earlier group
    (``sim.systems``), so a broken one failed every scenario that names no ruleset; such a
    rule system is imported only when a scenario names it."""
    site = fake_distribution(tmp_path, "[sim.systems]\ntoy = toy_plugin:BASE\n", "import numpyy\n")
    text = (ROOT / "scenarios" / "open_ground_advance.yaml").read_text()
    plain = tmp_path / "plain.yaml"
    plain.write_text("\n".join(line for line in text.splitlines() if not line.startswith("ruleset:")))
    out = run_sim(["validate", str(plain)], site, tmp_path)
    assert (out.returncode, out.stdout, out.stderr) == (0, f"{plain}: valid scenario\n", ""), out.stderr
    out = run_sim(["validate", str(toy_file(tmp_path))], site, tmp_path)
    assert out.returncode == 2 and "No module named 'numpyy'" in out.stderr


def test_entry_point_behaviours_and_metrics(tmp_path):
    module = TOY + textwrap.dedent('''
        def far(battle, team, found):
            return max(found, key=lambda f: f[2])
        from sim.experimental import Behaviour
        PLACE = Behaviour("h17.placement", "far_away", far)
        def count(records, scenario):
            return {"toy_records": float(len(records))}
        METRIC = sp.MetricReporter("toy", {"toy_records": "count"}, count)
        ''')
    site = fake_distribution(tmp_path, "[sim.behaviours]\nfar = toy_plugin:PLACE\n"
                                       "[sim.metrics]\ntoy = toy_plugin:METRIC\n", module)
    village = ROOT / "scenarios" / "village_sniper.yaml"
    out = run_sim(["run", str(village), "--set", "rules.h17.placement=far_away", "--json"], site, tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["metrics"]["toy_records"] > 0
    bad = fake_distribution(tmp_path / "b", "[sim.metrics]\ntoy = toy_plugin:PLACE\n", module)
    out = run_sim(["run", str(village)], bad, tmp_path)
    assert out.returncode == 2 and "expected a sim.plugin.MetricReporter" in out.stderr


# -- the flat public API ------------------------------------------------------------------
def test_every_public_name_imports_and_is_documented():
    for name in sim.__all__:
        obj = getattr(sim, name)
        if callable(obj) or isinstance(obj, type(sim)):
            assert (obj.__doc__ or "").strip(), f"sim.{name} has no docstring"
    assert sim.__version__ and sim.__version__ != "0+unknown"
    assert sim.viz.plot_map.__doc__


def test_help_shows_the_api_and_version_flag_works():
    out = subprocess.run([PY, "-c", "import sim; help(sim)"], capture_output=True, text=True,
                         timeout=120, env={"PAGER": "cat", "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0
    for name in ("load_scenario", "run_study", "sim.plugin", "win_probability"):
        assert name in out.stdout
    ver = subprocess.run([PY, "-m", "sim", "--version"], capture_output=True, text=True, timeout=120)
    assert ver.returncode == 0 and ver.stdout.strip() == f"sim {sim.__version__}"


def test_py_typed_ships():
    assert (ROOT / "sim" / "py.typed").is_file()
    assert "py.typed" in (ROOT / "pyproject.toml").read_text()


def test_run_takes_a_path_and_overrides():
    path = ROOT / "scenarios" / "open_ground_advance.yaml"
    a = sim.run(str(path), 3, overrides={"rules.snapfire.reaction": "zoc"})
    b = sim.run(sim.apply_overrides(sim.load_scenario(path), {"rules.snapfire.reaction": "zoc"}), 3)
    assert list(a.log.lines()) == list(b.log.lines())
    assert a.metrics["zoc_halts"] > 0 and a.metrics["sf_halts"] == 0


def test_scenarios_pickle_and_keep_their_rule_system():
    import pickle

    sc = sim.load_scenario(ROOT / "scenarios" / "crossing_sniper.yaml")
    back = pickle.loads(pickle.dumps(sc))
    assert back.ruleset == "fow" and back.file == sc.file
    assert list(sim.run(back, 2).log.lines()) == list(sim.run(sc, 2).log.lines())
    assert copy.deepcopy(sc).rules == sc.rules


def test_run_study_follows_a_precision_file(tmp_path):
    """A study file with `precision:` instead of `replications:` runs batches through the
    public API too (it crashed on a missing replication count)."""
    text = (ROOT / "scenarios" / "march_halt.yaml").read_text()
    text = text.replace("replications: ", "# replications: ")
    text += "\nprecision: {half_width: 0.3, max_replications: 20, batch: 10}\n"
    study_file = tmp_path / "precise.yaml"
    study_file.write_text(text.replace("scenario: march_column.yaml",
                                       f"scenario: {ROOT / 'scenarios' / 'march_column.yaml'}"))
    run = sim.run_study(str(study_file))
    assert run.stop in ("precision", "cap") and run.replications in (10, 20)
    assert all(e.n == run.replications for cell in run.summary.cells.values() for e in cell.values())
