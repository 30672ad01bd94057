"""Small helpers to build scenarios from dicts and run them (engine tests).

``table(waypoints, edges)`` makes a tabletop terrain; ``scenario(...)`` a whole
snap-fire scenario dict; ``build(data)`` validates it with the real loader and
``run(data, seed)`` runs one battle and returns it (``battle.log`` is the event log);
``set_up(data, seed)`` builds one and runs only its ruleset's setup.
"""
from __future__ import annotations

import contextlib
import copy
import importlib.util
import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# Every property test is reproducible: no example database replaying old finds, and
# derandomized search, so a run in CI sees exactly what a run here saw.
settings.register_profile("sim", database=None, derandomize=True, deadline=None)
settings.load_profile("sim")

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "scenarios"
SHIPPED = ["open_ground_advance.yaml", "march_column.yaml"]


def benchmark(name: str):
    """The module ``benchmarks/<name>.py``, loaded as ``bench_<name>`` (a script, not a package)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def table(waypoints: dict, edges: list | None = None, width: float = 200, height: float = 100,
          areas: list | None = None) -> dict:
    spec = {"kind": "table", "width": width, "height": height,
            "waypoints": {k: list(v) for k, v in waypoints.items()}}
    if edges:
        spec["edges"] = [list(e) for e in edges]
    if areas:
        spec["areas"] = areas
    return spec


def unit(uid: str, at: str, **kw) -> dict:
    u = {"id": uid, "at": at}
    u.update(kw)
    return u


def scenario(terrain: dict, blue: list, red: list, rules: dict | None = None, turns: int = 2,
             objective: str | None = None, destroy: bool = True, name: str = "t") -> dict:
    data = {"name": name, "ruleset": "snapfire", "turns": turns, "sides": ["blue", "red"],
            "terrain": terrain, "forces": {"blue": blue, "red": red},
            "victory": {"attacker": "blue", "destroy": destroy}}
    if objective is not None:
        data["victory"]["objective"] = objective
    if rules:
        data["rules"] = rules
    return data


def register_game(game, *, replace: bool = False):
    """Register a test's base game with a ruleset of its name (what a scenario's ``ruleset``
    names); ``sim.experimental.unregister_system(name)`` takes both back."""
    import sim.plugin as sp

    sp.register(game, replace=replace)
    sp.register(sp.Ruleset(game.name, game.title, base=game.name), replace=replace)
    return game


def build(data: dict):
    from sim.scenario.load import scenario_from_dict

    return scenario_from_dict(copy.deepcopy(data))


def run(data, seed: int = 1):
    """Run one battle of a scenario dict (or a loaded Scenario); returns the Battle."""
    from sim.engine.battle import Battle

    sc = build(data) if isinstance(data, dict) else data
    return Battle(sc, seed).run()


def run_killing(data, uid: str, at: float, seed: int = 1):
    """Run a battle in which an outside process eliminates unit ``uid`` at time ``at``
    (whatever it is doing then); returns the Battle and that unit's eliminate record."""
    from sim.engine.battle import Battle

    b = Battle(build(data) if isinstance(data, dict) else data, seed)

    def killer():
        yield b.env.timeout(at)
        b.eliminate(b.units[uid])

    b.env.process(killer())
    b.run()
    (rec,) = b.log.where(event="eliminate", unit=uid)
    return b, rec


def set_up(data: dict, seed: int = 1):
    """A Battle of a scenario dict with its ruleset's setup run, not yet run."""
    from sim.engine.battle import Battle
    from sim.scenario.load import scenario_from_dict

    b = Battle(scenario_from_dict(data), seed)
    b.setup()
    return b


def recs(battle, **match):
    return battle.log.where(**match)


def lane(length: float = 100.0, y: float = 50.0, firer_at=(50.0, 58.0), step: float | None = None):
    """A straight west→east lane A→B (one edge) and a firer position F off it.

    Returns (terrain, ids): the mover starts at A (0, y) and goes to B (length, y).
    """
    wp = {"A": (0.0, y), "B": (length, y), "F": tuple(firer_at)}
    return table(wp, [("A", "B")]), wp


def err_line(capsys, argv) -> str:
    """Run the CLI in-process: exit 2 and exactly one line on stderr, no traceback."""
    from sim.cli import main

    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert rc == 2, (argv, rc, out, err)
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1 and lines[0].startswith("sim: error: "), err
    assert "Traceback" not in err
    return lines[0]


@contextlib.contextmanager
def tmpfs(mount: Path, size: str = "8m"):
    """A tmpfs of ``size`` mounted on the new folder ``mount`` for the block (needs the
    right to mount, as root has here; else the test is skipped)."""
    import subprocess

    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)],
                          capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


@pytest.fixture
def sim_env():
    """Environment for `python -m sim` subprocesses: the repo on the path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("PYTHONHASHSEED", None)
    return env


PY = sys.executable


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium (``tests/browser.py``); ``make test`` installs it, so under CI a
    missing browser fails the test rather than skipping it."""
    from browser import Browser

    need_chromium()
    with Browser() as b:
        yield b


def need_chromium() -> None:
    """Skip a browser test where Chromium is missing; under CI (``make test`` installs it),
    fail it instead."""
    from browser import chromium

    if chromium() is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (make test installs it)")
        pytest.skip("chromium is not installed (apt-get install chromium)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The two example plug-ins are kept as an earlier version wrote them, and warn of the
    names they use (``tests/test_namespace.py`` checks that they do): what they warn of is no
    error here, so ``-W error::DeprecationWarning`` catches the project's own code alone."""
    for item in items:
        item.add_marker(pytest.mark.filterwarnings(r"ignore::DeprecationWarning:sim_(duel|mgbeam)"))


@pytest.fixture(autouse=True)
def _plugin_modules_forgotten():
    """A plug-in module a test imports (``--plugin`` in-process) is forgotten after it: else
    every later study in this process would send its name to its workers, which cannot import
    it once the test's folder is gone from the path."""
    from sim.systems import plugins

    before = list(plugins._IMPORTED)
    yield
    plugins._IMPORTED[:] = before
