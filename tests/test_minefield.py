"""The third proof of the plug-in path: ``examples/plugins/sim-minefield``, a *rule module*
written only against ``sim.plugin`` and installed as its own distribution (``make test``
installs it), in one battle with snap fire on the skirmish base game. It uses the ground as a
reactor (entering a field, each further 5 cm inside it, crossing wire), the referee's exact
progress inside a field, the base game's damage and keep-busy services, its own section of
the scenario and its features, a drawing and an observation.

Every halt and roll point is checked against exact geometry (rational arithmetic with
``Fraction`` on the very floats of the scenario, and the closed form of a point along a
straight path); the mines' rate against its exact chance (1e-6 false alarm); every roll of
both modules audited."""
from __future__ import annotations

import copy
import math
import subprocess
from fractions import Fraction

import numpy as np
import pytest
import yaml
from scipy.stats import binomtest

import sim
from conftest import PY, ROOT
from invariants import ROLL_TESTS, check

MF_DIR = ROOT / "examples" / "plugins" / "sim-minefield"
ASSAULT = MF_DIR / "scenarios" / "minefield_assault.yaml"
ALPHA = 1e-6


def _doc():
    return yaml.safe_load(ASSAULT.read_text())


def _lane(field_need=5, step=5.0, wire=None, post=None, turns=16, move=15.0, steps=50):
    """One blue stand walking straight east from (0, 30) to (120, 30) through a field
    x 20..80 (and wire, a snap-fire post) on the skirmish game with snap fire and minefield."""
    doc = {"name": "lane", "base": "skirmish", "modules": ["snapfire", "minefield"], "turns": turns,
           "sides": ["blue", "red"],
           "terrain": {"kind": "table", "width": 120, "height": 60,
                       "waypoints": {"A": [0, 30], "B": [120, 30], "R": list(post or [119, 59])},
                       "edges": [["A", "B"]]},
           "forces": {"blue": [{"id": "b", "at": "A", "steps": steps, "armour": 7, "move": move,
                                "orders": {"type": "advance", "to": "B"}}],
                      "red": [{"id": "r", "at": "R", "steps": 50, "armour": 7}]},
           "victory": {"attacker": "blue", "destroy": False},
           "rules": {"base": {"shoot_range": 0, "charge_range": 0}, "minefield": {"step": step}},
           "features": {"minefield": {"fields": [{"id": "f", "polygon": [[20, 10], [80, 10], [80, 50], [20, 50]],
                                                  "need": field_need}],
                                      "wire": [wire] if wire else []}}}
    return sim.scenario_from_dict(doc)


def _audited(scenario, records):
    """Every invariant (snap fire's rolls by the catalogue), and each MF.STEP roll by its own test."""
    for r in records:
        if r["rule"] == "MF.STEP":
            need = next(f.need for f in scenario.features.minefield.fields if f.id == r["feature"])
            assert r["event"] == "mine" and r["mods"] == 0 and r["need"] == need
            assert len(r["dice"]) == 1 and 1 <= r["dice"][0] <= 6 and r["success"] == (r["dice"][0] >= need)
    tests = dict(ROLL_TESTS)
    ROLL_TESTS["MF.STEP"] = lambda r: r["success"] == (r["dice"][0] >= r["need"])
    try:
        check(scenario, records)
    finally:
        ROLL_TESTS.clear()
        ROLL_TESTS.update(tests)


def test_the_module_is_installed_as_a_distribution_and_loads_from_its_entry_point():
    from sim.systems.registry import REGISTRY

    assert "minefield" in REGISTRY.modules.names()
    assert REGISTRY.modules.origin("minefield").startswith("entry point sim.modules: minefield")


def test_a_mover_enters_at_the_boundary_and_rolls_each_further_5cm_exactly():
    """The stand enters at x = 20 (MF.ENTER, no roll) and rolls at 5, 10, ..., 60 cm inside
    (x = 25 ... 80), each ``inside`` exactly k·5 and each point where it says."""
    sc = _lane()
    log = sim.run(sc, 1).log.records
    _audited(sc, log)
    enter = [r for r in log if r["event"] == "enter_field"]
    assert [(r["unit"], r["feature"]) for r in enter] == [("b", "f")]
    assert enter[0]["pos"] == (20.0, 30.0)
    mines = [r for r in log if r["event"] == "mine"]
    assert [r["inside"] for r in mines] == pytest.approx([5.0 * k for k in range(1, 13)], abs=1e-9)
    assert [r["pos"] for r in mines] == [pytest.approx((20.0 + 5 * k, 30.0), abs=1e-9) for k in range(1, 13)]


