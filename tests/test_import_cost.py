"""``import sim`` is quick: it loads no third-party library and none of sim's parts until one
of its names is used (``benchmarks/import_time.py`` measures the time; no test asserts
one). The package alone runs battles and studies, the ``demo`` extra adds what ``sim demo``
needs, and a command that needs a missing extra says which before it runs anything."""
from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT

#: Never loaded by ``import sim``: the libraries and sim's parts that a name loads when used.
HEAVY = ("scipy", "pandas", "matplotlib", "numpy", "networkx", "simpy", "pydantic", "shapely", "yaml", "tqdm",
         "dask", "distributed", "gymnasium", "pettingzoo", "sklearn", "statsmodels", "SALib", "sim.study", "sim.viz",
         "sim.decide", "sim.gym", "sim.planner", "sim.engine", "sim.scenario", "sim.systems", "sim.space", "sim.agents",
         "sim.toolkit", "sim.metrics", "sim.cli")
#: The libraries of the extras (``pyproject.toml``): none of them is needed to run a battle or a study.
EXTRAS = ("pandas", "matplotlib", "gymnasium", "pettingzoo", "dask", "distributed", "sklearn", "statsmodels", "SALib")


def _python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


def _without(libraries: tuple[str, ...]) -> str:
    """Code that makes ``libraries`` unimportable, as if they were not installed."""
    return f"import sys\nfor m in {libraries!r}:\n    sys.modules[m] = None\n"


def _loaded_by(statement: str) -> list[str]:
    out = _python(f"import json, sys\nbefore = set(sys.modules)\n{statement}\n"
                  "print(json.dumps(sorted(set(sys.modules) - before)))")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _in(modules: list[str], names: tuple[str, ...]) -> list[str]:
    return [m for m in modules if any(m == n or m.startswith(n + ".") for n in names)]


def test_import_sim_loads_no_heavy_module_and_no_third_party_library():
    loaded = _loaded_by("import sim")
    assert "sim" in loaded and _in(loaded, HEAVY) == []
    third_party = [m for m in loaded if m.split(".")[0] not in sys.stdlib_module_names and m.split(".")[0] != "sim"]
    assert third_party == []


def test_the_check_sees_a_heavy_module():
    loaded = _loaded_by("import sim\nsim.load_scenario")
    assert {"numpy", "pydantic", "networkx", "sim.scenario.load"} <= set(loaded)
    assert _in(loaded, ("scipy", "pandas", "matplotlib", "sim.study", "sim.viz")) == []


def test_each_front_door_name_loads_at_first_use_and_stays():
    out = _python("import sim, sys\n"
                  "assert set(sim.__all__) <= set(dir(sim))\n"
                  "f = sim.load_scenario\n"
                  "assert sim.load_scenario is f and 'load_scenario' in vars(sim)\n"
                  "from sim import branch, viz, too_tables\n"
                  "assert 'sim.decide.branch' in sys.modules and 'matplotlib' in sys.modules\n"
                  "try:\n    sim.no_such_name\nexcept AttributeError as e:\n    print(e)\n")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "module 'sim' has no attribute 'no_such_name'"


def test_battles_and_studies_need_no_extra():
    """A hex battle, a tabletop battle and a study, with every extra's library unimportable."""
    code = _without(EXTRAS) + (
        "import sim\n"
        "for name in ('open_ground_advance', 'village_sniper'):   # a tabletop's, a hex map's\n"
        "    assert sim.run(f'scenarios/{name}.yaml', seed=2).log.records\n"
        "run = sim.run_study('scenarios/march_halt.yaml', replications=2)\n"
        "assert run.summary.cells\n"
        "print(sorted({m.split('.')[0] for m, v in sys.modules.items() if v} & {'pandas', 'matplotlib', 'scipy'}))\n")
    out = _python(code)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.replace("'", '"')) == ["scipy"]


