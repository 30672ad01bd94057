"""Keyed dice: one random stream per (unit, rule), all derived from a root seed.

Two runs with the same root seed see the same faces wherever the same unit rolls under
the same rule the same number of times, whatever else differs between them. That is what
makes common random numbers work across the variants of a study.

>>> d = Dice(7)
>>> a = d.roll("u1", "SF.ROLL", 1)
>>> Dice(7).roll("u1", "SF.ROLL", 1) == a
True
"""
from __future__ import annotations

import functools
import hashlib

import numpy as np


@functools.lru_cache(maxsize=4096)
def _key(text: str) -> int:
    # A stable 64-bit key; Python's hash() is salted per process.
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


def _words(n: int) -> list[int]:
    """``n`` as little-endian 32-bit words, as numpy's SeedSequence splits an int (0 -> [0])."""
    out = [n & 0xFFFFFFFF]
    n >>= 32
    while n:
        out.append(n & 0xFFFFFFFF)
        n >>= 32
    return out


def seed_sequence(seed: int, spawn_key: tuple[int, ...]) -> np.random.SeedSequence:
    """The SeedSequence ``SeedSequence(seed, spawn_key=spawn_key)``, at a third of the cost.

    It is built from the words that call would assemble (the seed padded to the pool's 4
    words, then the key's words): the same pool, so the same streams (a battle makes one
    per unit and rule).
    """
    run = _words(seed)
    if spawn_key and len(run) < 4:
        run += [0] * (4 - len(run))
    for k in spawn_key:
        run += _words(k)
    return np.random.SeedSequence(np.array(run, dtype=np.uint32))


class Dice:
    """Root seed → independent, reproducible streams keyed by (unit, rule)."""

    def __init__(self, seed: int):
        if seed < 0:
            raise ValueError("seed must be >= 0")
        self.seed = int(seed)
        self._streams: dict[tuple[str, str], np.random.Generator] = {}

    def stream(self, unit: str, rule: str) -> np.random.Generator:
        """The (unit, rule) random stream, made on first use."""
        key = (unit, rule)
        gen = self._streams.get(key)
        if gen is None:
            ss = seed_sequence(self.seed, (_key(unit), _key(rule)))
            gen = self._streams[key] = np.random.Generator(np.random.PCG64(ss))
        return gen

    def roll(self, unit: str, rule: str, n: int = 1, sides: int = 6) -> list[int]:
        """``n`` faces of a ``sides``-sided die, from the (unit, rule) stream."""
        if n == 1:  # the common case; a scalar draw takes the same value from the stream
            return [int(self.stream(unit, rule).integers(1, sides + 1))]
        return [int(v) for v in self.stream(unit, rule).integers(1, sides + 1, size=n)]

    def uniform(self, unit: str, rule: str) -> float:
        """A float in [0, 1) for a random choice that is not a die roll (e.g. placement)."""
        return float(self.stream(unit, rule).random())
