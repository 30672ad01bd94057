"""H17 — hex wargame snipers (seed 000), on the small hex base game of ``hex_combat`` (BASE.H).

A player-turn is ``movement``, ``fire``, ``after_action`` (the catalogue's table). Each
side has at most one sniper (``kind: sniper``, H17.1), off the board until activated.
Its lifecycle is a ``SniperTeam`` process (``sim.toolkit.sniper_team``); every transition is
an interrupt sent by another process. The H17 rules behind the lifecycle's transitions::

    off_board ──activate──▶ hidden                H17.2a (its deploy record: H17.2b)
    withdrawn ──activate──▶ hidden                H17.3: only a new natural 12 (H17.2a)
    hidden ─────spot──────▶ revealed              H17.2c / H17.4: its first attack
    hidden | revealed ──withdraw──▶ withdrawn     H17.3
    hidden | revealed ─eliminate──▶ eliminated    H17.6a / H17.6b (terminal: H17.6c)

An H17 sniper never goes to a reserve nor moves on the board (H17.1). In detail:

* H17.2a activation: in the fire phase an opposing *infantry* unit's BASE.H.AP attack
  rolls 6, 6. The fire-phase process interrupts the sniper (``activate``; the record's
  ``dice`` are the attack's two dice, no new roll; for a uniform audit it also says
  ``mods`` 0, ``need`` 12, ``success`` true: the faces' natural sum is 12) and waits
  until it has acted.
* H17.2b placement: a hex within 6 hexes of the activating unit, in its LOS, whose cover
  modifier against it (cover + hindrance, ``terrain.cover_modifier``) is > 0, not
  impassable and holding no enemy unit. None: no activation (a ``no_activation`` record).
* H17.2c: the sniper at once attacks "those units" that activated it: the activating
  unit (its ``targets``), not the others in its hex (H17.5).
* H17.4 opportunity fire: a referee watch (radius 6) on infantry moving in the sniper
  owner's opponent's movement phase. The sniper fires, at most once per turn (the Fire
  marker, the state's ``fire_marker``), at the first moment the mover stands in a hex within 6 hexes
  and in LOS, wherever along its move: as it sets off from a hex centre (its start, or
  a centre it reached on the way) and in the hex where its move ends, as it gets there.
  A unit stands in the hex whose centre it last reached, so entering the 6-hex circle
  between centres is not a moment of its own. The attack is against the mover alone.
  A mover pinned or eliminated by the attack stops (``Outcome.HALT_PHASE`` / ``DEAD``; a halt
  is closed by a ``stop`` record, reason ``halted``); otherwise it keeps moving.
* H17.5 attack: d6 > need = the target hex's cover modifier seen from the sniper's hex
  → ``cp`` = d6 − cover casualty points on the units attacked (BASE.H.CP), only them.
  The first attack reveals the sniper (``spot``).
* H17.6a: after every sniper attack a process of the targeted side makes the
  elimination check, if a targeted unit in the target hex is unpinned ("Only the units
  targeted by the sniper may make an elimination check"): d6 > need = the sniper hex's
  cover modifier seen from the target hex → it interrupts the sniper with
  ``eliminate``. The check is made by the first such unit in scenario order (its dice
  stream). Knob ``check_order`` says when the attack's pins (BASE.H.PIN) apply.
* H17.6b: a referee watch of radius 0.5 (the hexside) on enemy movers: crossing into the
  sniper's hex eliminates it (interrupt), and the mover goes on.
* H17.6c: ``eliminated`` is terminal in the state machine; ``available`` is false.
* H17.3 withdrawal, in the After-Action Phase, by the owner's policy.
* H17.1s: no spotting for mortars, artillery or air (``can_spot_for``): none exist here.

Knobs (``rules.h17``, ``sim.systems.h17.knobs``), the readings of what the seed leaves open:

* ``placement``: ``best_cover`` (default; highest cover modifier, then nearest, then
  map order), ``nearest`` (nearest, then highest cover, then map order) or ``random``
  (uniform over the qualifying hexes, a draw from the sniper's ``H17.2b`` stream).
* ``withdraw``: a small model ``{when, hexes, attacks}``: ``never`` (default),
  ``enemy_within`` (an enemy unit within ``hexes`` of the sniper) or ``after_attacks``
  (the sniper has made ``attacks`` attacks since it was placed).
* ``withdraw_phase``: ``any`` (default: the seed's "during any After-Action Phase",
  the opponent's included) or ``own`` (only its owner's After-Action Phase).
* ``check_order``: ``attack_then_check`` (default: the attack's step losses pin the
  targets first, so a lone target that lost a step cannot check: in practice only
  misses and stacks check) or ``check_then_pin`` (the targets check, then are pinned).
* ``take_reactions``: a side's policy for the opportunity fire it *may* make
  (``sim.toolkit.reactions``: ``always``, ``never``, ``threshold`` on H17.5's chance).
* BASE numbers: ``ap_range``, ``ap_need``, ``cp_per_step`` (see ``hex_combat``).

Units with ``hunt: true`` move towards the hex of the nearest revealed enemy sniper (in
hexes: ``sim.toolkit.hunters.hex_count``; by the least-cost path) while one is on the
board, otherwise by their orders (``sim.toolkit.hunters``).
"""
from __future__ import annotations

