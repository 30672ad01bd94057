"""The generated parts of the site's reference pages (``docs/reference/``): the command
line (from the parser), the event log's names and record types (from ``sim.events``, the
kernel's records and the built-in base games' and modules' declarations, read through the
registry's ``records``) and the rule catalogue (the rows of ``sim rules --json``).

Like the key tables of ``docs/scenario.md``, each sits between ``<!-- generated: NAME -->``
and ``<!-- end: NAME -->`` and is rewritten by ``sim schema --docs DIR``; the test suite
fails when one differs from what the code gives. Built-in rule systems only, so the pages
do not depend on which plug-ins are installed.
"""
from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import io
import tokenize
from types import ModuleType

from sim import events
from sim.record_check import shape
from sim.systems.games import BaseGame, RuleModule
from sim.systems.registry import REGISTRY, builtin_rulesets, events_of, get_system


def _cell(text: object) -> str:
    """Text fit for one cell of a Markdown table (one line, no bare bar)."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _value(action: argparse.Action) -> str:
    """What an option takes: its choices, its metavar, or nothing (a flag)."""
    if action.choices is not None:
        return " \\| ".join(f"`{c}`" for c in action.choices)
    if action.nargs == 0:
        return "—"
    name = action.metavar or action.dest.upper()
    many = {"*": " ...", "+": " ..."}.get(str(action.nargs), "")
    return f"`{name}{many}`"


def _default(action: argparse.Action) -> str:
    if action.nargs == 0 or action.default in (None, [], argparse.SUPPRESS):
        return "—"
    return f"`{action.default}`"


def _options(parser: argparse.ArgumentParser) -> str:
    rows = ["| argument | takes | default | what it does |", "|---|---|---|---|"]
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        name = ", ".join(f"`{o}`" for o in action.option_strings) or f"`{action.dest}`"
        if not action.option_strings and action.nargs in ("?", "*"):
            name += " (optional)"
        said = "the command: one of those below" if isinstance(action, argparse._SubParsersAction) else action.help
        rows.append(f"| {name} | {_value(action)} | {_default(action)} | {_cell(said or '—')} |")
    return "\n".join(rows)


def cli_parts(parser: argparse.ArgumentParser) -> dict[str, str]:
    """The generated part of ``docs/reference/cli.md``: every command of ``parser`` (``sim``'s,
    handed over by ``sim schema``), its help and options."""
    out = ["## `sim`", _cell(parser.description), _options(parser)]
    helps = {a.dest: a.help or "" for s in parser._actions if isinstance(s, argparse._SubParsersAction)
             for a in s._choices_actions}
    for name, sub in _subcommands(parser).items():
        said = inspect.cleandoc(sub.description) if sub.description else _sentence(helps[name])
        out += [f"## `sim {name}`", said, _options(sub)]
    return {"commands": "\n\n".join(out)}


def _comments(module: ModuleType) -> dict[str, str]:
    """The event names a module assigns (``NAME = "name"``) with each line's comment."""
    source = inspect.getsource(module)
    said = {tok.start[0]: tok.string.lstrip("#: ").strip()
            for tok in tokenize.generate_tokens(io.StringIO(source).readline) if tok.type == tokenize.COMMENT}
    found = {}
    for node in ast.parse(source).body:
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)):
            found[node.value.value] = said.get(node.lineno, "")
    return found


def _declared() -> dict[str, tuple[str, str]]:
    """Every event name by where it is declared, with what its comment says it means."""
    out = {name: ("sim.events", meaning) for name, meaning in _comments(events).items()}
    for part in _builtin_parts():
        code = part.game if hasattr(part, "game") else part.play
        package = getattr(code, "__module__", "").rsplit(".", 1)[0]
        try:
            module = importlib.import_module(package + ".events")
        except ImportError:   # a part with no events of its own
            continue
        for name, meaning in _comments(module).items():
            out.setdefault(name, (module.__name__, meaning))
    return out


def _builtin_parts() -> list[BaseGame | RuleModule]:
    """The base games and modules of the built-in rulesets, each once, in ruleset order."""
    parts = (p for name in builtin_rulesets() for p in get_system(name).parts)
    return list({id(p): p for p in parts}.values())


def _keys(kind: type) -> str:
    """A record type's keys besides the contract's: each with its type; an optional one says so."""
    said = [f"`{f.name}` ({_cell(f.type)}{'' if f.required else ', optional'})"
            for f in shape(kind).fields if f.name not in events.CONTRACT_KEYS]
    return ", ".join(said) or "none"


def _record_rows() -> tuple[list[str], dict[str, list[str]]]:
    """The rows of the record types' table, and each event's types by name."""
    declarers: dict[tuple[str, type], list[str]] = {}
    for declared in [*REGISTRY.records.kernel(), *(t for p in _builtin_parts() for t in REGISTRY.records.of_part(p))]:
        declarers.setdefault((declared.event, declared.kind), []).append(declared.declared_by)
    rows = ["| event | record type | declared by | keys besides the contract's |", "|---|---|---|---|"]
    names: dict[str, list[str]] = {}
    for (event, kind), by in sorted(declarers.items(), key=lambda e: (e[0][0], e[0][1].__name__)):
        rows.append(f"| `{event}` | `{kind.__module__}.{kind.__name__}` | {', '.join(by)} | {_keys(kind)} |")
        names.setdefault(event, []).append(f"`{kind.__name__}`")
    return rows, names


def events_parts() -> dict[str, str]:
    """The generated parts of ``docs/reference/events.md``: the record keys, every event name and its
    declared record types, and each type's keys."""
    keys = ["| keys | where |", "|---|---|",
            "| " + ", ".join(f"`{k}`" for k in events.CONTRACT_KEYS) + " | every record, first, in this order |",
            "| " + ", ".join(f"`{k}`" for k in events.ROLL_KEYS) + " | every die-roll record |"]
    systems = {name: events_of(get_system(name)) for name in builtin_rulesets()}
    declared = _declared()
    records, types = _record_rows()
    names = sorted(set(declared) | {e for logged in systems.values() for e in logged} | set(types))
    rows = ["| event | what it records | logged by | record types |", "|---|---|---|---|"]
    for name in names:
        where, meaning = declared.get(name, ("—", ""))
        kind = ("every battle" if name in events.CORE_EVENTS else
                ", ".join(f"`{s}`" for s, logged in systems.items() if name in logged) or "—")
        said = _cell(meaning or "—") + (" (a lifecycle event of the contract)" if name in events.LIFECYCLE_EVENTS
                                        else "") + ("" if where == "sim.events" else f"; in `{where}`")
        rows.append(f"| `{name}` | {said} | {kind} | {', '.join(types.get(name, [])) or '—'} |")
    return {"event-keys": "\n".join(keys), "event-names": "\n".join(rows), "event-records": "\n".join(records)}


def rules_parts() -> dict[str, str]:
    """The generated part of ``docs/reference/rules.md``: the built-in systems' ``sim rules`` rows."""
    from sim.cli.rules import rule_rows

    rows = ["| rule | what it says | rule systems | applied in |", "|---|---|---|---|"]
    for r in rule_rows(builtin_rulesets()):
        where = ", ".join(f"`{w}`" for w in sorted(r["where"])) or "—"   # whatever imported first
        rows.append(f"| `{r['id']}` | {_cell(r['title'])} | {', '.join(f'`{s}`' for s in r['systems'])} | {where} |")
    return {"rules": "\n".join(rows)}
