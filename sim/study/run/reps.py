"""Which replications of a cell are recorded, in memory that does not grow with them.

Replications arrive nearly in order (tasks are handed out in replication order; a few run
at once), so a cell's recorded set is a prefix 0..k−1 and the few beyond it that arrived
before a gap closed: ``Reps`` keeps k and those few.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator


class Reps:
    """A set of replication indices stored as a whole prefix and the indices beyond it."""

    __slots__ = ("prefix", "beyond")

    def __init__(self, reps: Iterable[int] = ()) -> None:
        self.prefix = 0
        self.beyond: set[int] = set()
        for rep in reps:
            self.add(rep)

    def add(self, rep: int) -> None:
        """Record ``rep``."""
        if rep < self.prefix:
            return
        if rep != self.prefix:
            self.beyond.add(rep)
            return
        self.prefix += 1
        while self.prefix in self.beyond:
            self.beyond.discard(self.prefix)
            self.prefix += 1

    def __contains__(self, rep: object) -> bool:
        return isinstance(rep, int) and (0 <= rep < self.prefix or rep in self.beyond)

    def __len__(self) -> int:
        return self.prefix + len(self.beyond)

    def below(self, n: int) -> int:
        """How many recorded indices are < ``n``."""
        return min(self.prefix, n) + sum(1 for r in self.beyond if r < n)

    def missing(self, n: int) -> Iterator[int]:
        """The indices < ``n`` not recorded, in order; lazily, and an index recorded while
        it is read (the prefix taking in what lay beyond it) still counts as recorded."""
        return (r for r in range(self.prefix, n) if r not in self)

    def copy(self) -> Reps:
        """An independent copy."""
        out = Reps()
        out.prefix, out.beyond = self.prefix, set(self.beyond)
        return out
