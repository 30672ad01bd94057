"""The rule titles of SF, snap fire (seed 004).

Declared with ``sim.plugin.define_rules``, as a plug-in's are, and imported first by the package
(its code marks what it applies with ``@implements``).
"""
from __future__ import annotations

from sim.catalogue import define_rules

TITLES = define_rules({
    "SF.TRIGGER": "Snap fire when an enemy moves within 10 cm in the Movement phase",
    "SF.HALT": "The mover is halted at the exact point it first came within the radius",
    "SF.ROLL": "Snap fire roll: d6 >= target's Armour scores a hit",
    "SF.ONCE": "At most one snap fire per firer at a given target per turn",
    "SF.AFTER": "A target that survives acts normally later in the turn",
    "SF.INSIDE": "A unit already within the radius may be snap fired only if it moves closer",
    "SF.NOASSAULT": "No snap fire against moves in the Assault phase",
    "SF.MARCH": "March orders: a halt ends the rest of the phase or only this move (knob)",
    "SF.ZOC": "Variant: a zone of control replaces snap fire (knob)",
})