from typing import cast

from sim.engine.clock import PhaseSpec
from sim.systems.games import BaseGame, Checks, Ruleset
from sim.systems.h17 import titles  # noqa: F401 - its rule IDs and titles
from sim.systems.h17.events import RECORDS, SNIPER_ATTACK
from sim.systems.h17.game import H17Game
from sim.systems.h17.knobs import H17Knobs, H17Policies
from sim.systems.kinds import INFANTRY, VEHICLE
from sim.systems.knobs import BaseKnobs
from sim.toolkit.reactions import check_sides
from sim.toolkit.snipers import SNIPER, SniperUnitKeys, check_sniper_policy, sniper_metrics


def check(c: Checks) -> None:
    """Load-time set-up checks: at most one sniper per side (H17.1), starting off the
    board or deployed, never in a reserve; reaction policies name sides of the scenario."""
    check_sides(c, "h17")
    check_sniper_policy(c, "withdraw")
    for side in c.scenario.sides:
        seen = None
        for i, spec in enumerate(c.scenario.forces[side]):
            if spec.kind != SNIPER.name:
                continue
            if seen is not None:
                c.fail(f"side '{side}' has two snipers ('{seen}', '{spec.id}'); H17.1 allows "
                       "at most one per player per game", "forces", side, i)
            seen = spec.id
            team = cast(SniperUnitKeys, spec).sniper_team   # a unit here has H17's unit keys
            if team is not None and team.start == "reserve":
                c.fail("an H17 sniper starts off_board (or deployed), not in a reserve",
                       "forces", side, i, "sniper_team", "start")


BASE = BaseGame(
    name="h17",
    title="H17 hex wargame snipers, on a small hex base game",
    unit_kinds=(INFANTRY, VEHICLE, SNIPER),
    phases=(PhaseSpec("movement", moves=True), PhaseSpec("fire"), PhaseSpec("after_action")),
    game=H17Game,
    knobs=H17Knobs,
    policy_keys=H17Policies,
    base_knobs=BaseKnobs,
    unit_keys=SniperUnitKeys,
    check=check,
    metrics=(sniper_metrics((SNIPER_ATTACK,)),),
    records=RECORDS,
    rules=("H17.1", "H17.1s", "H17.2a", "H17.2b", "H17.2c", "H17.3", "H17.4", "H17.5",
           "H17.6a", "H17.6b", "H17.6c", "BASE.H.AP", "BASE.H.CP", "BASE.H.PIN"),
    source="seed 000",
)

RULESET = Ruleset("h17", "H17 hex wargame snipers, on a small hex base game", base="h17")
