"""Study files: what to run, resolved into cells before anything runs.

A study names a scenario, a seed, how many replications (or a precision target), named
variants (sets of knob overrides), optional factors (a design over them: any registered
study design, the package's own in ``sim.study.plan.designs``) and the metrics to report.
``load_study`` reads and checks the file and checks every cell's overrides against the
scenario's schema at once (``sim.study.plan.cells``), so a misspelt knob is an ``InputError``
naming the file and line before a single battle runs.

A *cell* is one (variant, factor point) pair: the unit that replications are run in and
that statistics are reported for. Cells are ordered variants-first, in file order, then
points in design order; that order is part of the result (it never depends on which
worker finished first).
"""
from __future__ import annotations

import copy
import hashlib
import importlib.metadata
import json
import os
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

from sim.decide.points import At
from sim.errors import InputError
from sim.files import path_problem
from sim.scenario.yamlfile import place_of, read_yaml
from sim.study.plan.cells import FULL_CHECK_CELLS, Resolver, portable, probe_indices
from sim.study.plan.placing import Plan
from sim.study.plan.select_spec import Select
from sim.study.plan.vetting import check_factors, check_keys, check_size, points_of
from sim.systems.registry import REGISTRY, default_design
from sim.systems.sections import one_of

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

NAME = r"^[A-Za-z0-9_][A-Za-z0-9_.\-]*$"  # no '@', ',', '=' or spaces: they build cell names


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Precision(_Strict):
    """Run in batches until every reported interval's half-width is <= ``half_width``."""

    half_width: float = Field(gt=0, allow_inf_nan=False, description=(
        "stop when every reported 95% interval is at most this half-width"))
    max_replications: int = Field(2000, ge=2, le=1_000_000, description=(
        "the cap: stop here even if the target is not met (the table says so)"))
    batch: int = Field(50, ge=2, le=100_000, description="replications added per cell between checks")
    metrics: list[str] | None = Field(None, description=(
        "the metrics the target applies to (not set: every reported one)"))


def _design_names() -> list[str]:
    return REGISTRY.designs.names()


def _default_in_schema(schema: dict[str, Any]) -> None:
    schema["default"] = default_design()


class Factors(BaseModel):
    """A design over knobs: ``design`` names it, ``vary`` maps knobs to values (a grid's lists;
    any other design's ``[low, high]`` ranges or categorical levels, ``sim.study.plan.factors``),
    and the design's own options are keys beside them (the designs below)."""

    model_config = ConfigDict(extra="allow", strict=True)

    design: Annotated[str, one_of(_design_names, "design")] = Field(
        default_factory=default_design, json_schema_extra=_default_in_schema, description=(
            "how the points are placed: one of the study designs (the designs table below)"))
    vary: dict[str, Any] = Field(min_length=1, description=(
        "dotted key path (as `--set`) → values: a list of values (`grid`), `[low, high]` "
        "(whole numbers: an integer range; a decimal: a continuous one), a list of "
        "categorical levels, or `{levels: [...]}`"))
    _options: Any = PrivateAttr(None)

    @property
    def options(self) -> Any:
        """The design's options, as its model checked them (None until the study is checked)."""
        return self._options

    def checked(self, options: Any) -> None:
        """Keep the design's options, checked (``sim.study.plan.vetting``)."""
        self._options = options


class Branch(_Strict):
    """Every variant is a branch of the battle at a decision point (``sim.decide``)."""

    at: At = Field(description=(
        "the decision point: `{turn, phase}`, `{halted: unit}` or `{side, when}`; each variant's "
        "overrides (orders, plans, policies only) are given there, not at the start"))


