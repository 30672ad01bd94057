"""TOO — the Theatre of Operation sniper amendment's tables, as pure functions.

Everything here can be computed by hand; the simulator (``sim.systems.too``) and the
tests call the same functions, so a class can check the one against paper.

Levels and morale (BASE.T.RANGE)
    The seed compares d6 rolls with a figure's *morale score* and names five *levels*
    (Green, Recruit, Seasoned, Veteran, Elite) but does not give the score of each
    level (that is in the base game it amends). Our documented default, configurable
    per scenario with ``rules.too.morale_by_level``::

        green 2   recruit 3   seasoned 4   veteran 5   elite 6

    One point per level is what the text's worked example needs: a Seasoned German
    and a Veteran Russian differ by 1, and the Russian's 6 − 1 = 5 spots (5 <= 5).

Range bands (BASE.T.RANGE)
    The seed quotes the base game's range table only by example: "close range, beyond
    point blank ... a base +4 ... at point blank range ... a base of +2". Our bands
    (distances in the map's unit: cm on a table, hexes on a hex map; configurable with
    ``rules.too.range_bands``), and the base number an attack needs on a d10::

        band         up to   base (d10 >= base hits)
        point_blank      5    2
        close           20    4
        medium          40    6
        long            80    8
        extreme          -   10

    TOO.SCOPE: a sniper's shot uses the band one step closer (close → point blank).

Acquisition modifiers (TOO.ACQ, TOO.KEEP)
    target ran or evaded +1; attacker moved +2; target on a moving vehicle at up to
    half its move +1 ("under 1/2"; exactly half counts here), over half +2; target in
    open −1, soft 0, hard +1, enclosed +2; attacker wounded +1; re-acquiring a target
    whose LOS was lost −1 ("target opportunity"). The seed's acquisition table predates
    its own new "medium" cover class and gives it no modifier: we read medium as 0 (as
    soft; configurable with ``rules.too.acq_cover_mods``).

Concealment (TOO.CONCEAL) and counter-sniping (TOO.COUNTER)
    CONCEAL: d6 + the hider's level modifier (Elite +5, Veteran +4, Seasoned +3,
    Recruit +2, Green −1) <= the spotter's morale spots. COUNTER (a sniper spotting a
    sniper) replaces the level modifier by the morale difference: mods = hider's morale
    − spotter's morale (so a better spotter subtracts, a better hider adds); equal
    scores give a plain morale check. TOO.FACING: a sniper searching within its 45°
    facing gets a further −1.

Mortal damage (TOO.DAMAGE)
    d10 for the location and effect, d6 for the side (1–3 right, 4–6 left);
    ``dies_in`` is the number of turns to death if untreated, 0 = killed outright.

Cover saves (TOO.SAVE)
    d6 >= the target number: open 6, soft 5 (also prone in the open), medium 4, hard 3,
    enclosed 2. The seed's table ends with a line "1: None"; we read it as "no cover
    class has target number 1", i.e. a save always needs at least 2 and a 1 never
    saves (the table's own "Open terrain — troop has no cover" is already the no-cover
    case at 6). The knob ``rules.too.save_need`` enforces it (2..7).

Stealth (TOO.STEALTH) — the ambiguous text, knob ``rules.too.stealth_reading``
    The seed: "If a sniper moves at his allotted movement for the turn, he may move
    undetected so long as he is in cover at the beginning and end of the turn. If the
    sniper starts or ends his turn in cover, then he must make a successful morale
    check ... If a sniper moves his full movement for the turn and remains in cover as
    above, he must make a successful morale check ... A sniper that starts or ends his
    movement in cover will add +2 to his die roll when making a morale check." The
    check is d6 + mods <= morale; failing it reveals the sniper. Readings (all agree
    that a move in cover at both ends, short of the full allowance, needs no check):

    ``literal`` (default)
        Any other move is checked. +2 whenever the move starts or ends in cover (so a
        full move in cover at both ends is checked at +2, a move from cover into the
        open at +2, a move wholly in the open at +0), exactly as the words say.
    ``exposure``
        "starts or ends" means *only one* end in cover: that move is checked at +2
        (the sniper broke cover); a full move in cover at both ends is checked at +0;
        a move with neither end in cover cannot be stealthy at all: the sniper is
        revealed without a roll.
    ``cover_bonus``
        "add +2" is read as in the sniper's favour (the +2 goes to the morale side):
        checked moves get −2 on the die when they start or end in cover, +0 otherwise.
"""
from __future__ import annotations

