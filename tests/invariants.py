"""A reusable auditor: given a scenario and an event log, check every invariant.

``check(scenario, records, battle=None)`` raises ``InvariantError`` naming the record
(its index and the record itself) and the invariant it breaks. ``records`` is a list of
dicts: ``battle.log.records`` or the lines of a ``sim run --log`` file (whose floats are
the records' own, at full precision; every tolerance here is at least 1e-6). With ``battle`` (a
finished ``sim.engine.battle.Battle``) the final state is checked against the log too.

The invariants (issue 7, item 3; DESIGN.md's event-log contract; rules/CATALOGUE.md):

* contract keys, and time: ``t`` finite and never going back; ``turn`` an int in
  1..turns; ``side`` the side whose turn it is; ``phase`` one of the ruleset's phases
  (``setup`` only at t = 0 before the first phase); each record's time lies inside the
  phase it names; (turn, phase) never go back; one ``end`` record, the last.
* no unit in two places, nor off the map: every ``pos`` lies on the map; a unit that is standing is always
  logged at the same point; its position changes only during a move (``move`` … ``halt``/``stop``/``arrive``)
  and never faster than its allowance allows (three moves a phase if any of its orders,
  plan or group plan steps marches); a sniper team changes place only by
  being placed (``activate``/``deploy``) while off the board; nothing is logged of a
  unit, as actor, after its elimination.
* strength: ``steps_left`` never below zero; each unit's ``steps_lost`` add up to
  exactly its start steps minus ``steps_left``, so casualties never exceed strength.
* the sniper lifecycle (H17, FOW): every logged transition (``state_from`` → ``state``)
  is in ``sim.toolkit.sniper_team.TRANSITIONS`` under its lifecycle event name and starts in
  the state the team is in; an off-board team (reserve, withdrawn, off_board) never
  shoots, is never shot at or caught; the team's own history matches the log.
* rolls: every record with ``dice`` satisfies its rule's test (``ROLL_TESTS``, from
  the catalogue's last column, and for BASE rules not in the catalogue from their
  module's documented table). A roll under a rule that is in neither table fails.
* SF.HALT (and SF.ZOC) halts lie on the radius to 1e-6; ``inside: true`` ones strictly
  within it (``dist`` < radius); ``dist`` is the distance between ``pos`` and
  ``firer_pos``; halts happen only in the movement phase, and a firer halts a given
  target at most once a turn (SF.ONCE).
* the log needs nothing else (issue 12): every unit has exactly one ``place`` record, at
  t = 0 in phase ``setup``, in scenario order, at its start (``pos`` null when off the
  board), before anything else of it but its rule system's own set-up ``deploy``; every
  ``move`` has ``times``, one per waypoint, non-decreasing, none before the move starts;
  a move still under way when the battle ends is closed by a ``stop`` (``battle_end``)
  at the end's instant, so every ``move`` is closed by a ``halt``, ``stop`` or
  ``arrive`` or by the unit's elimination; ``decide`` records name a policy, a choice
  (``take`` or ``decline``) and a chance in [0, 1].
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable

from sim.systems.too.tables import damage
from sim.toolkit import sniper_team as lifecycle

EPS = 1e-6


class InvariantError(AssertionError):
    pass


def _fail(i: int, rec: dict | None, message: str):
    where = f"record {i}: {rec!r}" if rec is not None else "final state"
    raise InvariantError(f"{message}\n  at {where}")


def _d6(faces, n=1, sides=6) -> bool:
    return (isinstance(faces, list) and len(faces) == n
            and all(isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= sides for f in faces))


# --------------------------------------------------------------------------------------
# Roll tests: rule ID -> predicate(record) -> (ok, what was expected)
# --------------------------------------------------------------------------------------
def _ge(r):         # success = die >= need
    return _d6(r["dice"]) and r["mods"] == 0 and r["success"] == (r["dice"][0] >= r["need"])


def _ge_need(r):    # success = die >= need; `mods` is shown but already inside `need`
    return _d6(r["dice"]) and r["success"] == (r["dice"][0] >= r["need"])


def _ge_mods(r):    # success = die + mods >= need
    return _d6(r["dice"]) and r["success"] == (r["dice"][0] + r["mods"] >= r["need"])


def _gt(r):         # success = die > need
    return _d6(r["dice"]) and r["mods"] == 0 and r["success"] == (r["dice"][0] > r["need"])


def _le_mods(r):    # success = die + mods <= need (TOO morale checks)
    return _d6(r["dice"]) and r["success"] == (r["dice"][0] + r["mods"] <= r["need"])


def _four_up(r):    # FOW.RELOCATE / ESCAPE / CATCH: d6 >= 4
    return r["need"] == 4 and _ge(r)


def _h17_5(r):      # d6 > cover; cp = d6 - cover on success, else 0
    return (_gt(r) and r["need"] >= 0
            and r["cp"] == (r["dice"][0] - r["need"] if r["success"] else 0))


def _h17_2a(r):     # the activating attack's two dice, both 6 (no new roll)
    return r["dice"] == [6, 6] and r["mods"] == 0 and r["need"] == 12 and r["success"] is True


def _base_h_ap(r):  # 2d6 + mods >= need; natural12 iff 6,6
    return (_d6(r["dice"], 2) and r["success"] == (sum(r["dice"]) + r["mods"] >= r["need"])
            and r["natural12"] == (r["dice"] == [6, 6]))


def _marksman(r):   # first die, and a re-roll only if it failed; success = last die >= need
    d = r["dice"]
    if not (isinstance(d, list) and len(d) in (1, 2) and _d6(d, len(d))):
        return False
    first_failed = d[0] < r["need"]
    return (len(d) == 2) == first_failed and r["success"] == (d[-1] >= r["need"])


def _too_damage(r):  # [d10, d6]; location, body_side, dies_in from the table; success = killed
    d = r["dice"]
    if not (isinstance(d, list) and len(d) == 2 and _d6(d[:1], 1, 10) and _d6(d[1:], 1, 6)):
        return False
    want = damage(d[0], d[1])
    return (r["need"] is None and r["success"] == (want["dies_in"] == 0)
            and all(r.get(k) == want[k] for k in ("location", "body_side", "dies_in")))


def _d10_ge(r):     # BASE.T.RANGE attack: d10 >= the band's base number
    return _d6(r["dice"], 1, 10) and r["mods"] == 0 and r["success"] == (r["dice"][0] >= r["need"])


#: Rolls whose test is in the catalogue's last column.
CATALOGUE_TESTS: dict[str, Callable[[dict], bool]] = {
    "H17.5": _h17_5,
    "H17.6a": _gt,
    "BASE.H.AP": _base_h_ap,
    "FOW.RELOCATE": _four_up,
    "FOW.MARKSMAN": _marksman,
    "FOW.ESCAPE": _four_up,
    "FOW.CATCH": _four_up,
    "BASE.F.HIT": _ge_need,
    "TOO.ACQ": _le_mods,
    "TOO.STEALTH": _le_mods,
    "TOO.CONCEAL": _le_mods,
    "TOO.COUNTER": _le_mods,
    "TOO.FACING": _le_mods,   # a TOO.CONCEAL/COUNTER check made under TOO.FACING
    "TOO.REHIDE": _le_mods,   # a TOO.CONCEAL/COUNTER check made under TOO.REHIDE
    "TOO.SAVE": _ge,
    "SF.ROLL": _ge,
}

#: BASE rules that roll but have no catalogue row: the test documented in their module.
BASE_TESTS: dict[str, Callable[[dict], bool]] = {
    "BASE.H.PIN": _ge,        # hex_combat: rally on d6 >= morale
    "BASE.S.SHOOT": _ge_mods,  # base: d6 + mods >= Armour
    "BASE.S.ASSAULT": _ge,    # base: d6 >= Armour
    "BASE.F.SAVE": _ge,       # team_combat: save on d6 >= armour
    "BASE.F.FP": _ge,         # team_combat: destroyed on d6 >= firepower
    "BASE.F.PIN": _ge,        # team_combat: rally on d6 >= morale
    "BASE.F.ASSAULT": _ge,    # team_combat: destroys on d6 >= skill
    "FOW.SF.HIT": _ge,        # fow services: a module's hit saved on d6 >= armour (module_hit: save)
    "BASE.T.RANGE": _d10_ge,  # too_tables: d10 >= the band's base number
}

#: Records that carry dice but no pass/fail test of their own; each is checked against
#: what the catalogue says they hold instead.
DICE_WITHOUT_TEST: dict[str, Callable[[dict], bool]] = {
    "H17.2a": _h17_2a,        # the activating BASE.H.AP attack's dice, both 6
    "TOO.DAMAGE": _too_damage,  # hit location table; `success` = killed outright
}

ROLL_TESTS = {**CATALOGUE_TESTS, **BASE_TESTS, **DICE_WITHOUT_TEST}


# --------------------------------------------------------------------------------------
# The checker
# --------------------------------------------------------------------------------------
#: Records whose ``pos`` is the target's, not the acting ``unit``'s.
POS_OF_TARGET = {("escape", "FOW.ESCAPE"), ("spot", "TOO.CONCEAL"), ("spot", "TOO.COUNTER"),
                 ("spot", "TOO.FACING"), ("spot", "TOO.REHIDE")}
#: Rules whose moves are charges/assaults: fast (or instant) moves into contact.
ASSAULT_MOVES = {"BASE.S.ASSAULT", "BASE.F.ASSAULT"}
MOVE_ENDS = {"halt", "stop", "arrive"}
#: Records of a sniper team acting on, or being acted on, the board.
ON_BOARD_ACTS = {"sniper_attack", "opportunity_fire", "sniper_shot", "relocate", "no_shot"}
TARGETED = {"elimination_check", "escape", "catch", "shoot", "assault", "firepower"}
STATE_EVENTS = {"deploy", "spot", "withdraw", "to_reserve", "eliminate"}
OFF = ("off_board", "reserve", "withdrawn")


def _pos(rec) -> tuple[float, float] | None:
    p = rec.get("pos")
    if p is None:
        return None
    return float(p[0]), float(p[1])


def _num(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _speed_limit(scenario, terrain, spec) -> float:
    """An upper bound on a unit's speed in map units per unit of time."""
    edges = terrain.graph.edges(data=True)
    factors = [d["cost"] / d["length"] for _, _, d in edges if d["length"] > 0]
    fmin = min(factors, default=1.0)
    moves = 3 if "march" in _step_types(scenario, spec) else 1
    return spec.move * moves / (scenario.rules.base.phase_length * min(fmin, 1.0))


