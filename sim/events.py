"""The event names and record fields of the event log, declared once.

Rules write these names, metrics count them and pictures draw them, so each is spelt
in one place. The lifecycle names are the event log's contract (docs/reference/guarantees.md,
"The event log"); a base game's or module's own events (``snap_fire``, ``acquire``, ...)
are declared in its package's ``events`` module, with the records it writes (its
``records``, typed as ``sim.records`` says). Imports nothing of ``sim``: it is at the bottom.
"""
from __future__ import annotations

#: Keys every record has, first and in this order.
CONTRACT_KEYS = ("t", "turn", "side", "phase", "event", "rule")
#: Keys every die-roll record has.
ROLL_KEYS = ("dice", "mods", "need", "success")

# -- the contract's lifecycle events ----------------------------------------------------
MOVE = "move"              # a unit starts moving; ``pos`` is where, ``waypoints`` its plan
HALT = "halt"              # a reaction stopped a mover
ARRIVE = "arrive"          # a mover reached its destination
ACTIVATE = "activate"      # a sniper team is activated (comes into play)
DEPLOY = "deploy"          # a unit is placed on the board (a sniper team, a hidden figure)
WITHDRAW = "withdraw"      # a sniper team leaves the board
TO_RESERVE = "to_reserve"  # a sniper team goes back to its reserve
ELIMINATE = "eliminate"    # a unit is removed for good
HIT = "hit"                # a unit takes damage
PIN = "pin"                # a unit is pinned
SPOT = "spot"              # a hidden unit is revealed

LIFECYCLE_EVENTS = frozenset({MOVE, HALT, ARRIVE, ACTIVATE, DEPLOY, WITHDRAW, TO_RESERVE,
                              ELIMINATE, HIT, PIN, SPOT})

# -- events every battle may write ------------------------------------------------------
PLACE = "place"            # where a unit starts (t = 0, phase ``setup``), for every unit
STOP = "stop"              # a move ended short of its destination (``reason`` says why)
DECIDE = "decide"          # a choice a policy made (a reaction taken or declined, ...)
END = "end"                # the last record: ``winner`` and ``reason``
NO_DEPLOY = "no_deploy"    # a reserve found no allowed position for a team
BUSY = "busy"              # a rule keeps a unit busy: ``turns``, ``until`` (the turn it acts again)
READY = "ready"            # a busy unit acts again

# -- states of a unit the pictures draw, written by several rule systems -----------------
REVEAL = "reveal"          # a hidden unit gives itself away
REHIDE = "rehide"          # a revealed unit is hidden again
WOUND = "wound"            # a unit is wounded

# -- the base games' combat events, shared by several rule systems ----------------------
SHOOT = "shoot"            # an ordinary shot
ASSAULT = "assault"        # a close-assault roll
ATTACK = "attack"          # an attack roll
SAVE = "save"              # a saving roll
RALLY = "rally"            # a pinned unit's rally roll

#: Events any battle may write, whatever its rule system.
CORE_EVENTS = frozenset({PLACE, MOVE, STOP, ARRIVE, ELIMINATE, END, DECIDE, BUSY, READY})

__all__ = ["ACTIVATE", "ARRIVE", "ASSAULT", "ATTACK", "BUSY", "CONTRACT_KEYS", "CORE_EVENTS", "DECIDE",
           "DEPLOY", "ELIMINATE", "END", "HALT", "HIT", "LIFECYCLE_EVENTS", "MOVE", "NO_DEPLOY",
           "PIN", "PLACE", "RALLY", "READY", "REHIDE", "REVEAL", "ROLL_KEYS", "SAVE", "SHOOT", "SPOT",
           "STOP", "TO_RESERVE", "WITHDRAW", "WOUND"]