import math
from typing import Literal

#: A figure's level (BASE.T.RANGE).
Level = Literal["green", "recruit", "seasoned", "veteran", "elite"]
#: A TOO cover class.
CoverClass = Literal["open", "soft", "medium", "hard", "enclosed"]

LEVELS: tuple[Level, ...] = ("green", "recruit", "seasoned", "veteran", "elite")

MORALE_BY_LEVEL: dict[Level, int] = {"green": 2, "recruit": 3, "seasoned": 4, "veteran": 5, "elite": 6}

#: TOO.CONCEAL: the hider's level modifier on the spotter's d6.
CONCEAL_MODS = {"elite": 5, "veteran": 4, "seasoned": 3, "recruit": 2, "green": -1}

#: TOO cover classes, in the order of the terrain's integer cover (0, 1, 2, 3, 4+).
COVER_CLASSES: tuple[CoverClass, ...] = ("open", "soft", "medium", "hard", "enclosed")

#: TOO.SAVE target numbers (d6 >= need saves).
SAVE_NEED: dict[CoverClass, int] = {"open": 6, "soft": 5, "medium": 4, "hard": 3, "enclosed": 2}

#: TOO.ACQ modifiers for the target's cover ("medium" is our reading: see above).
ACQ_COVER_MODS: dict[CoverClass, int] = {"open": -1, "soft": 0, "medium": 0, "hard": 1, "enclosed": 2}

#: BASE.T.RANGE: (band, upper distance or None for unlimited, base number on a d10).
RANGE_BANDS = (("point_blank", 5.0, 2), ("close", 20.0, 4), ("medium", 40.0, 6),
               ("long", 80.0, 8), ("extreme", None, 10))

STEALTH_READINGS = ("literal", "exposure", "cover_bonus")

#: TOO.DAMAGE: d10 -> (location, dies_in turns (0 = killed), effect).
#: Effects (our documented reading of what a wound does until death or treatment):
#: ``critical`` can neither move nor act; ``drops_item`` loses its next action;
#: ``falls``/``down`` cannot move but may act (wounded, +1 to acquire);
#: ``severed`` cannot act (no weapon hand) nor move; ``killed`` dies at once.
DAMAGE_TABLE = {
    1: ("head", 3, "critical"),
    2: ("arm", 5, "drops_item"),
    3: ("leg", 3, "falls"),
    4: ("lower_body", 3, "down"),
    5: ("upper_body", 3, "down"),
    6: ("lower_body", 0, "killed"),
    7: ("upper_body", 0, "killed"),
    8: ("arm", 2, "severed"),
    9: ("leg", 1, "falls"),
    10: ("head", 0, "killed"),
}

IMMOBILE_EFFECTS = frozenset({"critical", "falls", "down", "severed"})
NO_ACTION_EFFECTS = frozenset({"critical", "severed"})


def body_side(d6: int) -> str:
    """TOO.DAMAGE: 1, 2 or 3 is the right side, 4, 5 or 6 the left."""
    if not 1 <= d6 <= 6:
        raise ValueError(f"a d6 face is 1..6, got {d6}")
    return "right" if d6 <= 3 else "left"


def damage(d10: int, d6: int) -> dict:
    """The TOO.DAMAGE result of the two dice: location, body_side, dies_in, effect."""
    if d10 not in DAMAGE_TABLE:
        raise ValueError(f"a d10 face is 1..10, got {d10}")
    location, dies_in, effect = DAMAGE_TABLE[d10]
    return {"location": location, "body_side": body_side(d6), "dies_in": dies_in, "effect": effect}


def cover_class(cover: int, prone: bool = False, classes: tuple[CoverClass, ...] = COVER_CLASSES) -> CoverClass:
    """The TOO cover class of a terrain cover value; prone in the open counts as soft."""
    cls = classes[max(0, min(int(cover), len(classes) - 1))]
    if cls == "open" and prone:
        return "soft"
    return cls


