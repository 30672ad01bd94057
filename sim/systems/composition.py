"""A scenario's rules put together: its base game and its rule modules, in order.

A ``Composition`` is what a battle, the scenario schema, the metrics and the pictures ask
of a scenario's rules: the base game's phases and play, and everything its modules add
(knob sections, unit and order keys, step types, checks, metrics, records, rule IDs). The
base plays each phase; the modules' hooks run where it offers them (``ModuleHooks``):
every module's ``phase_starts`` before the base plays a phase, in the scenario's order,
and the first module's ``move_of`` that answers for a unit's move. At one instant the
modules' watches react in the order they were armed: the base's first, then each module's
in the scenario's order (the referee's watch order).

A composition with no modules is its base game alone: the base's own ``Game`` plays, with
nothing between it and the battle.
"""
from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from sim.engine.clock import Phase, PhaseRole, PhaseSpec
from sim.engine.context import Game
from sim.engine.services import Services
from sim.systems.games import BaseGame, Geometry, ModulePlay, Need, RuleModule

if TYPE_CHECKING:
    import simpy

    from sim.agents.unit import Unit
    from sim.engine.context import BattleContext

__all__ = ["ComposedGame", "Composition", "ModuleHooks", "NO_HOOKS"]

#: A unit's moves of a phase: a generator for ``env.process``.
Move = Callable[["BattleContext[Any, Any]", "Unit", Phase], "Generator[simpy.Event, Any, Any]"]


class ModuleHooks:
    """The modules' hooks a base game calls (``battle.hooks``): none when it has no module."""

    def __init__(self, plays: tuple[ModulePlay, ...]) -> None:
        self.plays = plays
        self._movers: tuple[ModulePlay, ...] = ()
        self.settle()

    def settle(self) -> None:
        """Ask only the modules that take over moves in this battle (after their set-up)."""
        self._movers = tuple(p for p in self.plays if type(p).move_of is not ModulePlay.move_of and p.takes_moves)

    @property
    def takes_moves(self) -> bool:
        """Whether any module may take over a unit's move in this battle."""
        return bool(self._movers)

    def move_of(self, battle: BattleContext[Any, Any], unit: Unit, phase: Phase) -> Move | None:
        """How ``unit`` makes its moves this phase, if a module says (the first that does)."""
        for play in self._movers:
            move = play.move_of(battle, unit, phase)
            if move is not None:
                return move
        return None


NO_HOOKS = ModuleHooks(())


class ComposedGame:
    """The base game's play with its modules' around it (a battle's ``game``)."""

    def __init__(self, base: Game, plays: Mapping[str, ModulePlay]) -> None:
        self.base = base
        self._by_name = dict(plays)
        self.plays = tuple(plays.values())
        self.hooks = ModuleHooks(self.plays)

    def play(self, module: str) -> ModulePlay:
        """The play of the module called ``module`` in this battle (its ``state``, say)."""
        return self._by_name[module]

    @property
    def state(self) -> Any:
        """The base game's state (each module keeps its own, on its play)."""
        return self.base.state

    def setup(self, battle: BattleContext[Any, Any]) -> None:
        """The base's set-up, then each module's, in the scenario's order."""
        self.base.setup(battle)
        for play in self.plays:
            play.setup(battle)
        self.hooks.settle()

    def on_phase(self, battle: BattleContext[Any, Any], phase: Phase) -> None:
        """Each module's ``phase_starts``, then the base plays the phase."""
        for play in self.plays:
            play.phase_starts(battle, phase)
        self.base.on_phase(battle, phase)


def _roles(phases: tuple[PhaseSpec, ...]) -> set[PhaseRole]:
    roles = {p.role for p in phases if p.role is not None}
    if any(p.moves for p in phases):
        roles.add(PhaseRole.MOVING)
    return roles


@dataclass(frozen=True, eq=False)
class Composition:
    """A base game and its rule modules, in order.

    ``name`` is the ruleset's, or (``by_base``: a scenario named them with ``base`` and
    ``modules``) base+module+...
    """

    name: str
    base: BaseGame
    modules: tuple[RuleModule, ...] = ()
    title: str = ""
    by_base: bool = False

    @property
    def parts(self) -> tuple[BaseGame | RuleModule, ...]:
        """The base game, then each module."""
        return (self.base, *self.modules)

    @property
    def phases(self) -> tuple[PhaseSpec, ...]:
        """The base game's phases."""
        return self.base.phases

    @cached_property
    def step_moves(self) -> Mapping[str, int]:
        """The step types that make more than one move a phase, from every part."""
        out: dict[str, int] = {}
        for part in self.parts:
            out.update(part.step_moves)
        return out

    @cached_property
    def events(self) -> frozenset[str]:
        """The events its parts declare: those of their records, and those named alone."""
        return frozenset().union(*(set(p.records) | p.events for p in self.parts))

    @cached_property
    def rules(self) -> tuple[str, ...]:
        """The rule IDs its parts implement, the base's first."""
        return tuple(dict.fromkeys(r for p in self.parts for r in p.rules))

    @cached_property
    def metrics(self) -> tuple[Any, ...]:
        """Its parts' own metric reporters, the base's first."""
        return tuple(r for p in self.parts for r in p.metrics)

    @property
    def sections(self) -> dict[str, Any]:
        """The knob sections of ``rules``: ``base`` and each part's own (``rules.<name>``)."""
        out: dict[str, Any] = {"base": self.base.base_knobs}
        for part in self.parts:
            if part.knobs is not None:
                out[part.name] = part.knobs
        return out

    def missing(self, geometry: Geometry) -> list[tuple[RuleModule, Need]]:
        """Each module's needs its base game lacks on ``geometry`` ground, in order."""
        roles = _roles(self.base.phases)
        out: list[tuple[RuleModule, Need]] = []
        for module in self.modules:
            for need in sorted(module.needs, key=lambda n: (type(n).__name__, n.name)):
                if isinstance(need, PhaseRole):
                    ok = need in roles
                elif isinstance(need, Geometry):
                    ok = need == geometry and need in self.base.geometries
                else:
                    ok = need in self.base.provides
                if not ok:
                    out.append((module, need))
        return out

    def game(self) -> Any:
        """One battle's game: the base's, and the modules' plays around it."""
        base_game = self.base.game() if self.base.game is not None else None
        if not self.modules:
            return base_game
        return ComposedGame(base_game, {m.name: m.play() for m in self.modules})   # type: ignore[arg-type]

    def services(self, battle: BattleContext[Any, Any]) -> Services:
        """The base game's services for ``battle``."""
        return self.base.services(battle)