def test_the_demo_runs_with_the_demo_extra_alone(tmp_path):
    """``make demo`` installs the package and its ``demo`` extra: matplotlib, nothing more."""
    code = _without(tuple(m for m in EXTRAS if m != "matplotlib")) + (
        "from sim.cli import main\n"
        "sys.exit(main(['demo', '--fast', '--workers', '1', '--quiet', '--out', sys.argv[1]]))\n")
    out = _python(code, str(tmp_path / "demo"))
    assert out.returncode == 0, out.stderr
    assert sorted(p.name for p in (tmp_path / "demo").iterdir()) == ["differences.png", "means.png"]


def test_a_command_that_needs_a_missing_extra_says_which_before_any_battle(tmp_path):
    study = str(ROOT / "scenarios" / "march_halt.yaml")
    for missing, option, value, extra in (("pandas", "--csv", tmp_path / "runs.csv", "frames"),
                                          ("matplotlib", "--plot", tmp_path / "plots", "plots"),
                                          ("matplotlib", "--report", tmp_path / "report.html", "plots")):
        code = _without((missing,)) + "from sim.cli import main\nsys.exit(main(sys.argv[1:]))\n"
        out = _python(code, "study", study, "--replications", "2", option, str(value))
        assert out.returncode == 2, out.stderr
        assert out.stderr == f"sim: error: {option}: {option} needs {missing}: pip install 'sim[{extra}]'\n"
        assert out.stdout == "" and not value.exists()
    # sim play: Voila (the notebooks extra) serves its page
    code = _without(("voila",)) + "from sim.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    out = _python(code, "play", str(ROOT / "scenarios" / "kill_zone_play.yaml"), "--no-browser")
    assert (out.returncode, out.stdout) == (2, "")
    assert out.stderr == "sim: error: sim play needs voila: pip install 'sim[notebooks]'\n"


def test_the_pictures_and_frames_name_their_extra():
    code = _without(("matplotlib", "pandas")) + (
        "import sim\n"
        "try:\n    sim.viz\nexcept ImportError as e:\n    print(e)\n"
        "try:\n    sim.run('scenarios/open_ground_advance.yaml').log.to_frame()\n"
        "except sim.InputError as e:\n    print(e)\n")
    out = _python(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["sim.viz needs matplotlib: pip install 'sim[plots]'",
                                       "EventLog.to_frame needs pandas: pip install 'sim[frames]'"]


def test_the_command_lines_version_and_help_load_no_heavy_module():
    """``sim --version`` and every ``--help`` answer from the parser alone: no registry
    (which loads networkx and pydantic), no engine, no study."""
    for argv in (["--version"], ["--help"], ["run", "--help"], ["study", "--help"], ["demo", "--help"],
                 ["play", "--help"]):
        statement = ("import contextlib, io\nfrom sim.cli import main\n"
                     f"try:\n    with contextlib.redirect_stdout(io.StringIO()):\n        main({argv!r})\n"
                     "except SystemExit as end:\n    assert end.code == 0, end.code")
        loaded = _loaded_by(statement)
        assert "sim.cli.parser" in loaded, argv
        heavy = (*[n for n in HEAVY if not n.startswith("sim.") and n != "yaml"], "sim.systems.registry",
                 "sim.systems.plugins", "sim.engine", "sim.study", "sim.viz", "sim.space", "sim.gym")
        assert _in(loaded, heavy) == [], (argv, _in(loaded, heavy))


def test_sim_gym_loads_pettingzoo_only_when_a_parallel_name_is_used():
    """``sim.gym``'s single-agent environment needs gymnasium alone; its parallel names load
    pettingzoo at their first use, and say which extra brings it when it is missing."""
    loaded = _loaded_by("import sim.gym\nsim.gym.BattleEnv")
    assert "gymnasium" in loaded and _in(loaded, ("pettingzoo", "sim.gym.parallel")) == []
    used = _loaded_by("import sim.gym\nsim.gym.self_play")
    assert {"pettingzoo", "sim.gym.parallel", "sim.gym.selfplay"} <= set(used)
    code = _without(("pettingzoo",)) + (
        "import sim.gym\n"
        "try:\n    sim.gym.BattleParallelEnv\nexcept ImportError as e:\n    print(e)\n")
    out = _python(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["sim.gym.BattleParallelEnv needs pettingzoo: pip install 'sim[gym]'"]
