"""The search tree: UCT over a fixed menu of joint actions, open loop, one level a decision.

A node stands for a sequence of the side's choices from the current decision on (not a
state: chance after the decision is sampled afresh by every rollout, so a node's mean is
the expected score of its choices under the dice). ``select`` walks down by UCT (every
untried choice first: the plan's, then the others in a seeded order), one level a
decision to ``depth``; ``update`` adds a rollout's score along the path.
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["Node", "Tree"]


class Node:
    """A sequence of choices: its rollouts, their total score, its children by choice."""

    __slots__ = ("children", "order", "total", "visits")

    def __init__(self, order: list[int]) -> None:
        self.visits = 0
        self.total = 0.0
        self.children: dict[int, Node] = {}
        self.order = order   # the choices still untried, next first

    @property
    def mean(self) -> float:
        """The mean score of its rollouts (0 before any)."""
        return self.total / self.visits if self.visits else 0.0


class Tree:
    """UCT over ``actions`` choices a decision (choice 0 is the plan's), ``depth`` deep."""

    def __init__(self, actions: int, depth: int, exploration: float, rng: np.random.Generator) -> None:
        self.actions, self.depth, self.c, self.rng = actions, depth, exploration, rng
        self.root = self._node()

    def _node(self) -> Node:
        rest = [int(a) for a in self.rng.permutation(np.arange(1, self.actions))]
        return Node([0, *rest])

    def select(self) -> list[int]:
        """The choices of the next rollout, one a level, down to an untried one or ``depth``."""
        node, path = self.root, list[int]()
        while len(path) < self.depth:
            if node.order:
                a = node.order.pop(0)
                node.children[a] = self._node()
                path.append(a)
                break
            log_n = math.log(node.visits)
            a = max(node.children, key=lambda k: (node.children[k].mean + self.c * math.sqrt(
                log_n / node.children[k].visits), -k))
            path.append(a)
            node = node.children[a]
        return path

    def update(self, path: list[int], score: float) -> None:
        """Add a rollout's score to every node on its path."""
        node = self.root
        node.visits += 1
        node.total += score
        for a in path:
            node = node.children[a]
            node.visits += 1
            node.total += score

    def best(self) -> int:
        """The choice to make: the most visited of the root's, then the best mean, then the plan's."""
        kids = self.root.children
        return max(kids, key=lambda a: (kids[a].visits, kids[a].mean, -a))
