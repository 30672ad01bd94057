"""``sim schema``: the JSON Schema of scenario or study files; ``--docs``: the reference in docs/."""
from __future__ import annotations

import argparse
import os

from sim.cli.shared import json_text
from sim.errors import InputError


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``sim schema``."""
    p.add_argument("kind", nargs="?", choices=["scenario", "study", "plugins"],
                   help="whose schema (default scenario): scenario files (every installed rule system) "
                        "or study files; `plugins`: the reference of every installed plug-in's keys "
                        "(base games, rule modules, rulesets), in Markdown")
    p.add_argument("--docs", metavar="DIR", help="rewrite the generated parts of DIR/scenario.md, "
                   "DIR/study.md, DIR/extending.md and DIR/reference/ and the schema files in DIR "
                   "(built-in rule systems only)")
    p.add_argument("--check", action="store_true", help="with --docs: only say which are out of date (exit 1)")


def command(args: argparse.Namespace) -> int:
    """``sim schema``: print a schema, or write (``--check``: compare) the generated docs."""
    if args.docs is not None:
        from sim.reference.docs import stale, update

        if not os.path.isdir(args.docs):
            raise InputError("not a directory (expected the docs folder, e.g. docs)", file=args.docs,
                             place="--docs")
        if args.check:
            old = stale(args.docs, args.parser)
            for path in old:
                print(f"{path}: out of date (regenerate with: sim schema --docs {args.docs})")
            return 1 if old else 0
        for path in update(args.docs, args.parser):
            print(f"wrote {path}")
        return 0
    if args.kind == "plugins":
        from sim.reference.docs import plugins_page

        print(plugins_page(), end="")
        return 0
    from sim.reference.jsonschema import scenario_schema, study_schema

    schema = study_schema() if args.kind == "study" else scenario_schema()   # default: scenario
    print(json_text(schema, indent=1, ensure_ascii=False))
    return 0
