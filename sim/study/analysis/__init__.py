"""The statistics and analyses of a study.

- ``stats``: t and Wilson intervals, paired differences, a study's summary;
- ``blocks``: outcomes as the statistics read them, a cell's columns at a time;
- ``responses``: a designed study's responses per design point, with its sensitivity
  indices and metamodels, per variant and metric, from what its store holds;
- ``sensitivity``: Sobol' indices and Morris effects (SALib);
- ``metamodel``: a regression tree and a linear model (scikit-learn, statsmodels);
- ``study_analysis``: all of it in one call from a store (``sim.analyse_study``);
- ``kn``: Kim and Nelson's fully sequential selection of the best (``sim select``), and
  the fixed sizes it is compared with; ``known_systems``: systems with a known answer
  to check it on.
"""
