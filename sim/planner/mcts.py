"""The ``mcts`` decider: at each of its side's movement phases, a UCT search over the
menu's joint choices on rollouts of the battle itself, then the most visited choice told.

Deterministic for a battle's seed (under a ``rollouts`` budget): the tree's order of
untried choices and every rollout's dice come from a generator seeded by the battle's
seed, the side and the turn. The rollouts share their dice: the *k*-th rollout of every
choice at the root draws the same dice seed, so the choices are compared on common
random numbers. The decision is one ``decide`` record (policy ``mcts``): the choice, the
rollouts spent, each tried choice's mean score and visits; then each unit's own record
(``sim.decide.menu.tell``).
"""
from __future__ import annotations

import time
from typing import Any

import numpy as np

from sim.agents.choices import DECIDE as DECIDER
from sim.decide.replay import PLANNED
from sim.engine.clock import Phase
from sim.errors import InputError
from sim.planner.rollout import POLICY, SEARCHED, Rollout, joint, make, trigger
from sim.planner.search import Tree
from sim.systems.behaviours import Behaviour

__all__ = ["BEHAVIOURS", "controls_of", "mcts"]

#: Most controls a joint choice may have (the menu's choices to that power are the root's).
MAX_CONTROLS = 4


def controls_of(scenario: Any, side: str, by: str) -> list[list[str]]:
    """The side's units each choice tells: all together (``by: side``), a group's together
    (``by: group``; a group may hold units of both sides: only the side's), or one each."""
    own = [spec.id for s, spec in scenario.units() if s == side]
    if by == "side":
        return [own]
    mine = set(own)
    members = {g: [u for u in grp.units if u in mine] for g, grp in scenario.groups.items()} \
        if by == "group" else {}
    grouped = {uid: g for g, units in members.items() for uid in units}
    out: list[list[str]] = []
    for uid in own:
        told = members[grouped[uid]] if uid in grouped else [uid]
        if uid == told[0]:   # in the place of the group's first (of the side)
            out.append(told)
    return out


def check(scenario: Any, side: str, policy: Any) -> tuple[str, str] | None:
    """At load time (``Behaviour.check``): a decision of at most ``MAX_CONTROLS`` choices."""
    n = len(controls_of(scenario, side, policy.by))
    if n > MAX_CONTROLS:
        return "by", (f"{n} choices a decision by {policy.by} (expected at most {MAX_CONTROLS}: "
                      "by: side, or by: group with the side's units in groups)")
    return None


def _label(controls: list[list[str]], choices: tuple[str, ...], scenario: Any, by: str) -> str:
    groups = {tuple(grp.units): g for g, grp in scenario.groups.items()}
    name = (lambda c: "all") if by == "side" else (lambda c: groups.get(tuple(c), c[0]))
    return "; ".join(f"{name(c)}: {choice}" for c, choice in zip(controls, choices))


def mcts(battle: Any, side: str, phase: Phase, policy: Any) -> None:
    """Search the menu for ``side`` now and tell its units the choice (module doc)."""
    if getattr(battle, "decision_hook", None) is not None and not battle.played:
        # a replayed battle's choices are not in its log, except a person's orders (rollout)
        raise InputError(PLANNED, place=f"policies.{side}.decide")
    problem = check(battle.scenario, side, policy)   # refused at load: here for a scenario built otherwise
    if problem is not None:
        raise InputError(problem[1], place=f"policies.{side}.decide.{problem[0]}")
    controls = [c for c in controls_of(battle.scenario, side, policy.by)
                if any(battle.units[u].on_board for u in c)]
    if not controls:
        return
    rng = np.random.default_rng([battle.seed, battle.scenario.sides.index(side), phase.turn])
    n = len(controls)
    tree = Tree(len(SEARCHED) ** n, policy.depth, policy.exploration, rng)
    rollout = Rollout(battle, side, controls, phase.turn, policy)
    dice: list[int] = []
    spent, start = 0, time.perf_counter()
    while spent < policy.rollouts:
        path = tree.select()
        k = tree.root.children[path[0]].visits   # the k-th rollout of this choice ...
        while len(dice) <= k:
            dice.append(int(rng.integers(0, 2**62)))   # ... draws the k-th dice of all
        value = rollout.run([joint(a, n) for a in path], dice[k])
        tree.update(path, value)
        spent += 1
        if policy.seconds is not None and time.perf_counter() - start >= policy.seconds:
            break
    best = joint(tree.best(), n)
    kids = tree.root.children

    def label(choices: tuple[str, ...]) -> str:
        return _label(controls, choices, battle.scenario, policy.by)

    summary = {"policy": POLICY, "choice": label(best), "trigger": trigger(phase),
               "actions": list(best), "controls": controls, "rollouts": spent,
               "values": {label(joint(a, n)): round(kids[a].mean, 4) for a in kids},
               "visits": {label(joint(a, n)): kids[a].visits for a in kids}}
    make(battle, controls, best, phase, summary)


BEHAVIOURS: list[Behaviour[Any]] = [
    Behaviour(DECIDER, "mcts", mcts,
              "Monte Carlo tree search (UCT) over the menu on rollouts of the battle, chance sampled", check),
]
