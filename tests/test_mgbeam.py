"""The second proof of the plug-in path: ``examples/plugins/sim-mgbeam``, a reaction system
written only against ``import sim`` and installed as its own distribution (``make test``
installs it): machine-gun beams halt the movers that cross them, exactly where they cross.

The expected crossings are worked out here by their own geometry, not the plug-in's: the
two segments' intersection by Cramer's rule in exact rational arithmetic (``Fraction``) on
the very floats of the mover's ``move`` record and the team's ``beam`` record.
"""
from __future__ import annotations

import json
import math
import random
import re
import subprocess
from fractions import Fraction

import pytest
from scipy.stats import binomtest

import sim
from conftest import PY, ROOT

MG_DIR = ROOT / "examples" / "plugins" / "sim-mgbeam"
BEAM_FILE = MG_DIR / "scenarios" / "beam_crossing.yaml"
ALPHA = 1e-6    # the false-alarm rate of the one statistical test


def case(start, to, gun, bearing, *, length=60.0, need=4, turns=1, move=500.0, morale=4,
         gun_side="red", more=()):
    """A mover from ``start`` to ``to`` (one straight edge) and a team at ``gun`` (``more``
    red teams: (id, position, bearing))."""
    sides = {"blue": [{"id": "m", "at": "A", "move": move, "morale": morale,
                       "orders": {"type": "advance", "to": "B"}}], "red": []}
    sides[gun_side].append({"id": "g", "at": "G", "bearing": bearing})
    waypoints = {"A": list(start), "B": list(to), "G": list(gun), "R": [1, 1]}
    for uid, pos, angle in more:
        waypoints[uid.upper()] = list(pos)
        sides["red"].append({"id": uid, "at": uid.upper(), "bearing": angle})
    if not sides["red"]:
        sides["red"].append({"id": "r", "at": "R"})
    return sim.scenario_from_dict({
        "name": "mg_case", "ruleset": "mgbeam", "turns": turns, "sides": ["blue", "red"],
        "terrain": {"kind": "table", "width": 200, "height": 200, "waypoints": waypoints,
                    "edges": [["A", "B"]]},
        "forces": sides, "victory": {"attacker": "blue", "destroy": False},
        "rules": {"mgbeam": {"length": length, "pin_need": need}}})


def exact_crossing(p0, p1, a, b):
    """(t, u) where p0 + t(p1 - p0) = a + u(b - a), exactly; None when parallel."""
    p0, p1, a, b = ([Fraction(c) for c in p] for p in (p0, p1, a, b))
    d = (p1[0] - p0[0], p1[1] - p0[1])
    e = (b[0] - a[0], b[1] - a[1])
    w = (a[0] - p0[0], a[1] - p0[1])
    denom = d[0] * e[1] - d[1] * e[0]
    if denom == 0:
        return None
    return (w[0] * e[1] - w[1] * e[0]) / denom, (w[0] * d[1] - w[1] * d[0]) / denom


def beam_of(log):
    (beam,) = [r for r in log if r["event"] == "beam"]
    return tuple(beam["pos"]), tuple(beam["end"])


def halts(log):
    return [r for r in log if r["event"] == "halt"]


# -- (a) installed, listed, self-checked --------------------------------------------------------
def test_the_plugin_comes_through_its_entry_point_and_uses_only_the_public_api():
    from sim.systems.registry import origin_of

    # (the surface it was written against: the names an earlier version exported, each deprecated)
    with pytest.warns(DeprecationWarning, match=r"^sim\.\w+ is deprecated: "):
        system = sim.rule_system("mgbeam")
        # Its moving phase is not called "movement": the kernel asks the phase whether units move.
        assert system.phases == (sim.PhaseSpec("rally"), sim.PhaseSpec("advance", moves=True))
    assert "entry point sim.systems: mgbeam = sim_mgbeam:SYSTEM (sim-mgbeam" in origin_of("mgbeam")
    assert {"MG.BEAM", "MG.HALT", "MG.PIN", "MG.RALLY"} == set(system.rules)
    assert {"beam", "beam_cross"} <= system.events
    for path in sorted((MG_DIR / "sim_mgbeam").glob("*.py")):
        source = path.read_text()
        # `import sim`, the toolkit and its own modules only: no other module of sim is
        # imported, none reached into
        imports = [a or b for a, b in re.findall(r"^(?:from (\S+) import|import (\S+))", source, re.M)]
        assert imports and all(m in ("__future__", "math", "dataclasses", "typing", "collections.abc",
                                     "pydantic", "sim") or m.startswith(("sim_mgbeam.", "sim.toolkit."))
                               for m in imports), (path.name, imports)
        assert re.search(r"\bsim\.(?!events\b|toolkit\b)[a-z_]+\.", source) is None, path.name
        assert re.search(r"\bAny\b", source) is None, path.name


