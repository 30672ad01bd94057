"""H17's named policies (behaviours): where an activated sniper goes (``h17.placement``,
H17.2b) and when its owner withdraws it (``h17.withdraw``, H17.3). A user adds more with
``sim.plugin.register`` and names them in ``rules.h17``."""
from __future__ import annotations

from typing import Any, Protocol

from sim.systems.behaviours import Behaviour, BehaviourKind
from sim.systems.h17.knobs import H17Withdraw
from sim.systems.h17.state import H17Battle
from sim.toolkit.sniper_team import SniperTeam
from sim.toolkit.snipers import SNIPER

Hex = tuple[str, int, int, int]   # (node, cover modifier, hex distance, map order)


class Placement(Protocol):
    """Where an activated sniper goes (kind ``h17.placement``): one of the qualifying hexes."""

    def __call__(self, battle: H17Battle, team: SniperTeam, found: list[Hex], /) -> Hex:
        """The chosen ``(node, cover modifier, hex distance, map order)``."""


class Withdrawal(Protocol):
    """Whether the owner withdraws its sniper now (kind ``h17.withdraw``)."""

    def __call__(self, battle: H17Battle, team: SniperTeam, policy: H17Withdraw, /) -> bool:
        """True: it withdraws."""


PLACEMENT: BehaviourKind[Placement] = BehaviourKind("h17.placement")
WITHDRAWAL: BehaviourKind[Withdrawal] = BehaviourKind("h17.withdraw")


def _best_cover(battle: H17Battle, team: SniperTeam, found: list[Hex]) -> Hex:
    return min(found, key=lambda f: (-f[1], f[2], f[3]))


def _nearest(battle: H17Battle, team: SniperTeam, found: list[Hex]) -> Hex:
    return min(found, key=lambda f: (f[2], -f[1], f[3]))


def _random(battle: H17Battle, team: SniperTeam, found: list[Hex]) -> Hex:
    k = int(battle.dice.uniform(team.id, "H17.2b") * len(found))
    return found[min(k, len(found) - 1)]


def _never(battle: H17Battle, team: SniperTeam, w: H17Withdraw) -> bool:
    return False


def _after_attacks(battle: H17Battle, team: SniperTeam, w: H17Withdraw) -> bool:
    return team.attacks_since_deploy >= w.attacks


def _enemy_within(battle: H17Battle, team: SniperTeam, w: H17Withdraw) -> bool:
    t = battle.terrain
    return any(e.kind != SNIPER.name and t.distance(e.node, team.unit.node) <= w.hexes
               for e in battle.enemies_of(team.side))


BEHAVIOURS: list[Behaviour[Any]] = [
    Behaviour(PLACEMENT, "best_cover", _best_cover,
              "highest cover modifier, then nearest, then map order (default)"),
    Behaviour(PLACEMENT, "random", _random,
              "uniform over the qualifying hexes, from the sniper's H17.2b stream"),
    Behaviour(PLACEMENT, "nearest", _nearest,
              "nearest, then highest cover modifier, then map order"),
    Behaviour(WITHDRAWAL, "never", _never, "the sniper stays (default)"),
    Behaviour(WITHDRAWAL, "enemy_within", _enemy_within,
              "an enemy unit (not a sniper) within `hexes` of the sniper's hex"),
    Behaviour(WITHDRAWAL, "after_attacks", _after_attacks,
              "the sniper has made `attacks` attacks since it was placed"),
]
