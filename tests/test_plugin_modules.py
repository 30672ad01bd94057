"""Plug-in modules that misbehave, on every command: one line, exit 2, naming the module.

A ``--plugin`` (or ``SIM_PLUGINS``) module whose import exits (``raise SystemExit(0)``,
``sys.exit("bye")``) and a module that was already imported (``os``, ``json``,
``sim.cli``: importing it again registers nothing) are refused by every command, as one
that registers nothing is; Ctrl-C while a plug-in is imported stops the command as Ctrl-C
does anywhere. ``sim validate --plugins`` reports whatever a plug-in's self-check raises
(a battle that exits, a watch whose radius raises, a knob model that raises, a message
that cannot be made) as one line naming the base game, never a traceback.
"""
from __future__ import annotations

import subprocess
import textwrap

import pytest

from conftest import PY, ROOT, SCENARIOS
from sim.cli import main
from sim.experimental import unregister_system

# Each command, with arguments it parses: the plug-ins are loaded before any file is read.
COMMANDS = {
    "run": ["run", "x.yaml"], "validate": ["validate", "x.yaml"], "rules": ["rules"],
    "schema": ["schema"], "study": ["study", "x.yaml"], "select": ["select", "x.yaml"],
    "demo": ["demo", "--fast"], "analyse": ["analyse", "x.yaml", "--db", "x.db"], "play": ["play", "x.yaml"],
}

# A module's text (None: one Python or sim has imported already) and what its line says.
BAD_MODULES = {
    "exits_zero": ("raise SystemExit(0)\n", "SystemExit(0)"),
    "exits_bye": ("import sys\nsys.exit('bye')\n", "SystemExit('bye')"),
    "exits_bare": ("raise SystemExit\n", "SystemExit(None)"),
    "os": (None, "already imported"),
    "json": (None, "already imported"),
    "sim.cli": (None, "already imported"),
}