def test_progress_runs_on_across_moves_a_halt_and_a_turn():
    """Wire across the field halts the stand inside it, 23 cm in (no multiple of 5), and keeps
    it a turn; the rolls go on at every further 5 cm of the total walked inside, across the
    halt, the lost turn and the next moves (the referee's progress is one running total)."""
    sc = _lane(wire={"id": "w", "points": [[43, 5], [43, 55]]})
    log = sim.run(sc, 2).log.records
    _audited(sc, log)
    halts = [r for r in log if r["event"] == "halt" and r["rule"] == "MF.WIRE"]
    assert len(halts) == 1 and halts[0]["pos"] == pytest.approx((43.0, 30.0), abs=1e-12)
    mines = [r for r in log if r["event"] == "mine"]
    assert [r["inside"] for r in mines] == pytest.approx([5.0 * k for k in range(1, 13)], abs=1e-9)
    assert [r["pos"][0] for r in mines] == pytest.approx([20.0 + 5 * k for k in range(1, 13)], abs=1e-9)
    halted_at = log.index(halts[0])
    assert any(r["event"] == "mine" for r in log[:halted_at]) and any(r["event"] == "mine" for r in log[halted_at:])


def _crossing(p0, p1, a, b):
    """Where p0→p1 meets a→b, in exact rational arithmetic on the floats given."""
    p0, p1, a, b = ([Fraction(c) for c in p] for p in (p0, p1, a, b))
    d = (p1[0] - p0[0], p1[1] - p0[1])
    e = (b[0] - a[0], b[1] - a[1])
    w = (a[0] - p0[0], a[1] - p0[1])
    t = (w[0] * e[1] - w[1] * e[0]) / (d[0] * e[1] - d[1] * e[0])
    return p0[0] + t * d[0], p0[1] + t * d[1]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_wire_halt_is_exactly_where_the_path_meets_the_wire(seed):
    """In the shipped assault, each stand's straight path to the ridge meets the wire line;
    its MF.WIRE halt is there, to 1e-12, against Fraction geometry on the scenario's floats."""
    sc = sim.load_scenario(ASSAULT)
    log = sim.run(sc, seed).log.records
    _audited(sc, log)
    wire = sc.features.minefield.wire[0].points
    start = {u.id: sc.map.pos(u.at) for _, u in sc.units()}
    ridge = sc.map.pos("RIDGE")
    halts = [r for r in log if r["event"] == "halt" and r["rule"] == "MF.WIRE"]
    assert halts
    for r in halts:
        x, y = _crossing(start[r["unit"]], ridge, wire[0], wire[1])
        assert r["pos"] == pytest.approx((float(x), float(y)), abs=1e-12)


def test_a_stand_on_the_wire_is_kept_busy_its_next_turn_then_goes_on():
    """MF.WIRE: halted on the wire in its turn T, it is busy (a ``busy`` record, until T + 4),
    makes no move in T + 2, is ``ready`` at T + 4 and moves on from the wire, not halted again."""
    sc = _lane(wire={"id": "w", "points": [[90, 5], [90, 55]]})
    log = sim.run(sc, 1).log.records
    _audited(sc, log)
    halt = next(r for r in log if r["event"] == "halt" and r["rule"] == "MF.WIRE")
    assert halt["pos"] == pytest.approx((90.0, 30.0), abs=1e-12)
    busy = next(r for r in log if r["event"] == "busy")
    assert (busy["unit"], busy["rule"], busy["turns"], busy["until"]) == ("b", "MF.WIRE", 1, halt["turn"] + 4)
    moves = [r["turn"] for r in log if r["event"] == "move" and r["unit"] == "b"]
    assert halt["turn"] + 2 not in moves and halt["turn"] + 4 in moves
    ready = next(r for r in log if r["event"] == "ready")
    assert ready["turn"] == halt["turn"] + 4 and ready["unit"] == "b"
    assert sum(1 for r in log if r["event"] == "halt" and r["rule"] == "MF.WIRE") == 1


def test_the_mines_go_off_as_often_as_the_dice_say():
    """MF.STEP on a need of 5: P(a mine goes off) = 2/6 exactly; over 40 battles of 12 rolls
    each, the count is within a 1e-6 two-sided binomial test of it, and each blast takes
    ``damage`` steps off through the base game's damage service (a ``hit`` under MF.BLAST)."""
    sc = _lane(field_need=5)
    rolls = hits = 0
    for seed in range(1, 41):
        log = sim.run(sc, seed).log.records
        mines = [r for r in log if r["event"] == "mine"]
        rolls += len(mines)
        hits += sum(r["success"] for r in mines)
        blasts = [r for r in log if r["event"] == "hit" and r["rule"] == "MF.BLAST"]
        assert len(blasts) == sum(r["success"] for r in mines)
        assert all(r["steps_lost"] == 1 and r["unit"] == "b" for r in blasts)
    p = Fraction(7 - 5, 6)
    assert rolls == 40 * 12
    assert binomtest(hits, rolls, float(p)).pvalue > ALPHA


