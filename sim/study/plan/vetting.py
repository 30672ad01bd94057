"""Checks of a study's ``factors`` section, each blamed on its key and line, and the
building of its design (``sim.study.plan.designs``); the checks of its cells' keys and count."""
from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any, NoReturn

from sim.errors import InputError
from sim.scenario.yamlfile import place_of
from sim.study.plan import designs
from sim.study.plan.factors import Factor, parse_factor
from sim.study.plan.nolh import MAX_FACTORS, TABLES, smallest

NEEDS_SAMPLES = ("lhs", "optimal_lhs", "sobol", "halton", "saltelli", "morris")
OPTIONS = {"samples": NEEDS_SAMPLES + ("nolh",), "stacks": ("nolh",),
           "levels": ("factorial", "morris"), "generators": ("fractional",)}
# Rows before repeated points merge; the cell limit applies to the points after.
MAX_ROWS = 1_000_000
MAX_CELLS = 10_000


def check_factors(f: Any, path: str, lines: dict) -> None:
    """Every rule of a ``factors`` section that the schema alone cannot say."""
    def fail(msg: str, *loc):
        raise InputError(msg, file=path, place=place_of(("factors", *loc), lines))

    if f.design not in designs.METHODS:
        fail(f"unknown design '{f.design}' (expected one of {', '.join(designs.METHODS)})",
             "design")
    for option, methods in OPTIONS.items():
        if getattr(f, option) is not None and f.design not in methods:
            fail(f"'{option}' is only for design {' or '.join(methods)}", option)
    if f.design in NEEDS_SAMPLES and f.samples is None:
        fail(f"design {f.design} needs 'samples' ({_what_samples(f.design)})")
    if f.design == "grid":
        for key, values in f.vary.items():
            if not isinstance(values, list) or not values:
                fail("expected a non-empty list of values", "vary", key)
            if len({json.dumps(v, sort_keys=True) for v in values}) != len(values):
                fail("a value is listed twice", "vary", key)
        return
    if f.design == "lhs":
        if f.samples > MAX_CELLS:  # its points are drawn before repeated ones merge
            fail(f"at most {MAX_CELLS} samples (got {f.samples})", "samples")
        parse_all(f, path, lines)   # ranges and categorical levels, as every design
        return
    factors = parse_all(f, path, lines)
    k = len(factors)
    if f.design in designs.POWER_OF_TWO and f.samples & (f.samples - 1):
        fail(f"design {f.design} needs a power of two (its balance properties hold only "
             f"then; got {f.samples})", "samples")
    if f.design == "nolh":
        _check_nolh(f, k, fail)
    if f.design == "morris" and (f.levels or 4) % 2:
        fail(f"Morris grids need an even number of levels (got {f.levels})", "levels")
    if f.design == "fractional":
        _check_fractional(f, factors, fail)
    rows = _rows(f, factors)
    if rows > MAX_ROWS:
        fail(f"the design has {rows} rows (expected at most {MAX_ROWS})")


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


def _what_samples(method: str) -> str:
    return {"saltelli": "N base points, a power of two; the plan runs N (k + 2) rows",
            "morris": "the number of trajectories, each k + 1 rows"}.get(method, "how many points")


def _check_nolh(f: Any, k: int, fail) -> None:
    if k > MAX_FACTORS:
        fail(f"{k} factors (the largest NOLH table has {MAX_FACTORS})", "vary")
    if f.samples is not None:
        if f.samples not in TABLES:
            fail(f"expected one of the NOLH table sizes {list(TABLES)} (got {f.samples})",
                 "samples")
        if TABLES[f.samples][0] < k:
            fail(f"the {f.samples}-point table has {TABLES[f.samples][0]} columns, fewer than "
                 f"the {k} factors (expected at least {smallest(k)} points)", "samples")
    width = TABLES[f.samples or smallest(k)][0]
    if f.stacks is not None and f.stacks > width:
        fail(f"at most {width} stacks (the table's columns; more repeat rotations)", "stacks")


def _check_fractional(f: Any, factors: list[Factor], fail) -> None:
    if f.generators is None:
        fail("design fractional needs 'generators', one word per factor (e.g. 'a b c abc')")
    words = f.generators.split()
    if len(words) != len(factors):
        fail(f"{len(words)} generators for {len(factors)} factors (expected one each)",
             "generators")
    why = designs.fractional_problem(words)
    if why:
        fail(why, "generators")
    for factor in factors:
        if factor.kind == "categorical" and len(factor.levels) != 2:
            fail("a two-level fractional factorial needs two levels here "
                 f"(got {len(factor.levels)})", "vary", factor.key)


def _rows(f: Any, factors: list[Factor]) -> int:
    k = len(factors)
    if f.design == "factorial":
        n = f.levels or 2
        return math.prod(min(n, fac.count) if fac.count else n for fac in factors)
    if f.design == "fractional":
        return 2 ** sum(1 for w in f.generators.split() if len(w) == 1)
    if f.design == "saltelli":
        return f.samples * (k + 2)
    if f.design == "morris":
        return f.samples * (k + 1)
    if f.design == "nolh":
        return (f.samples or smallest(k)) * (f.stacks or 1)
    return f.samples


def points_at_most(f: Any) -> int:
    """How many distinct points a checked ``factors`` section can give, from the document
    alone (no row is made): a grid's product of value counts, a design's rows, or fewer
    when its factors have fewer combinations of values (integer ranges, levels; every
    factor of a Morris design moves on its grid of ``levels``)."""
    if f.design == "grid":
        return math.prod(len(values) for values in f.vary.values())
    if f.design == "lhs":
        rows = f.samples
        factors = [Factor(k, "integer" if all(isinstance(v, int) for v in r) else "real", *r)
                   for k, r in f.vary.items()]
    else:
        factors = parse_all(f, "<study>", {})   # checked: no factor is refused here
        rows = _rows(f, factors)
    grid = (f.levels or 4) if f.design == "morris" else None
    per = [fac.count or grid for fac in factors]
    return min(rows, math.prod(n for n in per if n)) if all(per) else rows


def parse_all(f: Any, path: str, lines: dict) -> list[Factor]:
    """The factors of a designed study, in ``vary`` order."""
    out = []
    for key, raw in f.vary.items():
        factor = parse_factor(key, raw)
        if isinstance(factor, str):
            raise InputError(factor, file=path, place=place_of(("factors", "vary", key), lines))
        out.append(factor)
    return out


def plan_of(f: Any, seed: int, path: str, lines: dict) -> designs.Plan:
    """The design of a checked ``factors`` section; a missing optional library is an
    ``InputError`` saying what to install."""
    factors = parse_all(f, path, lines)
    try:
        return designs.make_plan(f.design, factors, seed, f.samples, f.stacks or 1, f.levels,
                                 f.generators.split() if f.generators else None)
    except ImportError as exc:
        why = (f"design {f.design} needs the optional package {exc.name}: "
               "pip install 'sim[analysis]'") if exc.name else str(exc)
        raise InputError(why, file=path, place=place_of(("factors", "design"), lines)) from None
