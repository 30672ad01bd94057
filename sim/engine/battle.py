"""A battle: one replication of a scenario, from the first phase to the end.

``Battle(scenario, seed).run()`` builds the SimPy environment, the turn clock, the units on
the scenario's terrain, the referee and the rule system's game, runs to the end (turn
limit, objective reached, or a force destroyed) and leaves the event log in ``log``. A
battle whose clock stands still (``sim.engine.instants``) stops with ``StalledBattle``.
The battle knows nothing of any rule system: it runs the clock and hands every phase to
the game of the scenario's rules (its base game with its modules' plays around it:
``scenario.composition``). Rules see it through ``sim.engine.context.BattleContext``;
modules change units through the base game's ``services`` and are asked, where the base
offers it, through ``hooks``.
"""
from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

import simpy

from sim import arguments
from sim.agents.plans import Plans
from sim.agents.referee import GroundWatch, Referee
from sim.agents.runs import place_and_passed
from sim.agents.unit import Unit
from sim.engine.clock import Phase, TurnClock
from sim.engine.collector import resting
from sim.engine.dice import Dice
from sim.engine.instants import Environment, StalledBattle, events_bound
from sim.engine.log import EventLog
from sim.events import ARRIVE, ELIMINATE, END, MOVE, PLACE, STOP
from sim.scenario.schema import Scenario
from sim.space.terrain import Terrain
from sim.systems.composition import NO_HOOKS, ComposedGame, Composition, ModuleHooks
from sim.systems.registry import Game

__all__ = ["Battle"]


