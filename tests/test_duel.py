"""The proof of the framework: ``examples/plugins/sim-duel``, a rule system written only
against ``import sim`` and installed as its own distribution (``make test`` installs it),
is found through its entry point and agrees with Brown's (1963) exact solution.

The exact answers are worked out here from the duel's documented model (not with the
plug-in's own helpers): a square-law side kills at (its size) x (rate x kill chance per
unit), a linear-law side at that times (the enemy's share of its starting strength).
"""
from __future__ import annotations

import json
import re
import subprocess
from fractions import Fraction

import pytest
from scipy.stats import binom

import sim
from conftest import PY, ROOT

DUEL_DIR = ROOT / "examples" / "plugins" / "sim-duel"
DUEL = DUEL_DIR / "scenarios" / "duel_3v2.yaml"
N = 1500
# (law, first side: (size, rate, kill %), second side: (size, rate, kill %))
CASES = [
    ("square", (3, 1.0, 40), (2, 2.0, 40)),
    ("square", (4, 1.0, 50), (4, 1.0, 50)),
    ("square", (2, 3.0, 60), (5, 1.0, 30)),
    ("linear", (3, 1.0, 50), (3, 1.0, 50)),
    ("linear", (4, 1.0, 25), (2, 1.0, 50)),
    ("linear", (2, 2.0, 50), (3, 0.5, 80)),
]
ALPHA = 1e-6 / len(CASES)   # the suite's false-alarm rate, shared by the cases


def duel_doc(law, first, second):
    data = {"name": "duel_case", "ruleset": "duel", "turns": 200, "sides": ["blue", "red"],
            "terrain": {"kind": "table", "width": 100, "height": 50,
                        "waypoints": {"W": [10, 25], "E": [90, 25]}},
            "forces": {}, "victory": {"attacker": "blue", "destroy": True},
            "rules": {"duel": {"law": law}}}
    for side, (n, rate, pct), at in (("blue", first, "W"), ("red", second, "E")):
        data["forces"][side] = [{"id": f"{side}{i}", "at": at, "rate": rate, "kill_percent": pct}
                                for i in range(n)]
    return data


def exact(law, first, second):
    (x, rb, pb), (y, rr, pr) = first, second
    kb, kr = Fraction(rb) * Fraction(pb, 100), Fraction(rr) * Fraction(pr, 100)
    if law == "square":
        return sim.win_probability(x, y, law="square", r=kb / kr)
    a = (kb / y) / (kb / y + kr / x)
    return sim.win_probability(x, y, law="linear", a=a)


def test_the_plugin_comes_through_its_entry_point():
    from sim.systems.registry import origin_of

    # (the surface it was written against: the names an earlier version exported, each deprecated)
    with pytest.warns(DeprecationWarning, match=r"^sim\.\w+ is deprecated: "):
        system = sim.rule_system("duel")
        assert system.phases == (sim.PhaseSpec("engagement"),) and {"DUEL.FIRE", "DUEL.KILL"} <= set(system.rules)
    assert "entry point sim.systems: duel = sim_duel:SYSTEM (sim-duel" in origin_of("duel")
    # Written only against the public API: it imports no module of sim but `sim` itself.
    source = (DUEL_DIR / "sim_duel" / "__init__.py").read_text()
    assert "import sim\n" in source and "from sim" not in source and "sim._" not in source
    # ... and on its typed surface: nothing of it is Any (strict mypy checks the rest).
    assert re.search(r"\bAny\b", source) is None
    assert "sim.BattleContext[DuelRules, DuelState]" in source


def test_sim_run_and_rules_know_the_duel():
    out = subprocess.run([PY, "-m", "sim", "run", str(DUEL), "--seed", "4", "--json"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    m = json.loads(out.stdout)["metrics"]
    assert m["duel_first_won"] in (0.0, 1.0) and m["duel_kills"] >= 2
    assert (m["duel_first_left"] == 0) != (m["duel_second_left"] == 0)
    rules = subprocess.run([PY, "-m", "sim", "rules"], capture_output=True, text=True, timeout=120)
    assert "DUEL.KILL" in rules.stdout and "sim_duel.DuelGame._fire" in rules.stdout


def test_the_duel_check_reports_file_and_line(tmp_path):
    text = DUEL.read_text().replace("- {id: b1, at: W,", "- {id: b1, at: W, orders: {type: advance, to: E},")
    path = tmp_path / "moving.yaml"
    path.write_text(text)
    out = subprocess.run([PY, "-m", "sim", "validate", str(path)], capture_output=True, text=True,
                         timeout=120)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "id: b1" in t)
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
    assert f"line {line}" in out.stderr and "forces.blue.0.orders.type" in out.stderr
    assert "duellists do not move" in out.stderr


def test_every_shot_is_a_logged_roll():
    for law in ("square", "linear"):
        sc = sim.scenario_from_dict(duel_doc(law, (3, 1.0, 40), (3, 1.5, 30)))
        log = sim.run(sc, 11).log
        shots = [r for r in log if r["event"] == "shot"]
        assert shots
        for r in shots:
            assert r["rule"] == "DUEL.KILL" and r["mods"] == 0
            assert len(r["dice"]) == (1 if law == "square" else 2)
            assert r["need"] == int(r["unit"].startswith("blue") and 41 or 31)
            if r["success"]:
                assert r["dice"][-1] < r["need"]
        kills = [r for r in shots if r["success"]]
        assert [r["target"] for r in kills] == [r["unit"] for r in log if r["event"] == "eliminate"]


@pytest.mark.parametrize("law,first,second", CASES)
def test_win_frequencies_agree_with_brown(law, first, second):
    p = exact(law, first, second)
    sc = sim.scenario_from_dict(duel_doc(law, first, second))
    study = sim.study_from_dict({"study": "duel", "seed": 1963, "replications": N,
                                 "variants": {"only": {}},
                                 "metrics": ["duel_first_won", "end_time"]}, scenario=sc)
    run = sim.run_study(study, workers=2, executor="processes")
    assert not run.failures
    rows = list(run.rows().values())
    assert len(rows) == N
    assert all(r["defender_won"] + r["attacker_won"] == 1 for r in rows)   # fought to the end
    wins = sum(r["duel_first_won"] for r in rows)
    lo, hi = binom.ppf(ALPHA / 2, N, float(p)), binom.isf(ALPHA / 2, N, float(p))
    assert lo <= wins <= hi, f"{wins}/{N} first-side wins, exact {float(p):.4f} ({p})"
