"""Scenario documents the benchmarks run (plain dicts, as a YAML file would give).

* ``fight``: a dense, engaged battle on a table: two fronts of ``n`` units each, four
  ranks deep, advance into each other across ground of woods, hedges and buildings, so
  reactions, shooting and assault all act. The front is as long as ``n`` needs: the
  density, and so each unit's neighbourhood, is the same at every size. Under
  ``snapfire`` (the default), ``fow`` (with a sniper team a side) or ``too`` (snipers,
  medics and figures on alert).
* ``hex_fight``: the same on a hex map ``width`` x ``height`` hexes, under ``snapfire``
  or ``h17`` (with a sniper a side, off the board until activated).
"""
from __future__ import annotations

import math
import random

RANKS = 4          # ranks of each front
SPACING = 10       # cm between grid points, and between two units of a rank


def _areas(rng: random.Random, width: float, height: float) -> list[dict]:
    """Woods, hedges and buildings in no man's land, one per 40 cm of front, so the ground
    a unit meets does not depend on the front's length."""
    areas = []
    for k in range(max(1, int(height // 40))):
        x = rng.uniform(0.3, 0.55) * width
        y = rng.uniform(0, height - 14)
        w, h = rng.uniform(8, 20), rng.uniform(6, 14)
        kind = rng.choice(("woods", "woods", "building", "hedge"))
        areas.append({"name": f"a{k}", "terrain": kind,
                      "polygon": [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]})
    return areas


def _unit(ruleset: str, side: str, i: int, at: str, to: str, n: int) -> dict:
    """Unit ``i`` of a front, with the keys its rule system reads."""
    u: dict = {"id": f"{side[0]}{i}", "at": at, "orders": {"type": "advance", "to": to}}
    if ruleset == "snapfire":
        u.update(steps=3, armour=4 + (i % 2), move=15)
        u["orders"]["charge"] = i % 3 != 2
    elif ruleset == "fow":
        u.update(kind="team", skill=3 + (i % 2), armour=3, morale=4, move=15, platoon=f"{side}{i // 4}",
                 hunt=i % 8 == 5)
        u["orders"]["charge"] = i % 3 != 2
    elif ruleset == "too":
        u.update(kind="figure", level=("recruit", "seasoned", "veteran")[i % 3], move=12,
                 sniper=i % 25 == 3, medic=i % 10 == 7, alert=("A", None, "B", None)[i % 4])
        if i % 50 == 11:
            u["flags"] = ["hidden"]
    elif ruleset == "h17":
        u.update(steps=3, morale=3 + (i % 2), move=3, hunt=i % 8 == 5)
    return u


def fight(n: int, ruleset: str = "snapfire", turns: int = 12, seed: int = 7, width: int = 140) -> dict:
    """A battle of ``n`` units a side (a FOW sniper team among them) on a table ``width`` cm
    deep (see the module)."""
    rows = math.ceil(n / RANKS)
    height = SPACING * (rows + 1)
    cols = width // SPACING
    rng = random.Random(seed)
    forces: dict[str, list] = {"blue": [], "red": []}
    teams = n - 1 if ruleset == "fow" else n          # and a sniper team a side
    for side, first, goal in (("blue", 1, cols), ("red", cols - 1, 0)):
        step = 1 if side == "blue" else -1
        for i in range(teams):
            rank, row = i % RANKS, i // RANKS + 1
            dest_row = min(rows, 5 * (row // 5) + 2)     # an objective every 50 cm of front
            forces[side].append(_unit(ruleset, side, i, f"{first + step * rank},{row}", f"{goal},{dest_row}", n))
    doc = {"name": f"fight{n}", "ruleset": ruleset, "turns": turns, "sides": ["blue", "red"],
           "terrain": {"kind": "table", "width": width, "height": height,
                       "grid": {"spacing": SPACING}, "areas": _areas(rng, width, height)},
           "forces": forces, "victory": {"attacker": "blue", "destroy": True}}
    if ruleset == "snapfire":
        doc["rules"] = {"base": {"shoot_range": 25, "charge_range": 12}, "snapfire": {"radius": 10}}
    elif ruleset == "fow":
        for side, x in (("blue", 0), ("red", cols)):
            hides = [f"{x},{r}" for r in range(1, rows + 1, max(1, rows // 4))][:4]
            forces[side].append({"id": f"{side}_sniper", "kind": "sniper", "at": hides[0], "skill": 4,
                                 "sniper_team": {"start": "reserve", "candidates": hides}})
        doc["rules"] = {"fow": {"shoot_range": 30, "assault_range": 12, "spot_range": 40}}
    elif ruleset == "too":
        doc["rules"] = {"too": {"opp_range": 40, "search_range": 80}}
    return doc


def hex_fight(n: int, ruleset: str = "snapfire", turns: int = 8, width: int = 30, height: int | None = None,
              seed: int = 7) -> dict:
    """A battle of ``n`` units a side (an H17 sniper among them) on a hex map ``width``
    hexes across; ``height`` (default: what ``n`` needs, four ranks deep) rows of hexes."""
    ranks = RANKS if height is None else max(RANKS, math.ceil(n / height))
    rows = math.ceil(n / ranks)
    height = height or rows + 2
    rng = random.Random(seed)
    special = {}
    for _ in range(width * height // 12):        # a twelfth of the hexes are not open
        col, row = rng.randrange(ranks + 2, width - ranks - 2), rng.randrange(height)
        special[_axial(col, row)] = rng.choice("WWBHR")
    forces: dict[str, list] = {"blue": [], "red": []}
    squads = n - 1 if ruleset == "h17" else n         # and a sniper a side
    for side, first, goal in (("blue", 0, width - 1), ("red", width - 1, 0)):
        step = 1 if side == "blue" else -1
        for i in range(squads):
            rank, row = i % ranks, i // ranks
            col = first + step * rank
            dest = min(height - 1, 5 * (row // 5) + 2)
            at, to = _axial(col, row), _axial(goal, dest)
            forces[side].append(_unit(ruleset, side, i, at, to, n))
    terrain = {"kind": "hex", "width": width, "height": height, "special": special}
    doc = {"name": f"hexfight{n}", "ruleset": ruleset, "turns": turns, "sides": ["blue", "red"],
           "terrain": terrain, "forces": forces, "victory": {"attacker": "blue", "destroy": True}}
    if ruleset == "snapfire":
        for side in ("blue", "red"):
            for u in forces[side]:
                u["move"] = 3
        doc["rules"] = {"base": {"shoot_range": 4, "charge_range": 2}, "snapfire": {"radius": 1.5}}
    else:
        for side, col in (("blue", 1), ("red", width - 2)):
            forces[side].append({"id": f"{side}_sniper", "kind": "sniper", "at": _axial(col, height // 2),
                                 "sniper_team": {"start": "off_board"}})
        doc["rules"] = {"h17": {"withdraw": {"when": "enemy_within", "hexes": 2}}}
    return doc


def _axial(col: int, row: int) -> str:
    """The node ``"q,r"`` of the hex at offset (col, row) ("odd-r" rows)."""
    return f"{col - (row - (row & 1)) // 2},{row}"
