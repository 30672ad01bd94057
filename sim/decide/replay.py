"""A battle played on to its decision points: the same scenario and seed, the same battle.

``Replay(scenario, seed)`` builds the battle and starts its clock without running it.
``take(at, action)`` asks for ``action`` (``Changes``, or a callable given the battle and
the phase) at a decision point; ``run()`` plays to the end, taking every point asked for,
in order, when it comes. Until the first point is taken the battle is the trunk's to the
record: nothing of the replay runs in the battle but a check at each phase's start (and,
while a ``halted`` point is awaited, a look at each new record). ``next_turn(side)`` stops
at the announcement of the side's next movement phase (its rules not yet begun; given both
sides, at either's) and ``order(action)`` is taken at that phase's start: the way a caller
outside (an agent) plays; ``every_turn(side, action)`` acts at each of the side's movement
phases (a rollout).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from sim import arguments
from sim.agents.plan_facts import Facts, read_facts
from sim.decide.changes import Changes, apply_changes
from sim.decide.points import At, describe_at, holds, moving_phase
from sim.engine.battle import Battle
from sim.engine.clock import Phase
from sim.engine.collector import resting
from sim.engine.dice import Dice
from sim.errors import InputError
from sim.events import HALT, STOP
from sim.metrics import compute_metrics
from sim.replication import BattleResult
from sim.scenario.yamlfile import place_of

__all__ = ["PLANNED", "Decision", "Replay", "refuse_planners"]

#: Why a battle with a side that plans cannot be replayed to a decision (branched, played by an agent).
PLANNED = ("a side that plans cannot also be branched or played by an agent "
           "(its rollouts replay the battle without their choices)")

#: What is done at a decision: new orders, or code given the battle and the phase (None mid-phase).
Action = Changes | Callable[[Battle, "Phase | None"], None]


@dataclass(frozen=True)
class Decision:
    """A decision point as a battle reached it: the records before it (``index``), when."""

    index: int
    t: float
    turn: int
    phase: str


def refuse_planners(scenario: Any) -> None:
    """``InputError`` naming the scenario's file and ``policies.<side>.decide`` if a side plans:
    a replayed battle (a branch, an agent's) cannot have one (``PLANNED``)."""
    for side, policies in scenario.policies.items():
        if policies.decide is not None:
            raise InputError(PLANNED, file=scenario.file,
                             place=place_of(("policies", side, "decide"), scenario._lines))


class Replay:
    """A battle of ``scenario`` at ``seed``, run on to its decision points (module doc)."""

    def __init__(self, scenario: Any, seed: int) -> None:
        with resting():
            self.battle = Battle(scenario, seed)
            self.battle.decision_hook = self._phase_start
            self.battle.start()
        self._asked: list[tuple[At, Action, str]] = []
        self._ordered: list[Action] = []
        self._every: list[tuple[str, Action]] = []
        self._facts: dict[str, Facts] = {uid: Facts() for uid in self.battle.units}
        self._read = 0   # the facts are read to here
        self._seen = 0   # ... and the records looked at for a halt
        self.decisions: list[Decision] = []
        self._moving = moving_phase(scenario)

    @property
    def done(self) -> bool:
        """Whether the battle has ended."""
        return bool(self.battle.done.triggered)

    def take(self, at: At, action: Action, trigger: str | None = None) -> Replay:
        """At ``at`` (after the points asked for before it), do ``action``."""
        self._asked.append((at, action, trigger or describe_at(at, self.battle.scenario)))
        return self

    def every_turn(self, side: str, action: Action) -> Replay:
        """Do ``action`` at the start of each of ``side``'s movement phases from now on
        (after the orders and points due then): a rollout's policy, say."""
        self._every.append((side, action))
        return self

    def order(self, action: Action) -> None:
        """Do ``action`` at the next phase's start (after ``next_turn``: the one it stopped at)."""
        self._ordered.append(action)

    def reseed(self, seed: int) -> None:
        """From now on, the dice of a battle at ``seed`` (fresh streams): after a decision, a
        planner's sample of what chance may bring."""
        self.battle.dice = Dice(arguments.seed(seed))

    def next_turn(self, *sides: str) -> Phase | None:
        """Play on to the announcement of the next movement phase of one of ``sides`` (its
        ``side`` says whose); None: the battle ended."""
        # The collector rests while the battle plays on, as in a battle's run (sim.engine.collector).
        with resting():
            return self._next_turn(frozenset(sides))

    def _next_turn(self, sides: frozenset[str]) -> Phase | None:
        battle, done = self.battle, self.battle.done
        # Event by event, to stop at the announcement before anything acts on it; each new
        # record is looked at too only while a halt is awaited (``_step``).
        step = self._step if self._halt_awaited() else battle.env.step
        while not done.triggered:
            ev = battle.clock.next_phase()
            while not ev.triggered and not done.triggered:
                step()
            if done.triggered:
                break
            phase = cast(Phase, ev.value)
            if phase.moves and phase.side in sides:
                return phase
        battle.env.run(until=done)
        return None

    def run(self) -> BattleResult:
        """Play on to the end; the battle's result (its log, metrics, winner and why)."""
        battle = self.battle
        with resting():
            while not battle.done.triggered and self._halt_awaited():
                self._step()   # a halt is looked for record by record
            battle.env.run(until=battle.done)
        log = battle.log
        return BattleResult(log, compute_metrics(log, battle.scenario), battle.winner, battle.reason)

    # -- inside the battle ------------------------------------------------------------
    def _halt_awaited(self) -> bool:
        # (only ``take`` adds a point, and not while the battle plays on)
        return any(at.halted is not None for at, _, _ in self._asked)

    def _step(self) -> None:
        self.battle.env.step()
        if self._asked and self._asked[0][0].halted is not None:
            records = self.battle.log.records
            uid = self._asked[0][0].halted
            start, self._seen = self._seen, len(records)
            for i in range(start, len(records)):
                r = records[i]
                ev = r["event"]
                if r.get("unit") == uid and (ev == HALT or (ev == STOP and r.get("reason") == "halted")):
                    self._decide(None, since=i)   # the halt itself is one to react to
                    return

    def _phase_start(self, phase: Phase) -> None:
        while self._ordered:
            self._act(self._ordered.pop(0), phase, f"turn {phase.turn} {phase.phase}")
        self._points(phase)
        for side, action in self._every:
            if phase.moves and phase.side == side:
                self._act(action, phase, f"turn {phase.turn} {phase.phase}")

    def _points(self, phase: Phase) -> None:
        while self._asked:
            at = self._asked[0][0]
            if at.turn is not None:
                if (at.turn, at.phase or self._moving) != (phase.turn, phase.phase):
                    return
            elif at.when is not None:
                self._read = read_facts(self.battle.log.records, self._read, self._facts)
                if not holds(at, self.battle, self._facts, phase):
                    return
            else:
                return   # a halt: looked for record by record (``_step``)
            self._decide(phase)

    def _decide(self, phase: Phase | None, since: int | None = None) -> None:
        _, action, trigger = self._asked.pop(0)
        c = self.battle.clock.current
        self._seen = len(self.battle.log.records)
        self.decisions.append(Decision(self._seen, self.battle.env.now, c.turn, c.phase))
        self._act(action, phase, trigger, since)

    def _act(self, action: Action, phase: Phase | None, trigger: str, since: int | None = None) -> None:
        if isinstance(action, Changes):
            apply_changes(self.battle, action, phase, trigger, since=since)
        else:
            action(self.battle, phase)
