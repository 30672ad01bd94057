"""Moving a side in a phase in which units move: every mover set off, written once.

``start_moves`` sets off each given unit that is on the board, not pinned and not busy:
with ``route`` it gets its route for this phase first (a hunter's, say), and with a route
it moves, as a rule module says (``battle.hooks.move_of``), else by ``move`` (the kernel's
``movement_process`` unless the base game wraps it). A
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
    """Set off every unit of ``units`` on the board, not pinned and not busy; returns those that moved."""
    started = []
    hooks = battle.hooks
    move_of = hooks.move_of if hooks.takes_moves else None   # asked only where a module may answer
    for unit in units:
        flags = unit.flags
        if "eliminated" in flags or "off_board" in flags or "pinned" in flags or "busy" in flags:
            continue
        if route is not None:
            unit.route = route(unit)
        if unit.route:
            how = (move_of(battle, unit, phase) or move) if move_of is not None else move
            unit.process = battle.env.process(how(battle, unit, phase))
            started.append(unit)
    return started


def move_side(battle: BattleContext, phase: Phase) -> list[Unit]:
    """The phasing side's movers set off (the referee's reactors indexed afresh first)."""
    battle.referee.begin_phase()
    return start_moves(battle, phase, battle.movers_of(phase.side))
