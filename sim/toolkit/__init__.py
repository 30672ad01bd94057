"""The toolkit: parts a rule system is built from, stable and documented.

The built-in rule systems are written against the kernel (``sim``), this toolkit and
nothing else, exactly as a plug-in is; each part is written once here:

* ``sim.toolkit.sniper_team``: a sniper team's lifecycle (a state machine run as a process);
* ``sim.toolkit.sniper_reserve``: a side's reserve that places teams again in a later turn;
* ``sim.toolkit.snipers``: what sniper systems share (unit keys, teams, lifecycle metrics);
* ``sim.toolkit.hunters``: hunters' routes (towards revealed enemy snipers, else by orders);
* ``sim.toolkit.targets``: a phase's standing targets indexed by place, and the target search;
* ``sim.toolkit.reactions``: reactions a side may decline (behaviours of kind ``reaction``).
"""
