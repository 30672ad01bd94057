"""Issue 23, item 4: plug-in authoring that cannot go wrong in silence.

A module that registers a base game is usable from every command (``--plugin MODULE``,
``SIM_PLUGINS``), on a study's workers too; ``sim validate`` loads plug-ins as ``sim run``
does; knob and unit-key models must be ``sim.plugin.Knobs`` with valid defaults, and a game
must pickle, or registration refuses it in one line; a metric that raises in ``sim run``
keeps the log; ``sim validate --plugins`` battles each plug-in game and reports watches
with a non-positive radius or never armed and declared rules never applied.
"""
from __future__ import annotations

import json
import os
import subprocess
import textwrap

import pytest
from pydantic import BaseModel

import sim
import sim.plugin as sp
from conftest import PY, ROOT, SCENARIOS, register_game

# A plug-in module as an author writes it: it registers its base game and ruleset when imported.
TOSS = '''
import sim.plugin as sp
sp.define_rules({"PA.ROLL": "Each unit of the phasing side rolls d6; a 6 eliminates an enemy"})

class Knobs(sp.Knobs):
    need: int = 6

class Game:
    state = None   # no state of its own
    def setup(self, battle):
        """Every unit stays where the scenario puts it."""
    def on_phase(self, battle, phase):
        battle.env.process(self.roll(battle, phase))
    def roll(self, battle, phase):
        for u in list(battle.units_of(phase.side)):
            enemies = battle.enemies_of(u.side)
            if not u.on_board or not enemies or battle.done.triggered:
                break
            (face,) = battle.dice.roll(u.id, "PA.ROLL")
            need = battle.knobs.pa_toss.need
            battle.record("pa_toss", rule="PA.ROLL", unit=u.id, target=enemies[0].id, dice=[face],
                          mods=0, need=need, success=face >= need)
            if face >= need:
                battle.eliminate(enemies[0], rule="PA.ROLL")
        yield battle.env.timeout(0)

def tosses(records, scenario):
    return {"pa_tosses": float(sum(r["event"] == "pa_toss" for r in records))}

EXTRA = {}
sp.register(sp.BaseGame(
    name="pa_toss", title="A plug-in module's game", phases=(sp.PhaseSpec("toss"),), knobs=Knobs,
    events=frozenset({"pa_toss"}), metrics=(sp.MetricReporter("pa_toss", {"pa_tosses": "count"}, tosses),),
    **{"game": Game, "rules": ("PA.ROLL",), **EXTRA}))
sp.register(sp.Ruleset("pa_toss", "A plug-in module's game", base="pa_toss"))
'''

SCENARIO = {"name": "pa", "ruleset": "pa_toss", "turns": 6, "sides": ["blue", "red"],
            "terrain": {"kind": "table", "width": 100, "height": 50,
                        "waypoints": {"W": [10, 25], "E": [90, 25]}},
            "forces": {"blue": [{"id": "b1", "at": "W"}, {"id": "b2", "at": "W"}],
                       "red": [{"id": "r1", "at": "E"}, {"id": "r2", "at": "E"}]},
            "victory": {"attacker": "blue", "destroy": True}}


def write(tmp_path, name="pa_mod", text=TOSS):
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(text))
    path = tmp_path / "pa.yaml"
    path.write_text(json.dumps(SCENARIO))   # JSON is YAML
    return path


def sim_cmd(tmp_path, *args, plugins=None, extra_path=(), cwd=None):
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path), *extra_path])}
    if plugins is not None:
        env["SIM_PLUGINS"] = plugins
    return subprocess.run([PY, "-m", "sim", *args], capture_output=True, text=True, env=env,
                          cwd=cwd or tmp_path, timeout=120)


def one_line(out):
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sim: error:") and "Traceback" not in out.stderr, out.stderr
    return lines[0]


