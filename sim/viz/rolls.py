"""A die-roll record told in words: what was rolled, what it needed, and whether it passed.

``need`` means different things in different rules (``d6 >= need``, ``d6 > need``, a roll
under ``need``, ``mods`` added or already inside ``need``). ``TESTS`` holds the test of
every built-in rule that rolls, as the rule's module and the catalogue state it; for a
rule not in it (a plug-in's), the test is read from the log itself: the one comparison
every roll of that rule in the log agrees with, or none is claimed.
"""
from __future__ import annotations

from typing import Any

# rule ID -> (comparison, how ``mods`` enter): "add" (dice + mods is compared), "inside"
# (``mods`` is shown, but already counted in ``need``) or "none" (``mods`` is 0).
TESTS: dict[str, tuple[str, str]] = {
    "SF.ROLL": (">=", "none"), "BASE.S.SHOOT": (">=", "add"), "BASE.S.ASSAULT": (">=", "none"),
    "H17.5": (">", "none"), "H17.6a": (">", "none"), "BASE.H.AP": (">=", "add"),
    "BASE.H.PIN": (">=", "none"),
    "FOW.RELOCATE": (">=", "none"), "FOW.ESCAPE": (">=", "none"), "FOW.CATCH": (">=", "none"),
    "FOW.MARKSMAN": ("last>=", "inside"), "BASE.F.HIT": (">=", "inside"),
    "BASE.F.SAVE": (">=", "none"), "BASE.F.FP": (">=", "none"), "BASE.F.PIN": (">=", "none"),
    "BASE.F.ASSAULT": (">=", "none"),
    "TOO.ACQ": ("<=", "add"), "TOO.STEALTH": ("<=", "add"), "TOO.CONCEAL": ("<=", "add"),
    "TOO.COUNTER": ("<=", "add"), "TOO.FACING": ("<=", "add"), "TOO.REHIDE": ("<=", "add"),
    "TOO.SAVE": (">=", "none"), "BASE.T.RANGE": (">=", "none"),
}
#: Records that carry dice but are not a pass/fail test against ``need``.
#: rule ID -> (what the dice are, the outcome when ``success``, when not).
NOT_A_TEST = {
    "H17.2a": ("the activating attack's two dice (both 6), no roll of its own", "activated", "not activated"),
    "TOO.DAMAGE": ("a d10 and a d6 read on the hit location table (no target number)",
                   "killed outright", "not killed outright"),
}
COMPARE = {">=": lambda a, b: a >= b, ">": lambda a, b: a > b,
           "<=": lambda a, b: a <= b, "<": lambda a, b: a < b}


def is_roll(r: dict[str, Any]) -> bool:
    """Whether a record is a die roll (it has ``dice`` and ``success``)."""
    return isinstance(r.get("dice"), list) and bool(r["dice"]) and "success" in r


def _total(r: dict[str, Any], mods: str) -> float:
    return sum(r["dice"]) + (r.get("mods") or 0 if mods == "add" else 0)


def learn_tests(records: list[dict[str, Any]]) -> dict[str, tuple[str, str]]:
    """The test of each rule that rolls in ``records``: ``TESTS``'s, or the one comparison
    (of dice + mods, or of the dice alone) every roll of it in the log agrees with."""
    out: dict[str, tuple[str, str]] = {}
    by_rule: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        if is_roll(r) and isinstance(r.get("need"), int | float) and isinstance(r.get("rule"), str):
            by_rule.setdefault(r["rule"], []).append(r)
    for rule, rolls in by_rule.items():
        if rule in TESTS:
            out[rule] = TESTS[rule]
            continue
        fits = [(op, mods) for op in COMPARE for mods in ("none", "add")
                if all(COMPARE[op](_total(r, mods), r["need"]) == bool(r["success"]) for r in rolls)]
        if len({op for op, _ in fits}) == 1 and (len(fits) == 1 or all(not r.get("mods") for r in rolls)):
            out[rule] = fits[0]
    return out


def _signed(n: float) -> str:
    return f"+{n:g}" if n >= 0 else f"−{-n:g}"


def _need_words(op: str, need: float) -> str:
    """``need`` as the results that pass (integer rolls): '4 or more', '40 or less'."""
    n = int(need) if float(need).is_integer() else need
    if op in (">=", "last>="):
        return f"{n:g} or more"
    if op == ">":
        return f"more than {n:g} ({n + 1:g} or more)" if isinstance(n, int) else f"more than {n:g}"
    if op == "<=":
        return f"{n:g} or less"
    return f"less than {n:g} ({n - 1:g} or less)" if isinstance(n, int) else f"less than {n:g}"


def explain(r: dict[str, Any], tests: dict[str, tuple[str, str]]) -> str:
    """One sentence on a roll record: the roll, what it needed (by ``TESTS``, else by
    ``tests``, what ``learn_tests`` read from the log), and the outcome."""
    dice, mods, need, rule = r["dice"], r.get("mods") or 0, r.get("need"), r.get("rule")
    rolled = "+".join(map(str, dice)) + (f" = {sum(dice)}" if len(dice) > 1 else "")
    outcome = "success" if r["success"] else "failed"
    if rule in NOT_A_TEST:
        what, yes, no = NOT_A_TEST[rule]
        return f"dice {', '.join(map(str, dice))}: {what}: {yes if r['success'] else no}"
    test = (TESTS.get(rule) or tests.get(rule)) if isinstance(rule, str) else None
    if test is None or not isinstance(need, int | float):
        return (f"rolled {rolled}, mods {_signed(mods)}; need {need} (this rule's own test: "
                f"see its title): {outcome}")
    op, how = test
    if op == "last>=":
        shown = (f"first die {dice[0]}" + (f", re-rolled: {dice[-1]}" if len(dice) > 1 else ""))
        return (f"{shown}; the last die needed {_need_words(op, need)} (mods {_signed(mods)} "
                f"already counted in it): {outcome}")
    if how == "add" and mods:
        shown = f"rolled {rolled}, mods {_signed(mods)} → {sum(dice) + mods:g}"
    else:
        shown = f"rolled {rolled}"
    after = {"add": " (after mods)", "inside": f" (mods {_signed(mods)} already counted in it)",
             "none": ""}[how]
    return f"{shown}; needed {_need_words(op, need)}{after}: {outcome}"
