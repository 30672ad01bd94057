"""The rule catalogue: every rule ID, its title, and the code that applies it.

The bottom layer of ``sim``: it imports nothing of ``sim``. The built-in IDs are those of
the project's rule catalogue, each with its title here (plus the ``BASE.*`` rules of the small base games); a plug-in
rule system adds its own with ``define_rules`` before its code uses them. Code that
applies a rule is marked with ``@implements("SF.HALT", ...)``; ``sim rules`` lists each ID
with the functions so marked (module and name), so the list can never drift from the code.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sim import arguments

T = TypeVar("T")

TITLES: dict[str, str] = {
    # H17 — hex wargame snipers
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
    # FOW — sniper teams
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
    # TOO — Theatre of Operation
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
    # SF — snap fire
    "SF.TRIGGER": "Snap fire when an enemy moves within 10 cm in the Movement phase",
    "SF.HALT": "The mover is halted at the exact point it first came within the radius",
    "SF.ROLL": "Snap fire roll: d6 >= target's Armour scores a hit",
    "SF.ONCE": "At most one snap fire per firer at a given target per turn",
    "SF.AFTER": "A target that survives acts normally later in the turn",
    "SF.INSIDE": "A unit already within the radius may be snap fired only if it moves closer",
    "SF.NOASSAULT": "No snap fire against moves in the Assault phase",
    "SF.MARCH": "March orders: a halt ends the rest of the phase or only this move (knob)",
    "SF.ZOC": "Variant: a zone of control replaces snap fire (knob)",
    "BASE.S.HIT": "Effect of a hit: the target loses a step; at 0 steps it is eliminated",
    "BASE.S.SHOOT": "Shooting phase: d6 + cover modifier >= target's Armour to hit (base game)",
    "BASE.S.ASSAULT": "Assault phase: charge into contact, both sides roll d6 >= Armour (base game)",
}

_IMPLEMENTED: dict[str, list[str]] = {}


def define_rules(titles: dict[str, str]) -> dict[str, str]:
    """Add rule IDs and their titles (a plug-in's own rules); returns ``titles``."""
    if not isinstance(titles, dict):
        raise arguments.fail("titles", "a dict of rule IDs to their titles", titles)
    for rule_id, title in titles.items():
        if not isinstance(rule_id, str) or not rule_id or not isinstance(title, str):
            raise arguments.fail("titles", "a non-empty rule ID and its title (strings)",
                                 f"{rule_id!r}: {title!r}")
        known = TITLES.get(rule_id)
        if known is not None and known != title:
            raise arguments.fail("titles", f"rule ID {rule_id} with its title {known!r} "
                                 "(it is defined already)", title)
        TITLES[rule_id] = title
    return titles


def implements(*ids: str) -> Callable[[T], T]:
    """Mark a function or class as the code that applies the given rule IDs."""
    for rule_id in ids:
        if not isinstance(rule_id, str) or rule_id not in TITLES:
            raise arguments.fail("ids", "rule IDs defined before (with define_rules)", rule_id)

    def mark(obj: T) -> T:
        where = f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', repr(obj))}"
        for rule_id in ids:
            places = _IMPLEMENTED.setdefault(rule_id, [])
            if where not in places:
                places.append(where)
        return obj

    return mark


def title(rule_id: str) -> str:
    """The title of a rule ID (KeyError if it is not defined)."""
    return TITLES[rule_id]


def entries() -> list[tuple[str, str, list[str]]]:
    """(ID, title, [where]) for every defined ID, in catalogue order, as marked so far."""
    return [(rid, text, list(_IMPLEMENTED.get(rid, []))) for rid, text in TITLES.items()]
