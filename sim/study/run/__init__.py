"""How a study runs.

- ``runner``: plans, runs, stores and summarizes; the precision stopping rule;
- ``study_run``: a run: per cell, which replications are recorded (``reps``), and its store
  (the ``--db`` or a temporary one), which it reads back a cell at a time (``rows``);
- ``resume``: opening a run, with what a store holds of it and the rows it adopts;
- ``executors``: one core, a process pool or Dask; batches of replications per task;
- ``scheduler``: joining a Dask scheduler (the address and its handshake, with timeouts);
- ``store``: the SQLite results store (resumable, duplicate-free);
- ``provenance``: the code that made a study's rows (``sim`` and its plug-ins), and the
  refusal of a resume over other code;
- ``selection``: ``sim select``, KN on the study's battles (stored, resumable);
- ``lifetime``: how a study's processes end (orphaned workers; the signals are ``sim.signals``);
- ``mainscript``: the script a study runs from, and what its workers need of it.

It imports nothing itself: ``import sim`` does not load it (a study loads what it uses).
"""
