"""The generated parts of ``docs/scenario.md``, ``docs/study.md``, ``docs/extending.md``
and the site's reference pages (``docs/reference/``: ``sim.reference.site``), and the JSON
Schema files beside them, made from the models and the built-in rule
systems' declarations.

A generated part sits between ``<!-- generated: NAME -->`` and ``<!-- end: NAME -->``;
the prose around it is written by hand. ``update(docs)`` rewrites every part and schema
file (``sim schema --docs DIR``); ``stale(docs)`` names those that differ from what the
code accepts now (the test suite fails on any).
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from sim import catalogue
from sim.decide.points import At
from sim.engine.clock import PhaseSpec
from sim.errors import InputError
from sim.files import read_bytes, write_text
from sim.reference.architecture import architecture_parts
from sim.reference.declared import designs_part, kinds_read, reactions_part, unit_kinds_part
from sim.reference.extension import surface
from sim.reference.jsonschema import designs_of, scenario_schema, study_schema, systems_of
from sim.reference.site import cli_parts, events_parts, rules_parts
from sim.reference.tables import doc_of, nested, table, undocumented
from sim.scenario.orders import (
    Arrived,
    Condition,
    DecidePolicy,
    Group,
    MovePolicy,
    Orders,
    Plan,
    Policies,
    TargetPolicy,
)
from sim.scenario.schema import Scenario, UnitSpec, Victory
from sim.scenario.yamlfile import MAX_BYTES, parse_yaml
from sim.space.features import BUILTIN
from sim.space.spec import AreaSpec, GridSpec, HexTerrain, TableTerrain, TerrainTypeSpec
from sim.study.plan.select_spec import Select
from sim.study.plan.study_file import Branch, Factors, Precision, StudySpec
from sim.systems.games import BaseGame, RuleModule
from sim.systems.knobs import BaseKnobs
from sim.systems.registry import REGISTRY, behaviours, builtin_rulesets, default_ruleset, get_system, system_names

TACTICS: list[tuple[type[BaseModel], str, int]] = [
    (Plan, "`plan` (a unit's, or a group's)", 3), (Condition, "`when` (and `until`)", 3),
    (Arrived, "`arrived`", 4), (Group, "`groups.NAME`", 3), (Policies, "`policies.WHO`", 3),
    (MovePolicy, "`on_fired`, `on_halted`", 4), (TargetPolicy, "`target`", 4), (DecidePolicy, "`decide`", 4)]
BEHAVIOUR_KINDS = {"route": "`route` of a step", "reaction_move": "`on_fired`, `on_halted`",
                   "target": "`target`", "reaction": "`take_reaction`, `take_reactions`",
                   "decide": "`decide` (a side's)"}

MAX_DOC_BYTES = 10_000_000  # a reference page or schema file read by `sim schema --docs`

SCHEMAS = {"scenario.schema.json": lambda: scenario_schema(builtin_only=True),
           "study.schema.json": lambda: study_schema(builtin_only=True)}


def _section(model: type[BaseModel], title: str, prefix: str = "", level: int = 3) -> str:
    parts = [f"{'#' * level} {title}", "", doc_of(model), "", table(model, prefix=prefix)]
    return "\n".join(p for p in parts if p is not None)


def _with_nested(model: type[BaseModel], title: str, level: int = 4) -> list[str]:
    out = [_section(model, title, level=level)]
    seen = {model}
    todo = [m for f in model.model_fields.values() for m in nested(f.annotation)]
    while todo:
        sub = todo.pop(0)
        if sub in seen:
            continue
        seen.add(sub)
        out.append(_section(sub, f"`{sub.__name__}`", level=level + 1))
        todo += [m for f in sub.model_fields.values() for m in nested(f.annotation)]
    return out


def _top_level() -> str:
    text = table(Scenario)
    for old, new in (("| text | `snapfire` |", "| a rule system's name (below) | `snapfire` |"),
                     ("| mapping text → Any |", "| mapping (below) |"),
                     ("| mapping text → list of mapping (UnitSpec, below) |",
                      "| mapping side → list of units (below) |"),
                     ("| `rules` | Any |", "| `rules` | mapping (below) |")):
        text = text.replace(old, new, 1)
    return text


def _terrain() -> str:
    letters = ["| letter | name | cover | hindrance | blocks sight | cost | passable |",
               "|---|---|---|---|---|---|---|"]
    for letter, t in BUILTIN.items():
        letters.append(f"| `{letter}` | {t.name} | {t.cover} | {t.hindrance} | "
                       f"{'yes' if t.blocks_sight else 'no'} | {t.cost:g} | {'yes' if t.passable else 'no'} |")
    # A terrain key may be left out, never written as null (sim.space.spec).
    return "\n\n".join([
        _section(HexTerrain, "`kind: hex`"), "Built-in letters (and the names a table's "
        "`terrain` may use):", "\n".join(letters),
        _section(TerrainTypeSpec, "A terrain type (`types.LETTER`)", level=4),
        _section(TableTerrain, "`kind: table`"),
        _section(AreaSpec, "An area (`areas[i]`)", level=4),
        _section(GridSpec, "`grid`", level=4)]).replace(" or `null`", "")


def _keys(part: BaseGame | RuleModule, label: str) -> list[str]:
    """A part's own keys: unit, order and policy keys, its knob sections, its features."""
    name = part.name
    out: list[str] = []
    if part.unit_keys is not None:
        out += _with_nested(part.unit_keys, f"Unit keys of {label} (`forces.SIDE[i]`)")
    if part.order_keys is not None:
        out.append(_section(part.order_keys, f"Order keys of {label} (`orders`)", level=4))
    if part.policy_keys is not None:
        out += _with_nested(part.policy_keys, f"Policy keys of {label} (`policies.WHO`)")
    if isinstance(part, BaseGame):
        out.append(_section(part.base_knobs or BaseKnobs, f"`rules.base` of {label}", level=4))
    if part.knobs is not None:
        out += _with_nested(part.knobs, f"`rules.{name}`")
    if isinstance(part, RuleModule) and part.features is not None:
        out += _with_nested(part.features, f"`features.{name}`: what {label} puts on the map")
    if part.check is not None:
        out += [f"#### Set-up checks of {label} (at load time)", "", doc_of(part.check)]
    return out


