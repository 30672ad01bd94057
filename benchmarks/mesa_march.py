"""The movement case's yardstick: the same march written with Mesa 3 (``mesa.space.NetworkGrid``).

Each Mesa agent walks the route ``sim`` plans for its unit, on a NetworkGrid over the
same graph, one player-turn a model step, and writes the records ``sim`` writes for that
move (``move`` with its waypoints and planned times, then ``stop`` or ``arrive``), with
the same numbers: the legs are planned by the allowance as ``sim.agents.movement``
plans them (a move may end part-way along an edge), timed as its walk times them
(``planned_times``). So
both sides do the same job and ``benchmarks/engine.py`` compares their wall times; it
checks that the two logs agree, record for record.

Mesa is a benchmark-only dependency: ``pip install -e '.[bench]'`` (``make bench``).
"""
from __future__ import annotations

import math

import networkx as nx
from mesa import Agent, Model
from mesa.space import NetworkGrid

from sim.agents.runs import planned_times

EPS = 1e-9


class Marcher(Agent):
    """One unit: its route (nodes), where it stands (a node of the grid, and the exact point)."""

    def __init__(self, model: MarchModel, uid: str, side: str, node, route: list, move: float):
        super().__init__(model)
        self.uid, self.side, self.node, self.route, self.move = uid, side, node, route, move
        self.xy = model.xy[node]

    def step(self) -> None:
        """Its move of this player-turn, if the turn is its side's."""
        m = self.model
        if m.side != self.side or not self.route:
            return
        legs = self._plan()
        if not legs:
            return
        times = planned_times(m.start, legs, self.move / (m.end - m.start), m.end)
        head = {"t": m.start, "turn": m.turn, "side": m.side, "phase": "movement"}
        m.log.append({**head, "event": "move", "rule": None, "unit": self.uid, "pos": self.xy,
                      "node": self.node, "move": 1, "waypoints": [p for p, _, _ in legs], "times": times})
        grid = m.grid
        for point, node, _ in legs:
            self.xy = point
            if node is not None:
                grid.move_agent(self, node)
                self.node = node
                del self.route[0]
        head["t"] = times[-1]
        if self.route:
            m.log.append({**head, "event": "stop", "rule": None, "unit": self.uid, "pos": self.xy,
                          "node": self.node, "reason": "allowance"})
        else:
            m.log.append({**head, "event": "arrive", "rule": None, "unit": self.uid, "pos": self.xy,
                          "node": self.node})

    def _plan(self) -> list:
        """The points this move passes: [(point, node or None, cost)], by the allowance."""
        m = self.model
        pos, here, budget, legs, first = self.xy, self.node, self.move, [], True
        for nxt in self.route:
            data = m.graph._adj[here][nxt]
            factor = data["cost"] / data["length"] if data["length"] > 0 else 1.0
            target = m.xy[nxt]
            start = pos if first else m.xy[here]
            length = math.hypot(start[0] - target[0], start[1] - target[1])
            first = False
            cost = length * factor
            if cost <= budget + EPS:
                legs.append((target, nxt, cost))
                budget -= cost
                pos, here = target, nxt
                continue
            if budget > EPS and length > 0:
                f = budget / cost
                legs.append(((pos[0] + (target[0] - pos[0]) * f, pos[1] + (target[1] - pos[1]) * f), None, budget))
            break
        return legs


class MarchModel(Model):
    """Every unit's march, a player-turn a step: ``units`` are (id, side, node, route, move)
    and ``xy`` each node's position."""

    def __init__(self, graph: nx.Graph, xy: dict, units: list, sides: list[str], phases: int,
                 phase_length: float):
        super().__init__(seed=1)
        self.graph = nx.Graph(graph)       # NetworkGrid marks every node: a copy, not the map
        self.xy = xy                       # node -> (x, y), as the map gives it
        self.grid = NetworkGrid(self.graph)
        self.sides, self.phases, self.phase_length = sides, phases, phase_length
        self.turn, self.log = 0, []
        for uid, side, node, route, move in units:
            agent = Marcher(self, uid, side, node, list(route), move)
            self.grid.place_agent(agent, node)

    def step(self) -> None:
        """One player-turn: its side's agents move."""
        self.turn += 1
        self.side = self.sides[(self.turn - 1) % len(self.sides)]
        self.start = (self.turn - 1) * self.phases * self.phase_length
        self.end = self.start + self.phase_length
        self.agents.do("step")

