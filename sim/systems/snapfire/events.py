"""The snap-fire system's own event names (the rest are ``sim.events``)."""
from __future__ import annotations

SNAP_FIRE = "snap_fire"   # SF.ROLL: the firer's d6 against the mover's Armour