def _reports(part: BaseGame | RuleModule, label: str) -> list[str]:
    metrics = [f"`{m}` ({kind})" for r in part.metrics for m, kind in r.kinds.items()]
    return [f"#### What {label} reports", "",
            "Metrics (besides the core ones): " + (", ".join(metrics) or "none") + ".", "",
            "Events it may log: " + (", ".join(f"`{e}`" for e in sorted(part.events)) or "none") + "."]


def _phase(p: PhaseSpec) -> str:
    what = ["units move"] if p.moves else []
    what += [p.role.value] if p.role is not None else []
    return f"`{p.name}`" + (f" ({', '.join(what)})" if what else "")


def _base(base: BaseGame) -> str:
    label = f"base game `{base.name}`"
    services = ", ".join(s.value.removeprefix("the ").removesuffix(" service") for s in
                         sorted(base.provides, key=lambda s: s.name)) or "none"
    out = [f"### Base game `{base.name}`: {base.title}", "",
           f"Source: {base.source or 'its package'}. A player-turn's phases: "
           + ", ".join(_phase(p) for p in base.phases) + ". Ground: "
           + ", ".join(g.value for g in sorted(base.geometries, key=lambda g: g.name))
           + f". Services it provides to rule modules: {services}. " + kinds_read(base), "",
           f"#### How `{base.name}` plays (from `{_package(base)}`)", "", _package_doc(base)]
    out += _keys(base, label) or [f"Units under `{base.name}` have only the common keys."]
    out += reactions_part(base, label, _package(base)) + _rules(base) + _reports(base, label)
    return re.sub(r"\n{3,}", "\n\n", "\n\n".join(out))


