"""FOW — sniper teams (seed 001, in Russian), on the small tabletop base game of ``team_combat`` (BASE.F).

A player-turn is ``movement``, ``shooting``, ``assault`` (the seed's Movement Step,
shooting, Assault Step). A sniper team (``kind: sniper``) is a ``SniperTeam`` process
(``sim.toolkit.sniper_team``); its side's Sniper Reserve is a ``SniperReserve`` process around
a ``simpy.Store`` (``sim.toolkit.sniper_reserve``). Every transition is an interrupt sent by
another process. The FOW rules behind the lifecycle's transitions::

    reserve ─────deploy─────▶ hidden              FOW.RESERVE
    hidden ───────spot──────▶ revealed            FOW.CAMO
    hidden | revealed ─to_reserve─▶ reserve       FOW.RELOCATE / FOW.ESCAPE / FOW.CATCH
    hidden | revealed ───kill─────▶ killed        FOW.ESCAPE / FOW.CATCH / FOW.IMMOBILE

A FOW sniper is never activated nor withdrawn, and never moves on the board
(FOW.IMMOBILE). In detail:

* FOW.RESERVE: at the start of its owner's turn the reserve places each sniper that has
  waited ``reserve_delay`` of its owner's turns (1: "from the next turn") at one of the
  scenario's ``sniper_team.candidates`` (default: its ``at``) that has no enemy team
  within ``deploy_clearance`` cm (``deploy``). A sniper starts in the reserve unless its
  ``sniper_team.start`` is ``deployed``.
* FOW.RELOCATE: in its owner's Movement Step, if the policy says so, the owner rolls d6
  (``success`` = d6 >= 4): the Movement-Step process sends it ``to_reserve``; otherwise
  it stays. Not tried in the turn it was placed.
* FOW.IMMOBILE: a deployed sniper never gets a movement process, so it has no ``move``
  record. ``forced_move`` destroys it and removes it from the game (``killed``, no
  escape roll: the seed says "removed from the game").
* FOW.CAMO: always Concealed and Gone to Ground (also when it shoots: its shots never
  reveal it) and in Bulletproof Cover (BASE.F.FP instead of a save). An enemy team in
  LOS within ``spot_range`` cm (40: such a team is seen only that close) at the start of
  the enemy's Shooting Step reveals it (``spot``); only then may it be shot at, and only
  from within ``spot_range``.
* FOW.FRIENDLY: no sniper shot while a friendly team is within 10 cm of it.
* FOW.MARKSMAN: the sniper's to-hit (BASE.F.HIT need) re-rolls a failed die: ``dice`` =
  [first] or [first, re-roll]; ``success`` = last die >= ``need``.
* FOW.PIN: the platoon of a team the sniper hits is Pinned Down (before its save).
* FOW.ESCAPE: a sniper Destroyed by shooting: the destroying player rolls d6 (the
  shooter's stream), 4+ killed (``eliminate``), else ``to_reserve``.
* FOW.CATCH: a sniper cannot be assaulted. In the Assault Step every unpinned team
  (one that could move into contact) within 10 cm of an enemy sniper may try to catch
  it: d6 4+ caught and removed, else it escapes to the reserve. The team then still
  takes part in BASE.F.ASSAULT (the record says ``tried_catch``).

Knobs (``rules.fow``), readings of what the seed leaves open:

* ``relocate``: ``{when, cm}``: ``never``, ``when_spotted`` (default: it has been
  revealed, "the hide was discovered") or ``enemy_within`` (an enemy team within
  ``cm``: "the tactical situation changed").
* ``redeploy``: ``best_cover`` (default: the candidate with the highest terrain cover,
  then scenario order) or ``random`` (uniform, from the sniper's ``FOW.RESERVE`` stream).
* ``reserve_delay`` (owner turns), ``deploy_clearance`` (cm), ``spot_range`` (cm) and
  the BASE numbers ``shoot_range``, ``sniper_range``, ``assault_range``, ``firepower``,
  ``sniper_firepower`` (see ``team_combat``).

Teams with ``hunt: true`` move towards the nearest revealed enemy sniper (in a straight
line between positions, ``sim.toolkit.hunters.straight_line``: teams stand between nodes),
otherwise by their orders (``sim.toolkit.hunters``).
"""
from __future__ import annotations

