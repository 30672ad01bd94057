"""FOW's named policies (behaviours): when the owner tries to change a sniper's hide
(``fow.relocate``, FOW.RELOCATE) and where the reserve places it again
(``fow.redeploy``, FOW.RESERVE). A user adds more with ``sim.plugin.register``."""
from __future__ import annotations

from typing import Any, Protocol

from sim.space.geometry import dist
from sim.systems.behaviours import Behaviour, BehaviourKind
from sim.systems.fow.knobs import FowRelocate
from sim.systems.fow.state import FowBattle
from sim.toolkit.sniper_team import REVEALED, SniperTeam
from sim.toolkit.snipers import SNIPER

Hide = tuple[int, int, str]   # (terrain cover, candidate order, node)


class Relocation(Protocol):
    """Whether the owner tries to change a sniper's hide now (kind ``fow.relocate``)."""

    def __call__(self, battle: FowBattle, team: SniperTeam, policy: FowRelocate, /) -> bool:
        """True: it tries (FOW.RELOCATE's roll follows)."""


class Redeployment(Protocol):
    """Where the reserve places a sniper again (kind ``fow.redeploy``): one allowed hide."""

    def __call__(self, battle: FowBattle, team: SniperTeam, ok: list[Hide], /) -> Hide:
        """The chosen ``(terrain cover, candidate order, node)``."""


RELOCATION: BehaviourKind[Relocation] = BehaviourKind("fow.relocate")
REDEPLOYMENT: BehaviourKind[Redeployment] = BehaviourKind("fow.redeploy")


def _never(battle: FowBattle, team: SniperTeam, r: FowRelocate) -> bool:
    return False


def _when_spotted(battle: FowBattle, team: SniperTeam, r: FowRelocate) -> bool:
    return team.state == REVEALED


def _enemy_within(battle: FowBattle, team: SniperTeam, r: FowRelocate) -> bool:
    return any(e.kind != SNIPER.name and dist(e.pos, team.unit.pos) <= r.cm
               for e in battle.enemies_of(team.side))


def _best_cover(battle: FowBattle, team: SniperTeam, ok: list[Hide]) -> Hide:
    return min(ok, key=lambda c: (-c[0], c[1]))


def _random(battle: FowBattle, team: SniperTeam, ok: list[Hide]) -> Hide:
    j = int(battle.dice.uniform(team.id, "FOW.RESERVE") * len(ok))
    return ok[min(j, len(ok) - 1)]


BEHAVIOURS: list[Behaviour[Any]] = [
    Behaviour(RELOCATION, "never", _never, "the sniper keeps its hide"),
    Behaviour(RELOCATION, "when_spotted", _when_spotted,
              "it has been revealed: 'the hide was discovered' (default)"),
    Behaviour(RELOCATION, "enemy_within", _enemy_within,
              "an enemy team within `cm`: 'the tactical situation changed'"),
    Behaviour(REDEPLOYMENT, "best_cover", _best_cover,
              "the candidate with the highest terrain cover, then scenario order (default)"),
    Behaviour(REDEPLOYMENT, "random", _random,
              "uniform over the allowed candidates, from the sniper's FOW.RESERVE stream"),
]