def _step_types(scenario, spec) -> set[str]:
    """The types of every step the unit may take: its orders, its plan or its group's."""
    plans = [spec.plan] + [g.plan for g in scenario.groups.values() if spec.id in g.units]
    steps = [spec.orders] + [step for plan in plans if plan is not None for step in plan.steps]
    return {step.type for step in steps}


def check(scenario, records: list[dict], battle=None) -> None:
    """Raise ``InvariantError`` if the log breaks any invariant (see the module doc)."""
    terrain = scenario.map
    phases = tuple(p.name for p in scenario.composition.phases)
    sides = scenario.sides
    L = scenario.rules.base.phase_length
    specs = {spec.id: (side, spec) for side, spec in scenario.units()}
    knobs = scenario.rules

    # -- contract keys, time, turns, phases, the end ------------------------------------
    last_t, last_key, started = -math.inf, (0, -1), False
    ends = [i for i, r in enumerate(records) if r.get("event") == "end"]
    if len(ends) != 1 or ends[0] != len(records) - 1:
        _fail(ends[0] if ends else len(records) - 1, records[-1] if records else None,
              f"expected exactly one `end` record, the last (found at {ends})")
    for i, r in enumerate(records):
        for key in ("t", "turn", "side", "phase", "event", "rule"):
            if key not in r:
                _fail(i, r, f"contract key {key!r} missing")
        t, turn = r["t"], r["turn"]
        if not _num(t) or t < last_t - 1e-9:
            _fail(i, r, f"time went back or is not finite ({t} after {last_t})")
        last_t = max(last_t, t)
        if not isinstance(turn, int) or isinstance(turn, bool) or not 1 <= turn <= scenario.turns:
            _fail(i, r, f"turn must be an int in 1..{scenario.turns}")
        if r["side"] != sides[(turn - 1) % 2]:
            _fail(i, r, f"side {r['side']!r} is not the side of turn {turn}")
        if r["phase"] == "setup":
            if started or t != 0 or turn != 1:
                _fail(i, r, "a `setup` record after the first phase began")
            continue
        if r["phase"] not in phases:
            _fail(i, r, f"phase {r['phase']!r} is not one of {scenario.ruleset}'s {phases}")
        started = True
        k = phases.index(r["phase"])
        key = (turn, k)
        if key < last_key:
            _fail(i, r, f"(turn, phase) went back from {last_key}")
        last_key = key
        start = ((turn - 1) * len(phases) + k) * L
        tol = 1e-9 * max(1.0, abs(start)) + 1e-9
        if not start - tol <= t <= start + L + tol:
            _fail(i, r, f"t={t} is outside its phase [{start}, {start + L}]")
        if r.get("rule") is not None and not isinstance(r["rule"], str):
            _fail(i, r, "rule must be a catalogue ID or null")

    # -- rolls ---------------------------------------------------------------------------
    for i, r in enumerate(records):
        if "dice" not in r:
            continue
        test = ROLL_TESTS.get(r["rule"])
        if test is None:
            _fail(i, r, f"a roll under {r['rule']!r}, a rule with no test in ROLL_TESTS")
        for key in ("mods", "need", "success"):
            if key not in r:
                _fail(i, r, f"roll record without {key!r}")
        if not isinstance(r["success"], bool):
            _fail(i, r, "`success` must be a bool")
        try:
            ok = test(r)
        except (KeyError, TypeError, IndexError) as exc:
            _fail(i, r, f"roll record malformed for {r['rule']} ({exc!r})")
        if not ok:
            _fail(i, r, f"roll does not satisfy {r['rule']}'s test")
        _check_need(i, r, specs, knobs)

    # -- halts (SF.HALT / SF.ZOC), SF.ONCE -----------------------------------------------
    once = set()
    for i, r in enumerate(records):
        if r.get("event") != "halt" or r.get("rule") not in ("SF.HALT", "SF.ZOC"):
            continue
        radius = knobs.snapfire.radius if r["rule"] == "SF.HALT" else knobs.snapfire.zoc_radius
        if abs(r["radius"] - radius) > EPS:
            _fail(i, r, f"radius is not the scenario's {radius}")
        d = math.dist(_pos(r), tuple(r["firer_pos"]))
        if abs(d - r["dist"]) > EPS:
            _fail(i, r, f"`dist` {r['dist']} is not |pos - firer_pos| = {d}")
        if r.get("inside"):
            if d >= radius:
                _fail(i, r, f"an inside halt at {d} >= radius {radius}")
        elif abs(d - radius) > EPS:
            _fail(i, r, f"halt point at {d}, not on the radius {radius} (to 1e-6)")
        if r["phase"] != "movement":
            _fail(i, r, "a halt outside the movement phase (SF.TRIGGER, SF.NOASSAULT)")
        if r["rule"] == "SF.HALT":
            k = (r["turn"], r["firer"], r["unit"])
            if k in once:
                _fail(i, r, "a second snap fire at the same target this turn (SF.ONCE)")
            once.add(k)

    _check_log_completeness(scenario, records, specs)

    # -- strength ------------------------------------------------------------------------
    lost = defaultdict(int)
    for i, r in enumerate(records):
        if r.get("event") != "hit" or "steps_left" not in r:
            continue
        uid = r["unit"]
        sl, left = r.get("steps_lost", 0), r["steps_left"]
        if not (isinstance(sl, int) and isinstance(left, int)) or sl < 0 or left < 0:
            _fail(i, r, "steps_lost and steps_left must be whole numbers >= 0")
        lost[uid] += sl
        start = specs[uid][1].steps
        if lost[uid] > start:
            _fail(i, r, f"casualties {lost[uid]} exceed the unit's strength {start}")
        if left != start - lost[uid]:
            _fail(i, r, f"steps_left {left} != start {start} - lost {lost[uid]}")

    # -- positions, eliminations, sniper lifecycle ---------------------------------------
    _check_places(scenario, terrain, records, specs)
    states = _check_lifecycle(scenario, records, specs)

    if battle is not None:
        _check_final(battle, records, states, lost)


