"""The ``sim analyse`` command: sensitivity indices and metamodels of a stored study.

``sim analyse STUDY --db FILE [--metric M ...] [--out DIR] [--json] [--no-crn]
[--resamples N]`` reads the replications stored for STUDY (under its hash) and prints,
per variant and metric, the design's quality, the Sobol' indices (``saltelli`` designs)
or Morris effects (``morris``) with bootstrap intervals, and both metamodels with their
out-of-sample R², top splits and strongest effects. ``--out DIR`` also writes CSV and
JSON files and the plots. Exit 0, or 2 on bad input (including a missing optional
library: the ``analysis`` extra).
"""
from __future__ import annotations

import argparse
import json
import os

from sim.errors import InputError


def add_analyse_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``sim analyse``."""
    from sim.study.command import _positive_int

    a = parser.add_argument
    a("study", help="study file (YAML)")
    a("--db", required=True, metavar="FILE", help="the SQLite store the study wrote")
    a("--metric", action="append", metavar="NAME",
      help="analyse this metric (repeatable; default: the study's metrics)")
    a("--out", metavar="DIR", help="write indices, effects and responses (CSV, JSON) and plots")
    a("--json", action="store_true", help="print one JSON object instead of the text")
    a("--no-crn", dest="crn", action="store_false",
      help="analyse the rows stored by a --no-crn run")
    a("--resamples", type=lambda t: _positive_int(t, 100_000), default=1000, metavar="N",
      help="bootstrap resamples for the intervals of the indices (default 1000)")


# The names `sim.study.report_farming.write_files` writes into --out.
OUTPUTS = ("analysis.json", "indices.csv", "effects.csv", "splits.csv", "responses.csv",
           "main_effects_*.png", "interactions_*.png", "tornado_*.png", "tree_*.png")


def run_analyse_command(args: argparse.Namespace) -> int:
    """``sim analyse``: raises InputError on bad input (the CLI prints one line, exit 2)."""
    from sim.study.analysis import missing_extra

    missing = missing_extra()
    if missing:
        raise InputError(f"sim analyse needs {', '.join(missing)}: pip install 'sim[analysis]'",
                         file="command line")
    from sim.files import path_problem
    from sim.outputs import check_plot_dir
    from sim.study.analysis import analyse
    from sim.study.design import load_study
    from sim.study.report_farming import as_dict, text, write_files
    from sim.study.runner import metric_kinds
    from sim.study.store import ResultStore

    study = load_study(args.study)
    # Every refusal before any output: --out is checked before the analysis is printed.
    check_plot_dir("--out", args.out, {"the study file": args.study, "the study's scenario":
                                       study.scenario_path, "the results database": args.db},
                   OUTPUTS, "outputs of the analysis", "an output")
    if not os.path.isfile(args.db):
        raise InputError(f"{path_problem(args.db) or 'no such results database'} (expected "
                         "the --db of a `sim study` run)", file=args.db, place="--db")
    key = study.key(args.crn)
    with ResultStore(args.db) as store:
        stored = store.load(key)
    if not stored:
        raise InputError(f"holds no replications of study '{study.name}' (hash {key}); run "
                         f"`sim study {args.study} --db {args.db}` first", file=args.db,
                         place="--db")
    kinds: dict[str, str] = dict(metric_kinds(study.scenario))
    unknown = [m for m in args.metric or [] if kinds and m not in kinds]
    if unknown:
        raise InputError(f"unknown metric '{unknown[0]}' (expected one of {sorted(kinds)})",
                         place="--metric")
    result = analyse(study, stored, kinds, args.metric, resamples=args.resamples, study_hash=key)
    written: list[str] = []
    if args.out:  # written before anything is printed, so a failed write is the only output
        try:
            written = write_files(result, args.out)
        except OSError as exc:
            raise InputError(f"cannot write there ({exc.strerror or exc})",
                             file=str(exc.filename or args.out), place="--out") from None
    if args.json:
        print(json.dumps(as_dict(result), indent=1, allow_nan=False))
    else:
        print(text(result, args.db))
        if args.out:
            print(f"\nWrote {len(written)} files to {os.path.join(args.out, '')}")
    return 0
