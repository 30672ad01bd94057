"""A side's reserve of sniper teams: a process around a ``simpy.Store``.

A team that is sent ``to_reserve`` (``sim.toolkit.sniper_team``) puts itself into its
owner's store as it enters the ``reserve`` state. At the start of each of the owner's
moving phases (``clock.wait_moving``) the reserve process takes out, in the order they
went in, every team that has waited at least ``delay`` of the owner's turns (``delay`` =
1: the owner's next turn), picks a position for it with ``place(team)`` and interrupts
the team's process with a ``deploy`` command logged under the reserve's ``rule``. A team
with no allowed position is logged (``no_deploy``), goes back into the store and is tried
again at the owner's next turn.
"""
from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

import simpy

from sim.engine.context import BattleContext
from sim.events import NO_DEPLOY
from sim.toolkit.sniper_team import SniperTeam

__all__ = ["Placement", "SniperReserve"]

#: Where a team goes back on the board: (node, extra fields of its ``deploy`` record),
#: or None when no position is allowed.
Placement = Callable[[SniperTeam], "tuple[str, dict[str, Any]] | None"]


class SniperReserve:
    """A side's reserve: teams wait in a store and are placed again in order, under ``rule``."""

    def __init__(self, battle: BattleContext, side: str, place: Placement, rule: str,
                 delay: int = 1):
        self.battle = battle
        self.side = side
        self.place = place          # team -> (node, fields) or None
        self.delay = int(delay)
        self.rule = rule
        self.store = simpy.Store(battle.env)
        self.process = battle.env.process(self._run())

    def put(self, team: SniperTeam) -> None:
        """A team enters the reserve (last in the queue)."""
        self.store.put(team)

    @property
    def teams(self) -> list[SniperTeam]:
        """The teams waiting, in the order they went in."""
        return list(self.store.items)

    def ready(self, team: SniperTeam, turn: int) -> bool:
        """Whether ``team`` has waited ``delay`` of its owner's turns by ``turn``."""
        clock = self.battle.clock
        owner_turns = sum(1 for u in range(team.reserve_turn + 1, turn + 1)
                          if clock.side_of_turn(u) == self.side)
        return owner_turns >= self.delay

    def _run(self) -> Generator[simpy.Event, Any, None]:
        clock = self.battle.clock
        while True:
            phase = yield clock.wait_moving(self.side)
            n = 0
            for team in self.store.items:   # a list, in the order they went in
                if not self.ready(team, phase.turn):
                    break
                n += 1
            retry: list[SniperTeam] = []
            for _ in range(n):
                team = yield self.store.get()
                spot = self.place(team)
                if spot is None:
                    retry.append(team)
                    self.battle.record(NO_DEPLOY, rule=self.rule, unit=team.id,
                                       reason="no allowed position")
                    continue
                node, fields = spot
                yield team.request("deploy", rule=self.rule, node=node, **fields)
            for team in retry:
                self.store.put(team)
