"""Nearly orthogonal Latin hypercubes (Cioppa & Lucas 2007), the data farmer's design.

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

from functools import cache

import numpy as np

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
