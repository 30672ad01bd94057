"""What-if studies: many replications of a scenario across variants and factor sweeps.

- ``design``: study files → checked, resolved cells (variant × factor point);
- ``seeds``: replication seeds, with or without common random numbers;
- ``executors``: serial, process pool, Dask; batches of replications per task;
- ``store``: the SQLite results store (resumable, duplicate-free);
- ``runner``: plans, runs, stores and summarizes; the precision stopping rule;
- ``stats``: t and Wilson intervals, paired differences;
- ``report``: table, JSON contract, CSV, the one-sentence meaning;
- ``command``: the ``sim study`` and ``sim demo`` commands;
- data farming: ``factors`` (continuous, integer, categorical), ``designs`` and ``nolh``
  (the designs and their quality), ``plan_check`` (their validation), ``cells`` (lazy
  cells), ``sensitivity`` (SALib), ``metamodel`` (scikit-learn, statsmodels),
  ``analysis``, ``report_farming`` and ``analyse_command`` (``sim analyse``).
"""
