"""Exact probabilities (icepool) against simulated frequencies at fixed seeds, each test
with a false-alarm rate <= 1e-6 (scipy binomial / chi-square p-values):
activations per AP attack (H17.2a, 1/36), the H17.5 casualty-point distribution per
cover value, the H17.6a elimination rate, the number of FOW sniper returns from the
reserve before it dies (FOW.ESCAPE, FOW.RESERVE: geometric, p = 1/2) and the marksman
hit probability 1 - (1 - p)^2 (FOW.MARKSMAN)."""
from __future__ import annotations

from fractions import Fraction

import icepool
import pytest
from scipy import stats

from sim.agents.unit import Unit
from sim.engine.battle import Battle
from sim.scenario.load import scenario_from_dict
from sim.systems.fow import rules as fow
from sim.systems.h17 import hex_combat
from sim.systems.h17 import rules as h17
from sim.toolkit import sniper_team as sn

ALPHA = 1e-6
COVER_TYPES = {str(c): {"cover": c, "hindrance": 0, "blocks_sight": False} for c in range(7)}


def prob(die_expr, outcome=True) -> float:
    return float(Fraction(die_expr.probability(outcome)))


def hex_battle(rows, blue, red, seed=11, rules=None, turns=2):
    doc = {"name": "stats", "ruleset": "h17", "turns": turns, "sides": ["blue", "red"],
           "terrain": {"kind": "hex", "rows": rows, "types": COVER_TYPES},
           "forces": {"blue": blue, "red": red},
           "victory": {"attacker": "blue", "destroy": False}}
    if rules:
        doc["rules"] = rules
    b = Battle(scenario_from_dict(doc), seed)
    b.env.bound = None   # a harness plays thousands of trials at one instant: no battle's stall
    b.setup()
    return b


def binom_ok(k, n, p):
    return stats.binomtest(k, n, p).pvalue > ALPHA


def chi2_ok(observed, probs):
    n = sum(observed)
    expected = [n * p for p in probs]
    return stats.chisquare(observed, expected).pvalue > ALPHA


def test_h17_2a_activations_per_ap_attack_are_one_in_36():
    """Every AP attack is made with the red sniper available (the harness withdraws it,
    H17.3, after each activation); activations / attacks ~ 1/36 (icepool: 2d6 natural 12)."""
    b = hex_battle(["0006", "0000"], [{"id": "b1", "at": "0,0", "steps": 1}],
                   [{"id": "r1", "at": "1,0", "steps": 100},
                    {"id": "sniper", "kind": "sniper", "at": "3,0"}])
    team = b.state.teams[0]
    b1, r1 = b.units["b1"], b.units["r1"]
    n = 14_400

    def harness():
        for _ in range(n):
            b1.steps, r1.steps = 1, 100
            b1.flags.discard("pinned")
            assert team.available
            attack = hex_combat.ap_attack(b, b1, r1)
            yield from h17.natural_twelve(b, b1, attack)
            yield b.env.timeout(0)
            if team.on_board:
                yield team.request("withdraw", rule="H17.3")
            b1.flags.discard("eliminated")

    b.env.process(harness())
    b.env.run()
    attacks = b.log.where(rule="BASE.H.AP")
    acts = b.log.where(event="activate")
    assert len(attacks) == n
    assert len(acts) == sum(1 for r in attacks if r["natural12"])
    assert all(a["dice"] == [6, 6] for a in acts)
    p = prob(icepool.d6 + icepool.d6 == 12)
    assert p == pytest.approx(1 / 36)
    assert binom_ok(len(acts), n, p)
    assert team.state != sn.ELIMINATED     # cover 6: the H17.6a check can never succeed


@pytest.mark.parametrize("cover", [0, 1, 2, 3, 4, 5])
def test_h17_5_casualty_point_distribution_per_cover(cover):
    row = f"{cover}6.."
    b = hex_battle([row, "...."], [{"id": "b1", "at": "0,0", "steps": 100}],
                   [{"id": "sniper", "kind": "sniper", "at": "1,0",
                     "sniper_team": {"start": "deployed"}}])
    team = b.state.teams[0]
    target = b.units["b1"]
    n = 3000

    def harness():
        for _ in range(n):
            target.steps = 100
            target.flags.discard("pinned")
            h17.sniper_attack(b, team, "0,0", [target], trigger="H17.4")
            yield b.env.timeout(0)

    b.env.process(harness())
    b.env.run()
    recs = b.log.where(rule="H17.5")
    assert len(recs) == n and all(r["need"] == cover for r in recs)
    exact = icepool.d6.map(lambda x: x - cover if x > cover else 0)
    outcomes = list(exact.outcomes())
    probs = [prob(exact, o) for o in outcomes]
    observed = [sum(1 for r in recs if r["cp"] == o) for o in outcomes]
    assert sum(observed) == n
    if len(outcomes) > 1:
        assert chi2_ok(observed, probs)
    assert team.state != sn.ELIMINATED


