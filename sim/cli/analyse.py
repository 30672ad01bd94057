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
import os

from sim.cli.shared import json_text, positive_int
from sim.errors import InputError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``sim analyse``."""
    a = parser.add_argument
    a("study", help="study file (YAML)")
    a("--db", required=True, metavar="FILE", help="the SQLite store the study wrote")
    a("--metric", action="append", metavar="NAME",
      help="analyse this metric (repeatable; default: the study's metrics)")
    a("--out", metavar="DIR", help="write indices, effects and responses (CSV, JSON) and plots")
    a("--json", action="store_true", help="print one JSON object instead of the text")
    a("--no-crn", dest="crn", action="store_false",
      help="analyse the rows stored by a --no-crn run")
    a("--resamples", type=lambda t: positive_int(t, 100_000), default=1000, metavar="N",
      help="bootstrap resamples for the intervals of the indices (default 1000)")


# The names `sim.study.reports.farming.write_files` writes into --out.
OUTPUTS = ("analysis.json", "indices.csv", "effects.csv", "splits.csv", "responses.csv",
           "main_effects_*.png", "interactions_*.png", "tornado_*.png", "tree_*.png")


def command(args: argparse.Namespace) -> int:
    """``sim analyse``: raises InputError on bad input (the CLI prints one line, exit 2)."""
    from sim.cli.outputs import check_plot_dir
    from sim.study.analysis.study_analysis import CLI_NAMES, analyse_stored, require_extra
    from sim.study.plan.study_file import load_study

    require_extra(CLI_NAMES)
    study = load_study(args.study)
    # Every refusal before any output: --out is checked before the analysis is printed.
    check_plot_dir("--out", args.out, {"the study file": args.study, "the study's scenario":
                                       study.scenario_path, "the results database": args.db},
                   OUTPUTS, "outputs of the analysis", "an output")
    analysis = analyse_stored(study, args.db, args.metric, args.crn, args.resamples, CLI_NAMES)
    written: list[str] = []
    if args.out:  # written before anything is printed, so a failed write is the only output
        try:
            written = analysis.write(args.out)
        except OSError as exc:
            raise InputError(f"cannot write there ({exc.strerror or exc})",
                             file=str(exc.filename or args.out), place="--out") from None
    if args.json:
        print(json_text(analysis.to_dict(), indent=1))
    else:
        print(analysis.text())
        if args.out:
            print(f"\nWrote {len(written)} files to {os.path.join(args.out, '')}")
    return 0
