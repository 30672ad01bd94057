"""``grid``: every combination of the values listed for each knob (the default design).

``vary`` maps each knob to a non-empty list of values, none twice; the points are their
product, in ``vary`` order (the last knob fastest).
"""
from __future__ import annotations

import itertools
import json
import math

from sim.study.plan.placing import Placed
from sim.systems.designs import Analysis, Design, DesignOptions, Fail, StudyFactors

NAME = "grid"


class GridOptions(DesignOptions):
    """A grid takes no option: its lists are its size."""


def vet(f: StudyFactors, fail: Fail) -> None:
    """Each knob's values: a non-empty list, none twice."""
    for key, values in f.vary.items():
        if not isinstance(values, list) or not values:
            fail("expected a non-empty list of values", "vary", key)
        if len({json.dumps(v, sort_keys=True) for v in values}) != len(values):
            fail("a value is listed twice", "vary", key)


def size(f: StudyFactors) -> int:
    """The product of the lists' lengths."""
    return math.prod(len(values) for values in f.vary.values())


def place(f: StudyFactors, seed: int) -> Placed:
    """Every combination, in ``vary`` order."""
    keys = list(f.vary)
    return Placed(list(itertools.product(*(f.vary[k] for k in keys))))


DESIGN = Design(NAME, "every combination of the values listed for each knob", GridOptions, place=place,
                size=size, vet=vet, analyses=frozenset({Analysis.METAMODEL}), in_report=False, default=True,
                library="itertools")
