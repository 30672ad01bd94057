"""The toolkit: parts a rule system is built from, stable and documented.

The built-in rule systems are written against the kernel (``sim``), this toolkit and
nothing else, exactly as a plug-in is; each part is written once here:

* ``sim.toolkit.sniper_team``: a sniper team's lifecycle (a state machine run as a process);
* ``sim.toolkit.sniper_reserve``: a side's reserve that places teams again in a later turn;
* ``sim.toolkit.snipers``: what sniper systems share (unit keys, teams, lifecycle metrics);
* ``sim.toolkit.hunters``: hunters' routes (towards revealed enemy snipers, else by orders);
* ``sim.toolkit.targets``: a phase's standing targets indexed by place, the target search,
  and the spatial index they use (``SpatialGrid``, ``GridMemo``, ``nearest``);
* ``sim.toolkit.reactions``: reactions a side may decline (behaviours of kind ``reaction``);
* ``sim.toolkit.skirmish``: a small skirmish base game (BASE.S: shooting, assault, hits);
* ``sim.toolkit.movers``: every mover of a moving phase set off (``start_moves``, ``move_side``);
* ``sim.toolkit.records``: the types of the records these parts write, for the base games
  and modules that use them to declare (hits, shots, charges, a team's changes of state).

Each module has a flat ``__all__``; ``tests/test_toolkit.py`` checks that every public
name has a docstring and that the toolkit names no built-in rule system.
"""
