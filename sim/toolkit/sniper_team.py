"""Sniper teams: a SimPy process per team with an explicit lifecycle state machine.

States and the only legal transitions (each logged under its lifecycle name, ``sim.events``)::

    off_board ──activate─────────▶ hidden          (first placed, by an activation)
    withdrawn ──activate─────────▶ hidden          (placed again, by a new activation)
    reserve ────deploy───────────▶ hidden          (placed again from the reserve)
    hidden ─────spot─────────────▶ revealed
    hidden | revealed ──withdraw──▶ withdrawn      (off the board, may be activated again)
    hidden | revealed ─to_reserve─▶ reserve        (off the board, into its reserve)
    hidden | revealed ─eliminate──▶ eliminated     (terminal)
    hidden | revealed ───kill─────▶ killed         (terminal)

Other processes cause transitions by *interrupting* the team's process with a
``Command`` (``SniperTeam.request``): a rule system's processes activate, spot, withdraw,
send to the reserve or eliminate it, a reserve (``sim.toolkit.sniper_reserve``) deploys
it. Each command carries the rule that causes it; which rule causes which transition is
the rule system's (see its package's docstring). An ``activate`` is logged as
``activate`` then ``deploy``; the ``deploy`` record's rule is the command's
``placed_by`` (the rule that chose the node; default the command's own rule).
The team's process applies the command, if it is still legal in its current state, and
succeeds the command's ``done`` event with True (applied) or False (stale: the state
had already moved on, e.g. a second elimination of a team that already left). A command
whose transition is not in the table is never applied: ``IllegalTransition`` guards
``_enter`` itself. A team never moves while on the board: its only positions are the
node where it is placed and "off the board".
"""
from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

import simpy

from sim.agents.unit import OnUnit, Unit
from sim.engine.context import BattleContext
from sim.events import ACTIVATE, DEPLOY, ELIMINATE, SPOT, TO_RESERVE, WITHDRAW

__all__ = ["COMMANDS", "ELIMINATED", "HIDDEN", "KILLED", "OFF_BOARD", "ON_BOARD", "RESERVE", "REVEALED",
           "SOURCES", "STATES", "TERMINAL", "TRANSITIONS", "WITHDRAWN", "Command", "IllegalTransition",
           "Reserve", "SniperTeam"]

#: A sniper team's state: not on the board, before its activation.
OFF_BOARD = "off_board"
#: A sniper team's state: in its side's reserve, to be placed again in a later turn.
RESERVE = "reserve"
#: A sniper team's state: on the board, unseen.
HIDDEN = "hidden"
#: A sniper team's state: on the board, seen by the enemy.
REVEALED = "revealed"
#: A sniper team's state: it left the board (it may be activated again).
WITHDRAWN = "withdrawn"
#: A sniper team's state: removed for good.
ELIMINATED = "eliminated"
#: A sniper team's state: removed for good by a kill (logged as ``eliminate`` too).
KILLED = "killed"

#: Every state of a sniper team.
STATES = (OFF_BOARD, RESERVE, HIDDEN, REVEALED, WITHDRAWN, ELIMINATED, KILLED)
#: The states of a team on the board.
ON_BOARD = (HIDDEN, REVEALED)
#: The states a team never leaves.
TERMINAL = (ELIMINATED, KILLED)

#: state -> the states it may go to (tuples: fixed order, no set iteration).
TRANSITIONS: dict[str, tuple[str, ...]] = {
    OFF_BOARD: (HIDDEN,),
    WITHDRAWN: (HIDDEN,),
    RESERVE: (HIDDEN,),
    HIDDEN: (REVEALED, WITHDRAWN, RESERVE, ELIMINATED, KILLED),
    REVEALED: (WITHDRAWN, RESERVE, ELIMINATED, KILLED),
    ELIMINATED: (),
    KILLED: (),
}

#: command kind -> (target state, the lifecycle event it is logged as)
COMMANDS: dict[str, tuple[str, str]] = {
    "activate": (HIDDEN, DEPLOY),     # logged as `activate` then `deploy`
    "deploy": (HIDDEN, DEPLOY),
    "spot": (REVEALED, SPOT),
    "withdraw": (WITHDRAWN, WITHDRAW),
    "to_reserve": (RESERVE, TO_RESERVE),
    "eliminate": (ELIMINATED, ELIMINATE),
    "kill": (KILLED, ELIMINATE),
}
#: the states a command may come from (activate only from off-board/withdrawn, deploy
#: only from the reserve): a subset of TRANSITIONS.
SOURCES: dict[str, tuple[str, ...]] = {
    "activate": (OFF_BOARD, WITHDRAWN),
    "deploy": (RESERVE,),
    "spot": (HIDDEN,),
    "withdraw": ON_BOARD,
    "to_reserve": ON_BOARD,
    "eliminate": ON_BOARD,
    "kill": ON_BOARD,
}


class Reserve(Protocol):
    """Where a team goes when it enters the ``reserve`` state (``sim.toolkit.sniper_reserve``)."""

    def put(self, team: SniperTeam) -> None:
        """The team enters the reserve."""


class IllegalTransition(RuntimeError):
    """A transition the lifecycle table does not allow (a bug, never an input error)."""