def acq_mods(*, target_ran=False, attacker_moved=False, vehicle_fraction=None,
             target_cover="open", attacker_wounded=False, reacquire=False,
             cover_mods: dict | None = None) -> tuple[int, dict]:
    """TOO.ACQ / TOO.KEEP: the sum of modifiers and each term by name."""
    terms: dict[str, int] = {}
    if target_ran:
        terms["target_ran"] = 1
    if attacker_moved:
        terms["attacker_moved"] = 2
    if vehicle_fraction is not None and vehicle_fraction > 0:
        terms["target_vehicle"] = 1 if vehicle_fraction <= 0.5 else 2
    terms["target_cover"] = int((cover_mods or ACQ_COVER_MODS)[target_cover])
    if attacker_wounded:
        terms["attacker_wounded"] = 1
    if reacquire:
        terms["target_opportunity"] = -1
    return sum(terms.values()), terms


def morale_check(face: int, mods: int, need: int) -> bool:
    """The seed's test for ACQ, STEALTH, CONCEAL, COUNTER: d6 + mods <= morale."""
    return face + mods <= need


def conceal_mods(hider_level: str) -> int:
    return CONCEAL_MODS[hider_level]


def counter_mods(hider_morale: int, spotter_morale: int) -> int:
    """TOO.COUNTER: the difference goes to the better one (spotter better → negative)."""
    return int(hider_morale) - int(spotter_morale)


def stealth_rule(reading: str, start_cover: bool, end_cover: bool, full_move: bool):
    """TOO.STEALTH: ``None`` (no check: stays hidden), ``"reveal"`` (revealed, no roll)
    or the modifier of the morale check, under the given reading (see module text)."""
    if reading not in STEALTH_READINGS:
        raise ValueError(f"stealth_reading must be one of {STEALTH_READINGS}, got {reading!r}")
    if start_cover and end_cover and not full_move:
        return None
    either = start_cover or end_cover
    if reading == "literal":
        return 2 if either else 0
    if reading == "exposure":
        if start_cover and end_cover:      # full move in cover
            return 0
        if either:
            return 2
        return "reveal"
    return -2 if either else 0             # cover_bonus


def range_band(distance: float, bands=RANGE_BANDS) -> int:
    """Index of the BASE.T.RANGE band that ``distance`` falls in."""
    for i, (_, upper, _) in enumerate(bands):
        if upper is None or distance <= upper + 1e-9:
            return i
    return len(bands) - 1


def scoped(index: int) -> int:
    """TOO.SCOPE: one band closer, never closer than the first."""
    return max(0, index - 1)


def bearing(p, q) -> float:
    """Degrees from p to q: 0 = +x (east), 90 = +y, in [0, 360)."""
    return math.degrees(math.atan2(q[1] - p[1], q[0] - p[0])) % 360.0


def angle_off(facing: float, p, q) -> float:
    """How far (0..180 degrees) the direction p→q is from the facing ``facing``."""
    d = abs((bearing(p, q) - facing + 180.0) % 360.0 - 180.0)
    return d


def within_facing(facing: float, p, q, half_angle: float = 45.0) -> bool:
    """TOO.FACING: a figure at p facing ``facing`` has q within ``half_angle`` degrees."""
    if p[0] == q[0] and p[1] == q[1]:
        return True
    return angle_off(facing, p, q) <= half_angle + 1e-9


def level_for_morale(morale: int, table: dict | None = None) -> str:
    """The level whose score is nearest to ``morale`` (ties: the lower level)."""
    table = table or MORALE_BY_LEVEL
    return min(LEVELS, key=lambda lv: (abs(table[lv] - morale), LEVELS.index(lv)))


def alert_cap(n_figures: int, fraction: float = 0.5, rounding: str = "floor") -> int:
    """TOO.ALERT: at most half of a force (rounded down by default)."""
    x = n_figures * fraction
    return int(math.floor(x + 1e-9)) if rounding == "floor" else int(math.ceil(x - 1e-9))
