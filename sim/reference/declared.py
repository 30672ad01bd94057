"""The generated tables of declared objects: a part's reaction kinds and unit kinds, every
built-in unit kind, and the study designs (``sim.reference.docs`` puts them in the pages)."""
from __future__ import annotations

import sys

from sim.reference.jsonschema import designs_of, systems_of
from sim.reference.tables import doc_of, table
from sim.systems.games import BaseGame, RuleModule
from sim.systems.registry import REGISTRY


def reactions_part(part: BaseGame | RuleModule, label: str, package: str) -> list[str]:
    """The part's reaction kinds (its module's knob chooses one): one row each."""
    if not part.reactions:
        return []
    rows = ["| kind | what it does | a side may decline it | a mover first |", "|---|---|---|---|"]
    rows += [f"| `{k.name}` | {k.doc} | {'yes' if k.declinable else 'no'} | "
             f"{doc_of(k.before_move).split(chr(10))[0] if k.before_move is not None else '—'} |"
             for k in part.reactions]
    return [f"#### The reaction kinds of {label}", "", "One module each in "
            f"`{package}.reactions`; its knob names one.", "", "\n".join(rows)]


def kinds_read(part: BaseGame | RuleModule) -> str:
    """The unit kinds a part lists, as a sentence."""
    kinds = ", ".join(f"`{k.name}`" for k in part.unit_kinds) or "none beyond the generic ones"
    return f"Unit kinds it reads: {kinds}."


def unit_kinds_part() -> str:
    """Every built-in unit kind: what it is, and the built-in base games and modules that read it."""
    parts = [p for c in systems_of(builtin_only=True) for p in c.parts]
    rows = ["| kind | what it is | accepted with |", "|---|---|---|"]
    for k in sorted(REGISTRY.unit_kinds, key=lambda k: (not k.generic, k.name)):
        readers = sorted({f"`{p.name}`" for p in parts if k in p.unit_kinds})
        if k.generic or readers:
            rows.append(f"| `{k.name}` | {k.doc} | {'any rules' if k.generic else ', '.join(readers)} |")
    return "\n".join(rows)


def designs_part() -> str:
    """The built-in study designs (the registry's): one row each, then each one's account and options."""
    rows = ["| design | options | what it is | analyses | from |", "|---|---|---|---|---|"]
    out = []
    for d in designs_of(builtin_only=True):
        keys = ", ".join(f"`{k}`" for k in d.options.model_fields) or "—"
        analyses = "; ".join(a.value for a in sorted(d.analyses, key=lambda a: a.name))
        rows.append(f"| `{d.name}`{' (the default)' if d.default else ''} | {keys} | {d.doc} | {analyses} | "
                    f"{d.library or '—'} |")
        out += [f"#### `design: {d.name}`", doc_of(sys.modules[d.options.__module__])]
        if d.options.model_fields:
            out.append(table(d.options, prefix="factors."))
    return "\n\n".join(["\n".join(rows), *out])
