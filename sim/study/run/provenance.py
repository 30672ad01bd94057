"""What made a study's stored rows: ``sim`` and the plug-ins its battles use, by version and code.

A resume adds rows to the stored ones, and a mean over both is only a mean of one thing
if the same code made them. So every batch is stored with the code that made it
(``ResultStore.add``), and ``check`` refuses a resume over other code (an edited or
upgraded plug-in, another ``sim`` or an edited checkout of it) unless it is allowed
(``--allow-changed-code``), when it returns what the report says the rows mix.

The code is ``sim`` (its version and a fingerprint of its package's files) and each plug-in
the study uses: the top-level package (or module) that defines its rule system (unless
built in), the metric reporters of its battles, an installed distribution's behaviours, the
behaviours registered from Python that its scenarios name, and the ``--plugin`` modules.
Each is named by its distribution (name and version) when it has one, else by its module,
and fingerprinted by its files. A fingerprint is taken once per process: the code a
process runs is the code it imported. Code with no file (typed into a notebook) has no
fingerprint, so a change of it is not seen.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib.metadata
import json
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from sim.errors import InputError
from sim.study.plan.study_file import Study, package_version
from sim.systems.behaviours import plugged_in
from sim.systems.declarations import GROUPS
from sim.systems.plugins import imported
from sim.systems.registry import metric_reporters

OPTION = "--allow-changed-code"
ALLOW = f"resume with {OPTION} (allow_changed_code=True in Python) to mix them in one result, or give another --db"
UNRECORDED = None   # what made rows stored before stores recorded it


@dataclass(frozen=True)
class Code:
    """One package of code that makes a study's battles: ``sim`` or a plug-in."""

    module: str        # its top-level import name
    name: str          # its distribution's name, or the module's
    version: str       # its distribution's version ("" for a module of no distribution)
    fingerprint: str   # of its files ("" when it has none: code typed into a notebook)

    def label(self) -> str:
        """'sim', 'plug-in NAME' or 'plug-in module MODULE'."""
        return "sim" if self.module == "sim" else f"plug-in {self.name}" if self.version \
            else f"plug-in module {self.module}"

    def describe(self) -> str:
        """Its label, version and fingerprint: 'plug-in sim-duel 0.1 (code 1a2b3c4d5e6f)'."""
        version = f" {self.version}" if self.version else ""
        return f"{self.label()}{version} (code {self.fingerprint or 'not in a file'})"


Made = tuple[Code, ...]   # sim first, then the plug-ins by module


@dataclass(frozen=True)
class Mixed:
    """Rows of a resumed study made by other code than this run's: each other code, and
    in words what changed (as the refusal says it)."""

    stored: list[Made | None]   # None: rows stored before stores recorded their code
    changes: str
    this_run: Made

    def as_dict(self) -> dict[str, Any]:
        """What the JSON outputs say: each stored code and this run's, in words."""
        return {"stored": [describe(m) for m in self.stored], "this_run": describe(self.this_run)}


def describe(made: Made | None) -> str:
    """A whole code in words (None: unrecorded)."""
    if made is None:
        return "code not recorded (rows stored before stores recorded it)"
    return ", ".join(c.describe() for c in made)


def dumps(made: Made) -> str:
    """The code as the store keeps it (canonical JSON)."""
    return json.dumps([dataclasses.asdict(c) for c in made], sort_keys=True, separators=(",", ":"))


def loads(value: Any, db: str) -> Made | None:
    """A stored code (parsed JSON) back; a value this store could not have written is an ``InputError``."""
    if value is UNRECORDED:
        return None
    keys = {f.name for f in dataclasses.fields(Code)}
    if not isinstance(value, list) or not all(
            isinstance(c, dict) and set(c) == keys and all(isinstance(x, str) for x in c.values()) for c in value):
        raise InputError(f"a row of table provenance holds a code that is not one this store writes "
                         f"(got {json.dumps(value)[:40]!r}); give another --db", file=db, place="--db")
    return tuple(Code(**c) for c in value)


# -- the code of this process ----------------------------------------------------------------
@functools.cache
def fingerprint(module: str) -> str:
    """A hash of the files of an imported top-level package or module ('' if it has none)."""
    mod = sys.modules.get(module)
    paths = list(getattr(mod, "__path__", None) or [])
    files: list[tuple[str, str]] = []   # (name in the hash, path)
    for root in paths:
        for folder, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
            files += [(os.path.relpath(os.path.join(folder, n), root), os.path.join(folder, n))
                      for n in names if not n.startswith(".") and not n.endswith((".pyc", ".pyo"))]
    single = getattr(mod, "__file__", None)
    if not paths and single:
        files.append((os.path.basename(single), single))
    if not files:
        return ""
    digest = hashlib.sha256()
    for name, path in sorted(files):
        digest.update(name.encode() + b"\0")
        try:
            with open(path, "rb") as f:
                digest.update(hashlib.sha256(f.read()).digest())
        except OSError:   # a dangling link, a file that went away: counted by its name alone
            digest.update(b"\0")
    return digest.hexdigest()[:12]


