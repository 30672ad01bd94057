"""The ``sim select`` command: the best cell of a study, with a guarantee.

``sim select STUDY --metric M --direction maximise|minimise --delta D [--alpha A] [--n0 N]``
runs Kim and Nelson's fully sequential procedure KN over the study's cells
(``sim.study.run.selection``): n0 replications of every cell, then one more at a time of
the cells still in contention, until one is left. The metric, direction, δ, α and n0 may
instead come from the study file's ``select`` section (an option overrides it). It prints
the selected cell, the stage at which each other left, the battles spent (and what a
fixed-size study with the same guarantee would need) and the guarantee in words
(``--json``: one object). Every replication is stored in ``--db`` like a ``sim study``
run's, so ``--resume`` continues a stopped selection (or uses a study's stored rows) and
selects the same cell. Exit codes: 0 selected; 1 a replication it needs raised (or gave
no value of the metric); 2 bad input; 3 Dask lost its workers; 130, 143, 129 stopped
by Ctrl-C, SIGTERM, SIGHUP (rerun with ``--resume``).

With no cap, a selection whose own maximum is above the study's limit of replications a
cell is refused (exit 2): for a 0/1 metric before the first battle, for any other after
the first stage (``sim.study.analysis.kn.check_maximum``).
"""
from __future__ import annotations

import argparse
import sys

from sim.cli.shared import json_text, positive_float, positive_int, probability
from sim.cli.study import add_run_options, check_db, guarded, progress_bar, reproduce_command

DESCRIPTION = __doc__.split("\n\n")[1].replace("``", "")

#: The option that gives each parameter, named in a message about it.
PLACES = {"metric": "--metric", "direction": "--direction", "delta": "--delta",
          "alpha": "--alpha", "n0": "--n0", "max_replications": "--replications"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``sim select``."""
    a = parser.add_argument
    a("study", help="study file (YAML)")
    a("--metric", metavar="NAME", help="the metric the best cell is best by (or select.metric)")
    a("--direction", choices=["maximise", "minimise"],
      help="the best has the largest mean (maximise) or the smallest (or select.direction)")
    a("--delta", type=positive_float, metavar="D",
      help="the indifference zone: the smallest difference of means worth detecting")
    a("--alpha", type=probability, metavar="A",
      help="1 - the confidence (default 0.05, or select.alpha)")
    a("--n0", type=lambda t: positive_int(t, 100_000, lo=2), metavar="N",
      help="first-stage replications of every cell (default 10, or select.n0)")
    a("--replications", type=lambda t: positive_int(t, lo=2), metavar="N",
      help="a cap on any cell's replications (a selection stopped by it has no guarantee)")
    a("--batch", type=lambda t: positive_int(t, 10_000), default=1, metavar="N",
      help="replications of every cell still in contention run at a time (default 1; "
           "the selection does not depend on it, only the battles it runs in vain)")
    add_run_options(parser)


def command(args: argparse.Namespace) -> int:
    """``sim select``: raises InputError on bad input (the CLI prints it and exits 2)."""
    from sim.study.plan.study_file import load_study
    from sim.study.reports.selection import as_json, text
    from sim.study.run.executors import make_executor
    from sim.study.run.selection import SelectionFailed, run_selection, select_spec
    from sim.study.run.store import ResultStore

    study = load_study(args.study)
    given = {"metric": args.metric, "direction": args.direction, "delta": args.delta,
             "alpha": args.alpha, "n0": args.n0, "max_replications": args.replications}
    spec = select_spec(study, given, PLACES)
    check_db(study, args)
    executor = make_executor(args.executor, args.workers or 1, args.address)
    store = ResultStore(args.db) if args.db is not None else None
    bar = progress_bar(study.name, args.quiet)
    try:
        code, done = guarded(lambda: run_selection(
            study, spec, executor=executor, crn=args.crn, store=store, resume=args.resume,
            progress=bar, batch=args.batch, per_task=args.task_size,
            allow_changed_code=args.allow_changed_code), executor, bar, store)
    except SelectionFailed as failed:
        kept = f"; the replications run are in {args.db}" if args.db else ""
        print(f"sim: error: the selection cannot go on: {failed}{kept}", file=sys.stderr)
        print(f"reproduce it with: {reproduce_command(study, failed.record)}", file=sys.stderr)
        return 1
    if done is None:
        return code
    if args.json:
        print(json_text(as_json(done), indent=2))
    elif not args.quiet:
        print(text(done))
    if args.json or args.quiet:
        for note in done.notes:
            print(f"note: {note}", file=sys.stderr)
    return 0