def _module(module: RuleModule) -> str:
    label = f"rule module `{module.name}`"
    needs = ", ".join(n.value for n in sorted(module.needs, key=lambda n: (type(n).__name__, n.name))) or "nothing"
    out = [f"### Rule module `{module.name}`: {module.title}", "",
           f"Source: {module.source or 'its package'}. It needs of its base game: {needs}. "
           + kinds_read(module), "",
           f"#### How `{module.name}` plays (from `{_package(module)}`)", "", _package_doc(module)]
    out += _keys(module, label) + reactions_part(module, label, _package(module))
    out += _rules(module) + _reports(module, label)
    return re.sub(r"\n{3,}", "\n\n", "\n\n".join(out))


def systems_part(names: list[str], examples: dict[str, list[Path]]) -> str:
    """The rulesets ``names``, then every base game and rule module they use, documented."""
    compositions = [get_system(n) for n in names]
    rows = ["| ruleset | base game | rule modules | what it is |", "|---|---|---|---|"]
    bases: dict[str, BaseGame] = {}
    modules: dict[str, RuleModule] = {}
    for c in compositions:
        rows.append(f"| `{c.name}` | `{c.base.name}` | {', '.join(f'`{m.name}`' for m in c.modules) or '—'} "
                    f"| {c.title} |")
        bases.setdefault(c.base.name, c.base)
        for m in c.modules:
            modules.setdefault(m.name, m)
    out = ["### Rulesets", "", "\n".join(rows)]
    # Each ruleset's scenarios, then those that name a base game and modules themselves.
    named = [f"`ruleset: {c.name}`" for c in compositions]
    for heading in [*named, *sorted(h for h in examples if h not in named)]:
        for path in examples.get(heading, []):
            out += [f"#### A complete {heading} scenario: `scenarios/{path.name}`", "",
                    "```yaml", _read(path, MAX_BYTES).rstrip("\n"), "```"]
    out += [_base(b) for b in bases.values()] + [_module(m) for m in modules.values()]
    return re.sub(r"\n{3,}", "\n\n", "\n\n".join(out))


def plugins_page() -> str:
    """The reference of every installed plug-in's base games, rule modules and rulesets (their
    keys, knobs, features, rules, metrics and events), as ``docs/scenario.md`` has the built-in
    ones': what ``sim schema plugins`` prints."""
    for name in system_names():
        REGISTRY.ruleset(name)   # the rule systems of an earlier version, loaded
    bases = [b for b in REGISTRY.bases if REGISTRY.bases.origin(b.name) != "built-in"]
    modules = [m for m in REGISTRY.modules if REGISTRY.modules.origin(m.name) != "built-in"]
    rulesets = [n for n in system_names() if REGISTRY.rulesets.origin(n) != "built-in"]
    if not (bases or modules or rulesets):
        raise InputError("no plug-in base game, rule module or ruleset is installed (expected an installed "
                         "one, or --plugin MODULE or SIM_PLUGINS naming a module that registers one)",
                         place="sim schema plugins")
    out = ["# Installed plug-ins", "",
           "Their keys as a scenario writes them, beside the built-in ones of `docs/scenario.md`."]
    if rulesets:
        rows = ["| ruleset | base game | rule modules | where from |", "|---|---|---|---|"]
        for name in rulesets:
            r = REGISTRY.ruleset(name)
            rows.append(f"| `{name}` | `{r.base}` | {', '.join(f'`{m}`' for m in r.modules) or '—'} "
                        f"| {REGISTRY.rulesets.origin(name)} |")
        out += ["## Rulesets", "", "\n".join(rows)]
    out += [_base(b).replace("### ", "## ", 1) for b in bases]
    out += [_module(m).replace("### ", "## ", 1) for m in modules]
    return re.sub(r"\n{3,}", "\n\n", "\n\n".join(out)) + "\n"


