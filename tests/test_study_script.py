"""Issue 22, item 12: `sim.run_study(..., workers=2)` from a script with no
`if __name__ == "__main__":` guard runs (its workers do not import the script again, so
they do not run the study again), on the process pool and on Dask; a base game that
such a script defines, which its workers could only have by importing it, is one
InputError that says what to do.
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import SCENARIOS

STUDY = SCENARIOS / "march_halt.yaml"

UNGUARDED = f"""\
import sim
study = sim.load_study({str(STUDY)!r})
print("start")
run = sim.run_study(study, replications=6, workers=2, executor={{executor!r}})
print("done", sorted(run.summary.cells), run.summary.cells["this_move"]["end_time"].n)
"""


def run_script(tmp_path, sim_env, text: str) -> subprocess.CompletedProcess:
    script = tmp_path / "study_script.py"
    script.write_text(text)
    return subprocess.run([sys.executable, str(script)], env=sim_env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("executor", ["processes", "dask"])
def test_a_script_without_a_main_guard_runs_a_study_on_workers(tmp_path, sim_env, executor):
    p = run_script(tmp_path, sim_env, UNGUARDED.format(executor=executor))
    assert (p.returncode, p.stderr) == (0, ""), p.stderr[-3000:]
    assert p.stdout == "start\ndone ['rest_of_phase', 'this_move'] 6\n"


DEFINES_A_GAME = f"""\
import sim
import sim.plugin as sp
class Knobs(sp.Knobs):
    need: int = 6
class Game:
    state = None
    def setup(self, battle):
        pass
    def on_phase(self, battle, phase):
        pass
sp.register(sp.BaseGame(name="mine", title="mine", phases=(sp.PhaseSpec("wait"),), game=Game, knobs=Knobs))
study = sim.load_study({str(STUDY)!r})
try:
    sim.run_study(study, replications=6, workers=2)
except sim.InputError as err:
    print(err)
"""


def test_a_base_game_defined_in_such_a_script_is_one_input_error(tmp_path, sim_env):
    p = run_script(tmp_path, sim_env, DEFINES_A_GAME)
    script = tmp_path / "study_script.py"
    assert (p.returncode, p.stderr) == (0, ""), p.stderr[-3000:]
    assert p.stdout == (
        f"{script}: workers: the workers cannot have BaseGame 'mine', which this script "
        'defines, as it runs the study outside `if __name__ == "__main__":` (they would '
        'run it again): put the code that runs the study under `if __name__ == '
        '"__main__":`\n')


def test_with_the_guard_such_a_script_runs_its_own_base_game_on_workers(tmp_path, sim_env):
    head, _, tail = DEFINES_A_GAME.partition("study = ")
    body = "study = " + tail.replace("sim.run_study(study, replications=6, workers=2)",
                                     "print(sorted(sim.run_study(study, replications=6, "
                                     "workers=2).summary.cells))")
    guarded = head + 'if __name__ == "__main__":\n' + "".join(
        f"    {line}\n" for line in body.splitlines())
    p = run_script(tmp_path, sim_env, guarded)
    assert (p.returncode, p.stderr, p.stdout) == (0, "", "['rest_of_phase', 'this_move']\n")
