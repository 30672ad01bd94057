"""Moving a side in a phase in which units move: every mover set off, written once.

``start_moves`` sets off each given unit that is on the board and not pinned: with
``route`` it gets its route for this phase first (a hunter's, say), and with a route it
moves, by ``move`` (the kernel's ``movement_process`` unless the system wraps it). A
moving phase of the simplest kind is ``move_side``: the referee's reactors indexed
afresh, then the side's movers (``battle.movers_of``) set off.
"""
from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from typing import Any

import simpy

from sim.agents.movement import movement_process
from sim.agents.unit import Unit
from sim.engine.clock import Phase
from sim.engine.context import BattleContext

__all__ = ["Move", "move_side", "start_moves"]

#: How a unit makes its moves of a phase: a generator for ``env.process``.
Move = Callable[[BattleContext, Unit, Phase], Generator[simpy.Event, Any, Any]]


def start_moves(battle: BattleContext, phase: Phase, units: Iterable[Unit], *,
                route: Callable[[Unit], list[str]] | None = None,
                move: Move = movement_process) -> list[Unit]:
    """Set off every unit of ``units`` on the board and not pinned; returns those that moved."""
    started = []
    for unit in units:
        if not unit.on_board or unit.pinned:
            continue
        if route is not None:
            unit.route = route(unit)
        if unit.route:
            unit.process = battle.env.process(move(battle, unit, phase))
            started.append(unit)
    return started


def move_side(battle: BattleContext, phase: Phase) -> list[Unit]:
    """The phasing side's movers set off (the referee's reactors indexed afresh first)."""
    battle.referee.begin_phase()
    return start_moves(battle, phase, battle.movers_of(phase.side))
