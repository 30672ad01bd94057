"""Pointy-top hex geometry in axial coordinates (q, r).

A hex is a pair of ints (q, r); its cube form is (q, r, s) with s = -q - r. Every key of
a scenario names a hex this way (``"q,r"``). Rows of a YAML map are "odd-r" offset rows:
row r is the r-th string (row 0 first), odd rows are shifted half a hex to the right,
and the hex in column c of row r is q = c - floor(r / 2). Centres are scaled so that
neighbouring centres are exactly 1.0 apart: one hex of range is one unit of length, and
y grows with the row (pictures of a hex map put row 0 at the top, as the rows are written).

>>> offset_to_axial(0, 1), offset_to_axial(3, 2)
((0, 1), (2, 2))
>>> hex_distance((0, 0), (2, -1))
2
>>> hex_line((0, 0), (2, 0))
[[(0, 0), (1, 0), (2, 0)]]
"""
from __future__ import annotations

import math

Hex = tuple[int, int]

#: The six axial directions, in the order ``neighbours`` returns them: east, north-east,
#: north-west, west, south-west, south-east (north is -y, the row above).
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

#: The nudge given to both ends of a sight line, in cube coordinates (sums to 0, so it
#: stays on the cube plane). It is not parallel to any hexside, so a line that runs
#: exactly along hexsides or through corners rounds one way with +EPS, the other with -EPS.
EPS = (1e-6, 2e-6, -3e-6)

ROOT3_2 = math.sqrt(3.0) / 2.0  # a hex row's height


def offset_to_axial(col: int, row: int) -> Hex:
    """Axial (q, r) of the hex in column ``col`` of "odd-r" offset row ``row``."""
    return col - (row - (row & 1)) // 2, row


def axial_to_offset(q: int, r: int) -> tuple[int, int]:
    """Inverse of ``offset_to_axial``: (col, row)."""
    return q + (r - (r & 1)) // 2, r


def axial_to_xy(q: float, r: float) -> tuple[float, float]:
    """Centre of hex (q, r); neighbouring centres are 1.0 apart and y grows with r."""
    return q + r / 2.0, r * ROOT3_2


def hex_distance(a: Hex, b: Hex) -> int:
    """Number of hex steps between a and b."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbours(q: int, r: int) -> list[Hex]:
    """The six hexes adjacent to (q, r), in the order of ``DIRECTIONS``."""
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def cube_round(q: float, r: float, s: float) -> Hex:
    """The hex containing the fractional cube point (q, r, s)."""
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    # Rounding may break q + r + s = 0; recompute the coordinate that moved most.
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return int(rq), int(rr)


def _line(a: Hex, b: Hex, n: int, sign: int) -> list[Hex]:
    e0, e1, e2 = (sign * e for e in EPS)
    aq, ar, as_ = a[0] + e0, a[1] + e1, -a[0] - a[1] + e2
    bq, br, bs = b[0] + e0, b[1] + e1, -b[0] - b[1] + e2
    out = []
    for i in range(n + 1):
        t = i / n
        out.append(cube_round(aq + (bq - aq) * t, ar + (br - ar) * t, as_ + (bs - as_) * t))
    return out


def hex_line(a: Hex, b: Hex) -> list[list[Hex]]:
    """The hexes a straight line from a's centre to b's centre passes through.

    The line is sampled at ``hex_distance(a, b)`` equal steps and each sample rounded to
    its hex, once with both ends nudged by +EPS and once by -EPS. The result is one line
    when both agree, or the two candidate lines when they differ, which happens exactly
    when the true line runs along a hexside or through a corner. Every line starts with
    ``a`` and ends with ``b``.
    """
    a, b = (int(a[0]), int(a[1])), (int(b[0]), int(b[1]))
    n = hex_distance(a, b)
    if n == 0:
        return [[a]]
    plus, minus = _line(a, b, n, 1), _line(a, b, n, -1)
    return [plus] if plus == minus else [plus, minus]


def node_id(q: int, r: int) -> str:
    """Graph node id of hex (q, r), e.g. ``"3,-1"``."""
    return f"{q},{r}"