def refused(capsys, argv: list[str]) -> str:
    """Run the CLI in-process: exit 2, nothing on stdout, one line on stderr."""
    code = main(argv)
    out, err = capsys.readouterr()
    assert (code, out) == (2, ""), (argv, code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sim: error: ") and "Traceback" not in err, err
    return lines[0]


@pytest.fixture
def modules(tmp_path, monkeypatch):
    """A folder on the Python path, and the work directory, for throw-away modules."""
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SIM_PLUGINS", raising=False)
    return tmp_path


def module_name(modules, name: str, command: str) -> str:
    """The module to name: a file written for this command (a name not imported yet), or ``name``."""
    text, _ = BAD_MODULES[name]
    if text is None:
        return name
    unique = f"{name}_{command}"
    (modules / f"{unique}.py").write_text(text)
    return unique


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("name", BAD_MODULES)
def test_a_plugin_that_exits_or_was_already_imported_is_refused_by_every_command(modules, capsys,
                                                                                name, command):
    module = module_name(modules, name, command)
    line = refused(capsys, [*COMMANDS[command], "--plugin", module])
    assert line.startswith("sim: error: --plugin: ") and f"{module}" in line, line
    assert BAD_MODULES[name][1] in line, line


@pytest.mark.parametrize("name", ["exits_zero", "sim.cli"])
def test_before_the_command_and_in_sim_plugins_too(modules, capsys, monkeypatch, name):
    module = module_name(modules, name, "before")
    line = refused(capsys, ["--plugin", module, "rules"])
    assert line.startswith("sim: error: --plugin: ") and module in line
    monkeypatch.setenv("SIM_PLUGINS", f"{module}")
    line = refused(capsys, ["rules"])
    assert line.startswith("sim: error: SIM_PLUGINS: ") and module in line


def test_a_plugin_that_exits_is_exit_2_for_the_sim_process(tmp_path):
    """As the user sees it: not exit 0 with no battle and no word."""
    (tmp_path / "exits_zero.py").write_text("raise SystemExit(0)\n")
    out = subprocess.run([PY, "-m", "sim", "run", str(SCENARIOS / "open_ground_advance.yaml"),
                          "--plugin", "exits_zero", "--json"], capture_output=True, text=True,
                         cwd=tmp_path, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{ROOT}:{tmp_path}"},
                         timeout=120)
    assert (out.returncode, out.stdout) == (2, ""), out
    assert out.stderr.startswith("sim: error: --plugin: cannot load exits_zero (SystemExit(0)")
    assert len(out.stderr.splitlines()) == 1


def test_guard_nothing_registered_and_ctrl_c_while_importing(modules, capsys):
    """Guards of what the change above must keep (these held before it): a module that
    registers nothing is refused by every command, and a KeyboardInterrupt in a plug-in's
    import is Ctrl-C (`sim: interrupted`, 130), not a plug-in's failure."""
    for command, argv in COMMANDS.items():
        (modules / f"empty_{command}.py").write_text("X = 1\n")
        line = refused(capsys, [*argv, "--plugin", f"empty_{command}"])
        assert f"the plug-in module 'empty_{command}' registers nothing" in line
    (modules / "ctrl_c.py").write_text("raise KeyboardInterrupt\n")
    assert main(["rules", "--plugin", "ctrl_c"]) == 130
    assert capsys.readouterr() == ("", "sim: interrupted\n")


# -- sim validate --plugins: whatever the self-check raises -----------------------------------
SYSTEM = '''
import sim.plugin as sp
sp.define_rules({"{P}.ROLL": "Nothing at all"})

class Knobs(sp.Knobs):
    need: int = 6

class Game:
    state = None
    def setup(self, battle):
        """Nothing to set up."""
    def on_phase(self, battle, phase):
        """Nothing happens."""

{BODY}

sp.register(sp.BaseGame(name="{P}", title="A broken self-check", phases=(sp.PhaseSpec("wait"),),
                        knobs=Knobs, rules=("{P}.ROLL",), **{"game": Game, **EXTRA}))
sp.register(sp.Ruleset("{P}", "A broken self-check", base="{P}"))
REGISTERED = True
'''

BROKEN = {
    # a battle that exits the program
    "sc_exit": ('''
class Exits(Game):
    def on_phase(self, battle, phase):
        raise SystemExit("bye")
EXTRA = {"game": Exits}
''', "the self-check battle 'advance' at seed 1 raised SystemExit('bye')"),
    # an armed watch whose radius raises when the check reads it
    "sc_radius": ('''
class Shy(sp.Watch):
    rule = "{P}.ROLL"
    @property
    def radius(self):
        raise RuntimeError("no radius here")
    def reactors(self, battle, side):
        return []

class Armed(Game):
    def setup(self, battle):
        battle.referee.add(Shy())
EXTRA = {"game": Armed}
''', "the self-check raised RuntimeError: no radius here"),
    # a knob model whose validator raises what pydantic does not catch (once registered)
    "sc_knobs": ('''
import pydantic
REGISTERED = False
class Knobs(sp.Knobs):
    need: int = 6
    @pydantic.model_validator(mode="after")
    def refuse(self):
        if REGISTERED:
            raise TypeError("never valid")
        return self
EXTRA = {}
''', "no self-check scenario loads (self-check scenario 'advance': loading it raised TypeError: never valid"),
    # a battle raising an exception whose message cannot be made
    "sc_message": ('''
class Mute(Exception):
    def __str__(self):
        raise ValueError("no words")

class Raises(Game):
    def on_phase(self, battle, phase):
        raise Mute()
EXTRA = {"game": Raises}
''', "the self-check battle 'advance' at seed 1 raised Mute: (its message cannot be shown)"),
}


@pytest.mark.parametrize("name", BROKEN)
def test_validate_plugins_reports_whatever_a_self_check_raises_in_one_line(modules, capsys, name):
    body, words = BROKEN[name]
    text = SYSTEM.replace("{BODY}", textwrap.dedent(body)).replace("{P}", name)
    (modules / f"{name}_mod.py").write_text(text)
    try:
        code = main(["validate", "--plugins", "--plugin", f"{name}_mod"])
        out, err = capsys.readouterr()
    finally:
        unregister_system(name)
    assert (code, err) == (1, ""), (code, out, err)
    mine = [line for line in out.splitlines() if line.startswith(f"base game '{name}' (Python): ")]
    assert mine and any(words in line for line in mine), out