from typing import cast

from pydantic import Field

from sim.engine.clock import PhaseRole, PhaseSpec
from sim.engine.services import Service
from sim.systems.fow import titles  # noqa: F401 - its rule IDs and titles
from sim.systems.fow.events import RECORDS, SNIPER_SHOT
from sim.systems.fow.game import FowGame
from sim.systems.fow.knobs import FowKnobs, FowPolicies
from sim.systems.fow.services import FowServices
from sim.systems.games import BaseGame, Checks, Ruleset
from sim.systems.knobs import BaseKnobs
from sim.toolkit.skirmish import ChargeOrders
from sim.toolkit.snipers import SNIPER, SniperUnitKeys, check_sniper_policy, sniper_metrics


class FowUnitKeys(SniperUnitKeys):
    """FOW's unit keys: a sniper's set-up, ``hunt``, and the unit's ``platoon`` (FOW.PIN
    pins a whole platoon; default: the team alone)."""

    platoon: str | None = Field(None, min_length=1, max_length=64, description=(
        "the unit's platoon: FOW.PIN pins the whole platoon of a team the sniper hits "
        "(not set: the team alone)"))


def check(c: Checks) -> None:
    """Load-time set-up checks: a sniper's hides are on the map, and it starts in the
    reserve or deployed, never off the board; a ``relocate`` policy names a sniper."""
    check_sniper_policy(c, "relocate")
    for side in c.scenario.sides:
        for i, spec in enumerate(c.scenario.forces[side]):
            st = cast(FowUnitKeys, spec).sniper_team   # a unit here has FOW's unit keys
            if spec.kind != SNIPER.name or st is None:
                continue
            for j, node in enumerate(st.candidates):
                if not c.terrain.has_node(node):
                    c.fail(f"candidate '{node}' is not on the map (expected a node)",
                           "forces", side, i, "sniper_team", "candidates", j)
            if st.start == "off_board":
                c.fail("a FOW sniper starts in the reserve or deployed, not off_board",
                       "forces", side, i, "sniper_team", "start")


BASE = BaseGame(
    name="fow",
    title="FOW sniper teams (seed in Russian), on a small tabletop base game",
    unit_kinds=(SNIPER,),
    phases=(PhaseSpec("movement", moves=True), PhaseSpec("shooting", role=PhaseRole.SHOOTING),
            PhaseSpec("assault", role=PhaseRole.ASSAULT)),
    game=FowGame,
    services=FowServices,
    provides=frozenset({Service.HIT, Service.DAMAGE, Service.PIN, Service.KEEP_BUSY}),
    knobs=FowKnobs,
    policy_keys=FowPolicies,
    base_knobs=BaseKnobs,
    unit_keys=FowUnitKeys,
    order_keys=ChargeOrders,
    check=check,
    metrics=(sniper_metrics((SNIPER_SHOT,)),),
    records=RECORDS,
    rules=("FOW.RELOCATE", "FOW.IMMOBILE", "FOW.CAMO", "FOW.FRIENDLY", "FOW.MARKSMAN",
           "FOW.PIN", "FOW.ESCAPE", "FOW.CATCH", "FOW.RESERVE", "BASE.F.HIT", "BASE.F.SAVE",
           "BASE.F.FP", "BASE.F.PIN", "BASE.F.ASSAULT", "FOW.SF.HIT", "FOW.SF.PIN", "FOW.SF.SNIPER"),
    source="seed 001",
)

RULESET = Ruleset("fow", "FOW sniper teams (seed in Russian), on a small tabletop base game", base="fow")
