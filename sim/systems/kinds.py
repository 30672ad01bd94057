"""The kernel's unit kinds: the generic ones every scenario may use.

None of them has a rule of its own in the kernel: a base game or module reads them as it
will (an anti-tank attack on a ``vehicle``, say) and lists those it reads in its
``unit_kinds``. ``infantry`` is the kind of a unit that names none. A kind with rules of
its own is declared where they are (the toolkit's sniper team, a base game's own word for
a soldier) and is accepted only by a scenario whose base game or modules list it. They enter
``REGISTRY.unit_kinds`` through the entry-point group ``sim.unit_kinds``.
"""
from __future__ import annotations

from sim.systems.games import UnitKind

__all__ = ["HQ", "INFANTRY", "TEAM", "VEHICLE"]

INFANTRY = UnitKind("infantry", "foot soldiers: the kind of a unit that names none", generic=True)
VEHICLE = UnitKind("vehicle", "a vehicle", generic=True)
TEAM = UnitKind("team", "a team (a stand of a few soldiers)", generic=True)
HQ = UnitKind("hq", "a headquarters", generic=True)
