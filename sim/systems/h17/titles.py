"""The rule titles of H17 (seed 001) and its hex base game BASE.H.

Declared with ``sim.plugin.define_rules``, as a plug-in's are, and imported first by the package
(its code marks what it applies with ``@implements``).
"""
from __future__ import annotations

from sim.catalogue import define_rules

TITLES = define_rules({
    "H17.1": "One sniper per player per game; in play once activated; never leaves its hex",
    "H17.1s": "A sniper cannot spot for mortars, off-board artillery or air strikes",
    "H17.2a": "Activation by an opposing infantry natural 12 on an AP/AT attack",
    "H17.2b": "Placement within LOS and 6 hexes in a hex with a cover modifier",
    "H17.2c": "On activation the sniper immediately attacks the activating unit(s)",
    "H17.3": "Voluntary withdrawal in the After-Action Phase",
    "H17.4": "Opportunity fire once per turn at a moving infantry target in LOS within 6 hexes",
    "H17.5": "Sniper attack: d6 > cover modifier inflicts (d6 - cover) casualty points",
    "H17.6a": "Elimination check after each sniper attack by an unpinned target",
    "H17.6b": "An enemy unit entering the sniper's hex eliminates it",
    "H17.6c": "An eliminated sniper can never be activated again",
    "BASE.H.AP": "Infantry AP/AT attack on 2d6 (base game)",
    "BASE.H.CP": "Casualty points remove steps (base game)",
    "BASE.H.PIN": ("A unit that loses a step is pinned; it rallies on d6 >= morale in its After-Action Phase"
                   " (base game)"),
})
