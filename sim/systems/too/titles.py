"""The rule titles of TOO (seed 002) and its base game BASE.T.

Declared with ``sim.plugin.define_rules``, as a plug-in's are, and imported first by the package
(its code marks what it applies with ``@implements``).
"""
from __future__ import annotations

from sim.catalogue import define_rules

TITLES = define_rules({
    "TOO.ACQ": "Acquiring a target: d6 + modifiers <= morale",
    "TOO.KEEP": "A target stays acquired while LOS is kept; re-acquire at -1",
    "TOO.OPP": "Opportunity fire in the enemy's next turn at a target acquired in own turn",
    "TOO.SCOPE": "Telescopic sight: one range band closer",
    "TOO.STEALTH": "Stealth movement and the morale check to stay hidden",
    "TOO.CONCEAL": "Spotting a concealed sniper: d6 + hider's level modifier <= spotter morale",
    "TOO.COUNTER": "Sniper against sniper: morale difference applied to the spotting roll",
    "TOO.FACING": "Re-checks by figures facing within 45 degrees after each attack",
    "TOO.DAMAGE": "Hit location and mortal damage: d10 with a d6 for the side",
    "TOO.SAVE": "Cover save: d6 >= target number by cover",
    "TOO.ALERT": "Opportunity fire: at most half a force on alert; options A and B",
    "TOO.REHIDE": "A hidden figure that fired on opportunity makes a concealment check",
    "BASE.T.RANGE": "Range bands, base attack numbers and morale scores by level (base game)",
})
