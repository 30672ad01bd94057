"""The records the skirmish base game (BASE.S) writes: the toolkit's shots, charges, assaults
and hits (``sim.toolkit.skirmish``), and its own services' pins and rallies."""
# No ``from __future__ import annotations`` (see ``sim.records``).
from collections.abc import Mapping

from sim.events import ASSAULT, HIT, MOVE, PIN, RALLY, SHOOT
from sim.records import UnitRecord
from sim.toolkit.records import AssaultRecord, ChargeMoveRecord, ShootRecord, StepsHitRecord


class SkirmishPinRecord(UnitRecord):
    """``pin`` (BASE.S.PIN): pinned ``by`` a unit (None: by no unit) until its side's turn ``until``."""

    by: str | None
    until: int


class SkirmishRallyRecord(UnitRecord):
    """``rally`` (BASE.S.PIN): a pinned unit acts again at its side's next turn (``success``, no roll)."""

    success: bool


#: The records the base game writes, by event (a charge's ``stop`` is the kernel's).
RECORDS: Mapping[str, type] = {HIT: StepsHitRecord, SHOOT: ShootRecord, ASSAULT: AssaultRecord,
                               MOVE: ChargeMoveRecord}
#: The records of its pin service, written only when a module pins a unit.
PIN_RECORDS: Mapping[str, type] = {PIN: SkirmishPinRecord, RALLY: SkirmishRallyRecord}
