"""The battle's environment (sim.engine.instants): SimPy's public surface, the queue layout
it relies on, and a battle whose clock stands still stopped with one line."""
from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from importlib.metadata import version
from pathlib import Path

import pytest
import simpy
from simpy.core import NORMAL, URGENT

from conftest import ROOT
from sim.engine.instants import EVENTS_AT_AN_INSTANT, Environment, StalledBattle, events_bound


def test_simpy_files_events_as_the_environment_relies_on():
    """SimPy 4.1 keeps its queue as a heap of (time, priority, number, event) that ``step``
    pops and ``peek`` reads: ``Environment.schedule`` / ``schedule_at`` file entries of that
    shape, and this fails the day SimPy's layout changes under them."""
    env = simpy.Environment()
    late = env.timeout(2.5)
    soon = env.event().succeed()
    assert env._queue == [(0, NORMAL, 1, soon), (2.5, NORMAL, 0, late)]
    assert env.peek() == 0
    env.step()
    assert env.now == 0 and soon.processed and not late.processed
    moved = env.timeout(7.0)
    env._queue.remove((7.0, NORMAL, 2, moved))
    env._queue.insert(0, (1.0, URGENT, -1, moved))    # an entry filed by hand is stepped as filed
    env.step()
    assert env.now == 1.0 and moved.processed and not late.processed


def test_simpy_is_held_to_the_series_tested():
    spec = re.search(r'"simpy([^"]*)"', (ROOT / "pyproject.toml").read_text()).group(1)
    assert spec == ">=4.1,<4.2"
    assert version("simpy").startswith("4.1.")


def test_every_event_draws_its_number_from_the_environment_and_exact_ones_keep_their_key():
    env = Environment()
    order = []

    def note(name):
        return lambda _ev: order.append((name, env.now))

    env.timeout(1.0).callbacks.append(note("timeout"))         # number 0
    key = env.order_key()                                       # 1
    env.schedule_at(1.0, key).callbacks.append(note("keyed"))
    env.schedule_at(1.0, env.order_key(), urgent=True).callbacks.append(note("urgent"))   # 2
    env.timeout(1.0).callbacks.append(note("later timeout"))   # 3
    assert [entry[2] for entry in sorted(env._queue, key=lambda e: e[:3])] == [2, 0, 1, 3]
    assert env.numbers_drawn() == env.numbers_drawn() == 4      # reading the count draws none
    env.run()
    assert order == [("urgent", 1.0), ("timeout", 1.0), ("keyed", 1.0), ("later timeout", 1.0)]
    with pytest.raises(ValueError, match="before now"):
        env.schedule_at(0.5, env.order_key())