def _check_log_completeness(scenario, records, specs) -> None:
    """Placements, planned arrival times, closed moves and decisions (module docstring)."""
    places = [(i, r) for i, r in enumerate(records) if r.get("event") == "place"]
    if [r["unit"] for _, r in places] != list(specs):
        _fail(places[0][0] if places else 0, places[0][1] if places else None,
              f"place records {[r['unit'] for _, r in places]} are not every unit in order {list(specs)}")
    seen: set[str] = set()
    for i, r in enumerate(records):
        uid, ev = r.get("unit"), r.get("event")
        if ev == "place":
            side, spec = specs[uid]
            if r["t"] != 0.0 or r["phase"] != "setup" or r.get("force") != side:
                _fail(i, r, "a place record is at t = 0, in setup, naming the unit's side")
            if (r["pos"] is None) == bool(r["on_board"]):
                _fail(i, r, "a place record has a pos exactly when the unit is on the board")
            if uid in seen:
                _fail(i, r, f"{uid} was logged before its place record")
        elif uid in specs and not (ev == "deploy" and r.get("phase") == "setup"):
            seen.add(uid)
        if ev == "move":
            times, wps = r.get("times"), r.get("waypoints")
            if not isinstance(times, list) or len(times) != len(wps or []):
                _fail(i, r, "a move record has one planned time per waypoint")
            if any(b < a - EPS for a, b in zip([r["t"], *times], times)):
                _fail(i, r, "a move's planned times go back")
        if ev == "decide" and "chance" in r:
            if r.get("choice") not in ("take", "decline") or not 0 <= r["chance"] <= 1:
                _fail(i, r, "a reaction decision names its choice (take/decline) and a chance in [0, 1]")
        elif ev == "decide":
            if not (isinstance(r.get("policy"), str) and isinstance(r.get("choice"), str)
                    and isinstance(r.get("trigger"), str)):
                _fail(i, r, "a plan or policy decision names its policy, choice and trigger")
    open_moves: dict[str, int] = {}
    for i, r in enumerate(records):
        uid, ev = r.get("unit"), r.get("event")
        if ev == "move":
            open_moves[uid] = i
        elif ev in MOVE_ENDS or ev == "eliminate":
            open_moves.pop(uid, None)
            if ev == "stop" and r.get("reason") == "battle_end" and (
                    i + 1 >= len(records) or records[-1]["t"] != r["t"]):
                _fail(i, r, "a battle_end stop is at the battle's end")
    if open_moves:
        uid, i = next(iter(open_moves.items()))
        _fail(i, records[i], f"{uid}'s move is never closed (halt, stop, arrive or elimination)")


