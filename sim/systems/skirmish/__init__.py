"""BASE.S — the small skirmish base game: movement, shooting and assault on a table or hexes.

The toolkit's rules (``sim.toolkit.skirmish``: BASE.S.HIT, BASE.S.SHOOT, BASE.S.ASSAULT),
played as a base game: in the ``movement`` phase (units move in it) the phasing side's
movers set off, each as a rule module may say (``hooks.move_of``); in ``shooting`` each unit
shoots the nearest visible enemy; in ``assault`` each charging unit charges. Its services:
a hit takes ``steps_per_hit`` steps off (BASE.S.HIT); damage takes steps off; a pin stops a
unit's moves and charges until its side's next turn (BASE.S.PIN); a unit may be kept busy.
Snap fire (``ruleset: snapfire``) is this base with the snap-fire module.
"""
from __future__ import annotations

from sim.engine.clock import PhaseRole, PhaseSpec
from sim.engine.services import Service
from sim.systems.games import BaseGame
from sim.systems.skirmish.events import PIN_RECORDS, RECORDS
from sim.systems.skirmish.game import SkirmishGame, SkirmishServices
from sim.toolkit.skirmish import ChargeOrders, SkirmishKnobs
from sim.toolkit.snipers import SNIPER

BASE = BaseGame(
    name="skirmish",
    title="The small skirmish base game (BASE.S): movement, shooting, assault",
    unit_kinds=(SNIPER,),   # a sniper does not shoot in the shooting phase (BASE.S.FIRE)
    phases=(PhaseSpec("movement", moves=True), PhaseSpec("shooting", role=PhaseRole.SHOOTING),
            PhaseSpec("assault", role=PhaseRole.ASSAULT)),
    game=SkirmishGame,
    base_knobs=SkirmishKnobs,
    order_keys=ChargeOrders,
    services=SkirmishServices,
    provides=frozenset({Service.HIT, Service.DAMAGE, Service.PIN, Service.KEEP_BUSY}),
    records=RECORDS,
    service_records={Service.PIN: PIN_RECORDS},
    rules=("BASE.S.HIT", "BASE.S.SHOOT", "BASE.S.ASSAULT", "BASE.S.PIN"),
    source="the toolkit's own rules",
)