def _rules(system: BaseGame | RuleModule) -> list[str]:
    """The part's rule IDs with their titles and the code that applies them, and the
    account of its base game (the docstrings of the modules applying its BASE.* rules)."""
    rows = ["| rule | what it says | applied in |", "|---|---|---|"]
    base_modules: list[str] = []
    for rid, title, where in catalogue.entries(system.rules):
        if rid in system.rules:
            rows.append(f"| `{rid}` | {title} | {', '.join(f'`{w}`' for w in where) or '—'} |")
            if rid.startswith("BASE."):
                base_modules += [m for m in map(_module_of, where) if m not in base_modules]
    if len(rows) == 2:
        return []
    out = [f"#### The rules of `{system.name}`", "", "\n".join(rows)]
    for module in base_modules:
        out += [f"#### The base game's rules (from `{module}`)", "",
                "```text\n" + (sys.modules[module].__doc__ or "").strip() + "\n```"]
    return out


def _module_of(where: str) -> str:
    """The loaded module a dotted ``module.function`` (or ``module.Class.method``) is in."""
    name = where
    while name and name not in sys.modules:
        name = name.rpartition(".")[0]
    return name


def _package(part: BaseGame | RuleModule) -> str:
    """The package that declares ``part`` (where its ``game`` or ``play`` comes from)."""
    code = part.game if isinstance(part, BaseGame) else part.play
    module = getattr(code, "__module__", "") or ""
    return module.rsplit(".", 1)[0] if module.count(".") >= 3 else module


def _package_doc(part: BaseGame | RuleModule) -> str:
    """The part's own account of its rules and readings: its package docstring."""
    return part.doc or doc_of(importlib.import_module(_package(part)))


def _examples(docs: Path) -> dict[str, list[Path]]:
    """The shipped scenarios (``docs/../scenarios``) by the rules they name (```ruleset: snapfire```,
    or ```base: fow`, `modules: [snapfire]```).

    The reference embeds them, so a docs folder with no ``scenarios/`` beside it is refused
    (rewriting it would drop every example).
    """
    found: dict[str, list[Path]] = {}
    if not (docs.parent / "scenarios").is_dir():
        raise InputError(f"no scenarios folder beside it ({docs.parent / 'scenarios'}; expected "
                         "the docs folder of a checkout, whose reference embeds the shipped "
                         "scenarios)", file=str(docs), place="--docs")
    for path in sorted((docs.parent / "scenarios").glob("*.yaml")):
        data, _ = parse_yaml(_read(path, MAX_BYTES), str(path))   # a bad file: one line naming it
        if not isinstance(data, dict) or "study" in data:
            continue
        if "base" in data:   # the rules as the scenario names them, in any YAML style
            heading = f"`base: {data['base']}`, `modules: [{', '.join(map(str, data.get('modules') or []))}]`"
        else:
            heading = f"`ruleset: {data.get('ruleset') or default_ruleset()}`"
        found.setdefault(heading, []).append(path)
    return found


def _tactics() -> str:
    rows = ["| setting | name | what it does |", "|---|---|---|"]
    for kind, where in BEHAVIOUR_KINDS.items():
        rows += [f"| {where} | `{n}` | {b.doc} |" for n, b in behaviours(kind).items()]
    return "\n\n".join([_section(m, title, level=level) for m, title, level in TACTICS]
                        + ["### The named policies and planners", "", "\n".join(rows)])


def scenario_parts(docs: Path) -> dict[str, str]:
    """The generated parts of ``scenario.md``, by name."""
    examples = _examples(docs)
    return {
        "top-level": _top_level(),
        "units": "\n\n".join([table(UnitSpec), "### Unit kinds", unit_kinds_part(), _section(Orders, "`orders`"),
                                _section(Victory, "`victory`", level=2)]),
        "tactics": _tactics(),
        "terrain": _terrain(),
        "systems": systems_part(builtin_rulesets(), examples),
    }


def study_parts(docs: Path) -> dict[str, str]:
    """The generated parts of ``study.md``, by name."""
    return {"study-keys": "\n\n".join([table(StudySpec), _section(Precision, "`precision`"),
                                       _section(Factors, "`factors`"), _section(Branch, "`branch`"),
                                       _section(At, "`branch.at`", level=4),
                                       _section(Select, "`select`")]),
            "designs": designs_part()}


