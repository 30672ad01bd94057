"""The ``sim`` command line (also ``python -m sim``).

Bad input of any kind exits 2 with one line on stderr: the file, the place and what was
expected. README.md's "Command line (a contract)" gives the commands and their output.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TypedDict

from sim.errors import InputError

VALIDATE = """Check scenario and study files as every command loads them (plug-ins included).

With --plugins, each plug-in rule system (installed, or registered by a --plugin module)
also fights a few short self-check battles (its RuleSystem.example scenario, or small
generated ones): a watch whose radius is not positive or that is never armed, a declared
rule ID that no record names and no die is rolled for, a battle that raises, each is one
line; exit 1 if there is any, 0 if every system passed, 2 on bad input."""


class RuleRow(TypedDict):
    """One row of ``sim rules``: a rule ID, its title, its systems, where it is applied."""

    id: str
    title: str
    systems: list[str]
    where: list[str]


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, like every other bad input
        raise InputError(f"{message} (see '{self.prog} --help')", file="command line")


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise InputError(f"--seed '{text}' is not an integer (expected 0 .. 2**63-1)", file="command line") from None
    if not 0 <= value < 2**63:
        raise InputError(f"--seed {value} is out of range (expected 0 .. 2**63-1)", file="command line")
    return value


def cmd_run(args: argparse.Namespace) -> int:
    from sim.metrics import MetricError
    from sim.outputs import check_file
    from sim.replication import run_battle
    from sim.scenario.load import apply_overrides, load_scenario, parse_assignments

    scenario = load_scenario(args.scenario)
    overrides = parse_assignments(args.set)
    scenario = apply_overrides(scenario, overrides)
    check_file("--log", args.log, {"the scenario": args.scenario})
    try:
        result = run_battle(scenario, args.seed)
    except MetricError as err:   # the battle ran: its log is kept, then one line, exit 1
        if args.log and err.log is not None:
            err.log.to_jsonl(args.log)
        kept = f"; the log was written to {args.log}" if args.log and err.log is not None else ""
        print(f"sim: error: {_one_line(str(err))}{kept}", file=sys.stderr)
        return 1
    if args.log:
        result.log.to_jsonl(args.log)
    if args.json:
        print(json.dumps({"scenario": scenario.name, "seed": args.seed, "metrics": result.metrics},
                         sort_keys=True))
    else:
        from sim.metrics.report import battle_summary

        print(battle_summary(scenario, args.seed, result))
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    from sim.scenario.load import load_scenario
    from sim.scenario.yamlfile import read_yaml

    if not args.files and not args.plugins_check:
        raise InputError("the following arguments are required: FILE ... (or --plugins) "
                         "(see 'sim validate --help')", file="command line")
    said = []
    for path in args.files:  # every file checked before anything is printed
        data, _ = read_yaml(path)
        if isinstance(data, dict) and "study" in data:
            from sim.study.command import load_study
            from sim.study.design import describe

            said.append(f"{path}: valid study ({describe(load_study(path))})")
        else:
            load_scenario(path)
            said.append(f"{path}: valid scenario")
    if said:
        print("\n".join(said))
    return _check_plugins() if args.plugins_check else 0


def _check_plugins() -> int:
    """``sim validate --plugins``: each plug-in rule system's self-check (exit 1 on a problem)."""
    from sim.systems.registry import all_systems, origin_of
    from sim.systems.selfcheck import self_check

    systems = [s for s in all_systems() if origin_of(s.name) != "built-in"]
    if not systems:
        raise InputError("no plug-in rule system to check (expected an installed one, or "
                         "--plugin MODULE or SIM_PLUGINS naming a module that registers one)",
                         place="--plugins")
    failed = 0
    for system in systems:
        problems = self_check(system)
        failed += bool(problems)
        who = f"rule system '{system.name}' ({origin_of(system.name)})"
        for problem in problems:
            print(f"{who}: {_one_line(problem)}")
        if not problems:
            print(f"{who}: self-check passed")
    return 1 if failed else 0


def rule_rows() -> list[RuleRow]:
    """Every rule ID with its title, the rule systems declaring it and the code marked as
    applying it (every system loaded first, so every ``@implements`` has run)."""
    from sim import catalogue
    from sim.systems.registry import all_systems

    systems = all_systems()
    declared = [rid for s in systems for rid in s.rules]   # a fixed order, whatever was imported first
    return [RuleRow(id=rid, title=title, systems=[s.name for s in systems if rid in s.rules],
                    where=where) for rid, title, where in catalogue.entries(declared)]


