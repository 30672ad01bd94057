"""``nolh``: nearly orthogonal Latin hypercubes (Cioppa & Lucas 2007), the data farmer's design.

The tables are the standard ones (the SEED Center's NOLH spreadsheet): 17, 33, 65, 129
and 257 points for up to 7, 11, 16, 22 and 29 factors. They are read from the PyPI
package ``pycubedoe`` (LGPL-3.0; in ``sim[analysis]``), which ships them as data; ``sim``
does not copy them. On import of a table we check that every column is a permutation of
1..n (a Latin hypercube); ``tests/test_study_designs.py`` checks the published
properties: max |pairwise correlation| <= 0.03 and condition number <= 1.13, Cioppa and
Lucas's criteria for "nearly orthogonal", and better space filling than random Latin
hypercubes of the same size.

A study with k factors uses the first k columns of the smallest table with at least k
(or the table named by ``samples``). ``stacks: S`` appends S - 1 copies with the columns
rotated (factor j takes column (j + s) mod K in copy s, as the SEED Center's stacking
does), so a design can be extended with more points; the centre point is kept once.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
from pydantic import Field

from sim.study.plan.factors import Factor
from sim.study.plan.placing import unit_cube
from sim.systems.designs import DesignOptions, Fail

NAME = "nolh"

# points -> (largest number of factors, the table's name in pycubedoe)
TABLES = {17: (7, "d_seven"), 33: (11, "d_eleven"), 65: (16, "d_sixteen"),
          129: (22, "d_twentytwo"), 257: (29, "d_twentyninepalms")}
MAX_FACTORS = 29


class MissingTables(ImportError):
    """``pycubedoe`` (which ships the tables) is not installed."""


@cache
def table(points: int) -> np.ndarray:
    """The published table of ``points`` rows: integer levels 1..points, one column per
    factor, in the published column order."""
    try:
        import pycubedoe
    except ImportError:
        raise MissingTables("NOLH designs need the tables of pycubedoe: "
                            "pip install 'sim[analysis]'") from None
    _, name = TABLES[points]
    columns = getattr(pycubedoe, name)  # a dict in the published column order
    levels = np.array([list(col) for col in columns.values()], dtype=int).T
    want = np.arange(1, points + 1)
    if levels.shape[0] != points or any(
            not np.array_equal(np.sort(levels[:, j]), want) for j in range(levels.shape[1])):
        raise MissingTables(f"pycubedoe's {points}-point table is not a Latin hypercube")
    return levels


def smallest(factors: int) -> int:
    """Points of the smallest table that has ``factors`` columns."""
    return next(n for n, (k, _) in TABLES.items() if k >= factors)


def nolh(factors: int, points: int | None = None, stacks: int = 1) -> np.ndarray:
    """The design in unit coordinates ((level - 1) / (n - 1)), rows in table order, stack
    after stack, the centre point (all 0.5) only once."""
    n = points or smallest(factors)
    levels = table(n)
    width = levels.shape[1]
    blocks = [levels[:, [(j + s) % width for j in range(factors)]] for s in range(stacks)]
    unit = (np.vstack(blocks) - 1) / (n - 1)
    centre = np.all(unit == 0.5, axis=1)
    keep = ~centre | (np.cumsum(centre) == 1)
    return unit[keep]


class NolhOptions(DesignOptions):
    """``nolh``'s table and stacks."""

    samples: int | None = Field(None, description=(
        f"the table's points: one of {', '.join(map(str, TABLES))} (not set: the smallest that fits)"))
    stacks: int = Field(1, ge=1, le=MAX_FACTORS, description=(
        "this many copies of the table, each rotated, stacked (extendable)"))


def check(options: NolhOptions, factors: Sequence[Factor], fail: Fail) -> None:
    """At most 29 factors; a table that exists and has a column a factor; stacks up to its columns."""
    k = len(factors)
    if k > MAX_FACTORS:
        fail(f"{k} factors (the largest NOLH table has {MAX_FACTORS})", "vary")
    if options.samples is not None:
        if options.samples not in TABLES:
            fail(f"expected one of the NOLH table sizes {list(TABLES)} (got {options.samples})", "samples")
        if TABLES[options.samples][0] < k:
            fail(f"the {options.samples}-point table has {TABLES[options.samples][0]} columns, fewer than "
                 f"the {k} factors (expected at least {smallest(k)} points)", "samples")
    width = TABLES[options.samples or smallest(k)][0]
    if options.stacks > width:
        fail(f"at most {width} stacks (the table's columns; more repeat rotations)", "stacks")


def rows(options: NolhOptions, factors: Sequence[Factor], seed: int) -> np.ndarray:
    """The table's first columns, stack after stack."""
    return nolh(len(factors), options.samples, options.stacks)


def count(options: NolhOptions, factors: Sequence[Factor]) -> int:
    """The table's points times the stacks."""
    return (options.samples or smallest(len(factors))) * options.stacks


DESIGN = unit_cube(NAME, "Cioppa & Lucas's nearly orthogonal Latin hypercube, up to 29 factors; `stacks: S` "
                   "adds S − 1 rotated copies", NolhOptions, rows, count, check=check, library="pycubedoe")
