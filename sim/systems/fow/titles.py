"""The rule titles of FOW (seed 003) and its base game BASE.F.

Declared with ``sim.plugin.define_rules``, as a plug-in's are, and imported first by the package
(its code marks what it applies with ``@implements``).
"""
from __future__ import annotations

from sim.catalogue import define_rules

TITLES = define_rules({
    "FOW.RELOCATE": "Changing the hide: d6 4+ returns the sniper to the Sniper Reserve",
    "FOW.IMMOBILE": "A deployed sniper never moves; a forced move destroys it",
    "FOW.CAMO": "Snipers are always Concealed, Gone to Ground and in Bulletproof Cover",
    "FOW.FRIENDLY": "No sniper shot while a friendly team is within 10 cm",
    "FOW.MARKSMAN": "Snipers re-roll failed to-hit rolls",
    "FOW.PIN": "A platoon hit by a sniper is automatically Pinned Down",
    "FOW.ESCAPE": "A Destroyed sniper: d6 4+ killed, else escapes to the reserve",
    "FOW.CATCH": "Catching a sniper in the Assault Step: d6 4+ caught, else escapes",
    "FOW.RESERVE": "The Sniper Reserve: placement at the start of the owner's later turn",
    "BASE.F.HIT": "To-hit: d6 against skill, worsened by concealment and range (base game)",
    "BASE.F.SAVE": "A team hit in the open saves on d6 >= its save (base game)",
    "BASE.F.FP": "Firepower test: a team hit in Bulletproof Cover is destroyed on d6 >= firepower (base game)",
    "BASE.F.PIN": "Pinned Down platoons neither move nor assault; rally on d6 >= motivation (base game)",
    "BASE.F.ASSAULT": "Close assault: a team moves into contact and destroys its target on d6 >= skill (base game)",
    # Where a rule module (snap fire, say) meets FOW and neither text says how: named readings
    "FOW.SF.HIT": "A hit a rule module scores (snap fire's) is a shooting hit, or firepower rules do not apply (knob)",
    "FOW.SF.PIN": "A team a rule module hits (snap fire) has its platoon Pinned Down, as a sniper's hit does (knob)",
    "FOW.SF.SNIPER": "A sniper team takes the reactions a rule module offers (snap fire), or never does (knob)",
})