def cmd_rules(args: argparse.Namespace) -> int:
    rows = rule_rows()
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    width = max(len(str(r["id"])) for r in rows)
    for r in rows:
        systems = ", ".join(r["systems"]) or "no rule system"
        print(f"{r['id']:<{width}}  {r['title']}  [{systems}]")
        where = ", ".join(r["where"]) or "not implemented yet"
        print(f"{'':<{width}}    -> {where}")
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    if args.docs is not None:
        from sim.reference.docs import stale, update

        if not os.path.isdir(args.docs):
            raise InputError("not a directory (expected the docs folder, e.g. docs)", file=args.docs,
                             place="--docs")
        if args.check:
            old = stale(args.docs)
            for path in old:
                print(f"{path}: out of date (regenerate with: sim schema --docs {args.docs})")
            return 1 if old else 0
        for path in update(args.docs):
            print(f"wrote {path}")
        return 0
    from sim.reference.jsonschema import scenario_schema, study_schema

    schema = study_schema() if args.kind == "study" else scenario_schema()
    print(json.dumps(schema, indent=1, ensure_ascii=False))
    return 0


def build_parser() -> argparse.ArgumentParser:
    from sim import __version__
    from sim.study import command as study

    parser = _Parser(prog="sim", description="Discrete-event simulation of small-unit engagements.")
    parser.add_argument("--version", action="version", version=f"sim {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("run", help="run one replication of a scenario")
    p.add_argument("scenario")
    p.add_argument("--seed", type=_seed, default=1)
    p.add_argument("--log", metavar="FILE.jsonl", help="write the event log as JSON Lines")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="override a scenario key")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("validate", help="check scenario and study files (--plugins: the plug-ins)",
                       description=VALIDATE)
    p.add_argument("files", nargs="*", metavar="FILE")
    p.add_argument("--plugins", dest="plugins_check", action="store_true", help=(
        "also battle each plug-in rule system (installed, or from --plugin MODULE or SIM_PLUGINS) "
        "a few times: report watches with a radius <= 0 or never armed, declared rules that no "
        "record names, battles that raise (one line each, exit 1)"))
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("rules", help="the rule registry: ID, title, where implemented")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("schema", help="the JSON Schema of scenario (or study) files; --docs: the reference")
    p.add_argument("kind", nargs="?", choices=["scenario", "study"], default="scenario")
    p.add_argument("--docs", metavar="DIR", help="rewrite the generated parts of DIR/scenario.md, "
                   "DIR/study.md and the schema files in DIR (built-in rule systems only)")
    p.add_argument("--check", action="store_true", help="with --docs: only say which are out of date (exit 1)")
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser("study", help="run a what-if study")
    study.add_study_arguments(p)
    p.set_defaults(func=study.run_study_command)
    p = sub.add_parser("demo", help="the main job: a what-if study on built-in defaults")
    study.add_demo_arguments(p)
    p.set_defaults(func=study.run_demo_command)
    from sim.study import analyse_command as analyse

    p = sub.add_parser("analyse", help="sensitivity indices and metamodels of a stored study")
    analyse.add_analyse_arguments(p)
    p.set_defaults(func=analyse.run_analyse_command)
    from sim.systems.plugins import ENV

    # --plugin before the command (sim --plugin M run ...) or after it (sim run --plugin M ...)
    for each, dest in ((parser, "plugins_before"), *((c, "plugins") for c in sub.choices.values())):
        each.add_argument("--plugin", action="append", default=[], dest=dest, metavar="MODULE",
                          help=f"import MODULE first: the rule systems, metric reporters and "
                               f"behaviours it registers (repeatable; also ${ENV}, comma-separated)")
    return parser


def _one_line(text: str) -> str:
    # One line, printable whatever the path's bytes (a non-UTF-8 file name).
    return " ".join(text.encode("utf-8", "backslashreplace").decode("utf-8").splitlines())


def _load_plugins(args: argparse.Namespace) -> None:
    from sim.systems.plugins import ENV, from_environment, load_modules

    load_modules(from_environment(), ENV)
    load_modules([*args.plugins_before, *getattr(args, "plugins", [])], "--plugin")


def main(argv: list[str] | None = None) -> int:
    """Run one ``sim`` command; returns its exit status."""
    from sim.study import lifetime

    # From the first instruction to the last, Ctrl-C, SIGTERM and SIGHUP stop the
    # command with one line and 128 + the signal's number (a study says more itself).
    with lifetime.stop_on_signals():
        try:
            args = build_parser().parse_args(argv)
            args.command_line = ["sim", *(sys.argv[1:] if argv is None else argv)]  # for provenance
            _load_plugins(args)   # before any file is read: every command loads the same
            return int(args.func(args) or 0)
        except InputError as err:
            print(f"sim: error: {_one_line(str(err))}", file=sys.stderr)
            return 2
        except KeyboardInterrupt as stop:
            print(f"sim: {lifetime.stopped_line(stop)}", file=sys.stderr)
            return lifetime.exit_status(stop)
        except BrokenPipeError:
            return 0


if __name__ == "__main__":
    sys.exit(main())
