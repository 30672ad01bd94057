"""Where a straight move meets a beam: the segment–segment geometry of sim-mgbeam.

Pure geometry (it imports nothing of ``sim``). A beam is the closed segment from the
team's position ``a`` to its far end ``b``; a mover's straight segment runs from ``p0`` to
``p1``. ``crossing`` gives the fraction ``t`` of p0→p1 at which the mover first reaches
the beam, or None, from the signed distances ``h0``, ``h1`` of p0 and p1 from the beam's
line (positive to the left of a→b) and the position ``u`` along the beam (0 at ``a``,
``length`` at ``b``) of the point where the segment meets that line:

* p0 and p1 on opposite sides of the line (or p1 on it): the segment meets the line at
  ``t = h0 / (h0 - h1)``; it crosses the beam if ``0 <= u <= length`` there. Both ends
  count: a path through the team's own position or exactly through the far end crosses.
  A segment that ends exactly on the beam reaches it at ``t = 1``.
* p0 and p1 strictly on one side (a path parallel to the beam, or one that ends before
  it): no crossing.
* p0 on the line: a move that *starts* on the beam line never crosses it on that segment
  (the mover was halted there, or set up there, and leaves it) - except along it
  (collinear): a segment lying along the line that starts off the beam, beyond one of
  its ends, reaches the beam end-on at that end (it walks into the line of fire); one
  that starts on the beam itself does not cross it.

"On the line" and "on the beam" are to ``TOLERANCE`` of the scale (the largest of 1,
the beam's length and the coordinates' magnitudes): a mover halted on the beam stands on
it to rounding, and its next move starts on it.
"""
from __future__ import annotations

import math

Point = tuple[float, float]
#: What counts as on the beam's line, relative to the scale of the figure.
TOLERANCE = 1e-9


def beam_end(start: Point, bearing: float, length: float) -> Point:
    """The far end of a beam laid from ``start`` along ``bearing`` (degrees counter-clockwise
    from the +x axis, east: 90 is +y) for ``length``."""
    angle = math.radians(bearing)
    return (start[0] + length * math.cos(angle), start[1] + length * math.sin(angle))


def crossing(p0: Point, p1: Point, a: Point, b: Point) -> float | None:
    """The fraction t in (0, 1] of p0→p1 at which it first reaches the beam a→b, or None
    (the module's docstring gives every case)."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    length = math.hypot(ex, ey)
    if length == 0.0 or p0 == p1:
        return None
    scale = max(1.0, length, *(abs(c) for c in (*p0, *p1, *a, *b)))
    tol = TOLERANCE * scale

    def height(p: Point) -> float:   # signed distance from the beam's line
        return (ex * (p[1] - a[1]) - ey * (p[0] - a[0])) / length

    def along(p: Point) -> float:    # position along the beam: 0 at a, length at b
        return (ex * (p[0] - a[0]) + ey * (p[1] - a[1])) / length

    h0, h1 = height(p0), height(p1)
    if abs(h0) <= tol:
        if abs(h1) > tol:
            return None   # it starts on the line and leaves it
        return _end_on(along(p0), along(p1), length, tol)
    if abs(h1) > tol and (h0 > 0.0) == (h1 > 0.0):
        return None       # it stays on one side of the line (parallel, or short of it)
    t = min(1.0, h0 / (h0 - h1))
    u = along((p0[0] + (p1[0] - p0[0]) * t, p0[1] + (p1[1] - p0[1]) * t))
    return t if -tol <= u <= length + tol else None


def _end_on(x0: float, x1: float, length: float, tol: float) -> float | None:
    """A segment along the beam's line, from x0 to x1 (positions along it): the fraction
    at which it reaches the beam [0, length] from beyond an end, or None."""
    if -tol <= x0 <= length + tol:
        return None       # it starts on the beam itself
    end = 0.0 if x0 < 0.0 else length
    if (x0 < 0.0 and x1 < -tol) or (x0 > length and x1 > length + tol):
        return None       # it stops short of the beam's end
    return min(1.0, (end - x0) / (x1 - x0))