def _check_need(i, r, specs, knobs) -> None:
    """Where the catalogue says what `need` is, check it is that."""
    rule = r["rule"]
    target = r.get("target")
    if rule == "SF.ROLL" and target in specs and r["need"] != specs[target][1].armour:
        _fail(i, r, "SF.ROLL need is not the target's Armour")
    if rule == "TOO.SAVE" and r["need"] != knobs.too.save_need[r["cover"]]:
        _fail(i, r, "TOO.SAVE need is not the cover class's save number")
    if rule == "BASE.T.RANGE":
        bases = {b[0]: b[2] for b in knobs.too.range_bands}
        if r["need"] != bases.get(r["band"]):
            _fail(i, r, "BASE.T.RANGE need is not the band's base number")
    if rule == "BASE.F.FP" and r["need"] not in (knobs.fow.firepower, knobs.fow.sniper_firepower):
        _fail(i, r, "BASE.F.FP need is not a firepower knob")
    if rule == "BASE.F.HIT" and not 1 <= r["need"] <= 6:
        _fail(i, r, "BASE.F.HIT need is not capped at 6")


def _check_places(scenario, terrain, records, specs) -> None:
    """No unit in two places: standing units stay put; moves respect the allowance."""
    snipers = _sniper_units(scenario)
    standing: dict[str, tuple | None] = {}
    moving: dict[str, tuple] = {}      # uid -> (t0, p0, assault?)
    dead: dict[str, int] = {}
    x0, y0, x1, y1 = terrain.bounds
    limit = {uid: _speed_limit(scenario, terrain, spec) for uid, (_, spec) in specs.items()}
    for uid, (_, spec) in specs.items():
        standing[uid] = None if snipers.get(uid) in ("off_board", "reserve") else terrain.pos(spec.at)
    for i, r in enumerate(records):
        uid = r.get("unit")
        if uid is None or uid not in specs:
            if uid is not None:
                _fail(i, r, f"unknown unit {uid!r}")
            continue
        ev, rule = r["event"], r.get("rule")
        if uid in dead:
            _fail(i, r, f"unit {uid} acts after its elimination (record {dead[uid]})")
        p = _pos(r)
        if p is not None and not (x0 - EPS <= p[0] <= x1 + EPS and y0 - EPS <= p[1] <= y1 + EPS):
            _fail(i, r, f"position {p} is off the map {terrain.bounds}")
        if (ev, rule) in POS_OF_TARGET:
            p = None
        if uid in snipers and (ev == "activate" or (ev == "deploy" and r.get("state_from") in OFF)):
            standing[uid] = p      # a placement, from off the board (see _check_lifecycle)
            continue
        if uid in snipers and ev in ("withdraw", "to_reserve"):
            if p is not None and standing[uid] is not None and math.dist(p, standing[uid]) > EPS:
                _fail(i, r, f"{uid} leaves the board from {p}, not where it stood {standing[uid]}")
            standing[uid] = None
            continue
        if ev == "eliminate":
            dead[uid] = i
        if p is None:
            continue
        if ev == "move":
            if uid in moving:
                _within_reach(i, r, moving[uid], p, limit[uid])
            elif standing[uid] is not None and math.dist(p, standing[uid]) > EPS:
                _fail(i, r, f"{uid} starts a move at {p} but stands at {standing[uid]}")
            moving[uid] = (r["t"], p, rule in ASSAULT_MOVES)
            standing[uid] = None
            continue
        if uid in moving:
            _within_reach(i, r, moving[uid], p, limit[uid])
            if ev in MOVE_ENDS:
                del moving[uid]
                standing[uid] = p
            continue
        if standing[uid] is None:
            if uid in snipers:
                _fail(i, r, f"sniper {uid} is logged at {p} while off the board")
            standing[uid] = p
        elif math.dist(p, standing[uid]) > EPS:
            _fail(i, r, f"{uid} is at {p} but stands at {standing[uid]} (two places)")


