"""H17's named policies (behaviours): where an activated sniper goes (``h17.placement``,
H17.2b) and when its owner withdraws it (``h17.withdraw``, H17.3). A user adds more with
``sim.register_behaviour`` and names them in ``rules.h17``."""
from __future__ import annotations

from typing import Any

from sim.systems.h17.state import H17Battle
from sim.systems.registry import Behaviour
from sim.toolkit.sniper_team import SniperTeam

Hex = tuple[str, int, int, int]   # (node, cover modifier, hex distance, map order)


def _best_cover(battle: H17Battle, team: SniperTeam, found: list[Hex]) -> Hex:
    return min(found, key=lambda f: (-f[1], f[2], f[3]))


def _nearest(battle: H17Battle, team: SniperTeam, found: list[Hex]) -> Hex:
    return min(found, key=lambda f: (f[2], -f[1], f[3]))


def _random(battle: H17Battle, team: SniperTeam, found: list[Hex]) -> Hex:
    k = int(battle.dice.uniform(team.id, "H17.2b") * len(found))
    return found[min(k, len(found) - 1)]


def _never(battle: H17Battle, team: SniperTeam, w: Any) -> bool:
    return False


def _after_attacks(battle: H17Battle, team: SniperTeam, w: Any) -> bool:
    return team.attacks_since_deploy >= w.attacks


def _enemy_within(battle: H17Battle, team: SniperTeam, w: Any) -> bool:
    t = battle.terrain
    return any(e.kind != "sniper" and t.distance(e.node, team.unit.node) <= w.hexes
               for e in battle.enemies_of(team.side))


BEHAVIOURS = [
    Behaviour("h17.placement", "best_cover", _best_cover,
              "highest cover modifier, then nearest, then map order (default)"),
    Behaviour("h17.placement", "random", _random,
              "uniform over the qualifying hexes, from the sniper's H17.2b stream"),
    Behaviour("h17.placement", "nearest", _nearest,
              "nearest, then highest cover modifier, then map order"),
    Behaviour("h17.withdraw", "never", _never, "the sniper stays (default)"),
    Behaviour("h17.withdraw", "enemy_within", _enemy_within,
              "an enemy unit (not a sniper) within `hexes` of the sniper's hex"),
    Behaviour("h17.withdraw", "after_attacks", _after_attacks,
              "the sniper has made `attacks` attacks since it was placed"),
]
