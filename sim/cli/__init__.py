"""The ``sim`` command line (also ``python -m sim``): every command, one module each.

Bad input of any kind exits 2 with one line on stderr: the file, the place and what was
expected. docs/reference/guarantees.md, "The command line (a contract)", gives the commands and their output.

- ``parser``: the parser, its commands and the ``--plugin`` option every command takes;
- ``run``, ``validate``, ``rules``, ``schema``: ``sim run``, ``sim validate`` (with
  ``--plugins``, the plug-ins' self-check), ``sim rules``, ``sim schema``;
- ``study``, ``select``, ``demo``, ``analyse``: ``sim study``, ``sim select``, ``sim demo``,
  ``sim analyse``;
- ``play``: ``sim play``, the play board as a web page of its own (``sim.play.page``);
- ``shared``: the option values the commands check alike, and the one-line message;
- ``pairs``: options that take effect only with another, refused alone;
- ``outputs``: output paths, checked before anything runs (an output never replaces an input).
"""
from __future__ import annotations

import argparse
import sys

from sim.errors import InputError


def _load_plugins(args: argparse.Namespace) -> None:
    from sim.systems.plugins import ENV, from_environment, load_modules

    load_modules(from_environment(), ENV)
    load_modules([*args.plugins_before, *getattr(args, "plugins", [])], "--plugin")


def main(argv: list[str] | None = None) -> int:
    """Run one ``sim`` command; returns its exit status."""
    from sim import signals

    # From the first instruction to the last, Ctrl-C, SIGTERM and SIGHUP stop the
    # command with one line and 128 + the signal's number (a study says more itself);
    # after this block, until the process ends, sim.signals gives the same line and status.
    try:
        with signals.stop_on_signals():
            try:
                return _command(argv)
            finally:
                _flush()  # the output goes out while a signal still stops the command
    except KeyboardInterrupt as stop:
        print(f"sim: {signals.stopped_line(stop)}", file=sys.stderr)
        return signals.exit_status(stop)
    except BrokenPipeError:
        return 0


def _command(argv: list[str] | None) -> int:
    from sim.cli.pairs import check_pairs
    from sim.cli.parser import build_parser
    from sim.cli.shared import one_line

    try:
        args = build_parser().parse_args(argv)
        args.command_line = ["sim", *(sys.argv[1:] if argv is None else argv)]  # for provenance
        check_pairs(args)     # an option that would do nothing is refused before anything
        _load_plugins(args)   # before any file is read: every command loads the same
        return int(args.func(args) or 0)
    except InputError as err:
        print(f"sim: error: {one_line(str(err))}", file=sys.stderr)
        return 2


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
