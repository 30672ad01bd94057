"""numpy's SeedSequence and PCG64, in Python integers: the same streams, cheaper to start.

A battle makes one random stream per (unit, rule) and draws a few dice from most of
them, so making a stream costs more than drawing from it: numpy's ``SeedSequence``,
``PCG64`` and ``Generator`` take about 20 µs together. The keys of a battle share their
first entropy words (the root seed, then the unit's key), so ``Seeder`` mixes each
shared prefix into SeedSequence's pool once and keeps it; a stream then costs the rest
of the mixing and two steps of the 128-bit generator. ``Stream`` draws as numpy's
``Generator(PCG64(...))`` does: ``integers(1, sides + 1)`` by Lemire's method on 32-bit
words (a 64-bit output gives two, low half first) and ``random()`` from 53 bits of a
64-bit output. ``tests/test_dice.py`` checks every one against numpy.
"""
from __future__ import annotations

M32 = 0xFFFFFFFF
M64 = (1 << 64) - 1
M128 = (1 << 128) - 1
# SeedSequence's constants (numpy.random.bit_generator), pool of 4 words.
POOL = 4
INIT_A, MULT_A = 0x43B0D7E5, 0x931E8875
INIT_B, MULT_B = 0x8B51F9DD, 0x58F38DED
MIX_L, MIX_R = 0xCA01F9DD, 0x4973F715
# PCG64's multiplier (pcg_setseq_128, XSL-RR output).
PCG_MULT = (2549297995355413924 << 64) + 4865540595714422341


def _mix(x: int, y: int) -> int:
    r = (MIX_L * x - MIX_R * y) & M32
    return r ^ (r >> 16)


def _constants(first: int, mult: int, n: int) -> tuple[int, ...]:
    """The hash constant's values, one per hash: it evolves the same whatever the data."""
    out = [first]
    for _ in range(n):
        out.append((out[-1] * mult) & M32)
    return tuple(out)


#: Mixing the pool takes 4 + 12 hashes, then 4 per further word: room for 60 words.
HASH_A = _constants(INIT_A, MULT_A, 16 + 4 * 60)
HASH_B = _constants(INIT_B, MULT_B, 8)

#: A pool being mixed: its four words and how many hashes have been made so far.
Pool = tuple[int, int, int, int, int]


class Seeder:
    """SeedSequence's pool for entropy words given piece by piece, each prefix mixed once.

    ``extend(pool, words)`` mixes ``words`` into a kept pool: the pool after the first
    four words is the same for every key of a battle, and after those SeedSequence
    mixes each further word into the pool one by one, with a hash constant that does
    not depend on the data, so a pool can be extended from any point and kept.
    """

    def __init__(self, run: list[int]):
        # The first four words make the pool, then every pool word is mixed into every other.
        words = run[:POOL] + [0] * (POOL - len(run[:POOL]))
        pool = [self._hash(w, i) for i, w in enumerate(words)]
        i = POOL
        for src in range(POOL):
            for dst in range(POOL):
                if src != dst:
                    pool[dst] = _mix(pool[dst], self._hash(pool[src], i))
                    i += 1
        self.base: Pool = self.extend((pool[0], pool[1], pool[2], pool[3], i), run[POOL:])

    @staticmethod
    def _hash(value: int, i: int) -> int:
        v = ((value ^ HASH_A[i]) * HASH_A[i + 1]) & M32
        return v ^ (v >> 16)

    @staticmethod
    def extend(pool: Pool, words: list[int]) -> Pool:
        """The pool after mixing ``words`` into ``pool``, each into every pool word."""
        p0, p1, p2, p3, i = pool
        if i + 4 * len(words) >= len(HASH_A):
            raise ValueError("too many entropy words")
        h = HASH_A
        for w in words:
            v = ((w ^ h[i]) * h[i + 1]) & M32
            r = (MIX_L * p0 - MIX_R * (v ^ (v >> 16))) & M32
            p0 = r ^ (r >> 16)
            v = ((w ^ h[i + 1]) * h[i + 2]) & M32
            r = (MIX_L * p1 - MIX_R * (v ^ (v >> 16))) & M32
            p1 = r ^ (r >> 16)
            v = ((w ^ h[i + 2]) * h[i + 3]) & M32
            r = (MIX_L * p2 - MIX_R * (v ^ (v >> 16))) & M32
            p2 = r ^ (r >> 16)
            v = ((w ^ h[i + 3]) * h[i + 4]) & M32
            r = (MIX_L * p3 - MIX_R * (v ^ (v >> 16))) & M32
            p3 = r ^ (r >> 16)
            i += 4
        return p0, p1, p2, p3, i

    @staticmethod
    def state_words(pool: Pool) -> list[int]:
        """``generate_state(4, np.uint64)``: four 64-bit words, each of two 32-bit ones."""
        h = HASH_B
        out = []
        for k in range(8):
            v = ((pool[k & 3] ^ h[k]) * h[k + 1]) & M32
            out.append(v ^ (v >> 16))
        return [out[0] | out[1] << 32, out[2] | out[3] << 32, out[4] | out[5] << 32, out[6] | out[7] << 32]


class Stream:
    """One PCG64 stream (numpy's ``PCG64(seed_seq)`` from the seed sequence's state words)."""

    __slots__ = ("state", "inc", "half")

    def __init__(self, words: list[int]):
        seed = (words[0] << 64) | words[1]
        self.inc = (((words[2] << 64) | words[3]) << 1 | 1) & M128
        # pcg_setseq_128_srandom_r: state 0, step, add the seed, step.
        state = self.inc
        state = (state + seed) & M128
        self.state = (state * PCG_MULT + self.inc) & M128
        self.half: int | None = None   # the high half of the last 64-bit output, not yet used

    def next64(self) -> int:
        """The next 64-bit output (XSL-RR of the stepped state)."""
        s = self.state = (self.state * PCG_MULT + self.inc) & M128
        hi = s >> 64
        x = hi ^ (s & M64)
        rot = hi >> 58
        return ((x >> rot) | (x << (64 - rot))) & M64

    def next32(self) -> int:
        """The next 32-bit word: the low half of a fresh 64-bit output, then its high half."""
        half = self.half
        if half is not None:
            self.half = None
            return half
        n = self.next64()
        self.half = n >> 32
        return n & M32

    def face(self, sides: int) -> int:
        """``integers(1, sides + 1)``: 1..sides by Lemire's method (sides < 2**32)."""
        m = self.next32() * sides
        low = m & M32
        if low < sides:
            threshold = (M32 - (sides - 1)) % sides
            while low < threshold:
                m = self.next32() * sides
                low = m & M32
        return 1 + (m >> 32)

    def random(self) -> float:
        """``random()``: a float in [0, 1) from the top 53 bits of a 64-bit output."""
        return (self.next64() >> 11) * (1.0 / 9007199254740992.0)
