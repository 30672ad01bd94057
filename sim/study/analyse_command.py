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
import re

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


OUTPUTS = re.compile(r"^(analysis\.json|(indices|effects|splits|responses)\.csv|"
                     r"(main_effects|interactions|tornado|tree)_.*\.png)$")


def _refuse_inputs(out_dir: str, inputs: list[str]) -> None:
    """Never write an output over an input: refuse a --out that holds an input under one
    of the names the analysis writes."""
    for path in inputs:
        same_dir = os.path.abspath(os.path.dirname(path)) == os.path.abspath(out_dir)
        if same_dir and OUTPUTS.match(os.path.basename(path)):
            raise InputError(f"would write over the input {path} (expected another directory)",
                             file=out_dir, place="--out")


def run_analyse_command(args: argparse.Namespace) -> int:
    """``sim analyse``: raises InputError on bad input (the CLI prints one line, exit 2)."""
    from sim.study.stored_analysis import CLI_NAMES, analyse_stored

    analysis = analyse_stored(args.study, args.db, args.metric, args.crn, args.resamples,
                              CLI_NAMES)
    if args.json:
        print(json.dumps(analysis.to_dict(), indent=1, allow_nan=False))
    else:
        print(analysis.text())
    if args.out:
        _refuse_inputs(args.out, [args.study, analysis.analysis.study.scenario_path, args.db])
        try:
            written = analysis.write(args.out)
        except OSError as exc:
            raise InputError(f"cannot write there ({exc.strerror or exc})", file=args.out,
                             place="--out") from None
        if not args.json:
            print(f"\nWrote {len(written)} files to {os.path.join(args.out, '')}")
    return 0
