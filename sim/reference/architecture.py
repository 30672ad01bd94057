"""The generated drawing of ``docs/background/architecture.md``: the plug-in door, the
registry's sections and what the package puts in them, the base games and rule modules as
they are declared, and how a scenario's rules come together in a battle. Made from the
registry itself, so the page cannot drift from the code (``sim schema --docs`` writes it,
the test suite fails when it is stale)."""
from __future__ import annotations

from typing import Any

from sim.engine.clock import PhaseSpec
from sim.systems.games import BaseGame, RuleModule
from sim.systems.registry import REGISTRY, builtin_rulesets, get_system
from sim.systems.sections import Section

__all__ = ["architecture_parts"]


def _phase(p: PhaseSpec) -> str:
    tags = (["moves"] if p.moves else []) + ([p.role.name.lower()] if p.role is not None else [])
    return p.name + (f" ({', '.join(tags)})" if tags else "")


def _sections() -> list[tuple[str, Section[Any]]]:
    """The registry's sections, as declared on it (a new extension point shows up here)."""
    return [(name, value) for name, value in vars(REGISTRY).items() if isinstance(value, Section)]


def _drawing() -> str:
    rulesets = builtin_rulesets()
    door = ["entry points of an installed distribution", "(the package's own pyproject.toml too),",
            "or sim.plugin.register(...) from Python"]
    reg = []
    for name, section in _sections():
        built = [n for n in section.names() if section.origin(n) == "built-in"]
        group = f"  [{section.group}]" if section.group else ""
        reg.append(f"{name}{group}: {', '.join(built) or '(none built in)'}")
    reg.append("behaviours  [sim.behaviours]: by kind (route, target, ...)")
    width = max(len(line) for line in door)
    lines = ["The plug-in door".ljust(width) + "      The registry (sim.systems.registry.REGISTRY)"]
    for i in range(max(len(door), len(reg))):
        left = door[i] if i < len(door) else ""
        arrow = " ───▶ " if i == 1 else "      "
        lines.append(f"{left.ljust(width)}{arrow}│ {reg[i] if i < len(reg) else ''}".rstrip())
    lines += ["", "A scenario names its rules:  ruleset: NAME   or   base: BASE + modules: [MODULE, ...]"]
    for name in rulesets:
        c = get_system(name)
        mods = " + ".join(m.name for m in c.modules)
        lines.append(f"    ruleset {name:<9} = base {c.base.name}" + (f" + {mods}" if mods else ""))
    lines += ["", "        │", "        ▼",
              "Composition(base, modules) ──▶ Battle (the kernel: clock, referee, dice, log)",
              "  base game:  its Game plays every phase; battle.services = its Services",
              "              (hit, damage, pin, keep busy, eliminate, can_react)",
              "  each module: its ModulePlay: setup (arm Watch / GroundWatch), phase_starts,",
              "              move_of (a unit's move taken over, first module that answers)",
              "  referee:    unit watches and ground watches in the order armed: the base's,",
              "              then each module's in the scenario's order"]
    return "```text\n" + "\n".join(lines) + "\n```"


def _table() -> str:
    rows = ["| part | kind | phases, or what it needs | services it provides | ground |", "|---|---|---|---|---|"]
    for part in [*REGISTRY.bases, *REGISTRY.modules]:
        section = REGISTRY.bases if isinstance(part, BaseGame) else REGISTRY.modules
        if section.origin(part.name) != "built-in":
            continue
        if isinstance(part, BaseGame):
            services = ", ".join(sorted(s.name.lower() for s in part.provides)) or "—"
            ground = ", ".join(sorted(g.name.lower() for g in part.geometries))
            rows.append(f"| `{part.name}` | base game | {'; '.join(_phase(p) for p in part.phases)} "
                        f"| {services} | {ground} |")
        elif isinstance(part, RuleModule):
            needs = ", ".join(sorted(f"{type(n).__name__}.{n.name}" for n in part.needs)) or "nothing"
            rows.append(f"| `{part.name}` | rule module | needs {needs} | — | — |")
    return "\n".join(rows)


def architecture_parts() -> dict[str, str]:
    """The generated parts of ``docs/background/architecture.md``, by name."""
    return {"architecture-drawing": _drawing(), "architecture-parts": _table()}
