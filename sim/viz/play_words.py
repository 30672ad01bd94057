"""What the play board says, in words a cadet can read: the orders, what a phase brought
(moves, halts, shots and their rolls, hits, falls), the planner's answer (its choice and
what it considered: each choice's rollouts and mean score) and the debrief's rows.

Everything here is plain text read off the log's records (``sim.play`` makes them); the
board escapes it where it puts it in a page.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.catalogue import TITLES
from sim.decide.orders import PLAYER, TO
from sim.events import ARRIVE, DECIDE, ELIMINATE, END, STOP
from sim.play.debrief import Judged
from sim.viz.rolls import explain, is_roll, learn_tests

__all__ = ["MENU_WORDS", "answer", "debrief_lines", "order_words", "score_words", "story"]

#: Each choice of the menu, as the board offers it.
MENU_WORDS: dict[str, str] = {
    "plan": "keep to the plan",
    "hold": "hold where it stands",
    "fall_back": "fall back to the last place it passed",
    "seek_cover": "seek cover within one move",
    "next_step": "go on to the plan's next step",
}


def order_words(order: str) -> str:
    """An order (``hold``, ``to SAFE``) as the board says it."""
    if order.startswith(TO):
        return f"go to {order[len(TO):]}"
    return MENU_WORDS.get(order, order)


def score_words(mean: float) -> str:
    """A mean score, signed to two places (+1: a win every time, -1: a loss every time)."""
    return f"{mean:+.2f}"


def _labelled(label: str) -> str:
    # a planner's label, "all: hold" or "g1: hold; g2: plan", in words
    parts = []
    for part in label.split("; "):
        who, _, choice = part.partition(": ")
        parts.append(f"{'all its units' if who == 'all' else who}: {order_words(choice)}")
    return "; ".join(parts)


def answer(record: dict[str, Any]) -> list[str]:
    """A planner's decision (its ``decide`` summary record) in sentences: what it chose and
    what it considered, best first."""
    side, values, visits = record["side"], record["values"], record["visits"]
    lines = [f"{side.capitalize()}'s planner, turn {record['turn']}: it chose {_labelled(record['choice'])}.",
             f"It tried {len(values)} choice{'s' * (len(values) != 1)} in {record['rollouts']} rollouts "
             "(each a battle played on from here to the end, with fresh dice) and took the one it tried most "
             "(at a tie, the best mean, then its plan). "
             f"Mean score for {side}: +1 if it won every rollout, -1 if it lost every one."]
    for label in sorted(values, key=lambda k: (-values[k], k)):
        n = visits[label]
        lines.append(f"  {_labelled(label)}: mean {score_words(values[label])} over {n} rollout{'s' * (n != 1)}")
    return lines


def _unit_line(r: dict[str, Any], tests: dict[str, tuple[str, str]]) -> str | None:
    ev, who = r["event"], r.get("unit")
    if is_roll(r):
        title = TITLES.get(r.get("rule") or "", r.get("rule") or "a roll")
        at = f" against {r['target']}" if r.get("target") else ""
        return f"{who} rolled{at} ({title}): {explain(r, tests)}."
    if ev == ARRIVE:
        return f"{who} reached {r['node']}."
    if ev == STOP and r.get("reason") == "halted":
        return f"{who} was halted at {r['node']}."
    if ev == STOP and r.get("reason") == "allowance":
        return f"{who} moved to {r['node']} (as far as it could this phase)."
    if ev == ELIMINATE:
        return f"{who} was eliminated."
    if "steps_lost" in r and r.get("target"):
        return f"{r['target']} was hit by {r.get('by')}: lost {r['steps_lost']} step(s), {r.get('steps_left')} left."
    if (r.get("rule") or "").endswith("HALT") and "firer" in r:
        return f"{who} halted by {r['firer']}'s fire at ({r['pos'][0]:g}, {r['pos'][1]:g})."
    return None


def story(records: Sequence[dict[str, Any]], side: str) -> list[str]:
    """What the records of a phase (and the planner's phases after it) say happened, one
    sentence a record that matters: the orders, moves, halts, rolls, hits, falls, the end."""
    tests = learn_tests(list(records))
    lines = []
    for r in records:
        ev = r["event"]
        if ev == DECIDE:
            if r.get("policy") == PLAYER and "orders" in r:
                orders = r["orders"]
                lines.append("Your orders: " + ("; ".join(f"{k} {order_words(v)}" for k, v in orders.items())
                                                if orders else "every unit keeps to its plan") + ".")
            elif r.get("policy") == "mcts" and "values" in r:
                lines.append(f"{r['side'].capitalize()}'s planner chose {_labelled(r['choice'])} "
                             "(its reasons: the planner's answer).")
            elif "unit" in r and r.get("trigger") in ("fired_on", "halted"):
                lines.append(f"{r['unit']} reacted to being {r['trigger'].replace('_', ' ')}: {r['choice']}.")
            continue
        if ev == END:
            won = r.get("winner")
            lines.append(f"The battle is over: {won + ' wins' if won else 'no winner'} ({r.get('reason')}).")
            continue
        line = _unit_line(r, tests)
        if line is not None:
            lines.append(f"t={r['t']:.2f}, turn {r['turn']} ({r['side']} {r['phase']}): {line}")
    return lines


def debrief_lines(judged: Judged, side: str) -> list[str]:
    """One decision of the debrief in sentences: the orders, each option's mean, the planner's pick."""
    d = judged.decision
    mine = judged.yours
    given = "; ".join(f"{k} {order_words(v)}" for k, v in d.orders.items() if v != "plan") or \
        "every unit keeps to its plan"
    best = next(o for o in judged.options if o.name == judged.best)
    agree = "the same as yours" if best.yours else f"{order_words(best.name)} for the whole side"
    lines = [f"Turn {d.turn}: you ordered: {given} (mean {score_words(mine.mean)}).",
             f"  The planner would have chosen: {agree} (mean {score_words(best.mean)})."]
    for o in judged.options:
        name = "your orders" if o.yours and o.name == "yours" else order_words(o.name) + (
            " (yours)" if o.yours else "")
        lines.append(f"  {name}: mean {score_words(o.mean)} over {o.rollouts} rollouts")
    return lines
