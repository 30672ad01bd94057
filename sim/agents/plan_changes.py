"""The plans' changes mid-battle (``sim.decide``): a unit given new steps, the policies
changed, a unit sent on to its plan's next step, a plan kept up to date whatever its orders.

A part of ``sim.agents.plans.Plans`` (its base class), kept apart: the battle as the
scenario wrote it never calls it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sim.agents.plan_steps import describe
from sim.agents.runner import Runner

if TYPE_CHECKING:
    from sim.engine.clock import Phase
    from sim.engine.context import BattleContext


class PlanChanges:
    """What ``Plans`` does when a caller changes a battle's plans as it runs."""

    battle: BattleContext
    runners: dict[str, Runner]
    policies: Any

    if TYPE_CHECKING:   # the plans' own, which these changes go through
        def steps_for(self, scenario: Any, spec: Any) -> tuple[list[Any], bool, Any]: ...
        def revise(self) -> None: ...
        def _advance(self, r: Runner, phase: Phase) -> None: ...
        def _next(self, r: Runner, index: int) -> None: ...

    def replan(self, scenario: Any, spec: Any, phase: Phase | None = None) -> None:
        """The unit of ``spec`` follows its steps in ``scenario`` from now on, from where it
        stands: the first starts now if ``phase`` is one of its side's movement phases
        (just begun), else at the next; conditions count events from now."""
        r = self.runners[spec.id]
        r.steps, r.loop, r.until = self.steps_for(scenario, spec)
        now = len(self.battle.log.records)
        r.index, r.begun, r.finished, r.resume, r.detour, r.ground_turns = 0, False, False, False, False, 0
        r.since = r.pass_since = r.step_began = now
        self.take_over(r)
        if phase is not None and phase.moves and phase.side == r.unit.side and r.unit.on_board:
            self._advance(r, phase)

    def skip(self, r: Runner, phase: Phase) -> str:
        """The unit leaves its current step for its plan's next one (or, after the last,
        the first of a loop), which starts now if its condition holds; says which."""
        if r.index + 1 >= len(r.steps) and not r.loop:
            return "no next step"
        r.resume, r.ground_turns, r.detour, r.finished = False, 0, False, False
        self._next(r, (r.index + 1) % len(r.steps))
        self._advance(r, phase)
        return f"step {r.index + 1}: {describe(r.steps[r.index])}"

    def take_over(self, *runners: Runner) -> None:
        """Bring the runners' plans up to date at every one of their movement phases from now
        on (their orders are changed mid-battle: ``replan``, ``hold``, ``detour``)."""
        fresh = [r for r in runners if not r.managed]
        for r in fresh:
            r.managed = True
        if fresh:
            self.revise()   # once for them all: it reads every runner

    def set_policies(self, policies: Any, since: int | None = None) -> None:
        """Every unit's policies from now on (as a scenario's ``policies``); a unit that
        did not react before reacts to what happens to it from record ``since`` (default: now)."""
        before = {uid: r.reacts for uid, r in self.runners.items()}
        self.policies = policies
        self.revise()
        for uid, r in self.runners.items():
            if r.reacts and not before[uid]:
                r.reacted = len(self.battle.log.records) if since is None else since