class StudySpec(_Strict):
    """The study file as written (after validation)."""

    study: str = Field(pattern=NAME, max_length=80, description="the study's name")
    description: str = Field("", description="free text (the question the study asks)")
    scenario: str = Field(min_length=1, description="the scenario file, relative to the study file")
    seed: int = Field(ge=0, le=2**63 - 1, description=(
        "the study's root seed: replication i of every cell gets the same seed from it "
        "(common random numbers)"))
    replications: int | None = Field(None, ge=1, le=1_000_000, description=(
        "replications per cell (give this or `precision`)"))
    precision: Precision | None = Field(None, description=(
        "instead of `replications`: add batches until every interval is this narrow (below)"))
    baseline: str | None = Field(None, description=(
        "the variant the others are compared with (default: the first)"))
    variants: dict[str, dict[str, Any]] = Field(min_length=1, description=(
        "name → overrides of the scenario by dotted key path, e.g. "
        "`{rules.snapfire.reaction: zoc}` (`{}`: the scenario as it is)"))
    factors: Factors | None = Field(None, description=(
        "a design over knobs, crossed with every variant (below)"))
    metrics: list[str] | None = Field(None, min_length=1, description=(
        "the metrics to report (default: every metric the battles give)"))
    select: Select | None = Field(None, description=(
        "what `sim select` picks the best cell by, with a guarantee (below); `sim study` "
        "does not read it"))
    branch: Branch | None = Field(None, description=(
        "the variants are branches of one battle at a decision point (below)"))


def _check_spec(spec: StudySpec, path: str, lines: dict) -> None:
    """Checks across keys, each blamed on the key (and line) that is wrong."""
    def fail(msg: str, *loc):
        raise InputError(msg, file=path, place=place_of(loc, lines))

    if (spec.replications is None) == (spec.precision is None):
        fail("give exactly one of 'replications' or 'precision'",
             *(("precision",) if spec.precision else ()))
    for name in spec.variants:
        if not re.match(NAME, name):
            fail("a variant name may only use letters, digits, _ . -", "variants", name)
    if spec.baseline is not None and spec.baseline not in spec.variants:
        fail(f"'{spec.baseline}' is not a variant (expected one of {list(spec.variants)})",
             "baseline")
    if spec.metrics and len(set(spec.metrics)) != len(spec.metrics):
        fail("a metric is listed twice", "metrics")
    if spec.factors is not None:
        check_factors(spec.factors, path, lines)
    check_keys(spec, fail)
    check_size(spec, fail)



@dataclass(frozen=True)
class Cell:
    """One (variant, factor point): its overrides and the hash of its resolved scenario.
    The scenario itself is built on demand (``scenario``), never kept."""

    variant: str
    point: tuple[tuple[str, Any], ...]
    overrides: dict[str, Any]
    scenario_hash: str
    label: str = ""  # 'zoc@radius=5'; just the variant name when there are no factors
    resolver: Resolver | None = field(default=None, repr=False, compare=False)

    @property
    def scenario(self) -> Any:
        """The cell's scenario, built and checked in full."""
        return self._resolver.scenario(self.overrides)

    def recipe(self) -> Any:
        """What a task ships so that a worker can build this cell's scenario."""
        return self._resolver.recipe(self.overrides)

    @property
    def _resolver(self) -> Resolver:
        if self.resolver is None:
            raise ValueError(f"cell {self.label} was made without its study's resolver")
        return self.resolver

    @property
    def point_json(self) -> str:
        """Canonical JSON of the factor values: the stored identity of the point."""
        return json.dumps(dict(self.point), sort_keys=True, separators=(",", ":"))


@dataclass
class Study:
    """A loaded, checked study: its spec, its base scenario and its cells."""

    path: str
    spec: StudySpec
    scenario_path: str
    scenario: Any
    scenario_hash: str
    cells: list[Cell]
    baseline: str
    metrics: list[str] | None
    lines: dict = field(default_factory=dict, repr=False)
    plan: Plan | None = field(default=None, repr=False)  # the factor design, when there is one
    battle: str | None = None   # the function a replication runs ('module:function'; None: a battle)

    @property
    def name(self) -> str:
        return self.spec.study

    def key(self, crn: bool) -> str:
        """The study hash: stored rows belong to it. It covers the seed, the CRN mode and
        every cell's resolved scenario, but not the replication count, so a study can be
        resumed or extended."""
        ident = {"study": self.name, "seed": self.spec.seed, "crn": bool(crn),
                 "cells": [[c.variant, c.point_json, c.scenario_hash] for c in self.cells]}
        if self.spec.branch is not None:
            ident["branch"] = self.spec.branch.at.model_dump(mode="json", exclude_none=True)
        blob = json.dumps(ident, sort_keys=True, separators=(",", ":")).encode()
        return hashlib.sha256(blob).hexdigest()[:20]

    def config(self, crn: bool) -> dict[str, Any]:
        """The full resolved config stored with the results: a result says how it was made."""
        return {
            "study": self.spec.model_dump(mode="json"),
            "study_file": self.path,
            "study_hash": self.key(crn),
            "crn": bool(crn),
            "version": package_version(),
            "scenario_file": self.scenario_path,
            "scenario_hash": self.scenario_hash,
            "scenario": _dump(self.scenario),
            "cells": [{"label": c.label, "variant": c.variant, "point": dict(c.point),
                       "overrides": c.overrides, "scenario_hash": c.scenario_hash}
                      for c in self.cells],
        }


