"""What a study is and what it runs.

- ``study_file``: the study file's model, read and checked, resolved into cells (variant ×
  factor point);
- ``factors``: continuous, integer and categorical factors, and how a unit coordinate
  becomes a knob value;
- ``designs``: the package's own study designs, one module a design, each a declared
  ``sim.systems.designs.Design`` in the registry; ``placing``: what designs share (plans,
  the unit-cube designs' making); ``quality``: a design's orthogonality and space filling;
- ``vetting``: the checks of the ``factors`` section (by its design), of the cells' keys
  and count, and the placing of its points;
- ``cells``: lazy cells, checked cheaply, built in full where they run;
- ``seeds``: replication seeds, with or without common random numbers;
- ``select_spec``: the ``select`` section (what ``sim select`` picks the best cell by).
"""
