"""Checks of a study's ``factors`` section, each blamed on its key and line, and the
placing of its points, both by its design (``REGISTRY.designs``); the checks of its cells'
keys and count."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

from pydantic import ValidationError

from sim.errors import InputError
from sim.scenario.yamlfile import place_of
from sim.study.plan.placing import MAX_CELLS
from sim.systems.designs import Design, Placement
from sim.systems.registry import REGISTRY


def check_factors(f: Any, path: str, lines: dict) -> None:
    """Every rule of a ``factors`` section that the schema alone cannot say: its design's
    options (kept by ``f``, as its ``options``), then the design's own checks."""
    def fail(message: str, *place: str | int) -> NoReturn:
        raise InputError(message, file=path, place=place_of(("factors", *place), lines))

    design = REGISTRY.designs.get(f.design)
    f.checked(_options(f, design, fail))
    if design.vet is not None:
        design.vet(f, fail)


def _options(f: Any, design: Design, fail: Callable[..., NoReturn]) -> Any:
    """The design's options from the section's other keys, each refused at its own key."""
    given = dict(f.model_extra or {})
    takes = design.options.model_fields
    for key in given:
        if key not in takes:
            others = [d.name for d in REGISTRY.designs if key in d.options.model_fields]
            if others:
                fail(f"'{key}' is only for design {' or '.join(others)}", key)
            fail(f"unknown key (expected one of {', '.join(['design', 'vary', *takes])})", key)
    try:
        return design.options.model_validate(given)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(err["loc"])
        if err["type"] == "missing":
            fail(f"design {design.name} needs '{loc[0]}' ({takes[str(loc[0])].description})")
        msg = err["msg"].removeprefix("Value error, ")
        fail(msg if err["type"] == "value_error" else f"{msg} (got {err.get('input')!r})", *loc)


def check_keys(spec: Any, fail: Callable[..., NoReturn]) -> None:
    """Each cell sets each key once, none inside another (``--set``'s rule), so no key's
    value depends on the order of the file's keys."""
    from sim.scenario.load import overlap  # the loader's rule, looked up at call time

    vary = list(spec.factors.vary) if spec.factors else []
    pair = overlap(vary)
    if pair is not None:
        fail(f"sets {pair[0]} and also {pair[1]} (expected each key once)", "factors", "vary", pair[0])
    for variant, overrides in spec.variants.items():
        pair = overlap([*vary, *overrides])
        if pair is None:
            continue
        key, other = pair
        if key == other:
            fail(f"sets {key}, which factors.vary also sets (expected one owner)",
                 "variants", variant, key)
        owner = "factors.vary" if other in vary else "the variant"
        fail(f"sets {key}, and {owner} sets {other} (expected each key once, none inside "
             "another)", "variants", variant, key)


def check_size(spec: Any, fail: Callable[..., NoReturn]) -> None:
    """The cell limit, counted from the document before a single row or cell is made."""
    points = 1 if spec.factors is None else points_at_most(spec.factors)
    variants = len(spec.variants)
    if points * variants > MAX_CELLS:
        where = ("factors",) if spec.factors is not None else ("variants",)
        fail(f"{points * variants} cells ({variants} variant{'s' if variants > 1 else ''} x "
             f"{points} design points; expected at most {MAX_CELLS})", *where)


def points_at_most(f: Any) -> int:
    """How many distinct points a checked ``factors`` section can give, from the document
    alone (no row is made): its design says."""
    return REGISTRY.designs.get(f.design).size(f)


def points_of(f: Any, seed: int, path: str, lines: dict) -> Placement:
    """The points (and plan) of a checked ``factors`` section; a missing optional library
    is an ``InputError`` saying what to install."""
    try:
        return REGISTRY.designs.get(f.design).place(f, seed)
    except ImportError as exc:
        why = (f"design {f.design} needs the optional package {exc.name}: "
               "pip install 'sim[analysis]'") if exc.name else str(exc)
        raise InputError(why, file=path, place=place_of(("factors", "design"), lines)) from None