class Battle:
    """One battle of a loaded scenario with a root seed (implements ``BattleContext``)."""

    def __init__(self, scenario: Any, seed: int):
        self.scenario = arguments.instance(scenario, "scenario", Scenario, "a loaded sim.Scenario")
        self.seed = arguments.seed(seed)
        self.knobs = scenario.rules
        # every record's t is a float; an instant holding more events than a battle of this
        # size can is a battle standing still (a rule that reacts and re-arms for ever)
        units = sum(len(force) for force in scenario.forces.values())
        self.env: simpy.Environment = Environment(0.0, bound=events_bound(units), blame=self._blame)
        self.terrain: Terrain = scenario.map
        self.dice = Dice(self.seed)
        self.log = EventLog()
        self._add = self.log.add
        self.system: Composition = scenario.composition
        self.game: Game = self.system.game()
        self.hooks: ModuleHooks = self.game.hooks if isinstance(self.game, ComposedGame) else NO_HOOKS
        self.state: Any = self.game.state
        self._step_moves = dict(self.system.step_moves)
        self.clock = TurnClock(self.env, scenario.sides, self.system.phases,
                               self.knobs.base.phase_length, scenario.turns)
        self.services = self.system.services(self)
        self._first_phase = self.system.phases[0].name
        self.referee = Referee(self)
        self.units: dict[str, Unit] = {}
        self._by_side: dict[str, list[Unit]] = {s: [] for s in scenario.sides}
        for side, spec in scenario.units():
            unit = Unit.from_spec(spec, side, self.terrain.pos(spec.at))
            self.units[unit.id] = unit
            self._by_side[side].append(unit)
        self.plans = Plans(self)   # each unit's orders and route, step by step
        self.plans.start()
        self.attacker: str = scenario.victory.attacker
        self.defender: str = next(s for s in scenario.sides if s != self.attacker)
        self.done = self.env.event()
        self.winner: str | None = None
        self.reason = ""
        self._set_up = False
        self._standing: dict[str, Unit] = {}   # side -> a unit of it last seen on the board
        #: Called at every phase's start, after the plans are brought up to date and before
        #: the rules play it: where a caller takes decisions mid-battle (sim.decide).
        self.decision_hook: Callable[[Phase], None] | None = None
        #: The sides a person plays through the hook (sim.decide.orders): each of their
        #: decisions is a record from which a planner's rollouts give it again.
        self.played: frozenset[str] = frozenset()

    # -- queries used by rules -------------------------------------------------------
    def units_of(self, side: str) -> list[Unit]:
        """A side's units, in scenario order (every one, on the board or not)."""
        return self._by_side[side]

    def moves_in_phase(self, unit: Unit) -> int:
        """How many moves the unit's current step makes in a phase in which units move."""
        moves: int = self._step_moves.get(unit.orders.type, 1)
        return moves

    def movers_of(self, side: str) -> list[Unit]:
        """The side's units whose current orders move them."""
        return self.plans.moving(side)

    def enemies_of(self, side: str) -> list[Unit]:
        """The other side's units that are on the board, in scenario order."""
        # Unit.on_board, inline: this runs over every enemy several times a phase.
        return [u for s, units in self._by_side.items() if s != side for u in units
                if "eliminated" not in u.flags and "off_board" not in u.flags]

    def cover_at(self, unit: Unit) -> int:
        """The cover of the terrain node nearest to the unit."""
        return self.terrain.cover(self.terrain.nearest_node(*unit.pos))

    # -- the log -----------------------------------------------------------------------
    def record(self, event: str, rule: str | None = None, **fields: Any) -> dict[str, Any]:
        """Write one record at the current instant (``EventLog.add``); returns it."""
        # ``t`` is the SimPy clock (a float from 0.0, never going back); this is the
        # engine's hottest call.
        c = self.clock.current
        return self._add({"t": self.env.now, "turn": c.turn, "side": c.side, "phase": c.phase,
                          "event": event, "rule": rule, **fields})

    def record_move(self, unit: Unit, move: int, waypoints: list[tuple[float, float]],
                    times: list[float]) -> None:
        """``record("move", unit=…, pos=…, node=…, move=…, waypoints=…, times=…)``.

        Spelled out as one literal, no keyword packing: every move writes it. ``times``
        are the planned arrival times at the waypoints.
        """
        c = self.clock.current
        self._add({"t": self.env.now, "turn": c.turn, "side": c.side, "phase": c.phase,
                   "event": MOVE, "rule": None, "unit": unit.id, "pos": unit.pos,
                   "node": unit.node, "move": move, "waypoints": waypoints, "times": times})

    def record_stop(self, unit: Unit) -> None:
        """``record("stop", unit=…, pos=…, node=…, reason="allowance")``, spelled out."""
        c = self.clock.current
        self._add({"t": self.env.now, "turn": c.turn, "side": c.side, "phase": c.phase,
                   "event": STOP, "rule": None, "unit": unit.id, "pos": unit.pos,
                   "node": unit.node, "reason": "allowance"})

    def record_arrive(self, unit: Unit) -> None:
        """A mover reached its destination: the ``arrive`` record, then ``on_arrive``."""
        self.record(ARRIVE, unit=unit.id, pos=unit.pos, node=unit.node)
        self.on_arrive(unit)

    # -- outcomes ----------------------------------------------------------------------
    def eliminate(self, unit: Unit, rule: str | None = None, **fields: Any) -> None:
        """Remove a unit for good (it falls exactly where it is) and log it."""
        if not unit.alive:
            return
        unit.flags.add("eliminated")
        self._stand_still(unit)   # struck down mid-move: it falls where it is now
        self.record(ELIMINATE, rule=rule, unit=unit.id, pos=unit.pos, node=unit.node, **fields)
        if unit.process is not None and unit.process.is_alive and unit.process is not self.env.active_process:
            self.referee.disarm(unit)
            unit.process.interrupt("eliminated")
        if self.scenario.victory.destroy and not self._any_on_board(unit.side):
            other = next(s for s in self.scenario.sides if s != unit.side)
            self.end(other, "destroyed")

    def _any_on_board(self, side: str) -> bool:
        """Whether some unit of ``side`` is on the board (not a scan per elimination).

        The one found last time, if it still is; else the first in scenario order that is.
        """
        known = self._standing.get(side)
        if known is not None and known.on_board:
            return True
        for u in self.units_of(side):
            if u.on_board:
                self._standing[side] = u
                return True
        return False

    def _stand_still(self, unit: Unit) -> bool:
        """Put a moving unit exactly where its course has it now and end the move.

        Returns whether it was moving.
        """
        if unit.course is None:
            return False
        unit.pos, passed = place_and_passed(unit, self.env.now)
        unit.course = None
        # The waypoints it got past on its straight run, this very instant included,
        # before its walk could note them.
        for node in passed:
            unit.node = node
            if unit.route and unit.route[0] == node:
                del unit.route[0]
        return True

    def on_arrive(self, unit: Unit) -> None:
        """An attacker unit at the objective wins the battle for its side."""
        obj = self.scenario.victory.objective
        if unit.side == self.attacker and obj is not None and unit.node == obj:
            self.end(self.attacker, "objective")

    def end(self, winner: str | None, reason: str) -> None:
        """End the battle now: the ``end`` record is the log's last."""
        if self.done.triggered:
            return
        self.winner, self.reason = winner, reason
        # Moves the end cuts short are closed where each unit stands (the log says all).
        for u in self.units.values():
            if u.alive and self._stand_still(u):
                self.record(STOP, unit=u.id, pos=u.pos, node=u.node, reason="battle_end")
        self.record(END, winner=winner, reason=reason)
        self.log.seal()
        self.clock.stop()
        self.done.succeed()

    def _phases(self) -> Generator[simpy.Event, Phase, None]:
        while True:
            phase = yield self.clock.next_phase()
            if self.done.triggered:
                return
            if phase.phase == self._first_phase:
                self.services.release(phase.side, phase.turn)   # busy units whose time is up
            if phase.moves:
                self.plans.begin_phase(phase)
                self.plans.decide(phase)   # a side's planner (policies.<side>.decide), if any
            if self.decision_hook is not None:
                self.decision_hook(phase)
            self.game.on_phase(self, phase)

    def _finish(self, _ev: simpy.Event) -> None:
        if self.scenario.victory.objective is not None:
            self.end(self.defender, "turn_limit")
        else:
            self.end(None, "turn_limit")

    def _blame(self) -> str:
        """What acted last at the instant the battle stands still, in words.

        The referee's last reaction there, else the last record's rule and unit.
        """
        last = self.referee.last
        if last is not None and last[0] == self.env.now:
            _, watch, reactor, mover = last
            rule = f" (rule {watch.rule})" if watch.rule else ""
            whose = f"unit {reactor.id}" if reactor is not None \
                else f"feature {watch.feature.id}" if isinstance(watch, GroundWatch) else "no unit"
            return f"the last reaction there: watch {type(watch).__name__}{rule} of {whose} " \
                   f"against mover {mover.id}"
        records = self.log.records
        if records and records[-1]["t"] == self.env.now:
            r = records[-1]
            unit = f", unit {r['unit']}" if r.get("unit") is not None else ""
            return f"the last record there: {r['event']} (rule {r['rule']}{unit})"
        return "no reaction or record there"

    def setup(self) -> Battle:
        """Run the rule system's set-up (``run`` does it first if it is not done yet)."""
        if not self._set_up:
            self._set_up = True
            self.game.setup(self)
            self._record_placements()
        return self

    def _record_placements(self) -> None:
        """Where every unit starts (``place`` at t = 0): the starting state is in the log."""
        for side, spec in self.scenario.units():
            u = self.units[spec.id]
            on = u.on_board
            self.record(PLACE, unit=u.id, pos=u.pos if on else None, node=u.node if on else None,
                        force=side, kind=u.kind, steps=u.steps, on_board=on,
                        flags=sorted(u.flags - {"off_board"}))

    def start(self) -> Battle:
        """Set up and start the clock without running it (``env.step()`` plays on)."""
        self.setup()
        self.env.process(self._phases())
        self.env.process(self.clock.run())
        self.clock.finished.callbacks.append(self._finish)
        return self

    def run(self) -> Battle:
        """Set up and run to the end; returns the battle (its ``log`` holds the story).

        The garbage collector rests while it runs (``sim.engine.collector``); afterwards
        its objects age as any others do, so its garbage is freed once the caller lets go.
        """
        with resting():
            self.start()
            try:
                self.env.run(until=self.done)
            except StalledBattle as err:
                err.log = self.log   # the story up to the stall, for whoever reports it
                raise
        return self
