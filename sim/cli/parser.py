"""The ``sim`` parser: its commands, each from its own module, and ``--plugin``.

A command's module has ``add_arguments(parser)`` (its options), ``command(args)`` (runs
it; returns the exit status) and, when its help says more than one line, ``DESCRIPTION``.
"""
from __future__ import annotations

import argparse

from sim.errors import InputError

# Each command, in the order ``sim --help`` lists them: its name (its module's) and its help.
HELP = {
    "run": "run one replication of a scenario",
    "validate": "check scenario and study files (--plugins: the plug-ins)",
    "rules": "the rule registry: ID, title, where implemented",
    "schema": "the JSON Schema of scenario (or study) files; --docs: the reference",
    "study": "run a what-if study",
    "select": "the best variant of a study, with a guarantee (Kim and Nelson's KN)",
    "demo": "the main job: a what-if study on built-in defaults",
    "analyse": "sensitivity indices and metamodels of a stored study",
    "play": "play a side against a planner on a web page of its own (the play board)",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, like every other bad input
        raise InputError(f"{message} (see '{self.prog} --help')", file="command line")


def build_parser() -> argparse.ArgumentParser:
    """The parser of every ``sim`` command; a parsed command's ``func`` runs it."""
    from sim import __version__
    from sim.cli import analyse, demo, play, rules, run, schema, select, study, validate
    from sim.systems import PLUGINS_ENV as ENV

    parser = _Parser(prog="sim", description="Discrete-event simulation of small-unit engagements.")
    parser.add_argument("--version", action="version", version=f"sim {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for module in (run, validate, rules, schema, study, select, demo, analyse, play):
        name = module.__name__.rsplit(".", 1)[1]
        p = sub.add_parser(name, help=HELP[name], description=getattr(module, "DESCRIPTION", None))
        module.add_arguments(p)
        p.set_defaults(func=module.command)
    sub.choices["schema"].set_defaults(parser=parser)   # --docs documents the command line itself

    # --plugin before the command (sim --plugin M run ...) or after it (sim run --plugin M ...)
    for each, dest in ((parser, "plugins_before"), *((c, "plugins") for c in sub.choices.values())):
        each.add_argument("--plugin", action="append", default=[], dest=dest, metavar="MODULE",
                          help=f"import MODULE first: the rule systems, metric reporters and "
                               f"behaviours it registers (repeatable; also ${ENV}, comma-separated)")
    return parser