# -- a system registered in a module, usable from every command ----------------------------
def test_a_module_named_with_plugin_is_usable_from_every_command(tmp_path):
    path = write(tmp_path)
    assert "unknown rule system 'pa_toss'" in one_line(sim_cmd(tmp_path, "run", str(path)))
    for args in (["run", "--plugin", "pa_mod", str(path), "--json"],
                 ["--plugin", "pa_mod", "run", str(path), "--json"]):
        out = sim_cmd(tmp_path, *args)
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["metrics"]["pa_tosses"] > 0
    out = sim_cmd(tmp_path, "validate", str(path), "--plugin", "pa_mod")
    assert (out.returncode, out.stdout) == (0, f"{path}: valid scenario\n"), out.stderr
    out = sim_cmd(tmp_path, "rules", plugins="pa_mod")
    assert out.returncode == 0 and "PA.ROLL" in out.stdout and "[pa_toss]" in out.stdout
    out = sim_cmd(tmp_path, "schema", plugins=f"pa_mod{os.pathsep}pa_mod")   # once, however often named
    assert out.returncode == 0 and '"pa_toss"' in out.stdout


@pytest.mark.parametrize("args,env,words", [
    (["--plugin", "no_such_mod"], None, ["--plugin", "no_such_mod", "No module named"]),
    ([], "pa_mod, no_such_mod", ["SIM_PLUGINS", "no_such_mod"]),
    (["--plugin", "raising_mod"], None, ["raising_mod", "ZeroDivisionError"]),
    (["--plugin", "empty_mod"], None, ["empty_mod", "registers nothing"]),
    (["--plugin", "bad name"], None, ["'bad name' is not a module name"]),
])
def test_a_plugin_module_that_cannot_be_used_is_one_line_exit_2(tmp_path, args, env, words):
    path = write(tmp_path)
    (tmp_path / "raising_mod.py").write_text("1 / 0\n")
    (tmp_path / "empty_mod.py").write_text("X = 1\n")
    out = sim_cmd(tmp_path, "validate", str(path), *args, plugins=env)
    assert out.returncode == 2 and out.stdout == ""
    line = one_line(out)
    for w in words:
        assert w in line


METRIC_ONLY = '''
import sim.plugin as sp
def hits(records, scenario):
    return {"pa_hits": float(sum(r["event"] == "hit" for r in records))}
sp.register(sp.MetricReporter("pa_hits", {"pa_hits": "count"}, hits, systems=("snapfire",)))
'''


def test_the_workers_of_a_study_import_the_plugin_modules(tmp_path):
    """A module that only adds a metric reaches the workers through no pickled system."""
    (tmp_path / "hits_mod.py").write_text(METRIC_ONLY)
    text = (SCENARIOS / "march_halt.yaml").read_text()
    study = tmp_path / "study.yaml"
    study.write_text(text.replace("scenario: march_column.yaml",
                                  f"scenario: {SCENARIOS / 'march_column.yaml'}")
                     .replace("metrics: [", "metrics: [pa_hits, "))
    out = sim_cmd(tmp_path, "study", str(study), "--plugin", "hits_mod", "--workers", "2",
                  "--replications", "6", "--quiet", "--json")
    assert out.returncode == 0, out.stderr[-2000:]
    cells = json.loads(out.stdout)["variants"]
    assert cells and all(cell["pa_hits"]["n"] == 6 for cell in cells.values())


# -- sim validate loads plug-ins as sim run does ----------------------------------------------
def installed(tmp_path, entry_points: str, module: str):
    """A distribution 'pa-plugin' with its module ``pa_plugin``, as pip would install it."""
    site = tmp_path / "site"
    dist = site / "pa_plugin-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: pa-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(entry_points)
    (site / "pa_plugin.py").write_text(module)
    return [str(site)]


def test_validate_refuses_the_broken_installed_plugin_that_run_refuses(tmp_path):
    site = installed(tmp_path, "[sim.metrics]\npa = pa_plugin:NOT_A_REPORTER\n", "NOT_A_REPORTER = 3\n")
    plain = str(SCENARIOS / "open_ground_advance.yaml")   # no behaviour knob: loads no behaviour
    run = sim_cmd(tmp_path, "run", plain, extra_path=site)
    validate = sim_cmd(tmp_path, "validate", plain, extra_path=site)
    assert run.returncode == validate.returncode == 2 and validate.stdout == ""
    assert one_line(validate) == one_line(run)
    assert "expected a sim.plugin.MetricReporter" in one_line(validate)


# -- declarations refused at registration -----------------------------------------------------
class Game:
    """A game that does nothing."""

    def __init__(self) -> None:
        self.state = None

    def setup(self, battle) -> None:
        """Nothing."""

    def on_phase(self, battle, phase) -> None:
        """Nothing."""


