"""What the FOW system keeps during a battle, in one typed object, and the battle as its
rules see it (``FowBattle``: ``battle.knobs.fow`` and ``battle.state`` typed)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from sim.agents.unit import Unit
from sim.engine.context import BattleContext
from sim.systems.fow.knobs import FowKnobs
from sim.systems.knobs import BaseKnobs
from sim.toolkit.sniper_reserve import SniperReserve
from sim.toolkit.snipers import SniperTeams


class FowRules(Protocol):
    """The scenario's ``rules`` under FOW: the base knobs and ``rules.fow``."""

    @property
    def base(self) -> BaseKnobs:
        """``rules.base``."""

    @property
    def fow(self) -> FowKnobs:
        """``rules.fow``."""


@dataclass
class FowState(SniperTeams):
    """The sniper teams (scenario order), each side's Sniper Reserve, every team's
    platoon (FOW.PIN pins a whole platoon) and the hunters (``SniperTeams``)."""

    reserves: dict[str, SniperReserve] = field(default_factory=dict)
    platoon: dict[str, str] = field(default_factory=dict)

    _members: dict[tuple[str, str], list[Unit]] = field(default_factory=dict)

    def platoon_of(self, unit: Unit) -> str:
        """The unit's platoon (default: the team alone)."""
        return self.platoon.get(unit.id) or unit.id

    def members(self, battle: BattleContext, side: str, plat: str) -> list[Unit]:
        """The units of ``side`` in platoon ``plat``, in scenario order (platoons never change)."""
        if not self._members:
            for s in battle.scenario.sides:
                for u in battle.units_of(s):
                    self._members.setdefault((s, self.platoon_of(u)), []).append(u)
        return self._members.get((side, plat), [])


#: The battle as FOW's rules see it.
FowBattle = BattleContext[FowRules, FowState]
