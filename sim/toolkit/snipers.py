"""What sniper-team systems share: the unit kind ``sniper`` (declared here, listed by every
base game that reads it), the ``sniper_team`` unit key, the ``hunt`` key, their teams in the
system's state, and the metrics of a sniper's lifecycle (``sim.toolkit.sniper_team``)."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal

from pydantic import Field

from sim import arguments
from sim.agents.unit import Unit
from sim.events import ACTIVATE, DEPLOY, ELIMINATE, PIN, TO_RESERVE, WITHDRAW
from sim.systems.games import UnitKind
from sim.systems.knobs import Knobs
from sim.systems.registry import Checks, MetricReporter, Record
from sim.toolkit.sniper_team import ELIMINATED, KILLED, SniperTeam
from sim.toolkit.targets import PhaseIndex

#: An event's name, lower_snake_case (a rule ID, upper case with dots, is not one).
EVENT_NAME = re.compile(r"^[a-z][a-z0-9_]*$")

__all__ = ["SNIPER", "SNIPER_METRICS_KINDS", "SniperSpec", "SniperTeams", "SniperUnitKeys", "check_sniper_policy",
           "sniper_metrics"]

#: A sniper team: its lifecycle (reserve, hides, withdrawal) is the toolkit's (``sim.toolkit.sniper_team``).
SNIPER = UnitKind("sniper", "a sniper team, with the lifecycle of sim.toolkit.sniper_team (reserve, hides, "
                  "withdrawal) under the base games that read it")


@dataclass
class SniperTeams:
    """The part of a sniper system's state that holds its teams (in scenario order), the
    units that hunt them (``hunt: true``) and those now on a hunt (``sim.toolkit.hunters``)."""

    teams: list[SniperTeam] = field(default_factory=list)
    # Each phase, the units of the side that stands still in it, by place (targets).
    standing: PhaseIndex = field(default_factory=PhaseIndex)
    hunters: frozenset[str] = frozenset()
    hunting: set[str] = field(default_factory=set)   # hunters whose route is a hunt's

    def team_of(self, unit: Unit) -> SniperTeam | None:
        """The sniper team standing for ``unit``, if it is one."""
        for team in self.teams:
            if team.unit is unit:
                return team
        return None


def check_sniper_policy(c: Checks, key: str) -> None:
    """A sniper policy (``policies.<who>.<key>``) names a sniper, or a group or side with
    one: set anywhere else it would never be read."""
    for who, p in c.scenario.policies.items():
        if getattr(p, key) is not None and not any(s.kind == SNIPER.name for s in c.scenario.members(who)):
            c.fail(f"'{who}' has no sniper, so its '{key}' policy would never be read (expected "
                   "a sniper, or a group or side with one)", "policies", who, key)


class SniperSpec(Knobs):
    """A sniper team's lifecycle set-up (``sim.toolkit.sniper_team``).

    ``start``: ``off_board`` (in play only once activated), ``reserve`` (in its side's
    reserve, placed at the start of its owner's first turn) or ``deployed`` (on the board
    at ``at`` from the start); which of them a rule system allows, its checks say.
    ``candidates``: the nodes where its reserve may place it (empty: only ``at``).
    """

    start: Literal["off_board", "reserve", "deployed"] = Field("off_board", description=(
        "`off_board` (in play only once activated), `reserve` (in its side's reserve, placed "
        "at the start of its owner's turn) or `deployed` (on the board at `at` from the "
        "start); the rule system says which it allows"))
    candidates: list[str] = Field(default_factory=list, max_length=500, description=(
        "the nodes where its side's reserve may place the sniper (empty: only `at`)"))


class SniperUnitKeys(Knobs):
    """Unit keys of the sniper systems: a sniper's ``sniper_team`` set-up, and ``hunt``
    (the unit heads for a revealed enemy sniper instead of its orders' destination)."""

    sniper_team: SniperSpec | None = Field(None, description=(
        "a sniper's (`kind: sniper`) lifecycle set-up `{start, candidates}` (SniperSpec, "
        "below); not set: the rule system's own start"))
    hunt: bool = Field(False, description=(
        "the unit heads for a revealed enemy sniper instead of its orders' destination"))


def _lifecycle(attacks: tuple[str, ...], records: Sequence[Record], scenario: Any) -> dict[str, float]:
    m = {k: 0.0 for k in SNIPER_METRICS_KINDS}
    for r in records:
        ev = r["event"]
        if ev in attacks:   # the attack's own record: a roll, whichever rule another record names
            m["sniper_attacks"] += 1
            m["sniper_hits"] += bool(r["success"])
        elif ev == ACTIVATE:
            m["activations"] += 1
        elif ev == DEPLOY and r.get("is_return"):
            m["sniper_returns"] += 1
        elif ev == WITHDRAW:
            m["sniper_withdrawals"] += 1
        elif ev == TO_RESERVE:
            m["sniper_to_reserve"] += 1
        elif ev == PIN:
            m["pins"] += 1
        elif ev == ELIMINATE and r.get("state") in (ELIMINATED, KILLED):
            m["sniper_eliminated"] = 1.0
    return m


#: The lifecycle metrics and their kinds.
SNIPER_METRICS_KINDS: dict[str, Any] = {
    "activations": "count",
    "sniper_attacks": "count",
    "sniper_hits": "count",
    "sniper_returns": "count",
    "sniper_withdrawals": "count",
    "sniper_to_reserve": "count",
    "sniper_eliminated": "binary",
    "pins": "count",
}


def sniper_metrics(attacks: tuple[str, ...]) -> MetricReporter:
    """The ``sniper`` lifecycle metrics of a system whose snipers' attacks are the records of the events ``attacks``.

    ``attacks`` are event names (``sniper_shot``), not rule IDs: anything else is an
    ``InputError`` naming the argument.
    """
    if not isinstance(attacks, (tuple, list)) or not attacks \
            or not all(isinstance(e, str) and EVENT_NAME.match(e) for e in attacks):
        raise arguments.fail("attacks", "the event names of the snipers' attack records (such as "
                                        "('sniper_shot',)), not rule IDs", attacks)
    return MetricReporter("sniper", SNIPER_METRICS_KINDS, partial(_lifecycle, tuple(attacks)))