@functools.cache
def _distributions() -> dict[str, tuple[str, str]]:
    """Top-level module -> (distribution, version): those of the entry points first (an
    editable install may not list its modules), then every installed distribution's."""
    found: dict[str, tuple[str, str]] = {}
    for group in GROUPS:
        for ep in importlib.metadata.entry_points(group=group):
            if ep.dist is not None:
                found.setdefault(ep.value.split(":")[0].split(".")[0], (ep.dist.name, ep.dist.version))
    for module, dists in importlib.metadata.packages_distributions().items():
        if module not in found and dists:
            try:
                found[module] = (dists[0], importlib.metadata.version(dists[0]))
            except importlib.metadata.PackageNotFoundError:
                continue
    return found


def _module_of(obj: Any) -> str | None:
    obj = getattr(obj, "func", obj)   # a functools.partial: the function it calls
    module = getattr(obj, "__module__", None)
    return module if isinstance(module, str) else None


def _strings(value: Any) -> set[str]:
    """Every string in a JSON-like document."""
    out: set[str] = set()
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            out.add(node)
        elif isinstance(node, dict):
            stack += node.values()
        elif isinstance(node, list | tuple):
            stack += node
    return out


def _modules(study: Study) -> set[str]:
    """The modules whose code the study's battles run, but for the standard library's."""
    modules: set[str | None] = set(imported())
    system = getattr(study.scenario, "composition", None)
    if system is not None:
        modules |= {_module_of(getattr(part, f.name)) for part in system.parts for f in dataclasses.fields(part)
                    if f.name != "metrics"}
        modules |= {_module_of(r.compute) for r in metric_reporters(system)}
    dump = getattr(study.scenario, "model_dump", None)
    named = _strings(dump(mode="json") if dump else {}) | _strings([c.overrides for c in study.cells])
    modules |= {_module_of(b.choose) for b, origin in plugged_in() if origin != "Python" or b.name in named}
    tops = {m.split(".")[0] for m in modules if m}
    return {t for t in tops if t != "sim" and t not in sys.stdlib_module_names}


def made_by(study: Study) -> Made:
    """The code this process runs the study's battles with: ``sim``, then each plug-in."""
    sim = Code("sim", "sim", package_version(), fingerprint("sim"))
    plugins = []
    for module in sorted(_modules(study)):
        name, version = _distributions().get(module, (module, ""))
        plugins.append(Code(module, name, version, fingerprint(module)))
    return (sim, *plugins)


# -- a resume over other code ----------------------------------------------------------------
def _changes(stored: Iterable[Made | None], mine: Made, versions: list[str]) -> str:
    """What differs between the stored code and this run's, in words."""
    before: list[str] = []
    now: list[str] = []
    ours = {c.module: c for c in mine}
    for made in stored:
        if made is None:
            sims = ", ".join(versions) or "an unknown version"
            before.append(f"sim {sims} before stores recorded the code")
            now += [c.describe() for c in mine]
            continue
        theirs = {c.module: c for c in made}
        for module in sorted(set(theirs) | set(ours), key=lambda m: (m != "sim", m)):
            old, new = theirs.get(module), ours.get(module)
            if old != new:
                label = (old if old is not None else cast(Code, new)).label()   # one of them is there
                before.append(old.describe() if old else f"no {label}")
                now.append(new.describe() if new else f"no {label}")
    return f"{', '.join(dict.fromkeys(before))}, this run by {', '.join(dict.fromkeys(now))}"


def check(stored: list[Made | None], mine: Made, study: str, db: str, allow: bool,
          versions: list[str]) -> Mixed | None:
    """None when every stored code is this run's; else, if ``allow``, what the rows mix;
    else an ``InputError`` saying what changed (``versions``: sim's of the stored rows)."""
    other = [m for m in stored if m != mine]
    if not other:
        return None
    changes = f"the stored rows of study '{study}' were made by {_changes(other, mine, versions)}"
    if not allow:
        raise InputError(f"{changes}: {ALLOW}", file=db, place="--resume")
    return Mixed(other, changes, mine)
