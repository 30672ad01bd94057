"""Keyed dice: one random stream per (unit, rule), all derived from a root seed.

Two runs with the same root seed see the same faces wherever the same unit rolls under
the same rule the same number of times, whatever else differs between them. That is what
makes common random numbers work across the variants of a study.

>>> d = Dice(7)
>>> a = d.roll("u1", "X.ROLL", 1)
>>> Dice(7).roll("u1", "X.ROLL", 1) == a
True
"""
from __future__ import annotations

import functools
import hashlib

import numpy as np

from sim.engine.pcg import Pool, Seeder, Stream

#: Dice of up to this many sides are drawn in Python (numpy's 32-bit Lemire path); a
#: one-sided die or a bigger one goes through numpy itself.
MAX_SIDES = 1 << 31


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
    """Root seed → independent, reproducible streams keyed by (unit, rule).

    Each stream is numpy's ``Generator(PCG64(seed_sequence(seed, (key(unit), key(rule)))))``,
    drawn as ``sim.engine.pcg`` does it (the same numbers, made and drawn faster).
    """

    def __init__(self, seed: int):
        if seed < 0:
            raise ValueError("seed must be >= 0")
        self.seed = int(seed)
        self._streams: dict[tuple[str, str], Stream] = {}
        self._numpy: dict[tuple[str, str], np.random.Generator] = {}   # handed out by ``stream``
        self._seeder: Seeder | None = None
        self._pools: dict[str, Pool] = {}    # unit -> pool after its key

    def _new(self, unit: str, rule: str) -> Stream:
        seeder = self._seeder
        if seeder is None:
            seeder = self._seeder = Seeder(_words(self.seed))
        pool = self._pools.get(unit)
        if pool is None:
            pool = self._pools[unit] = seeder.extend(seeder.base, _words(_key(unit)))
        found = self._streams[(unit, rule)] = Stream(Seeder.state_words(seeder.extend(pool, _words(_key(rule)))))
        return found

    def stream(self, unit: str, rule: str) -> np.random.Generator:
        """The (unit, rule) stream as a numpy Generator, where it stands now.

        From then on ``roll`` and ``uniform`` draw from that Generator, so draws made
        from it directly and through the dice follow one another in the one stream.
        """
        key = (unit, rule)
        gen = self._numpy.get(key)
        if gen is None:
            ours = self._streams.pop(key, None)
            if ours is None:
                ours = self._new(unit, rule)
                del self._streams[key]
            bits = np.random.PCG64(seed_sequence(self.seed, (_key(unit), _key(rule))))
            bits.state = {"bit_generator": "PCG64", "state": {"state": ours.state, "inc": ours.inc},
                          "has_uint32": int(ours.half is not None), "uinteger": ours.half or 0}
            gen = self._numpy[key] = np.random.Generator(bits)
        return gen

    def keys(self) -> set[tuple[str, str]]:
        """The (unit, rule) pairs that have drawn from a stream so far."""
        return {*self._streams, *self._numpy}

    def roll(self, unit: str, rule: str, n: int = 1, sides: int = 6) -> list[int]:
        """``n`` faces of a ``sides``-sided die, from the (unit, rule) stream."""
        stream = self._streams.get((unit, rule))
        if stream is None:
            if (unit, rule) in self._numpy or not 1 < sides <= MAX_SIDES:
                return [int(v) for v in self.stream(unit, rule).integers(1, sides + 1, size=n)]
            stream = self._new(unit, rule)
        elif not 1 < sides <= MAX_SIDES:
            return [int(v) for v in self.stream(unit, rule).integers(1, sides + 1, size=n)]
        if n == 1:
            return [stream.face(sides)]
        return [stream.face(sides) for _ in range(n)]

    def uniform(self, unit: str, rule: str) -> float:
        """A float in [0, 1) for a random choice that is not a die roll (e.g. placement)."""
        stream = self._streams.get((unit, rule))
        if stream is None:
            if (unit, rule) in self._numpy:
                return float(self._numpy[(unit, rule)].random())
            stream = self._new(unit, rule)
        return stream.random()
