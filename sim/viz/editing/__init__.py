"""The scenario editor: a widget on which a scenario is drawn, checked, saved and run (``sim.viz.editor``)."""