def _within_reach(i, r, move, p, vmax) -> None:
    t0, p0, assault = move
    if assault:
        return
    d, dt = math.dist(p0, p), r["t"] - t0
    if d > vmax * dt + 1e-6 * max(1.0, d):
        _fail(i, r, f"{r['unit']} moved {d:.6g} in {dt:.6g} (at most {vmax:.6g}/time unit)")


def _sniper_units(scenario) -> dict[str, str | None]:
    """Sniper teams (H17, FOW) -> their starting lifecycle state."""
    base = scenario.composition.base.name   # the game whose sniper teams these are
    if base not in ("h17", "fow"):
        return {}
    out = {}
    for _, spec in scenario.units():
        if spec.kind != "sniper":
            continue
        default = "off_board" if base == "h17" else "reserve"
        start = spec.sniper_team.start if spec.sniper_team is not None else default
        out[spec.id] = "hidden" if start == "deployed" else start
    return out


def _check_lifecycle(scenario, records, specs) -> dict[str, list]:
    """Every sniper transition follows sim.toolkit.sniper_team.TRANSITIONS; off-board teams
    never act or get shot. Returns uid -> [(t, state), ...] as logged."""
    teams = _sniper_units(scenario)
    state = dict(teams)
    seen = {uid: [s] for uid, s in teams.items()}
    event_of = {}
    for target, event in lifecycle.COMMANDS.values():
        event_of.setdefault(target, set()).add(event)
    for i, r in enumerate(records):
        uid, ev = r.get("unit"), r.get("event")
        if uid in teams and ev in STATE_EVENTS and "state" in r:
            new, old = r["state"], r.get("state_from")
            if old != state[uid]:
                _fail(i, r, f"{uid}: transition from {old!r} but the team is {state[uid]!r}")
            if new not in lifecycle.TRANSITIONS.get(old, ()):
                _fail(i, r, f"{uid}: {old} -> {new} is not in the lifecycle table")
            if ev not in event_of.get(new, ()):
                _fail(i, r, f"{uid}: {old} -> {new} logged as {ev!r}, expected {event_of.get(new)}")
            state[uid] = new
            seen[uid].append(new)
        elif uid in teams and ev == "activate":
            if state[uid] not in lifecycle.SOURCES["activate"]:
                _fail(i, r, f"{uid} activated while {state[uid]}")
        elif uid in teams and ev in STATE_EVENTS and ev != "spot":
            _fail(i, r, f"{uid}: lifecycle event {ev!r} without state/state_from")
        if uid in teams and ev in ON_BOARD_ACTS and state[uid] not in lifecycle.ON_BOARD:
            _fail(i, r, f"sniper {uid} acts ({ev}) while {state[uid]}")
        tgt = r.get("target")
        if tgt in teams and ev in TARGETED and state[tgt] not in lifecycle.ON_BOARD:
            _fail(i, r, f"sniper {tgt} is targeted ({ev}) while {state[tgt]}")
    return seen


