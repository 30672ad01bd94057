"""A rollout: the battle replayed to the planner's decision, one sequence of choices
tried there under other dice, played on by the plans to the end or the horizon, scored.

The replay is the real battle's (``sim.decide.Replay``: the same scenario, the same seed)
with the planner itself switched off and its past decisions, read back from the real
battle's log (its ``decide`` records of policy ``mcts``), made again at their phases,
records and all: up to the decision the rollout is the real battle, record for record.
There it takes fresh dice (``Replay.reseed``): a sample of what chance may bring, never the
real battle's own future. A side's choices after the tree's last level are the plan's.

A side a person plays (``Battle.played``, ``sim.decide.orders``) is given its past orders
again, read back from its ``decide`` records of policy ``player``, at their phases; after
the decision it does as ``PLAYED`` says.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.decide.menu import take_over, tell
from sim.decide.orders import again, past_orders
from sim.decide.replay import Replay
from sim.engine.clock import Phase
from sim.events import CONTRACT_KEYS, DECIDE

__all__ = ["PLAYED", "POLICY", "SEARCHED", "Rollout", "past_decisions", "replay_played", "score"]

#: The ``policy`` of the planner's records (its summary and its units' choices).
POLICY = "mcts"
#: The choices the planner searches at a decision: the menu but ``next_step`` (which a person
#: or an agent may give). A joint choice of ``n`` controls is a number below ``len(SEARCHED) ** n``.
SEARCHED: tuple[str, ...] = ("plan", "hold", "fall_back", "seek_cover")
#: What a side a person plays does in a rollout after the decision: ``plan``, its units keep
#: to their plans (a unit still on its way where it was sent gets there first), as a
#: planner's own side does after the tree's last level. The rollouts cannot know the
#: person's next orders; any other reading (the last order repeated, say) would be a guess.
PLAYED = "plan"


class _Horizon(Exception):
    """The rollout has played its horizon: it is scored where it stands."""


def past_decisions(records: Sequence[dict[str, Any]], side: str) -> dict[int, dict[str, Any]]:
    """The planner's decisions so far (turn -> its summary record), read from the log."""
    return {r["turn"]: r for r in records if r["event"] == DECIDE and r.get("policy") == POLICY
            and r["side"] == side and "actions" in r}


def trigger(phase: Phase) -> str:
    """What a decision at ``phase`` is taken at, in the records' words."""
    return f"turn {phase.turn} {phase.phase}"


def make(battle: Any, controls: Sequence[Sequence[str]], choices: Sequence[str], phase: Phase,
         summary: dict[str, Any] | None) -> None:
    """The planner's decision at ``phase``: its summary record (if any), then each choice told."""
    if summary is not None:
        battle.record(DECIDE, **{k: v for k, v in summary.items() if k not in CONTRACT_KEYS})
    for units, choice in zip(controls, choices):
        tell(battle, units, choice, trigger(phase), policy=POLICY)


def score(battle: Any, side: str, material: float) -> float:
    """The rollout's score for ``side``: win 1, loss -1, else 0, plus ``material`` times
    (enemy steps lost - own steps lost) over all steps at the start."""
    won = 0.0
    if battle.done.triggered and battle.winner is not None:
        won = 1.0 if battle.winner == side else -1.0
    if not material:
        return won
    own = enemy = total = 0
    for u in battle.units.values():
        lost = u.start_steps - (u.steps if u.alive else 0)
        total += u.start_steps
        if u.side == side:
            own += lost
        else:
            enemy += lost
    return won + material * (enemy - own) / max(total, 1)


def replay_played(replay: Replay, records: Sequence[dict[str, Any]], sides: Sequence[str]) -> None:
    """Make the played ``sides`` of ``replay`` give again the orders ``records`` have (their
    plans taken over from the start, as a played battle's are; after those orders, ``PLAYED``)."""
    for side in sides:
        take_over(replay.battle, side)
        replay.every_turn(side, again(side, past_orders(records, side)))


class Rollout:
    """Rollouts of the real ``battle`` from ``side``'s decision at ``turn``."""

    def __init__(self, battle: Any, side: str, controls: Sequence[Sequence[str]], turn: int,
                 policy: Any) -> None:
        self.scenario, self.seed = battle.scenario, battle.seed
        self.side, self.controls, self.turn, self.policy = side, controls, turn, policy
        self.past = past_decisions(battle.log.records, side)
        self.played = sorted(battle.played)
        self.records = battle.log.records[:] if self.played else []

    def run(self, plan: Sequence[Sequence[str]], dice: int) -> float:
        """The score of one rollout: ``plan`` (a choice per control, a decision each, from
        this one on), the dice of seed ``dice`` from the decision on."""
        replay = Replay(self.scenario, self.seed)
        replay.battle.plans.deciders = {}   # the rollout's choices are made here
        replay_played(replay, self.records, self.played)
        ahead = {"n": 0}

        def act(battle: Any, phase: Phase | None) -> None:
            assert phase is not None
            if phase.turn < self.turn:
                past = self.past.get(phase.turn)
                if past is not None:
                    make(battle, past["controls"], past["actions"], phase, past)
                return
            if phase.turn == self.turn:
                replay.reseed(dice)
            k = ahead["n"]
            if self.policy.horizon is not None and k >= self.policy.horizon:
                raise _Horizon
            ahead["n"] = k + 1
            if k < len(plan):
                make(battle, self.controls, plan[k], phase, None)

        replay.every_turn(self.side, act)
        try:
            replay.run()
        except _Horizon:
            pass
        return score(replay.battle, self.side, self.policy.material)


def joint(index: int, controls: int) -> tuple[str, ...]:
    """The joint choice numbered ``index``: a choice of ``SEARCHED`` per control (the first
    fastest), so that the numbers below ``len(SEARCHED) ** controls`` are each joint choice once."""
    out = []
    for _ in range(controls):
        index, k = divmod(index, len(SEARCHED))
        out.append(SEARCHED[k])
    return tuple(out)
