"""What is not stable yet: may change in any version, without notice (as Mesa keeps its
``experimental``).

- ``behaviours(kind)``: the behaviours registered for a kind, by name (``sim.plugin.Behaviour``
  and ``sim.plugin.register`` are stable: each kind is a typed ``sim.plugin.BehaviourKind``).
- ``unregister_system``, ``unregister_metric``, ``unregister_behaviour``: take back what
  was registered from Python (a notebook that redefines a rule, a test that cleans up).
"""
from __future__ import annotations

from sim.systems.registry import (
                                  Behaviour,
                                  behaviours,
                                  register_behaviour,
                                  unregister_behaviour,
                                  unregister_metric,
                                  unregister_system,
)

__all__ = ["Behaviour", "behaviours", "register_behaviour", "unregister_behaviour",
           "unregister_metric", "unregister_system"]   # Behaviour, register_behaviour: as sim's
