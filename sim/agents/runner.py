"""One unit's plan in one battle, as ``sim.agents.plans`` follows it step by step."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sim.agents.unit import Unit
from sim.agents.way import Way

__all__ = ["Runner"]


@dataclass
class Runner:
    """One unit's plan in one battle."""

    unit: Unit
    steps: list[Any]
    loop: bool = False
    until: Any = None
    index: int = 0
    begun: bool = False            # the current step has started
    since: int = 0                 # facts count from this event number (the step before began)
    pass_since: int = 0            # ... and for ``until``, from the start of this pass of a loop
    ground_turns: int = 0          # go_to_ground: own movement phases still to hold
    detour: bool = False           # fall_back / seek_cover: moving to where the policy sent it
    resume: bool = False           # a reaction is under way: the step starts again after it
    way: Way = field(default_factory=Way)   # the way it has come (fall_back goes back it)
    reacted: int = 0               # events before this one have been reacted to
    finished: bool = False
    reacts: bool = False           # it has an on_fired or on_halted policy
    step_began: int = 0            # the event number at which the current step began
    started_turn: int = 0          # the turn in which the current step began
    managed: bool = False          # its plan was changed mid-battle: every phase brings it up to date