def describe(study: Study) -> str:
    """One line on a study's cells and, for a designed study, its design's quality."""
    text = f"{len(study.cells)} cells"
    if study.plan is not None:
        from sim.study.plan.quality import properties

        text += f"; design {study.plan.method}: {properties(study.plan.unit).describe()}"
    return text


def package_version() -> str:
    try:
        return importlib.metadata.version("sim")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _dump(scenario: Any) -> Any:
    return scenario.model_dump(mode="json") if hasattr(scenario, "model_dump") else scenario


def load_study(path: str | os.PathLike) -> Study:
    """Read, validate and resolve a study file; every problem is an ``InputError``."""
    path = str(path)
    data, lines = read_yaml(path)
    return study_from_dict(data, base_dir=os.path.dirname(os.path.abspath(path)), file=path,
                           lines=lines)


def study_from_dict(data: Any, scenario: Any = None, base_dir: str = ".",
                    file: str = "<study>", lines: dict | None = None) -> Study:
    """Validate and resolve a study given as a dict. Its ``scenario`` key names a file
    relative to ``base_dir``, unless ``scenario`` is given (a loaded scenario or a path)."""
    from sim.scenario import load as scen  # the engine's loader; looked up at call time

    path, lines = file, lines or {}
    if not isinstance(data, dict):
        raise InputError("expected a mapping with keys study, scenario, seed, variants, ...",
                         file=path, place="line 1")
    data = copy.deepcopy(data)   # the study's own: nothing below writes into the caller's dicts
    if scenario is not None and "scenario" not in data:
        data = {**data, "scenario": str(getattr(scenario, "file", scenario))}
    try:
        spec = StudySpec.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise InputError(_explain(err), file=path, place=place_of(err["loc"], lines)) from None
    _check_spec(spec, path, lines)
    metrics = list(spec.metrics) if spec.metrics else None

    if scenario is not None and not isinstance(scenario, (str, os.PathLike)):
        base, scenario_path = scenario, scenario.file
    else:
        scenario_path = os.path.join(os.path.abspath(base_dir), str(scenario or spec.scenario))
        if not os.path.isfile(scenario_path):
            why = path_problem(scenario_path) if os.path.exists(scenario_path) else None
            what = f"the scenario {scenario_path} {why}" if why else f"no scenario file {scenario_path}"
            raise InputError(f"{what} (expected a path relative to the study file)", file=path,
                             place=place_of(("scenario",), lines))
        base = scen.load_scenario(scenario_path)
    _check_metrics(spec, base, path, lines)
    plan, points = _points(spec, path, lines)
    def build(overrides: dict[str, Any]) -> Any:
        return scen.apply_overrides(base, overrides, source=path)

    resolver = Resolver(base, path, build, portable(base))
    battle = None
    if spec.branch is not None:
        from sim.study.plan.branching import BRANCH_BATTLE, BranchResolver, check_branch, hashed

        check_branch(spec, base, path, lines)
        resolver, battle = BranchResolver(base, path, build, portable(base), spec.branch.at), BRANCH_BATTLE
    full = set(range(len(points))) if len(points) * len(spec.variants) <= FULL_CHECK_CELLS \
        else probe_indices(points)
    cells: list[Cell] = []
    for variant, overrides in spec.variants.items():
        for i, point in enumerate(points):
            merged = {**overrides, **dict(point)}
            digest = resolver.cheap_hash(merged) if merged else scen.scenario_hash(base)
            if digest is None or i in full:
                # The full build: its checks, and a bad key blamed at its own line.
                resolved = _apply(scen, base, merged, variant, set(overrides), path, lines)
                digest = scen.scenario_hash(resolved)
            if spec.branch is not None:   # a branch's cell is not its scenario's battle
                digest = hashed(digest, spec.branch.at.model_dump(mode="json", exclude_none=True))
            cells.append(Cell(variant, point, merged, digest, _label(variant, point, spec),
                              resolver))
    return Study(path=path, spec=spec, scenario_path=scenario_path, scenario=base,
                 scenario_hash=scen.scenario_hash(base), cells=cells,
                 baseline=spec.baseline or next(iter(spec.variants)), metrics=metrics,
                 lines=lines, plan=plan, battle=battle)


