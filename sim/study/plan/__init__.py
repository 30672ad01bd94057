"""What a study is and what it runs.

- ``study_file``: the study file's model, read and checked, resolved into cells (variant ×
  factor point);
- ``factors``: continuous, integer and categorical factors, and how a unit coordinate
  becomes a knob value;
- ``designs``: the experiment designs (grid, factorials, Latin hypercubes, Sobol', Halton,
  NOLH, Saltelli, Morris) and their quality; ``nolh``: the NOLH tables;
- ``vetting``: the checks of the ``factors`` section, of the cells' keys and count, and
  the building of the design;
- ``cells``: lazy cells, checked cheaply, built in full where they run;
- ``seeds``: replication seeds, with or without common random numbers;
- ``select_spec``: the ``select`` section (what ``sim select`` picks the best cell by).
"""
