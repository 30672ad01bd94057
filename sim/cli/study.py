"""The ``sim study`` command (``execute`` also runs ``sim demo``'s study).

``sim study STUDY`` runs a what-if study and prints per-cell means with 95% intervals
and the paired differences (``--json``: the contract object, nothing else on stdout).
Exit codes: 0 done; 1 done but some replications raised (they are counted, stored in the
``failures`` table and left out of the statistics); 2 bad input (an ``InputError``,
raised to the CLI, which prints its one line; also a results database that cannot be
read or written); 3 Dask gave up on a task whose workers kept dying; 130, 143, 129
stopped by Ctrl-C, SIGTERM, SIGHUP. When stopped, stored rows are kept: rerun with
``--resume``.

A results database that already holds rows of the same study (same hash: seed, CRN mode
and every resolved cell) is refused without ``--resume``, so two runs never mix silently;
with it, one whose rows other code made (``sim`` or a plug-in, edited or upgraded) is
refused too, unless ``--allow-changed-code`` (then the output says the results mix code).
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from sim.cli.shared import json_text, positive_float, positive_int, workers
from sim.errors import InputError

if TYPE_CHECKING:
    from sim.study.plan.study_file import Study
    from sim.study.run.runner import StudyRun

# The study machinery (scipy, pandas, the store) is imported when a study runs, not when
# the `sim` parser is built, so other commands start fast.
__all__ = ["add_arguments", "add_run_options", "check_db", "command", "execute", "guarded",
           "progress_bar", "reproduce_command"]
T = TypeVar("T")

WORKERS_LOST = 3  # the exit status when Dask gave up on a task whose workers kept dying


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``sim study``."""
    a = parser.add_argument
    a("study", help="study file (YAML)")
    a("--replications", type=positive_int, metavar="N",
      help="replications per cell (overrides the file; with --precision: the cap)")
    add_run_options(parser)
    a("--precision", type=positive_float, metavar="X",
      help="add batches until every interval's half-width is <= X (cap: --replications "
           "or the file's max_replications, default 2000)")
    a("--plot", metavar="DIR", help="write PNG plots into DIR")
    a("--csv", metavar="FILE", help="write every replication to a CSV file")
    a("--report", metavar="FILE.html", help="write a self-contained HTML report of the study")


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """The options of every command that runs a study's replications (``sim study``,
    ``sim select``): where they run, the store, the output's form."""
    a = parser.add_argument
    a("--workers", type=workers, metavar="N",
      help="worker processes (default 1; >1 without --executor means a process pool)")
    a("--executor", choices=["serial", "processes", "dask"], default=None,
      help="where replications run (dask starts a LocalCluster on 127.0.0.1)")
    a("--address", metavar="ADDR", help="join an existing Dask scheduler, e.g. tcp://HOST:8786")
    a("--db", metavar="FILE", help="SQLite results store; each batch is committed as it arrives")
    a("--resume", action="store_true", help="continue a study stored in --db, skipping stored rows")
    a("--allow-changed-code", action="store_true",
      help="with --resume: continue even though other code (sim, or a plug-in, edited or "
           "upgraded) made the stored rows; the output says the results mix code")
    a("--json", action="store_true", help="print one JSON object instead of the table")
    a("--no-crn", dest="crn", action="store_false",
      help="independent seeds per variant (no common random numbers), for comparison")
    a("--quiet", action="store_true",
      help="no progress bar and no table: stdout stays empty (but for --json); notes and "
           "errors go to stderr")
    a("--task-size", type=positive_int, metavar="N",
      help="replications per task (default: about six tasks per worker, 5 to 50 each; "
           "to 250 on Dask)")


def progress_bar(name: str, quiet: bool):
    """The progress bar on stderr (none when quiet or stderr is not a terminal)."""
    from tqdm import tqdm

    return tqdm(total=0, desc=name, unit="rep", file=sys.stderr,
                disable=quiet or not sys.stderr.isatty())


def execute(study: Study, args, *, executor=None, out=None,
            banner: str = "") -> tuple[int, StudyRun | None]:
    """Run a loaded study with parsed options; returns (exit code, StudyRun). ``banner``
    is printed once every option is checked, so a refusal is the only output."""
    from sim.study.reports.replications_csv import write_csv
    from sim.study.reports.summary import as_json, full_table_hint, table
    from sim.study.run.executors import make_executor
    from sim.study.run.runner import precision_target, run_study
    from sim.study.run.store import ResultStore

    out = out or sys.stdout
    _check_outputs(study, args)
    precision = precision_target(study, args.precision, args.replications)
    executor = executor or make_executor(args.executor, args.workers or 1, args.address)
    store = ResultStore(args.db) if args.db is not None else None
    if banner:
        print(banner, file=out, flush=True)
    bar = progress_bar(study.name, args.quiet)
    code, run = guarded(lambda: run_study(
        study, executor=executor, replications=args.replications, precision=precision,
        crn=args.crn, store=store, resume=args.resume, progress=bar, per_task=args.task_size,
        allow_changed_code=args.allow_changed_code), executor, bar, store)
    if run is None:
        return code, None
    if args.json:
        print(json_text(as_json(run), indent=2), file=out)
    elif not args.quiet:
        print(table(run, full_table_hint(args.csv, args.db)), file=out)
    if args.json or args.quiet:  # the table carries these notes itself; JSON output stays pure
        notes = list(run.notes)
        if run.other_versions:
            notes.append(f"some stored replications were made by sim {', '.join(run.other_versions)}")
        for note in notes:
            print(f"note: {note}", file=sys.stderr)
    if run.failures:
        first = run.failures[0]
        where = f"; seeds and tracebacks are in the failures table of {args.db}" if args.db else ""
        print(f"{len(run.failures)} replications raised; first: seed {first.seed}: "
              f"{first.error}{where}", file=sys.stderr)
        print(f"reproduce it with: {reproduce_command(study, first)}", file=sys.stderr)
    # The results are printed (and stored); a failed write names its own file.
    if args.csv:
        write_csv(run, args.csv)
    if args.plot:
        from sim.viz.study_plots import plot_study

        try:
            plot_study(run, args.plot)
        except OSError as exc:
            raise InputError(f"cannot write there ({exc.strerror or exc})",
                             file=str(exc.filename or args.plot),
                             place=getattr(args, "plot_option", "--plot")) from None
    if getattr(args, "report", None):
        from sim.study.reports.html_report import write_report

        write_report(run, args.report, getattr(args, "command_line", None))
    return (1 if run.failures else 0), run


