"""The TOO system's own event names (the rest are ``sim.events``)."""
from __future__ import annotations

ALERT = "alert"                  # TOO.ALERT: a figure goes on alert
ALERT_DENIED = "alert_denied"    # TOO.ALERT: over the half-force cap
ALERT_ARMED = "alert_armed"      # TOO.ALERT option B: armed for the next enemy turn
OPP_FIRE = "opp_fire"            # TOO.OPP / TOO.ALERT: opportunity fire at a mover
PICK_UP = "pick_up"              # TOO.DAMAGE: a dropped weapon costs the action
TREAT = "treat"                  # TOO.DAMAGE: a medic or buddy stops a bleed-out
KEEP = "keep"                    # TOO.KEEP: fire at a target kept in sight
LOSE_TARGET = "lose_target"      # TOO.KEEP: sight of the acquired target lost
ACQUIRE = "acquire"              # TOO.ACQ
SCOPE = "scope"                  # TOO.SCOPE: one band closer
STEALTH = "stealth"              # TOO.STEALTH: the check (or why none was needed)
SPOT_CHECK = "spot_check"        # TOO.CONCEAL / COUNTER / FACING / REHIDE