class PlainKnobs(BaseModel):
    """A knob model that is not a sim.plugin.Knobs."""

    need: int = 6


class WrongDefault(sp.Knobs):
    """A knob whose default its own type refuses."""

    need: int = "6"   # type: ignore[assignment]


class NoDefault(sp.Knobs):
    """A knob with no default."""

    need: int


def _count(records, scenario):
    return {"pa_n": 0.0}


def system(**kw):
    return sp.BaseGame(**{"name": "pa_bad", "title": "t", "phases": (sp.PhaseSpec("p"),), "game": Game, **kw})


@pytest.mark.parametrize("kw,words", [
    ({"knobs": PlainKnobs}, ["'knobs' is PlainKnobs", "plain pydantic model", "sim.plugin.Knobs"]),
    ({"unit_keys": PlainKnobs}, ["'unit_keys' is PlainKnobs", "sim.plugin.Knobs"]),
    ({"policy_keys": PlainKnobs}, ["'policy_keys'", "sim.plugin.Knobs"]),
    ({"base_knobs": sp.Knobs}, ["'base_knobs' is Knobs", "sim.plugin.BaseKnobs"]),
    ({"knobs": WrongDefault}, ["WrongDefault.need", "default '6'", "valid integer"]),
    ({"unit_keys": WrongDefault}, ["'unit_keys' WrongDefault.need", "default '6'"]),
    ({"knobs": NoDefault}, ["NoDefault.need has no default"]),
    ({"metrics": (sp.MetricReporter("pa_m", {"pa_n": "count"}, lambda records, scenario: {"pa_n": 0.0}),)},
     ["metric reporter 'pa_m' (compute) is a lambda", "cannot be pickled",
      "studies send the system to worker processes", "define it at module level"]),
    ({"reaction_radius": lambda knobs: None}, ["'reaction_radius' is a lambda"]),
])
def test_a_malformed_declaration_is_refused_at_registration(kw, words):
    with pytest.raises(sim.PluginError) as err:
        register_game(system(**kw))
    line = str(err.value)
    assert "\n" not in line and line.startswith("Python: base game 'pa_bad': ")
    for w in words:
        assert w in line
    assert "pa_bad" not in sim.system_names()


def test_a_class_defined_in_a_function_is_refused_and_required_unit_keys_are_not():
    class LocalGame(Game):
        """Defined here: it cannot be pickled by reference."""

    with pytest.raises(sim.PluginError, match=r"its 'game' is .*LocalGame, defined inside a function"):
        register_game(system(game=LocalGame))
    from sim.experimental import unregister_system

    register_game(system(unit_keys=NoDefault, knobs=sp.BaseKnobs))  # each unit gives `need`
    unregister_system("pa_bad")


# -- a metric that raises in sim run ---------------------------------------------------------
RAISES = """
import sim.plugin as sp
def broken(records, scenario):
    return {"pa_hits": 1 / 0}
METRIC = sp.MetricReporter("pa_hits", {"pa_hits": "count"}, broken)
"""


def test_a_metric_that_raises_keeps_the_log_and_is_one_line(tmp_path):
    site = installed(tmp_path, "[sim.metrics]\npa = pa_plugin:METRIC\n", RAISES)
    log = tmp_path / "out.jsonl"
    path = str(SCENARIOS / "open_ground_advance.yaml")
    out = sim_cmd(tmp_path, "run", path, "--seed", "3", "--log", str(log), extra_path=site)
    assert out.returncode == 1 and out.stdout == ""
    line = one_line(out)
    assert "metric reporter 'pa_hits' (entry point sim.metrics: pa = pa_plugin:METRIC (pa-plugin 1.0)" in line
    assert "['pa_hits']" in line and "ZeroDivisionError" in line and str(log) in line
    # The log is the battle's, as a run without the broken reporter writes it.
    sim_cmd(tmp_path, "run", path, "--seed", "3", "--log", str(tmp_path / "good.jsonl"))
    assert log.read_text() == (tmp_path / "good.jsonl").read_text()
    assert json.loads(log.read_text().splitlines()[-1])["event"] == "end"


