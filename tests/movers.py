"""A throw-away base game for kernel tests: every mover moves in each phase that
allows moves, watched by the watches it is given (a unit's and the ground's, added in
the order given); ``run_under`` registers it under a name with the given phases, runs
one battle of a scenario dict and unregisters it."""
from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import sim
import sim.plugin as sp
from conftest import register_game
from sim.experimental import unregister_system


class MoveEveryMover:
    """Arms the watches ``make`` gives; in a phase that allows moves every mover moves."""

    def __init__(self, make: Callable[[], Sequence[sp.Watch | sp.GroundWatch]] = tuple) -> None:
        self.state = None
        self.make = make

    def setup(self, battle: sp.BattleContext) -> None:
        """Arm the watches."""
        for watch in self.make():
            if isinstance(watch, sp.GroundWatch):
                battle.referee.add_ground(watch)
            else:
                battle.referee.add(watch)

    def on_phase(self, battle: sp.BattleContext, phase: sp.Phase) -> None:
        """Start the phasing side's moves, if units move in this phase."""
        battle.referee.begin_phase()
        if phase.moves:
            for u in battle.movers_of(phase.side):
                if u.route and u.on_board:
                    u.process = battle.env.process(sp.movement_process(battle, u, phase))


def run_under(name: str, phases: Any, data: dict, make: Callable[[], Sequence[sp.Watch | sp.GroundWatch]] = tuple,
              **system: Any) -> sp.EventLog:
    """The log of one battle (seed 1) of ``data`` under a base game ``name`` of ``phases``."""
    register_game(sp.BaseGame(name=name, title="a test system", phases=phases,
                              game=functools.partial(MoveEveryMover, make), **system))
    try:
        return sim.run(sim.scenario_from_dict({**data, "ruleset": name}), seed=1).log
    finally:
        unregister_system(name)
