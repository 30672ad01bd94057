"""A battle: one replication of a scenario, from the first phase to the end.

``run_battle(scenario, seed)`` builds the SimPy environment, the turn clock, the units on
the terrain, the referee and the ruleset, runs to the end (turn limit, objective
reached, or a force destroyed) and returns the event log and its metrics.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import simpy

from sim.agents.movement import exact_place
from sim.agents.referee import Referee
from sim.agents.unit import Unit
from sim.engine.clock import TurnClock
from sim.engine.dice import Dice
from sim.engine.log import EventLog
from sim.rules.games import ruleset_for
from sim.scenario.load import terrain_of


@dataclass
class BattleResult:
    log: EventLog
    metrics: dict[str, float]
    winner: str | None
    reason: str


class Battle:
    def __init__(self, scenario, seed: int):
        self.scenario = scenario
        self.seed = int(seed)
        self.knobs = scenario.rules
        self.env = simpy.Environment(initial_time=0.0)  # every record's t is a float
        self.terrain = terrain_of(scenario)
        self.dice = Dice(self.seed)
        self.log = EventLog()
        self._records = self.log.records
        self._ended = False
        self.ruleset = ruleset_for(scenario.ruleset)
        self.clock = TurnClock(self.env, scenario.sides, self.ruleset.phases,
                               self.knobs.base.phase_length, scenario.turns)
        self.referee = Referee(self)
        self.units: dict[str, Unit] = {}
        self._by_side: dict[str, list[Unit]] = {s: [] for s in scenario.sides}
        for side, spec in scenario.units():
            unit = Unit.from_spec(spec, side, self.terrain.pos(spec.at))
            if spec.orders.type != "hold":
                unit.route = list(self.terrain.path(spec.at, spec.orders.to)[1:])
            self.units[unit.id] = unit
            self._by_side[side].append(unit)
        self._movers = {s: [u for u in units if u.orders.type != "hold"] for s, units in self._by_side.items()}
        self._chargers = {s: [u for u in units if u.orders.charge] for s, units in self._by_side.items()}
        self.attacker = scenario.victory.attacker
        self.defender = next(s for s in scenario.sides if s != self.attacker)
        self.done = self.env.event()
        self.winner: str | None = None
        self.reason = ""

    # -- queries used by rules -------------------------------------------------------
    def units_of(self, side: str) -> list[Unit]:
        return self._by_side[side]

    def movers_of(self, side: str) -> list[Unit]:
        """The side's units whose orders move them (orders never change in a battle)."""
        return self._movers[side]

    def chargers_of(self, side: str) -> list[Unit]:
        """The side's units whose orders say charge."""
        return self._chargers[side]

    def enemies_of(self, side: str) -> list[Unit]:
        # Unit.on_board, inline: this runs over every enemy several times a phase.
        return [u for s, units in self._by_side.items() if s != side for u in units
                if "eliminated" not in u.flags and "off_board" not in u.flags]

    def cover_at(self, unit) -> int:
        return self.terrain.cover(self.terrain.nearest_node(*unit.pos))

    # -- the log -----------------------------------------------------------------------
    def record(self, event: str, rule: str | None = None, **fields: Any) -> dict:
        # ``t`` is the SimPy clock (a float from 0.0, never going back), so records are
        # appended in time order without a check; this is the engine's hottest call.
        c = self.clock.current
        rec = {"t": self.env.now, "turn": c.turn, "side": c.side, "phase": c.phase,
               "event": event, "rule": rule, **fields}
        # After the `end` record, processes still due at the same instant (other
        # chargers, say) change nothing in the log.
        if not self._ended:
            self._records.append(rec)
        return rec

    def record_move(self, unit, move: int, waypoints) -> None:
        """``record("move", unit=…, pos=…, node=…, move=…, waypoints=…)`` spelled out as
        one literal (no keyword packing): every move writes it."""
        c = self.clock.current
        if not self._ended:
            self._records.append({"t": self.env.now, "turn": c.turn, "side": c.side, "phase": c.phase,
                                  "event": "move", "rule": None, "unit": unit.id, "pos": unit.pos,
                                  "node": unit.node, "move": move, "waypoints": waypoints})

    def record_stop(self, unit) -> None:
        """``record("stop", unit=…, pos=…, node=…, reason="allowance")``, spelled out."""
        c = self.clock.current
        if not self._ended:
            self._records.append({"t": self.env.now, "turn": c.turn, "side": c.side, "phase": c.phase,
                                  "event": "stop", "rule": None, "unit": unit.id, "pos": unit.pos,
                                  "node": unit.node, "reason": "allowance"})

    # -- outcomes ----------------------------------------------------------------------
    def eliminate(self, unit, rule: str | None = None, **fields) -> None:
        if not unit.alive:
            return
        unit.flags.add("eliminated")
        if unit.course is not None:  # struck down mid-move: it falls where it is now
            unit.pos, reached = exact_place(unit, self.env.now)
            unit.course = None
            if reached is not None and reached != unit.node:
                # It got there this very instant, before its walk could note it.
                unit.node = reached
                if unit.route and unit.route[0] == reached:
                    del unit.route[0]
        self.record("eliminate", rule=rule, unit=unit.id, pos=unit.pos, node=unit.node, **fields)
        if unit.process is not None and unit.process.is_alive and unit.process is not self.env.active_process:
            self.referee.disarm(unit)
            unit.process.interrupt("eliminated")
        if self.scenario.victory.destroy and not any(u.on_board for u in self.units_of(unit.side)):
            other = next(s for s in self.scenario.sides if s != unit.side)
            self.end(other, "destroyed")

    def on_arrive(self, unit) -> None:
        obj = self.scenario.victory.objective
        if unit.side == self.attacker and obj is not None and unit.node == obj:
            self.end(self.attacker, "objective")

    def end(self, winner: str | None, reason: str) -> None:
        if self.done.triggered:
            return
        self.winner, self.reason = winner, reason
        self.record("end", winner=winner, reason=reason)
        self._ended = True
        self.clock.stop()
        self.done.succeed()

    def _phases(self):
        while True:
            phase = yield self.clock.next_phase()
            if self.done.triggered:
                return
            self.ruleset.on_phase(self, phase)

    def _finish(self, _ev) -> None:
        if self.scenario.victory.objective is not None:
            self.end(self.defender, "turn_limit")
        else:
            self.end(None, "turn_limit")

    def run(self) -> "Battle":
        self.ruleset.setup(self)
        self.env.process(self._phases())
        self.env.process(self.clock.run())
        self.clock.finished.callbacks.append(self._finish)
        self.env.run(until=self.done)
        return self


def run_battle(scenario, seed: int) -> BattleResult:
    """One replication: the same scenario and seed always give the same log."""
    from sim.metrics import compute_metrics

    battle = Battle(scenario, seed).run()
    return BattleResult(battle.log, compute_metrics(battle.log, scenario), battle.winner, battle.reason)