@pytest.mark.parametrize("cover", [0, 1, 2, 3, 4, 5])
def test_h17_6a_elimination_rate_per_sniper_hex_cover(cover):
    """A fresh sniper per check (H17.1 is about scenarios; the harness builds teams)."""
    b = hex_battle([f"0{cover}..", "...."], [{"id": "b1", "at": "0,0", "steps": 5}],
                   [{"id": "r1", "at": "3,1"}])
    checker = b.units["b1"]
    n = 2400
    teams = []

    def harness():
        for i in range(n):
            u = Unit(id=f"s{i}", side="red", kind="sniper", steps=1, armour=4, morale=4, skill=4,
                     move=1.0, orders=None, node="1,0", pos=b.terrain.pos("1,0"))
            team = sn.SniperTeam(b, u, sn.HIDDEN)
            teams.append(team)
            b.state.teams = [team]
            yield from h17.elimination_check(b, team, "0,0", [checker])
            yield b.env.timeout(0)

    b.env.process(harness())
    b.env.run()
    recs = b.log.where(rule="H17.6a", event="elimination_check")
    assert len(recs) == n and all(r["need"] == cover for r in recs)
    k = sum(r["success"] for r in recs)
    assert k == sum(t.state == sn.ELIMINATED for t in teams)
    p = prob(icepool.d6 > cover)
    assert p == pytest.approx((6 - cover) / 6)
    assert binom_ok(k, n, p)


def test_fow_returns_from_reserve_before_death_are_geometric_half():
    """Each time a sniper is Destroyed, FOW.ESCAPE kills it on 4+ or sends it to the
    reserve, which hands it back at red's next turn (FOW.RESERVE). The number of returns
    before death is geometric with p = 1/2: P(k) = (1/2)^(k+1)."""
    n = 1500
    doc = {"name": "geo", "ruleset": "fow", "turns": 120, "sides": ["blue", "red"],
           "terrain": {"kind": "table", "width": 200, "height": 100,
                       "waypoints": {"B": [0, 50], "H": [190, 50]}},
           "forces": {"blue": [{"id": "b1", "kind": "team", "at": "B"}],
                      "red": [{"id": "r0", "kind": "team", "at": "H"}]},
           "victory": {"attacker": "blue", "destroy": False}}
    b = Battle(scenario_from_dict(doc), 5)
    b.env.bound = None   # the harness's trials at one instant
    b.setup()
    reserve = b.state.reserves["red"]
    for i in range(n):
        u = Unit(id=f"s{i}", side="red", kind="sniper", steps=1, armour=4, morale=4, skill=4,
                 move=1.0, orders=None, node="H", pos=b.terrain.pos("H"))
        team = sn.SniperTeam(b, u, sn.RESERVE, candidates=["H"], reserve=reserve)
        reserve.put(team)
        b.state.teams.append(team)
    shooter = b.units["b1"]

    def destroyer():
        while True:
            yield b.clock.wait("shooting", "blue")
            for team in list(b.state.teams):
                if team.on_board:
                    yield from fow.destroyed(b, team, shooter)

    b.env.process(destroyer())
    b.env.process(b.clock.run())
    b.env.run(until=b.clock.finished)
    teams = b.state.teams
    assert all(t.state == sn.KILLED for t in teams)
    returns = [t.returns for t in teams]
    assert sum(returns) == sum(1 for r in b.log.where(event="deploy") if r["is_return"])
    top = 6
    observed = [sum(1 for r in returns if r == k) for k in range(top)] + \
        [sum(1 for r in returns if r >= top)]
    probs = [0.5 ** (k + 1) for k in range(top)] + [0.5 ** top]
    assert chi2_ok(observed, probs)


@pytest.mark.parametrize("need", [2, 3, 4, 5, 6])
def test_fow_marksman_hit_probability(need):
    doc = {"name": "mk", "ruleset": "fow", "turns": 2, "sides": ["blue", "red"],
           "terrain": {"kind": "table", "width": 100, "height": 100,
                       "waypoints": {"A": [0, 0], "S": [90, 90]}},
           "forces": {"blue": [{"id": "b1", "kind": "team", "at": "A"}],
                      "red": [{"id": "sniper", "kind": "sniper", "at": "S",
                               "sniper_team": {"start": "deployed"}}]},
           "victory": {"attacker": "blue", "destroy": False}}
    b = Battle(scenario_from_dict(doc), 3)
    b.setup()
    n = 4000
    for _ in range(n):
        fow.marksman_roll(b, b.units["sniper"], need)
    recs = b.log.where(rule="FOW.MARKSMAN")
    k = sum(r["success"] for r in recs)
    first = icepool.d6
    exact = first.map(lambda x: True if x >= need else icepool.d6 >= need)
    p = prob(exact, True)
    single = (7 - need) / 6
    assert p == pytest.approx(1 - (1 - single) ** 2)
    assert binom_ok(k, n, p)
    assert all((len(r["dice"]) == 2) == (r["dice"][0] < need) for r in recs)
