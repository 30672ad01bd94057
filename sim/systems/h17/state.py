"""What the H17 system keeps during a battle, in one typed object, and the battle as its
rules see it (``H17Battle``: ``battle.knobs.h17`` and ``battle.state`` typed)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from sim.engine.context import BattleContext
from sim.systems.h17.knobs import H17Knobs
from sim.systems.knobs import BaseKnobs
from sim.toolkit.snipers import SniperTeams


class H17Rules(Protocol):
    """The scenario's ``rules`` under H17: the base knobs and ``rules.h17``."""

    @property
    def base(self) -> BaseKnobs:
        """``rules.base``."""

    @property
    def h17(self) -> H17Knobs:
        """``rules.h17``."""


@dataclass
class H17State(SniperTeams):
    """The sniper teams (scenario order), casualty points carried towards a step loss
    (BASE.H.CP), the hunters (``SniperTeams``), the opportunity fire declined and each
    sniper's Fire marker (H17.4: the turn it last fired, once per turn)."""

    cp_taken: dict[str, int] = field(default_factory=dict)
    declined: set[tuple[str, str, int]] = field(default_factory=set)   # (sniper, mover, turn)
    fire_marker: dict[str, int] = field(default_factory=dict)   # H17.4: sniper -> turn it fired


#: The battle as H17's rules see it.
H17Battle = BattleContext[H17Rules, H17State]
