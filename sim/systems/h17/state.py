"""What the H17 system keeps during a battle, in one typed object."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from sim.engine.context import BattleContext
from sim.toolkit.snipers import SniperTeams


@dataclass
class H17State(SniperTeams):
    """The sniper teams (scenario order), casualty points carried towards a step loss
    (BASE.H.CP), the hunters (``SniperTeams``), the opportunity fire declined and each
    sniper's Fire marker (H17.4: the turn it last fired, once per turn)."""

    cp_taken: dict[str, int] = field(default_factory=dict)
    declined: set[tuple[str, str, int]] = field(default_factory=set)   # (sniper, mover, turn)
    fire_marker: dict[str, int] = field(default_factory=dict)   # H17.4: sniper -> turn it fired


def state_of(battle: BattleContext) -> H17State:
    """The battle's H17 state."""
    return cast(H17State, battle.state)
