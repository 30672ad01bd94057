"""Rulesets: which phases a player-turn has and what happens in each.

A ruleset is a class with ``phases`` (names from the catalogue's turn-structure table),
``setup(battle)`` (arm referee watches, start rule processes) and
``on_phase(battle, phase)`` (called at the start of every phase). The battle knows
nothing of any rule system; it only runs the clock and asks the ruleset.
"""
from __future__ import annotations

from sim.agents.movement import movement_process
from sim.rules import base, snapfire


class SnapFireGame:
    """SF: movement (with snap fire or a zone of control), shooting, assault."""

    phases = ("movement", "shooting", "assault")

    def setup(self, battle) -> None:
        self.watches = snapfire.watches(battle.knobs.snapfire)
        for watch in self.watches:
            battle.referee.add(watch)
        # SF.ZOC: watches that make a unit starting inside a zone leave it first.
        self.leavers = [w.leave_zone for w in self.watches if hasattr(w, "leave_zone")]

    def on_phase(self, battle, phase) -> None:
        if phase.phase == "movement":
            # Only units with orders to move are ever fired at, or move (SF.ONCE resets).
            movers = battle.movers_of(phase.side)
            for unit in movers:
                unit.fired_at_by.clear()
            battle.referee.begin_phase()
            env, leavers = battle.env, self.leavers
            for unit in movers:
                if unit.route and unit.on_board and not unit.pinned:
                    # Without a zone to leave, the move is the process itself: one
                    # generator less to pass every segment's event through.
                    unit.process = env.process(self._move(battle, unit, phase) if leavers
                                               else movement_process(battle, unit, phase))
        elif phase.phase == "shooting":
            base.shooting_phase(battle, phase.side)
        elif phase.phase == "assault":
            base.assault_phase(battle, phase.side)

    def _move(self, battle, unit, phase):
        for leave in self.leavers:
            left = yield from leave(battle, unit)
            if left:
                unit.process = None
                return
        yield from movement_process(battle, unit, phase)


RULESETS = {"snapfire": SnapFireGame}

from sim.rules.too import TooGame  # noqa: E402  (TOO, seed 002)

RULESETS["too"] = TooGame

from sim.rules.fow import FowGame  # noqa: E402  (FOW, seed 001)
from sim.rules.h17 import H17Game  # noqa: E402  (H17, seed 000)

RULESETS["h17"] = H17Game
RULESETS["fow"] = FowGame


def ruleset_for(name: str):
    try:
        return RULESETS[name]()
    except KeyError:
        raise NotImplementedError(f"ruleset '{name}' is not implemented yet") from None