def test_a_metric_that_raises_is_a_metric_error_naming_it():
    from sim.metrics import MetricError

    def broken(records, scenario):
        raise KeyError("nope")

    sp.register(sp.MetricReporter("pa_broken", {"pa_broken_n": "count"}, broken, systems=("snapfire",)))
    from sim.experimental import unregister_metric
    try:
        with pytest.raises(MetricError, match=r"metric reporter 'pa_broken' \(Python; metrics "
                                              r"\['pa_broken_n'\]\) raised KeyError: 'nope'"):
            sim.run(SCENARIOS / "open_ground_advance.yaml", 1)
    finally:
        unregister_metric("pa_broken")


# -- sim validate --plugins -----------------------------------------------------------------
WATCHES = '''
class NoRadius(sp.Watch):
    rule = "PA.ROLL"
    def reactors(self, battle, side):
        return []

class Forgotten(sp.Watch):
    rule = "PA.ROLL"
    radius = 5.0

class Armed(Game):
    def setup(self, battle):
        battle.referee.add(NoRadius())

sp.define_rules({"PA.NEVER": "A rule the system declares and never applies"})
EXTRA = {"game": Armed, "rules": ("PA.ROLL", "PA.NEVER")}
'''


def test_validate_plugins_reports_what_a_self_check_battle_shows(tmp_path):
    broken = TOSS.replace("EXTRA = {}\n", "EXTRA = {}\n" + WATCHES)
    path = write(tmp_path, text=broken)
    out = sim_cmd(tmp_path, "validate", str(path), "--plugins", "--plugin", "pa_mod")
    assert out.returncode == 1, out.stderr
    mine = [line for line in out.stdout.splitlines() if line.startswith("base game 'pa_toss' (Python): ")]
    assert mine == [
        "base game 'pa_toss' (Python): watch NoRadius (PA.ROLL) has radius 0.0: expected a positive "
        "number (no mover ever comes within it)",
        "base game 'pa_toss' (Python): watch Forgotten is never armed in the self-check battles "
        "(expected battle.referee.add(watch) in the game's setup or a phase)",
        "base game 'pa_toss' (Python): declared rules ['PA.NEVER'] appear in no record and roll "
        "no die in the self-check battles (advance, hold, seeds 1-5)"], out.stdout
    assert out.stdout.startswith(f"{path}: valid scenario\n")


def test_validate_plugins_passes_a_sound_system_and_the_duel(tmp_path):
    write(tmp_path)
    out = sim_cmd(tmp_path, "validate", "--plugins", plugins="pa_mod")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "base game 'pa_toss' (Python): self-check passed\n" in out.stdout
    if "duel" in sim.system_names():   # installed by make test
        assert "rule system 'duel' (entry point sim.systems: duel = sim_duel:SYSTEM" in out.stdout
    # Every installed plug-in passes too (make test installs sim-mgbeam as well: test_mgbeam.py).
    lines = out.stdout.splitlines()
    assert len(lines) >= 1 + ("duel" in sim.system_names())
    assert all(line.endswith("): self-check passed") for line in lines), out.stdout


def test_validate_needs_files_or_plugins(tmp_path):
    assert "required: FILE ... (or --plugins)" in one_line(sim_cmd(tmp_path, "validate"))


def test_a_declared_example_scenario_is_what_the_self_check_battles(tmp_path):
    """Its example (a file beside the module, or a document) is battled, not the generated ones."""
    (tmp_path / "ex").mkdir()
    (tmp_path / "ex" / "pa.yaml").write_text(json.dumps({**SCENARIO, "turns": 1}))
    never = 'sp.define_rules({"PA.LATER": "Never applied"})\nEXTRA = {"rules": ("PA.ROLL", "PA.LATER"), '
    for example in (repr("ex/pa.yaml"), repr({**SCENARIO, "turns": 1})):
        write(tmp_path, text=TOSS.replace("EXTRA = {}\n", f"{never}\"example\": {example}}}\n"))
        # From another folder: the path is the module's, not the current directory's.
        out = sim_cmd(tmp_path, "validate", "--plugins", "--plugin", "pa_mod", cwd=tmp_path / "ex")
        assert out.returncode == 1, out.stderr
        assert ("base game 'pa_toss' (Python): declared rules ['PA.LATER'] appear in no record and "
                "roll no die in the self-check battles (example, seeds 1-5)\n") in out.stdout
    with pytest.raises(sim.PluginError, match="'example' must be a scenario file's path or a scenario document"):
        register_game(system(example=3))
