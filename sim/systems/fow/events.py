"""The FOW system's own event names (the rest are ``sim.events``)."""
from __future__ import annotations

RELOCATE = "relocate"                        # FOW.RELOCATE: the owner's d6
ESCAPE = "escape"                            # FOW.ESCAPE: the destroyer's d6
SNIPER_SHOT = "sniper_shot"                  # FOW.MARKSMAN: the to-hit, re-rolled if failed
NO_SHOT = "no_shot"                          # FOW.FRIENDLY: a friend is too close
FIREPOWER = "firepower"                      # BASE.F.FP
CATCH = "catch"                              # FOW.CATCH
ASSAULT_AFTER_CATCH = "assault_after_catch"  # FOW.CATCH: the team still assaults