def test_sim_rules_run_and_validate_plugins_know_mgbeam():
    rules = subprocess.run([PY, "-m", "sim", "rules"], capture_output=True, text=True, timeout=120)
    assert rules.returncode == 0, rules.stderr
    lines = rules.stdout.splitlines()
    where = {line.split()[0]: lines[i + 1] for i, line in enumerate(lines) if line.startswith("MG.")}
    assert set(where) == {"MG.BEAM", "MG.HALT", "MG.PIN", "MG.RALLY"}
    assert "sim_mgbeam.game.BeamGame" in where["MG.BEAM"]
    assert "sim_mgbeam.watch.BeamWatch.react" in where["MG.HALT"] and "BeamWatch.react" in where["MG.PIN"]
    assert "sim_mgbeam.game.rally" in where["MG.RALLY"]
    run = subprocess.run([PY, "-m", "sim", "run", str(BEAM_FILE), "--seed", "1", "--json"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    m = json.loads(run.stdout)["metrics"]
    assert m["beam_crossings"] >= 3 and 0 <= m["beam_pins"] <= m["beam_crossings"]
    out = subprocess.run([PY, "-m", "sim", "validate", "--plugins"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert ("rule system 'mgbeam' (entry point sim.systems: mgbeam = sim_mgbeam:SYSTEM (sim-mgbeam 1.0.0)): "
            "self-check passed\n") in out.stdout


# -- (b) exact halts ----------------------------------------------------------------------------
def test_the_crossing_fraction_agrees_with_exact_intersection():
    """The plug-in's fraction against Cramer's rule in Fractions, on generic random segments."""
    from sim_mgbeam.geometry import crossing

    rng = random.Random(23)
    seen = {True: 0, False: 0}
    for _ in range(3000):
        p0, p1, a, b = ((rng.uniform(0, 200), rng.uniform(0, 200)) for _ in range(4))
        exact = exact_crossing(p0, p1, a, b)
        if exact is None or min(abs(exact[0]), abs(exact[0] - 1), abs(exact[1]), abs(exact[1] - 1)) < 1e-6:
            continue   # the degenerate cases have their own tests
        t, u = exact
        crosses = 0 < t <= 1 and 0 <= u <= 1
        got = crossing(p0, p1, a, b)
        seen[crosses] += 1
        if crosses:
            assert got is not None and abs(got - float(t)) <= 1e-12, (p0, p1, a, b)
        else:
            assert got is None, (p0, p1, a, b, got)
    assert min(seen.values()) > 200


def check_halt_is_exact(log, along=None):
    """The one halt is where the move's segment meets the beam, at the time it gets there.

    ``along``: for a segment along the beam's line (no single intersection), the point where
    it reaches the beam, its fraction then worked out from the distances.
    """
    (move,) = [r for r in log if r["event"] == "move"][:1]
    p0, p1 = tuple(move["pos"]), tuple(move["waypoints"][0])
    t0, t1 = move["t"], move["times"][0]
    a, b = beam_of(log)
    exact = exact_crossing(p0, p1, a, b)
    if exact is None:
        t, u = Fraction(math.dist(p0, along)) / Fraction(math.dist(p0, p1)), Fraction(0)
    else:
        t, u = exact
    assert 0 < t <= 1 and 0 <= u <= 1
    (halt,) = halts(log)
    x = (p0[0] + (p1[0] - p0[0]) * t, p0[1] + (p1[1] - p0[1]) * t)
    assert math.dist(halt["pos"], (float(x[0]), float(x[1]))) <= 1e-9, (halt["pos"], x)
    assert abs(halt["t"] - (t0 + float(t) * (t1 - t0))) <= 1e-9
    assert halt["rule"] == "MG.HALT" and halt["firer"] == "g"
    return halt


def test_random_movers_are_halted_exactly_where_they_cross_and_only_then():
    rng = random.Random(6)
    crossed = missed = 0
    while crossed < 12 or missed < 12:
        start, to, gun = ((rng.uniform(10, 190), rng.uniform(10, 190)) for _ in range(3))
        bearing, length = rng.uniform(0, 360), rng.uniform(20, 80)
        log = sim.run(case(start, to, gun, bearing, length=length), 1).log.records
        a, b = beam_of(log)
        assert math.dist(b, (gun[0] + length * math.cos(math.radians(bearing)),
                             gun[1] + length * math.sin(math.radians(bearing)))) <= 1e-9
        t, u = exact_crossing(start, to, a, b) or (Fraction(-1), Fraction(-1))
        if min(abs(t), abs(t - 1), abs(u), abs(u - 1)) < 1e-6:
            continue
        if 0 < t <= 1 and 0 <= u <= 1:
            check_halt_is_exact(log)
            crossed += 1
        else:
            assert not halts(log) and [r["event"] for r in log].count("arrive") == 1
            missed += 1


# The beam of a team at G = (50, 100), bearing 0, length 60: from (50, 100) to (110, 100).
GUN = (50.0, 100.0)


@pytest.mark.parametrize("start,to,point", [
    ((80, 150), (80, 30), (80, 100)),            # straight across
    ((110, 150), (110, 50), (110, 100)),         # exactly through the far end
    ((50, 150), (50, 50), (50, 100)),            # through the team's own position (inside its radius)
    ((80, 150), (80, 100), (80, 100)),           # its path ends exactly on the beam
    ((180, 100), (20, 100), (110, 100)),         # along the line from beyond the far end: end-on
    ((10, 140), (150, 70), (90, 100)),           # obliquely
])
def test_a_mover_crossing_the_beam_is_halted_at_the_crossing(start, to, point):
    log = sim.run(case(start, to, GUN, 0.0), 1).log.records
    halt = check_halt_is_exact(log, along=point)
    assert math.dist(halt["pos"], point) <= 1e-9


@pytest.mark.parametrize("start,to,why", [
    ((20, 110), (180, 110), "parallel to the beam"),
    ((20, 100 + 1e-6), (180, 100 + 1e-6), "parallel, a hair off the line"),
    ((80, 150), (80, 101), "its path ends before the beam"),
    ((110.001, 150), (110.001, 50), "just past the far end"),
    ((30, 150), (30, 50), "behind the team"),
    ((80, 100), (80, 150), "starts on the beam and leaves it"),
    ((80, 100), (180, 100), "starts on the beam and runs along it"),
    ((180, 100), (120, 100), "along the line, short of the far end"),
])
def test_a_mover_that_does_not_cross_the_beam_is_never_halted(start, to, why):
    log = sim.run(case(start, to, GUN, 0.0, turns=3), 1).log.records
    assert not halts(log) and not [r for r in log if r["event"] == "beam_cross"], why
    assert [r["event"] for r in log].count("arrive") == 1, why


def test_beams_crossed_at_one_instant_each_roll_under_one_halt():
    """Two beams that cross at (80, 100), and a path through that very point: tied reactions."""
    log = sim.run(case((60, 130), (100, 70), GUN, 0.0, need=1, more=[("h", (80, 60), 90.0)]), 1).log.records
    (halt,) = halts(log)
    rolls = [r for r in log if r["event"] == "beam_cross"]
    assert math.dist(halt["pos"], (80, 100)) <= 1e-9 and halt["firer"] == "g"
    assert [r["unit"] for r in rolls] == ["g", "h"] and all(r["success"] for r in rolls)
    assert all(r["t"] == halt["t"] and r["pos"] == halt["pos"] for r in rolls)
    assert [r["by"] for r in log if r["event"] == "pin"] == ["g"]   # pinned once


def test_a_teams_own_side_crosses_its_beam_unhalted():
    log = sim.run(case((80, 150), (80, 30), GUN, 0.0, gun_side="blue"), 1).log.records
    assert not halts(log) and [r["event"] for r in log].count("arrive") == 1


def test_a_halted_mover_goes_on_from_the_beam_and_a_pinned_one_stays_put():
    # Move 60 a turn from (80, 150) towards (80, 20): its first move crosses the beam 50 along.
    free = sim.run(case((80, 150), (80, 20), GUN, 0.0, need=7, turns=5, move=60.0), 1).log.records
    halt = check_halt_is_exact(free)
    moves = [r for r in free if r["event"] == "move"]
    assert len(halts(free)) == 1 and len(moves) == 3   # from the beam on, never halted again
    assert moves[1]["pos"] == halt["pos"] and moves[1]["turn"] == 3
    pinned = sim.run(case((80, 150), (80, 20), GUN, 0.0, need=1, turns=7, move=60.0, morale=7), 1).log
    assert len([r for r in pinned if r["event"] == "move"]) == 1   # pinned, it never rallies
    (pin,) = pinned.where(event="pin")
    assert (pin["rule"], pin["unit"], pin["by"], pin["pos"]) == ("MG.PIN", "m", "g", halt["pos"])
    rallies = pinned.where(event="rally")
    assert [r["turn"] for r in rallies] == [3, 5, 7] and not any(r["success"] for r in rallies)
    assert all(r["phase"] == "rally" for r in rallies)


# -- (c) the roll records ------------------------------------------------------------------------
def test_every_pin_and_rally_roll_is_a_logged_roll():
    scenario = sim.load_scenario(str(BEAM_FILE))
    pinned_any = rallied_any = False
    for seed in range(1, 11):
        log = sim.run(scenario, seed).log.records
        pinned: set[str] = set()
        for i, r in enumerate(log):
            if r["event"] in ("beam_cross", "rally"):
                assert set(sim.events.ROLL_KEYS) <= set(r)
                (face,) = r["dice"]
                assert 1 <= face <= 6 and r["mods"] == 0
                assert r["success"] == (face + r["mods"] >= r["need"])
            if r["event"] == "beam_cross":
                assert r["rule"] == "MG.PIN" and r["need"] == 4 and r["unit"] in ("g1", "g2")
                halt = next(h for h in reversed(log[:i]) if h["event"] == "halt")
                assert (halt["t"], halt["unit"], halt["pos"]) == (r["t"], r["target"], r["pos"])
                after = log[i + 1] if i + 1 < len(log) else {}
                assert (after.get("event") == "pin" and after["unit"] == r["target"]) == \
                    (r["success"] and r["target"] not in pinned)
                if r["success"]:
                    pinned.add(r["target"])
                    pinned_any = True
            elif r["event"] == "rally":
                assert r["rule"] == "MG.RALLY" and r["need"] == 4 and r["unit"] in pinned
                if r["success"]:
                    pinned.discard(r["unit"])
                    rallied_any = True
            elif r["event"] == "move":
                assert r["unit"] not in pinned   # a pinned unit does not move
    assert pinned_any and rallied_any


# -- (d) the pin probability ---------------------------------------------------------------------
def test_the_pin_frequency_agrees_with_the_exact_chance():
    need, n = 5, 1200
    p = Fraction(7 - need, 6)
    scenario = case((80, 150), (80, 30), GUN, 0.0, need=need)
    pins = 0
    for seed in range(1, n + 1):
        (roll,) = sim.run(scenario, seed).log.where(event="beam_cross")
        pins += roll["success"]
    test = binomtest(pins, n, float(p))
    assert test.pvalue >= ALPHA, f"{pins}/{n} pinned, exact {p}"


# -- (e) the metrics -----------------------------------------------------------------------------
def test_the_metrics_count_the_records():
    scenario = sim.load_scenario(str(BEAM_FILE))
    for seed in range(1, 11):
        result = sim.run(scenario, seed)
        log = result.log.records
        pins = [r for r in log if r["event"] == "pin"]
        m = result.metrics
        assert m["beam_crossings"] == len([r for r in log if r["event"] == "beam_cross"])
        assert m["beam_pins"] == len(pins)
        assert m["first_pin_time"] == (pins[0]["t"] if pins else log[-1]["t"])
    assert sim.metric_kinds("mgbeam")["first_pin_time"] == "real"


# -- (f) bad input -------------------------------------------------------------------------------
@pytest.mark.parametrize("old,new,words", [
    ("mgbeam: {length: 40,", "mgbeam: {lenght: 40,", ["key rules.mgbeam.lenght", "unknown key"]),
    ("pin_need: 4}", "pin_need: 9}", ["rules.mgbeam.pin_need", "9"]),
    ("{id: g1, at: G1, bearing: 90}", "{id: g1, at: G1, baering: 90}", ["forces.red.0.baering"]),
    ("{id: b1, at: W1,", "{id: b1, at: W1, bearing: 0,",
     ["key forces.blue.0.orders", "a machine-gun team (a unit with a bearing) holds"]),
])
def test_a_bad_knob_or_unit_key_is_one_line_exit_2(tmp_path, old, new, words):
    text = BEAM_FILE.read_text()
    assert text.count(old) == 1
    path = tmp_path / "bad.yaml"
    path.write_text(text.replace(old, new))
    out = subprocess.run([PY, "-m", "sim", "validate", str(path)], capture_output=True, text=True, timeout=120)
    lines = out.stderr.strip().splitlines()
    assert out.returncode == 2 and len(lines) == 1 and lines[0].startswith("sim: error: "), out.stderr
    line_no = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if new in t)
    assert str(path) in lines[0] and f"line {line_no}" in lines[0]
    for w in words:
        assert w in lines[0], lines[0]