def undocumented_keys() -> list[str]:
    """Every documented model's keys that have no meaning to show (no description)."""
    models: list[type[BaseModel]] = [Scenario, UnitSpec, Orders, Victory, HexTerrain, TerrainTypeSpec,
                                     TableTerrain, AreaSpec, GridSpec, StudySpec, Precision, Factors, Branch, At,
                                     Select, *(d.options for d in designs_of(builtin_only=True))]
    models += [m for m, _, _ in TACTICS]
    for c in systems_of(builtin_only=True):
        for s in c.parts:
            models += [m for m in (s.unit_keys, s.order_keys, getattr(s, "base_knobs", None), s.knobs,
                                   s.policy_keys, getattr(s, "features", None)) if m is not None]
    return sorted({k for m in models for k in undocumented(m)})


def _fill(text: str, parts: dict[str, str], file: str) -> str:
    for name, body in parts.items():
        pattern = re.compile(rf"(<!-- generated: {re.escape(name)} -->\n)(?:.*?\n)?(<!-- end: {re.escape(name)} -->)",
                             re.S)
        if not pattern.search(text):
            raise InputError(f"no generated part '{name}' (expected the lines <!-- generated: {name} --> "
                             f"and <!-- end: {name} -->)", file=file)
        text = pattern.sub(partial(_between, body), text)
    return text


def _between(body: str, found: re.Match[str]) -> str:
    return f"{found.group(1)}{body}\n{found.group(2)}"


def _files(docs: Path, parser: argparse.ArgumentParser) -> dict[Path, Callable[[str], str]]:
    out: dict[Path, Callable[[str], str]] = {
        docs / "scenario.md": lambda text: _fill(text, scenario_parts(docs), str(docs / "scenario.md")),
        docs / "study.md": lambda text: _fill(text, study_parts(docs), str(docs / "study.md")),
        docs / "extending.md": lambda text: _fill(text, {"surface": surface()}, str(docs / "extending.md")),
    }
    architecture = docs / "background/architecture.md"
    out[architecture] = partial(_fill_page, architecture_parts, architecture)
    for name, parts in (("cli", partial(cli_parts, parser)), ("events", events_parts), ("rules", rules_parts)):
        page = docs / "reference" / f"{name}.md"
        out[page] = partial(_fill_page, parts, page)
    for name, make in SCHEMAS.items():
        out[docs / name] = partial(_schema_text, make)
    return out


def _fill_page(parts: Callable[[], dict[str, str]], page: Path, text: str) -> str:
    return _fill(text, parts(), str(page))


def _schema_text(make: Callable[[], dict[str, Any]], _old: str) -> str:
    return json.dumps(make(), indent=1, ensure_ascii=False) + "\n"


def _read(path: Path, limit: int = MAX_DOC_BYTES) -> str:
    """A file's text, "" if there is none; a FIFO, a device, a file too big or not UTF-8
    is an InputError naming it (never a hang, never an unbounded read)."""
    if not os.path.lexists(path):
        return ""
    raw = read_bytes(str(path), limit, "a text file")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (bad byte at offset {exc.start})", file=str(path)) from None


def _changes(docs: str | Path, parser: argparse.ArgumentParser) -> dict[str, str]:
    """The new text of every generated file under ``docs`` that differs from what the code
    gives, by path; everything is read (and checked) before anything is written."""
    out = {}
    for path, make in _files(Path(docs), parser).items():
        old = _read(path)
        new = make(old)
        if new != old:
            out[str(path)] = new
    return out


def stale(docs: str | Path, parser: argparse.ArgumentParser) -> list[str]:
    """The generated files (or parts) under ``docs`` that differ from what the code gives
    (``parser``: the command line that ``docs/reference/cli.md`` documents)."""
    return list(_changes(docs, parser))


def update(docs: str | Path, parser: argparse.ArgumentParser) -> list[str]:
    """Rewrite every generated part and schema file under ``docs``; returns those changed
    (a file that cannot be written is an InputError naming it)."""
    changed = _changes(docs, parser)
    for path, new in changed.items():
        write_text(path, new)
    return list(changed)