@dataclass
class Command:
    """The cause of an interrupt: a transition request from another process."""

    kind: str
    rule: str | None
    fields: dict[str, Any]
    then: Callable[[], None] | None
    done: simpy.Event
    node: str | None = None          # where an ``activate`` or ``deploy`` places it
    placed_by: str | None = None     # an ``activate``: the rule of its ``deploy`` record
    placement: dict[str, Any] = field(default_factory=dict)   # and that record's extra fields


@dataclass(eq=False)
class SniperTeam(OnUnit):
    """A sniper team: its unit, its lifecycle state and the process that changes it."""

    battle: BattleContext
    unit: Unit
    state: str
    candidates: list[str] = field(default_factory=list)
    reserve: Reserve | None = None   # where ``to_reserve`` puts it (None: it has none)
    history: list[tuple[float, str]] = field(default_factory=list)   # [(t, state)]
    attacks_since_deploy: int = 0
    attacks: int = 0
    deployed_turn: int | None = None
    doomed: bool = False             # an elimination request is in flight
    reserve_turn: int = 0            # turn it entered the reserve
    returns: int = 0                 # deployments from the reserve after the first
    deployments: int = 0
    process: simpy.Process = field(init=False)   # the team's own, started at once

    def __post_init__(self) -> None:
        self.history.append((self.battle.env.now, self.state))
        if self.state in ON_BOARD:
            self.unit.flags.discard("off_board")
            self.deployed_turn = 0
            self.deployments = 1
        else:
            self.unit.flags.add("off_board")
        self.process = self.battle.env.process(self._run())

    # -- queries ------------------------------------------------------------------------
    @property
    def on_board(self) -> bool:
        """Placed on the board (hidden or revealed) and not eliminated."""
        return self.state in ON_BOARD and self.unit.alive

    @property
    def available(self) -> bool:
        """May be activated: off the board or withdrawn (never once eliminated or killed)."""
        return self.state in SOURCES["activate"]

    # -- requests -----------------------------------------------------------------------
    def request(self, kind: str, rule: str | None = None, *, node: str | None = None,
                then: Callable[[], None] | None = None, placed_by: str | None = None,
                placement: dict[str, Any] | None = None, **fields: Any) -> simpy.Event:
        """Ask the team's process for a transition; returns the command's ``done`` event.

        From another process this interrupts the team's process; from the team's own
        process (e.g. its attack reveals it) the command is applied at once. An
        ``activate`` says by ``placed_by`` and ``placement`` the rule and the extra
        fields of its ``deploy`` record.
        """
        if kind not in COMMANDS:
            raise ValueError(f"unknown sniper command {kind!r}")
        env = self.battle.env
        cmd = Command(kind, rule, fields, then, env.event(), node, placed_by, dict(placement or {}))
        if env.active_process is self.process:
            self._handle(cmd)
        else:
            self.process.interrupt(cmd)
        return cmd.done

    def _run(self) -> Generator[simpy.Event, Any, None]:
        idle = self.battle.env.event()   # never succeeds: the team only reacts
        while True:
            try:
                yield idle
            except simpy.Interrupt as intr:
                self._handle(cast(Command, intr.cause))   # only ``request`` interrupts it

    def _handle(self, cmd: Command) -> None:
        if self.state not in SOURCES[cmd.kind] or self.battle.done.triggered:
            cmd.done.succeed(False)
            return
        self._enter(cmd)
        if cmd.then is not None:
            cmd.then()
        cmd.done.succeed(True)

    # -- the state machine --------------------------------------------------------------
    def _enter(self, cmd: Command) -> None:
        target, event = COMMANDS[cmd.kind]
        if target not in TRANSITIONS[self.state]:
            raise IllegalTransition(f"{self.id}: {self.state} -> {target}")
        if target == RESERVE and self.reserve is None:
            raise IllegalTransition(f"{self.id}: {self.state} -> {target} (the team has no reserve)")
        b, unit = self.battle, self.unit
        before = self.state
        self.state = target
        self.history.append((b.env.now, target))
        if target == HIDDEN:
            fields = dict(cmd.fields)
            node = cast(str, cmd.node)   # activate and deploy always say where
            unit.node = node
            unit.pos = b.terrain.pos(node)
            unit.flags.discard("off_board")
            deploy_rule: str | None
            if cmd.kind == "activate":
                b.record(ACTIVATE, rule=cmd.rule, unit=unit.id, node=node,
                         pos=b.terrain.pos(node), state_from=before, **fields)
                deploy_rule = cmd.placed_by if cmd.placed_by is not None else cmd.rule
                extra = cmd.placement
            else:
                deploy_rule, extra = cmd.rule, fields
                extra["is_return"] = self.deployments >= 1
                if extra["is_return"]:
                    self.returns += 1
            self.deployed_turn = b.clock.turn
            self.attacks_since_deploy = 0
            self.deployments += 1
            self.doomed = False
            b.record(DEPLOY, rule=deploy_rule, unit=unit.id, node=unit.node, pos=unit.pos,
                     state=target, state_from=before, **extra)
            return
        if target in TERMINAL:
            b.eliminate(unit, rule=cmd.rule, state=target, state_from=before, **cmd.fields)
            return
        if target in (WITHDRAWN, RESERVE):
            unit.flags.add("off_board")
            self.doomed = False
        b.record(event, rule=cmd.rule, unit=unit.id, node=unit.node, pos=unit.pos,
                 state=target, state_from=before, **cmd.fields)
        if target in (WITHDRAWN, RESERVE):
            if target == RESERVE:
                self.reserve_turn = b.clock.turn
                cast(Reserve, self.reserve).put(self)   # checked above
