"""The package's own rule systems, loaded through the same door as a plug-in's entry point."""
from __future__ import annotations

__all__ = ["BUILTIN_BEHAVIOURS", "BUILTIN_SYSTEMS", "DEFAULT_SYSTEM"]

BUILTIN_SYSTEMS = {
    "snapfire": "sim.systems.snapfire:SYSTEM",
    "h17": "sim.systems.h17:SYSTEM",
    "fow": "sim.systems.fow:SYSTEM",
    "too": "sim.systems.too:SYSTEM",
}
#: The package's own behaviours (lists of ``sim.Behaviour``), loaded as an entry point's are.
BUILTIN_BEHAVIOURS = ("sim.systems.h17.policies:BEHAVIOURS", "sim.systems.fow.policies:BEHAVIOURS",
                      "sim.toolkit.reactions:BEHAVIOURS", "sim.agents.policies:BEHAVIOURS",
                      "sim.planner.mcts:BEHAVIOURS")
#: The rule system of a scenario that names none (the contract's default ``ruleset``).
DEFAULT_SYSTEM = "snapfire"
