"""What-if studies: many replications of a scenario across variants and factor sweeps.

- ``plan``: what a study is and what it runs: the study file, its factors, designs, cells
  and seeds;
- ``run``: how it runs: the runner, the executors (one core, a process pool, Dask), the
  results store, and how its processes end;
- ``analysis``: statistics (intervals, paired differences), sensitivity indices and
  metamodels of a designed study;
- ``reports``: what a study shows: the summary (table, JSON contract, CSV, one sentence),
  the analysis' files and the HTML report.

The commands (``sim study``, ``sim select``, ``sim demo``, ``sim analyse``) are in ``sim.cli``.
"""