def test_each_modules_rules_act_in_the_composed_battle_each_roll_audited():
    """Snap fire's and the minefield's rules all act in the shipped assault (seeds 1-10)."""
    sc = sim.load_scenario(ASSAULT)
    seen = set()
    for seed in range(1, 11):
        log = sim.run(sc, seed).log.records
        _audited(sc, log)
        seen |= {(r["event"], r["rule"]) for r in log}
    for pair in [("halt", "SF.HALT"), ("snap_fire", "SF.ROLL"), ("hit", "BASE.S.HIT"),
                 ("enter_field", "MF.ENTER"), ("mine", "MF.STEP"), ("hit", "MF.BLAST"),
                 ("halt", "MF.WIRE"), ("busy", "MF.WIRE"), ("ready", None), ("shoot", "BASE.S.SHOOT")]:
        assert pair in seen, pair


def test_its_features_are_checked_when_the_scenario_is_read():
    doc = _doc()
    doc["features"]["minefield"]["fields"][0]["polygon"][1] = [500, 5]
    off = r"features\.minefield\.fields\.0\.polygon\.1: point \[500\.0, 5\.0\] is off"
    with pytest.raises(sim.InputError, match=off):
        sim.scenario_from_dict(copy.deepcopy(doc), "m.yaml")
    doc = _doc()
    doc["features"]["minefield"]["fields"][0]["polygon"] = [[35, 5], [55, 55], [55, 5], [35, 55]]
    with pytest.raises(sim.InputError, match="not a simple polygon"):
        sim.scenario_from_dict(doc, "m.yaml")
    doc = _doc()
    doc["features"]["minefield"]["fields"][0]["density"] = 3
    with pytest.raises(sim.InputError, match=r"features\.minefield\.fields\.0\.density: unknown key"):
        sim.scenario_from_dict(doc, "m.yaml")
    doc = _doc()
    doc["modules"] = ["snapfire"]
    del doc["rules"]["minefield"]
    with pytest.raises(sim.InputError, match=r"key features: features is set but ruleset 'skirmish\+snapfire' "
                                             r"does not use it"):
        sim.scenario_from_dict(doc, "m.yaml")


def test_it_is_refused_on_a_base_game_without_the_services_it_needs():
    doc = _doc()
    doc.update(base="h17")
    del doc["rules"]["base"]   # the skirmish game's knobs
    with pytest.raises(sim.InputError, match="modules.0: rule module 'snapfire' needs the hit service"):
        sim.scenario_from_dict(copy.deepcopy(doc), "m.yaml")
    doc["modules"] = ["minefield"]
    del doc["rules"]["snapfire"]
    with pytest.raises(sim.InputError, match="modules.0: rule module 'minefield' needs "):
        sim.scenario_from_dict(doc, "m.yaml")


def test_its_drawing_is_on_the_map_and_in_the_replay():
    sc = sim.load_scenario(ASSAULT)
    result = sim.run(sc, 1)
    fig = sim.viz.plot_map(sc, result.log)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "minefield (MF.STEP)" in labels and "wire (MF.WIRE)" in labels
    html = sim.viz.replay_html(sc, result.log)
    assert "minefield (MF.STEP)" in html and "wire (MF.WIRE)" in html


def test_its_observation_is_in_the_agents_view():
    from sim.gym import BattleEnv

    env = BattleEnv(str(ASSAULT))
    assert env.observation_space["minefield"].shape == (1, 2)
    obs, _ = env.reset(seed=3)
    inside = []
    done = False
    while not done:
        assert env.observation_space.contains(obs)
        inside.append(float(obs["minefield"][0, 0]))
        obs, _, done, _, _ = env.step(np.zeros(env.action_space.shape, dtype=np.int64))
    assert max(inside) > 0.0 and inside[0] == 0.0


def test_the_plugin_self_check_and_its_documented_keys():
    out = subprocess.run([PY, "-m", "sim", "validate", "--plugins"], capture_output=True, text=True,
                         timeout=600, cwd=ROOT)
    line = next(l for l in out.stdout.splitlines() if l.startswith("rule module 'minefield'"))
    assert line.endswith("self-check passed"), out.stdout
    out = subprocess.run([PY, "-m", "sim", "schema", "plugins"], capture_output=True, text=True, timeout=300,
                         cwd=ROOT)
    assert out.returncode == 0 and "## Rule module `minefield`" in out.stdout
    assert "`features.minefield`" in out.stdout and "MF.STEP" in out.stdout


def test_its_code_is_written_against_the_plugin_namespace_only():
    """Every ``sim`` import of the plug-in is ``sim.plugin`` (the documented namespace)."""
    for path in sorted((MF_DIR / "sim_minefield").glob("*.py")):
        for line in path.read_text().splitlines():
            if line.startswith(("import sim ", "import sim.", "from sim ", "from sim.")):
                assert line in ("import sim.plugin as sp",), (path.name, line)
    assert math.isfinite(1.0)
