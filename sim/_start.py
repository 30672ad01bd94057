"""Imported first by ``sim``: when this process is the ``sim`` command, a signal while it
is still importing (a second or so) stops it with its one line and status."""
from sim.signals import stop_while_importing

stop_while_importing()
