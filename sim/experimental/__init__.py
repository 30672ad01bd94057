"""What is not stable yet: may change in any version, without notice (as Mesa keeps its
``experimental``).

- **Behaviours**: a named choice a knob selects (``rules.h17.placement: best_cover``,
  ``rules.fow.relocate.when: when_spotted``, ...). Each kind calls its behaviour with its
  own arguments (documented with the kind's built-in ones, e.g.
  ``sim.systems.h17.policies``), and the plans and reaction policies still to come will
  reshape them. ``register_behaviour`` adds one (a scenario can then name it);
  an installed distribution offers them through the entry-point group ``sim.behaviours``.
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
           "unregister_metric", "unregister_system"]
