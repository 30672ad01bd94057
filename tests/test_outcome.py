"""A reaction's outcome is a kernel type (``sim.plugin.Outcome``): its strength decides what the
mover does, and the outcome itself says whether the watch wrote the record that ends
the move; anything else a watch answers is refused at once, naming the watch."""
from __future__ import annotations

import functools
from typing import Literal

import pytest

import sim
import sim.plugin as sp
from conftest import scenario, table, unit
from movers import run_under

sp.define_rules({"OUT.SEE": "A sentry reacts to each enemy that comes within 15 cm (test)"})
O = sp.Outcome


class Sentry(sp.Watch):
    """Reacts to every mover within 15 cm with the answers it is given, in turn; with
    ``record`` it writes the ``halt`` record of a halt itself."""

    rule = "OUT.SEE"
    radius = 15.0

    def __init__(self, answers, record=False):
        self.answers, self.record, self.seen = list(answers), record, 0

    def reactors(self, battle, side):
        return battle.enemies_of(side)

    def eligible(self, battle, reactor, mover):
        return self.seen < len(self.answers)

    def react(self, battle, mover, trigger):
        said = self.answers[self.seen]
        self.seen += 1
        if self.record:
            battle.record("halt", rule="OUT.SEE", unit=mover.id, pos=mover.pos, node=mover.node,
                          firer=trigger.reactor.id)
        return said


class MarchOrders(sp.Knobs):
    """The test system's orders: ``march`` (three moves a phase, declared by ``step_moves``)."""

    type: Literal["hold", "advance", "march"] = "hold"


def _watches(*specs):
    return [Sentry(answers, record) for answers, record in specs]


def battle(*specs, orders="advance"):
    """One blue mover along y = 50 past a red sentry at (50, 60): it comes within 15 cm at
    x = 50 - sqrt(125); ``specs`` are (answers, record) of the watches, in order. On
    ``march`` orders it makes three moves of 30 cm, and enters the circle in the second."""
    data = scenario(table({"A": (0.0, 50.0), "B": (100.0, 50.0), "S": (50.0, 60.0)}, [("A", "B")]),
                    [unit("m", "A", move=100 if orders == "advance" else 30, orders={"type": orders, "to": "B"})],
                    [unit("s", "S")], turns=1, destroy=False)
    return run_under("outcome_test", (sp.PhaseSpec("moving", moves=True),), data,
                     functools.partial(_watches, *specs), events=frozenset({"halt"}), rules=("OUT.SEE",),
                     order_keys=MarchOrders, step_moves={"march": 3})


def _closing(log):
    """How moves that did not simply spend their allowance ended."""
    return [(r["event"], r.get("reason")) for r in log if r["event"] in ("halt", "stop", "arrive")
            and r.get("reason") != "allowance"]


def test_outcomes_are_ordered_by_strength_and_say_who_recorded_the_halt():
    assert [o.strength for o in (O.CONTINUE, O.HALT_MOVE, O.HALT_PHASE, O.DEAD)] == [0, 1, 2, 3]
    assert O.HALT_MOVE_RECORDED.strength == 1 and O.HALT_PHASE_RECORDED.strength == 2
    assert [o for o in O if o.recorded] == [O.HALT_MOVE_RECORDED, O.HALT_PHASE_RECORDED]
    assert O.HALT_PHASE_RECORDED.plain is O.HALT_PHASE and O.HALT_MOVE_RECORDED.plain is O.HALT_MOVE
    assert "Outcome" in sp.__all__ and sp.Outcome.__doc__
    assert not hasattr(sp.Watch, "closes_move")   # nothing else for an author to remember


def test_a_plain_halt_is_closed_by_the_movement_once():
    log = battle(([O.HALT_PHASE], False))
    assert _closing(log) == [("stop", "halted")]
    (stop,) = [r for r in log if r["event"] == "stop"]
    assert stop["rule"] == "OUT.SEE" and stop["pos"] == pytest.approx((50 - 125 ** 0.5, 50.0), abs=1e-9)


def test_a_recorded_halt_is_not_closed_twice():
    assert _closing(battle(([O.HALT_PHASE_RECORDED], True))) == [("halt", None)]
    assert _closing(battle(([O.HALT_MOVE_RECORDED], True))) == [("halt", None)]


def test_the_strongest_of_tied_reactions_holds_and_one_record_closes_the_move():
    """Two watches react at the same instant: one halts this move (the movement to
    record it), the other the phase, recorded by itself: the mover stops for the phase,
    and no ``stop`` is added to the watch's ``halt``."""
    log = battle(([O.HALT_MOVE], False), ([O.HALT_PHASE_RECORDED], True), orders="march")
    assert _closing(log) == [("halt", None)]
    assert [r["move"] for r in log if r["event"] == "move"] == [1, 2]   # no third move
    # a halt of this move alone: the third move of the march starts
    log = battle(([O.HALT_MOVE], False), ([O.CONTINUE], False), orders="march")
    assert [r["move"] for r in log if r["event"] == "move"] == [1, 2, 3]
    assert _closing(log)[0] == ("stop", "halted")
    # a continue from both: the mover walks on to B
    assert _closing(battle(([O.CONTINUE], False), ([O.CONTINUE], False)))[-1] == ("arrive", None)


@pytest.mark.parametrize("answer", ["halt_phse", "halt_phase", None, 2])
def test_a_watch_answering_anything_but_an_outcome_is_refused_naming_it(answer):
    """A typo used to pass mypy and fail as a KeyError deep in the movement; any
    non-Outcome answer is now one InputError naming the watch's class at once."""
    with pytest.raises(sim.InputError) as err:
        battle(([answer], False))
    msg = str(err.value)
    assert "test_outcome.Sentry.react" in msg and "expected a sim.plugin.Outcome" in msg and repr(answer) in msg
