"""The H17 system's own event names (the rest are ``sim.events``)."""
from __future__ import annotations

SNIPER_ATTACK = "sniper_attack"              # H17.5
OPPORTUNITY_FIRE = "opportunity_fire"        # H17.4: the Fire marker is placed
ELIMINATION_CHECK = "elimination_check"      # H17.6a
NO_ELIMINATION_CHECK = "no_elimination_check"  # H17.6a: no unpinned targeted unit to make it
NO_ACTIVATION = "no_activation"              # H17.2b: no hex qualifies