def _explain(err: ErrorDetails) -> str:
    msg = err.get("msg", "invalid value")
    if err.get("type") == "extra_forbidden":
        section: dict[int | str, type[BaseModel]] = {"precision": Precision, "factors": Factors,
                                                     "select": Select, "branch": Branch}
        model = {1: StudySpec, 2: section.get(err["loc"][0])}
        allowed = model.get(len(err["loc"]))
        return f"unknown key (expected one of {', '.join(allowed.model_fields)})" if allowed \
            else "unknown key"
    if err.get("type") == "missing":
        return "missing required key"
    if err.get("type") == "value_error":
        return msg.removeprefix("Value error, ")
    return f"{msg} (got {err.get('input')!r})"


def _check_metrics(spec: StudySpec, scenario: Any, path: str, lines: dict) -> None:
    from sim.metrics import metric_kinds

    kinds = metric_kinds(scenario)
    lists: list[tuple[tuple, list[str]]] = [(("metrics",), spec.metrics or [])]
    if spec.precision and spec.precision.metrics:
        lists.append((("precision", "metrics"), spec.precision.metrics))
    for where, names in lists:
        for i, m in enumerate(names):
            if m not in kinds:
                raise InputError(unknown_metric(m, kinds, scenario.ruleset), file=path,
                                 place=place_of(where + (i,), lines))
    if spec.select and spec.select.metric not in kinds:
        raise InputError(unknown_metric(spec.select.metric, kinds, scenario.ruleset),
                         file=path, place=place_of(("select", "metric"), lines))
    if spec.precision and spec.precision.metrics and spec.metrics:
        extra = [m for m in spec.precision.metrics if m not in spec.metrics]
        if extra:
            raise InputError(f"'{extra[0]}' is not among the study's metrics",
                             file=path, place=place_of(("precision", "metrics"), lines))


def unknown_metric(name: str, kinds: dict, ruleset: str) -> str:
    """The message for a metric the battles do not give."""
    return (f"unknown metric '{name}' (expected one of {sorted(kinds)}, the metrics of "
            f"ruleset '{ruleset}')")


def _points(spec: StudySpec, path: str, lines: dict):
    """The design's plan (None for a design that keeps none) and its factor points in design
    order; one empty point when there are no factors."""
    f = spec.factors
    if f is None:
        return None, [()]
    placed = points_of(f, spec.seed, path, lines)
    keys = list(f.vary)
    return placed.plan, [tuple(zip(keys, row)) for row in placed.points]


def _apply(scen, base, overrides: dict, variant: str, own: set, path: str, lines: dict):
    """The scenario with ``overrides`` applied; a bad key is blamed at its own line."""
    if not overrides:
        return base
    try:
        return scen.apply_overrides(base, overrides, source=path)
    except InputError as whole:
        # Find the one key to blame, so the message can give its line.
        for key, value in overrides.items():
            try:
                scen.apply_overrides(base, {key: value}, source=path)
            except InputError as err:
                where = ("variants", variant, key) if key in own else ("factors", "vary", key)
                raise InputError(_detail(err, key), file=path, place=place_of(where, lines)) from None
        raise InputError(_detail(whole, None), file=path,
                         place=place_of(("variants", variant), lines)) from None


def _detail(err: InputError, key: str | None) -> str:
    text = err.detail
    if key and key not in text:
        text = f"{key}: {text}"
    return text


def _label(variant: str, point: tuple, spec: StudySpec) -> str:
    if not point:
        return variant
    keys = [k for k, _ in point]
    shorts = [k.rsplit(".", 1)[-1] for k in keys]
    names = shorts if len(set(shorts)) == len(shorts) else keys
    return variant + "@" + ",".join(f"{n}={value_text(v)}" for n, (_, v) in zip(names, point))


def value_text(v: Any) -> str:
    """A factor value as cell labels and tables show it (a decimal to 6 significant digits)."""
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)
