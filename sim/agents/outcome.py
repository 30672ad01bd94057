"""What a reaction makes the mover do: the kernel's closed set of answers to ``Watch.react``.

Each answer has a strength; of the reactions due at one instant the strongest holds
(``DEAD`` over ``HALT_PHASE`` over ``HALT_MOVE`` over ``CONTINUE``). A halt also says who
writes the record that ends the move: ``HALT_MOVE`` and ``HALT_PHASE`` leave it to the
movement (a ``stop``, reason ``halted``); ``HALT_MOVE_RECORDED`` and
``HALT_PHASE_RECORDED`` say the watch wrote it itself (a ``halt``), so nothing closes the
move twice.
"""
from __future__ import annotations

import enum


class Outcome(enum.Enum):
    """A reaction's outcome (``Watch.react`` returns one).

    Its ``strength`` and whether the watch wrote the record that ends the move (``recorded``).
    """

    CONTINUE = (0, False)             # the mover carries on
    HALT_MOVE = (1, False)            # this move ends here; the movement records the stop
    HALT_MOVE_RECORDED = (1, True)    # this move ends here; the watch recorded the halt
    HALT_PHASE = (2, False)           # the mover moves no more this phase; the movement records it
    HALT_PHASE_RECORDED = (2, True)   # the mover moves no more this phase; the watch recorded it
    DEAD = (3, False)                 # the mover is off the board

    strength: int
    recorded: bool

    def __init__(self, strength: int, recorded: bool) -> None:
        self.strength = strength
        self.recorded = recorded

    @property
    def plain(self) -> Outcome:
        """What the mover does, whoever recorded it: ``HALT_MOVE`` for both halts of a move, and so on."""
        return _PLAIN[self.strength]


_PLAIN = {o.strength: o for o in Outcome if not o.recorded}