def guarded(work: Callable[[], T], executor, bar, store) -> tuple[int, T | None]:
    """``work()`` inside the executor, with Ctrl-C, SIGTERM and SIGHUP stopping it: (0, its
    result), or (the exit status, None) with one line on stderr when it was stopped or
    Dask lost its workers. The bar and the store are closed either way."""
    from sim.study.run import lifetime
    from sim.study.run.executors import WorkersLost

    stored = f"; the finished batches are in {store.path}: rerun with --resume" if store else ""
    try:
        with lifetime.stop_on_signals(), executor:
            return 0, work()
    except KeyboardInterrupt as stop:
        bar.close()
        print(f"{lifetime.stopped_line(stop)}{stored}", file=sys.stderr)
        return lifetime.exit_status(stop), None
    except WorkersLost as exc:
        bar.close()
        print(f"sim: error: {exc}{stored}", file=sys.stderr)
        return WORKERS_LOST, None
    finally:
        bar.close()
        if store is not None:
            store.close()


def check_db(study: Study, args) -> dict[str, str]:
    """``--db`` is not an input (nor unwritable there); returns the inputs, the database
    among them, for the outputs' own checks. (``--resume`` without it: ``sim.cli.pairs``.)"""
    from sim.cli.outputs import check_file

    inputs = {"the study file": study.path, "the study's scenario": study.scenario_path}
    check_file("--db", args.db, inputs, tried=False)  # its kind: sim.study.run.store
    inputs["the results database"] = args.db
    return inputs


def _check_outputs(study: Study, args) -> None:
    """Before any battle: no output (--csv, --report, --plot, --db) is one of the inputs,
    and each is a place where a file of its kind can be written."""
    from sim.cli.outputs import check_file, check_plot_dir
    from sim.extras import require

    plot_option = getattr(args, "plot_option", "--plot")
    for option, value, extra in (("--csv", args.csv, "frames"), (plot_option, args.plot, "plots"),
                                 ("--report", getattr(args, "report", None), "plots")):
        if value is not None:
            require(extra, "sim demo's plots" if option == "--out" else option, place=option)
    inputs = check_db(study, args)
    check_file("--csv", args.csv, inputs)
    check_file("--report", getattr(args, "report", None), inputs)
    check_plot_dir(plot_option, args.plot, inputs)


def reproduce_command(study: Study, record) -> str:
    """The ``sim run`` command line that replays one stored replication (a ``Stored``):
    the study's scenario file, the replication's seed and its cell's overrides (variant
    and factor point) as ``--set``. Replication seeds are root seeds, the very seed that
    ``sim run --seed`` takes, so the replay is the same battle. A branch study's is the
    ``sim.branch`` call that replays its branch."""
    import shlex

    from sim.scenario.load import parse_assignment

    cell = next(c for c in study.cells
                if c.variant == record.variant and c.point_json == record.point)
    if study.spec.branch is not None:   # a branch: the battle replayed to its decision
        at = study.spec.branch.at.model_dump(mode="json", exclude_none=True)
        code = (f"import sim; sim.branch({study.scenario_path!r}, {record.seed}, at={at!r}, "
                f"branches={{{cell.variant!r}: {cell.overrides!r}}})")
        return shlex.join(["python", "-c", code])
    words = ["sim", "run", study.scenario_path, "--seed", str(record.seed)]
    for key, value in cell.overrides.items():
        text = json.dumps(value)  # JSON is YAML: a number, a quoted string, a list
        if isinstance(value, str):
            try:
                if parse_assignment(f"{key}={value}")[1] == value:
                    text = value  # plain when it reads back as itself: reaction=zoc
            except InputError:
                pass
        words += ["--set", f"{key}={text}"]
    return shlex.join(words)


def command(args: argparse.Namespace) -> int:
    """``sim study``: raises InputError on bad input (the CLI prints it and exits 2)."""
    from sim.study.plan.study_file import load_study

    code, _ = execute(load_study(args.study), args)
    return code
