"""The package's own study designs, one module a design (as SALib has one module a sampler).

Each module declares its ``DESIGN`` (a ``sim.systems.designs.Design``: its name, options,
placing, vetting, doc and analyses), and enters the registry through its entry point of
group ``sim.designs`` in ``pyproject.toml``, as a plug-in's design does. What they share
(factors, plans, the unit-cube designs' making) is in ``sim.study.plan.placing``; the
table of them in ``docs/study.md`` is generated from the registry (``sim schema --docs``).
"""
