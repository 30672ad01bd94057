"""The generated parts of the site's reference pages (``docs/reference/``): the command
line (from the parser), the event log's names (from ``sim.events`` and the built-in rule
systems' declarations) and the rule catalogue (the rows of ``sim rules --json``).

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
from pathlib import Path
from types import ModuleType

import sim
from sim import events
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
    for part in [*REGISTRY.bases, *REGISTRY.modules]:
        code = part.game if hasattr(part, "game") else part.play
        package = getattr(code, "__module__", "").rsplit(".", 1)[0]
        try:
            module = importlib.import_module(package + ".events")
        except ImportError:   # a part with no events of its own
            continue
        for name, meaning in _comments(module).items():
            out.setdefault(name, (module.__name__, meaning))
    return out


def _event_names(tree: ast.Module) -> dict[str, str]:
    """The event names a module refers to by a name of its own: imported from an
    ``events`` module (``from sim.events import HIT as HIT_EVENT``) or assigned in it."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[-1] == "events":
            module = importlib.import_module(node.module)
            out.update({a.asname or a.name: value for a in node.names
                        if isinstance(value := getattr(module, a.name, None), str)})
        elif (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
              and isinstance(node.value.value, str)):
            out.update({t.id: node.value.value for t in node.targets if isinstance(t, ast.Name)})
    return out


def _fields() -> dict[str, tuple[set[str], bool]]:
    """Per event name, the fields sim's own code names where it writes such a record
    (``battle.record(HIT, unit=..., by=...)``), and whether some such record also takes
    fields from a mapping (``**fields``); under a module's name, those of the records whose
    event it names only at run time."""
    out: dict[str, tuple[set[str], bool]] = {}
    for path in sorted(Path(sim.__file__).parent.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = _event_names(tree)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "record" and node.args):
                continue
            first = node.args[0]
            event = (names.get(first.id) if isinstance(first, ast.Name) else
                     first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None)
            key = event or ".".join(path.relative_to(Path(sim.__file__).parents[1]).with_suffix("").parts)
            named, more = out.setdefault(key, (set(), False))
            named |= {k.arg for k in node.keywords if k.arg is not None} - set(events.CONTRACT_KEYS)
            out[key] = named, more or any(k.arg is None for k in node.keywords)
    return out


def _field_list(found: tuple[set[str], bool] | None) -> str:
    if found is None:
        return "—"
    named, more = found
    return (", ".join(f"`{f}`" for f in sorted(named)) or "none") + (", and more" if more else "")


def events_parts() -> dict[str, str]:
    """The generated parts of ``docs/reference/events.md``: the record keys and every event name."""
    keys = ["| keys | where |", "|---|---|",
            "| " + ", ".join(f"`{k}`" for k in events.CONTRACT_KEYS) + " | every record, first, in this order |",
            "| " + ", ".join(f"`{k}`" for k in events.ROLL_KEYS) + " | every die-roll record |"]
    systems = {name: events_of(get_system(name)) for name in builtin_rulesets()}
    declared = _declared()
    fields = _fields()
    names = sorted(set(declared) | {e for logged in systems.values() for e in logged}
                   | {k for k in fields if "." not in k})
    rows = ["| event | what it records | logged by | fields |", "|---|---|---|---|"]
    for name in names:
        where, meaning = declared.get(name, ("—", ""))
        kind = ("every battle" if name in events.CORE_EVENTS else
                ", ".join(f"`{s}`" for s, logged in systems.items() if name in logged) or "—")
        said = _cell(meaning or "—") + (" (a lifecycle event of the contract)" if name in events.LIFECYCLE_EVENTS
                                        else "") + ("" if where == "sim.events" else f"; in `{where}`")
        rows.append(f"| `{name}` | {said} | {kind} | {_field_list(fields.get(name))} |")
    table = "\n".join(rows)
    for module in sorted(k for k in fields if "." in k):   # a module's name, not an event's
        table += (f"\n\nRecords whose event `{module}` names at run time (—, above) have: "
                  f"{_field_list(fields[module])}.")
    return {"event-keys": "\n".join(keys), "event-names": table}


def rules_parts() -> dict[str, str]:
    """The generated part of ``docs/reference/rules.md``: the built-in systems' ``sim rules`` rows."""
    from sim.cli.rules import rule_rows

    rows = ["| rule | what it says | rule systems | applied in |", "|---|---|---|---|"]
    for r in rule_rows(builtin_rulesets()):
        where = ", ".join(f"`{w}`" for w in sorted(r["where"])) or "—"   # whatever imported first
        rows.append(f"| `{r['id']}` | {_cell(r['title'])} | {', '.join(f'`{s}`' for s in r['systems'])} | {where} |")
    return {"rules": "\n".join(rows)}