def test_no_private_part_of_simpy_is_touched_outside_the_environment():
    """Only ``sim.engine.instants.Environment`` knows SimPy's queue and clock attributes
    (its run loop reads an event's ``_ok`` as SimPy's ``step`` does); no code sets an event's
    ``_ok`` or ``_value`` (events are triggered by SimPy's own calls)."""
    # SimPy's environment's and events' private attributes (a rule's own ``self._ok`` is its own)
    private = re.compile(r"\.(_queue|_eid|_now|_defused|_target|_generator)\b|(?<!self)\._(ok|value)\b"
                         r"|\._(ok|value)\s*=")
    found = []
    for path in sorted((ROOT / "sim").rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if private.search(line):
                found.append((path.relative_to(ROOT).as_posix(), n, line.strip()))
    allowed = {"sim/engine/instants.py"}
    assert [f for f in found if f[0] not in allowed] == []
    inside = [f[2] for f in found if f[0] in allowed]
    assert not any(re.search(r"\._(ok|value)\s*=", line) for line in inside)   # its run loop reads _ok as step does


def test_the_bound_grows_with_the_units():
    assert events_bound(0) == EVENTS_AT_AN_INSTANT
    assert events_bound(2000) == EVENTS_AT_AN_INSTANT * 2001


def test_an_instant_over_the_bound_stops_the_environment_with_one_line():
    env = Environment(bound=50, blame=lambda: "the last reaction there: a test")

    def again():
        while True:
            yield env.timeout(0)
    env.process(again())
    with pytest.raises(StalledBattle) as err:
        env.run(until=5)
    message = str(err.value)
    assert "\n" not in message and "t=0" in message and "more than 50 events" in message
    assert message.endswith("the last reaction there: a test") and err.value.t == 0


def test_instants_that_pass_are_counted_afresh():
    env = Environment(bound=3)

    def tick():
        for _ in range(100):
            yield env.timeout(0)     # 1 event at an instant ...
            yield env.timeout(1)     # ... then on to the next
    env.process(tick())
    env.run()
    assert env.now == 100


#: A plug-in as a new author may write it: a watch that reacts, lets the mover carry on and
#: (with no ``delays``) reacts again at once where it stands, for ever.
PLUGIN = textwrap.dedent('''
    import sim.plugin as sp

    class Echo(sp.Watch):
        rule = "ECHO.1"
        radius = 70.0

        def reactors(self, battle, side):
            return battle.enemies_of(side)

        def inside_triggers(self, battle, reactor, mover, p0, p1):
            return True

        def react(self, battle, mover, trigger):
            battle.record("spot", rule=self.rule, unit=trigger.reactor.id, target=mover.id)
            return sp.Outcome.CONTINUE

    class Game:
        def __init__(self):
            self.state = None

        def setup(self, battle):
            battle.referee.add(Echo())

        def on_phase(self, battle, phase):
            battle.referee.begin_phase()
            if phase.moves:
                for u in battle.movers_of(phase.side):
                    if u.route and u.on_board:
                        u.process = battle.env.process(sp.movement_process(battle, u, phase))

    sp.register(sp.BaseGame(name="echo", title="a watch that never lets go",
                            phases=(sp.PhaseSpec("move", moves=True),), game=Game))
    sp.register(sp.Ruleset("echo", "a watch that never lets go", base="echo"))
''')

SCENARIO = textwrap.dedent('''
    name: echo
    ruleset: echo
    turns: 2
    sides: [blue, red]
    terrain:
      kind: table
      width: 200
      height: 100
      waypoints: {A: [0, 50], B: [200, 50], R: [100, 60]}
      edges: [[A, B]]
    forces:
      blue: [{id: b1, at: A, move: 40, orders: {type: advance, to: B}}]
      red: [{id: r1, at: R}]
    victory: {attacker: blue}
''')


def _files(tmp_path: Path) -> Path:
    (tmp_path / "echo_rules.py").write_text(PLUGIN)
    sc = tmp_path / "echo.yaml"
    sc.write_text(SCENARIO)
    return sc


def test_a_battle_standing_still_is_stopped_naming_the_watch_the_units_and_the_instant(tmp_path):
    """It ran until killed; now ``sim run`` stops it in one line (exit 1), and the log up to
    the stall is kept. (A timeout, not a hang, if it ever runs for ever again.)"""
    sc = _files(tmp_path)
    log = tmp_path / "echo.jsonl"
    out = subprocess.run([sys.executable, "-m", "sim", "run", str(sc), "--plugin", "echo_rules", "--log", str(log)],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path,
                         env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 1, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr
    line = lines[0]
    assert line.startswith("sim: error: ") and "stands still at t=" in line
    assert "watch Echo (rule ECHO.1) of unit r1 against mover b1" in line
    assert f"more than {events_bound(2):,} events at one instant" in line
    assert f"the log so far was written to {log}" in line
    records = log.read_text().splitlines()
    assert len(records) > 100 and '"rule":"ECHO.1"' in records[-1]


def test_the_api_raises_stalled_battle_and_a_study_reports_it_per_replication(tmp_path):
    sc = _files(tmp_path)
    code = textwrap.dedent(f'''
        import sys
        sys.path.insert(0, {str(tmp_path)!r})
        import echo_rules, sim
        from sim.engine.instants import StalledBattle
        scenario = sim.load_scenario({str(sc)!r})
        try:
            sim.run(scenario, seed=1)
        except StalledBattle as err:
            print("stalled at", err.t)
    ''')
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("stalled at ")
