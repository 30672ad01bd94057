"""``sim demo``: the main job, a what-if study on built-in defaults (snap fire against a
zone of control, with common random numbers, on a 2-process pool), its plots in ``--out``."""
from __future__ import annotations

import argparse
import os
import textwrap
from importlib import resources
from pathlib import Path

from sim.cli.shared import workers

DEMO_STUDY = "snapfire_vs_zoc.yaml"
DEMO_REPLICATIONS_FAST = 12


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``sim demo``."""
    parser.add_argument("--fast", action="store_true",
                        help=f"only {DEMO_REPLICATIONS_FAST} replications (for tests)")
    parser.add_argument("--workers", type=workers, default=2, metavar="N",
                        help="worker processes (default 2)")
    parser.add_argument("--out", default="sim-demo", metavar="DIR",
                        help="where the plots go (default ./sim-demo)")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress bar and nothing on stdout (the plots are written)")


def demo_study_path() -> str:
    """The shipped demo study: package data when installed, else the repo's scenarios/."""
    packaged = resources.files("sim") / "data" / DEMO_STUDY
    if packaged.is_file():
        return str(packaged)
    return str(Path(__file__).resolve().parents[2] / "scenarios" / DEMO_STUDY)


def command(args: argparse.Namespace) -> int:
    """``sim demo``: snap fire vs zone of control, with CRN, on a 2-process pool."""
    from sim.cli.study import execute
    from sim.study.plan.study_file import load_study
    from sim.study.reports.headline import headline
    from sim.study.reports.mechanisms import rule_counts

    study = load_study(demo_study_path())
    opts = argparse.Namespace(
        replications=DEMO_REPLICATIONS_FAST if args.fast else None, workers=args.workers,
        executor="processes" if args.workers > 1 else "serial", address=None, db=None,
        resume=False, allow_changed_code=False, json=False, crn=True, precision=None, plot=args.out,
        csv=None, report=None, quiet=args.quiet, task_size=None, plot_option="--out")
    banner = "" if args.quiet else f"sim demo: {study.spec.description or study.name}\n"
    code, run = execute(study, opts, banner=banner)
    if run is None or args.quiet:
        return code
    for _, line in headline(run, rule_counts(run)[1]):
        # "n = 1000" stays on one line
        print("\n" + textwrap.fill(line.replace("n = ", "n\0=\0"), 96).replace("\0", " "))
    print(f"\nPlots: {os.path.join(args.out, '')}")
    return code
