"""Options that take effect only together with another (or only without it).

Given where it would do nothing (``--resume`` without ``--db``, ``--workers`` with
``--executor serial``), an option is refused in one line naming both, exit 2, before any
plug-in is imported or file read, rather than silently ignored. ``PAIRS`` lists them all
(docs/reference/cli.md, "Options that need another").
"""
from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NamedTuple

from sim.errors import InputError


class Pair(NamedTuple):
    """``option`` is refused when ``given(args)`` and ``wrong(args)``: it ``needs`` ``other``
    (and ``other`` is missing), or it means nothing with ``other`` (``needs`` False)."""

    commands: tuple[str, ...]
    option: str
    other: str
    needs: bool
    why: str
    given: Callable[[argparse.Namespace], bool]
    wrong: Callable[[argparse.Namespace], bool]


RUNNERS = ("study", "select")   # the commands of sim.cli.study.add_run_options

PAIRS = (
    Pair(RUNNERS, "--resume", "--db FILE", True, "the store to resume from",
         lambda a: a.resume, lambda a: a.db is None),
    Pair(RUNNERS, "--allow-changed-code", "--resume", True,
         "it continues a stored study whose rows other code made",
         lambda a: a.allow_changed_code, lambda a: not a.resume),
    Pair(RUNNERS, "--workers", "--executor serial", False,
         "which runs every replication in this process; for workers: --executor processes or dask",
         lambda a: a.workers is not None, lambda a: a.executor == "serial"),
    Pair(RUNNERS, "--workers", "--address", False,
         "the scheduler's own workers run the replications",
         lambda a: a.workers is not None, lambda a: a.address is not None),
    Pair(("schema",), "--check", "--docs DIR", True, "the generated docs it compares",
         lambda a: a.check, lambda a: a.docs is None),
    Pair(("schema",), "the kind (scenario or study)", "--docs", False,
         "which writes the docs of both", lambda a: a.kind is not None, lambda a: a.docs is not None),
    Pair(("schema",), "--plugin", "--docs", False,
         "whose docs cover the built-in rule systems only",
         lambda a: bool(a.plugins or a.plugins_before), lambda a: a.docs is not None),
)


def check_pairs(args: argparse.Namespace) -> None:
    """Refuse the first option of ``args`` given where it does nothing (``PAIRS``)."""
    for pair in PAIRS:
        if args.command in pair.commands and pair.given(args) and pair.wrong(args):
            how = "needs" if pair.needs else "means nothing with"
            raise InputError(f"{pair.option} {how} {pair.other} ({pair.why})", place=pair.option)
