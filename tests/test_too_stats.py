"""TOO statistics: exact distributions (icepool) against simulated frequencies.

Each test runs the simulator's own rule code (``TooGame.hit``, ``TooGame._acquire``) at a
fixed seed with the real keyed dice, and compares frequencies with the exact
probabilities. Each test's false-alarm rate is at most 1e-6 (Bonferroni-split over the
comparisons it makes), so a failure means the rule is wrong, not bad luck.
"""
from __future__ import annotations

from collections import Counter

import icepool
from scipy.stats import binomtest, chisquare

from sim.systems.too import fire, spotting
from sim.systems.too import tables as T
from test_too import fig, ready, too

ALPHA = 1e-6


def _battle(seed=11):
    data = too([fig("s", "W", sniper=True, level="seasoned")],
               [fig("OPEN", "OPEN"), fig("SOFT", "SOFT"), fig("MEDIUM", "MEDIUM"),
                fig("HARD", "HARD"), fig("ENCLOSED", "ENCLOSED")])
    data["victory"]["destroy"] = False
    return ready(data, seed)


def _hit_many(battle, game, target, n):
    t, s = game.figs[target], game.figs["s"]
    out = []
    for _ in range(n):
        t.unit.flags.discard("eliminated")
        t.wounds.clear()
        t.skip_action = False
        out.append(fire.hit(battle, game, t, s))
    return out


def test_TOO_DAMAGE_distribution_matches_the_table():
    battle, game = _battle()
    n = 12_000
    res = _hit_many(battle, game, "OPEN", n)
    recs = battle.log.where(event="hit", rule="TOO.DAMAGE")
    assert len(recs) == n
    d10 = Counter(r["dice"][0] for r in recs)
    exact10 = [float(icepool.d10.probability(k)) for k in range(1, 11)]
    p1 = chisquare([d10[k] for k in range(1, 11)], [n * p for p in exact10]).pvalue
    # dies_in follows from the table: the exact law of the d10 pushed through it.
    dies_die = icepool.d10.map(lambda k: T.DAMAGE_TABLE[k][1])
    cats = sorted(dies_die.outcomes())
    assert cats == [0, 1, 2, 3, 5]
    seen = Counter(r["dies_in"] for r in res)
    p2 = chisquare([seen[c] for c in cats], [n * float(dies_die.probability(c)) for c in cats]).pvalue
    assert float(dies_die.probability(0)) == 0.3 and float(dies_die.probability(3)) == 0.4
    loc_die = icepool.d10.map(lambda k: T.DAMAGE_TABLE[k][0])
    locs = sorted(loc_die.outcomes())
    seen_loc = Counter(r["location"] for r in res)
    p3 = chisquare([seen_loc[c] for c in locs], [n * float(loc_die.probability(c)) for c in locs]).pvalue
    right = sum(r["body_side"] == "right" for r in res)
    p4 = binomtest(right, n, float((icepool.d6 <= 3).probability(True))).pvalue
    for p in (p1, p2, p3, p4):
        assert p >= ALPHA / 4, (p1, p2, p3, p4)
    for r in recs:                                   # and every record follows the table
        assert (r["location"], r["dies_in"]) == T.DAMAGE_TABLE[r["dice"][0]][:2]


def test_TOO_SAVE_rates_by_cover():
    battle, game = _battle(seed=12)
    n = 3_000
    for cls, need in T.SAVE_NEED.items():
        res = _hit_many(battle, game, cls.upper(), n)
        saved = sum(r["saved"] for r in res)
        exact = float((icepool.d6 >= need).probability(True))
        p = binomtest(saved, n, exact).pvalue
        assert p >= ALPHA / 5, (cls, saved / n, exact, p)
    recs = battle.log.where(event="save", rule="TOO.SAVE")
    assert all(r["success"] == (r["dice"][0] >= r["need"]) for r in recs)
    assert all(r["need"] == T.SAVE_NEED[r["cover"]] for r in recs)


def test_TOO_ACQ_rates_by_modifier():
    battle, game = _battle(seed=13)
    s = game.figs["s"]
    n = 3_000
    setups = []   # (target, attacker_moved, reacquire) -> expected total modifier
    for cls, m in T.ACQ_COVER_MODS.items():
        setups.append((cls.upper(), False, False, m))
    setups.append(("OPEN", False, True, -2))          # open −1, target opportunity −1
    setups.append(("ENCLOSED", True, False, 4))       # enclosed +2, attacker moved +2
    setups.append(("HARD", True, False, 3))
    for target, moved, reacq, mod in setups:
        t = game.figs[target]
        before = len(battle.log.records)
        for _ in range(n):
            s.moved_turn = 1 if moved else 0
            s.lost_target = target if reacq else None
            fire.acquire(battle, game, s, t, 1)
        recs = [r for r in battle.log.records[before:] if r["event"] == "acquire"]
        assert len(recs) == n and all(r["mods"] == mod for r in recs)
        hits = sum(r["success"] for r in recs)
        exact = float((icepool.d6 + mod <= s.morale).probability(True))
        if exact in (0.0, 1.0):
            assert hits == exact * n
        else:
            p = binomtest(hits, n, exact).pvalue
            assert p >= ALPHA / len(setups), (target, mod, hits / n, exact, p)


def test_TOO_CONCEAL_and_COUNTER_rates():
    data = too([fig("spot", "W", level="veteran"), fig("ssn", "X", sniper=True, level="veteran")],
               [fig("hide", "E", sniper=True, level="seasoned", flags=["hidden"])], areas=[])
    battle, game = ready(data, 14)
    n = 3_000
    h = game.figs["hide"]
    for spotter, mod in (("spot", 3), ("ssn", -1)):
        ok = 0
        for _ in range(n):
            h.hidden = True
            ok += spotting.spot_check(battle, game, game.figs[spotter], h, "search")
        exact = float((icepool.d6 + mod <= 5).probability(True))
        if exact == 1.0:
            assert ok == n                       # Veteran vs Seasoned sniper: always spotted
        else:
            assert binomtest(ok, n, exact).pvalue >= ALPHA / 2