def _check_final(battle, records, states, lost) -> None:
    """The battle's final state agrees with its log."""
    from sim.toolkit.sniper_team import ON_BOARD, RESERVE

    for unit in battle.units.values():
        if unit.steps < 0 or unit.steps > unit.start_steps:
            _fail(-1, None, f"{unit.id} has {unit.steps} steps (start {unit.start_steps})")
        if lost[unit.id] > unit.start_steps - unit.steps:
            _fail(-1, None, f"{unit.id}: log says {lost[unit.id]} steps lost, unit has {unit.steps}")
        eliminated = any(r.get("event") == "eliminate" and r.get("unit") == unit.id for r in records)
        if eliminated == unit.alive:
            _fail(-1, None, f"{unit.id}: alive={unit.alive} but eliminate logged={eliminated}")
    for team in getattr(battle.state, "teams", []):   # H17 and FOW states hold teams
        logged = states.get(team.id)
        history = [s for _, s in team.history]
        if logged is not None and history != logged:
            _fail(-1, None, f"{team.id}: history {history} != logged transitions {logged}")
        on = team.state in ON_BOARD and team.unit.alive
        if on != team.unit.on_board:
            _fail(-1, None, f"{team.id}: state {team.state} but unit on_board={team.unit.on_board}")
    for side, reserve in getattr(battle.state, "reserves", {}).items():
        for team in reserve.teams:
            if team.state != RESERVE:
                _fail(-1, None, f"{team.id} is in {side}'s reserve store but {team.state}")


def check_battle(battle) -> None:
    """``check`` on a finished battle's own scenario, log and state."""
    check(battle.scenario, battle.log.records, battle)


__all__ = ["InvariantError", "ROLL_TESTS", "CATALOGUE_TESTS", "BASE_TESTS", "DICE_WITHOUT_TEST",
           "check", "check_battle"]
