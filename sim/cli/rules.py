"""``sim rules``: every rule ID, its title, its rule systems and the code applying it."""
from __future__ import annotations

import argparse
from typing import TypedDict

from sim.cli.shared import json_text


class RuleRow(TypedDict):
    """One row of ``sim rules``: a rule ID, its title, its systems, where it is applied."""

    id: str
    title: str
    systems: list[str]
    where: list[str]


def rule_rows(names: list[str] | None = None) -> list[RuleRow]:
    """Every rule ID with its title, the rule systems declaring it and the code marked as
    applying it (every system loaded first, so every ``@implements`` has run); given the
    names of rule systems, only theirs and only the IDs they declare."""
    from sim import catalogue
    from sim.systems.registry import all_systems, get_system

    systems = all_systems() if names is None else [get_system(n) for n in names]
    declared = [rid for s in systems for rid in s.rules]   # a fixed order, whatever was imported first
    return [RuleRow(id=rid, title=title, systems=[s.name for s in systems if rid in s.rules],
                    where=where) for rid, title, where in catalogue.entries(declared)
            if names is None or rid in declared]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``sim rules``."""
    p.add_argument("--json", action="store_true", help="print the rows as JSON")


def command(args: argparse.Namespace) -> int:
    """``sim rules``: a table, or (``--json``) the rows."""
    rows = rule_rows()
    if args.json:
        print(json_text(rows, indent=1))
        return 0
    width = max(len(str(r["id"])) for r in rows)
    for r in rows:
        systems = ", ".join(r["systems"]) or "no rule system"
        print(f"{r['id']:<{width}}  {r['title']}  [{systems}]")
        where = ", ".join(r["where"]) or "not implemented yet"
        print(f"{'':<{width}}    -> {where}")
    return 0
