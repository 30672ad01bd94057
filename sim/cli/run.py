"""``sim run``: one battle of a scenario; its summary (or ``--json``) and ``--log``."""
from __future__ import annotations

import argparse
import sys

from sim.cli.shared import json_text, one_line, seed


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``sim run``."""
    p.add_argument("scenario", help="scenario file (YAML)")
    p.add_argument("--seed", type=seed, default=1, metavar="N", help="the battle's seed (default 1)")
    p.add_argument("--log", metavar="FILE.jsonl", help="write the event log as JSON Lines")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="override a scenario key by its dotted path, e.g. rules.snapfire.radius=8 (repeatable)")


def command(args: argparse.Namespace) -> int:
    """``sim run``: 0, or 1 when a metric raised or the battle stood still (the log is still written)."""
    from sim.cli.outputs import check_file
    from sim.engine.instants import StalledBattle
    from sim.metrics import MetricError
    from sim.replication import run_battle
    from sim.scenario.load import apply_overrides, load_scenario, parse_assignments

    scenario = load_scenario(args.scenario)
    overrides = parse_assignments(args.set)
    scenario = apply_overrides(scenario, overrides)
    check_file("--log", args.log, {"the scenario": args.scenario})
    try:
        result = run_battle(scenario, args.seed)
    except (MetricError, StalledBattle) as err:   # the battle ran: its log is kept, then one line, exit 1
        if args.log and err.log is not None:
            err.log.to_jsonl(args.log)
        so_far = " so far" if isinstance(err, StalledBattle) else ""
        kept = f"; the log{so_far} was written to {args.log}" if args.log and err.log is not None else ""
        print(f"sim: error: {one_line(str(err))}{kept}", file=sys.stderr)
        return 1
    if args.log:
        result.log.to_jsonl(args.log)
    if args.json:
        print(json_text({"scenario": scenario.name, "seed": args.seed, "metrics": result.metrics},
                        sort_keys=True))
    else:
        from sim.metrics.battle_text import battle_summary

        print(battle_summary(scenario, args.seed, result))
    return 0
