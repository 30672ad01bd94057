"""``sim validate``: scenario and study files checked as every command loads them, and
(``--plugins``) the plug-in rule systems' self-check battles."""
from __future__ import annotations

import argparse

from sim.cli.shared import one_line
from sim.errors import InputError

DESCRIPTION = """Check scenario and study files as every command loads them (plug-ins included).

With --plugins, each plug-in rule system (installed, or registered by a --plugin module)
also fights a few short self-check battles (its example scenario, or small
generated ones): a watch whose radius is not positive or that is never armed, a declared
rule ID that no record names and no die is rolled for, a battle that raises, each is one
line; exit 1 if there is any, 0 if every system passed, 2 on bad input."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``sim validate``."""
    p.add_argument("files", nargs="*", metavar="FILE", help="scenario and study files (YAML)")
    p.add_argument("--plugins", dest="plugins_check", action="store_true", help=(
        "also battle each plug-in rule system (installed, or from --plugin MODULE or SIM_PLUGINS) "
        "a few times: report watches with a radius <= 0 or never armed, declared rules that no "
        "record names, battles that raise (one line each, exit 1)"))


def command(args: argparse.Namespace) -> int:
    """``sim validate``: every file checked before anything is printed."""
    from sim.scenario.load import load_scenario
    from sim.scenario.yamlfile import read_yaml

    if not args.files and not args.plugins_check:
        raise InputError("the following arguments are required: FILE ... (or --plugins) "
                         "(see 'sim validate --help')", file="command line")
    said = []
    for path in args.files:  # every file checked before anything is printed
        data, _ = read_yaml(path)
        if isinstance(data, dict) and "study" in data:
            from sim.study.plan.study_file import describe, load_study

            said.append(f"{path}: valid study ({describe(load_study(path))})")
        else:
            load_scenario(path)
            said.append(f"{path}: valid scenario")
    if said:
        print("\n".join(said))
    return _check_plugins() if args.plugins_check else 0


def _check_plugins() -> int:
    """``sim validate --plugins``: each plug-in base game's and module's self-check (exit 1 on a problem)."""
    from sim.systems.registry import REGISTRY, RuleSystem, system_names
    from sim.systems.selfcheck import self_check

    system_names()   # the rule systems of an earlier version are found (and loaded) too
    for name in system_names():
        REGISTRY.ruleset(name)
    parts = [(s, p) for s in (REGISTRY.bases, REGISTRY.modules) for p in s if s.origin(p.name) != "built-in"]
    if not parts:
        raise InputError("no plug-in base game or rule module to check (expected an installed one, or "
                         "--plugin MODULE or SIM_PLUGINS naming a module that registers one)",
                         place="--plugins")
    failed = 0
    for section, system in parts:
        problems = self_check(system)
        failed += bool(problems)
        kind = "rule system" if isinstance(system, RuleSystem) else section.kind
        who = f"{kind} '{system.name}' ({section.origin(system.name)})"
        for problem in problems:
            print(f"{who}: {one_line(problem)}")
        if not problems:
            print(f"{who}: self-check passed")
    return 1 if failed else 0
