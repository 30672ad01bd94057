"""The engine: the battle, its turn clock, keyed dice, event log, and the context rules see."""
