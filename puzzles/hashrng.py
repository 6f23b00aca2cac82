"""A small random source driven by SHA-256 in counter mode.

Published artefacts (packs) must come out byte-identical for a seed on every
machine and Python version, which ``random`` and numpy's generators do not
promise.  Each draw hashes ``label / counter``; integers below a bound are
taken by rejection, so they are exactly uniform.

>>> rng = HashRandom("demo")
>>> [rng.below(10) for _ in range(5)]
[7, 0, 8, 4, 5]
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class HashRandom:
    """Deterministic draws from SHA-256(label/counter)."""

    def __init__(self, label: str) -> None:
        self._prefix = label.encode() + b"/"
        self._counter = 0

    def bits64(self) -> int:
        digest = hashlib.sha256(self._prefix + str(self._counter).encode()).digest()
        self._counter += 1
        return int.from_bytes(digest[:8], "big")

    def below(self, bound: int) -> int:
        """A uniform integer in ``range(bound)`` (rejection sampling)."""
        if bound <= 0:
            raise ValueError(f"bound must be positive, got {bound}")
        limit = (1 << 64) - (1 << 64) % bound
        while True:
            value = self.bits64()
            if value < limit:
                return value % bound

    def chance(self, numerator: int, denominator: int) -> bool:
        """True with probability numerator/denominator."""
        return self.below(denominator) < numerator

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def geometric_rank(self, count: int) -> int:
        """A rank in ``range(count)``: 0 with probability 1/2, 1 with 1/4, ... (the
        last rank takes the remainder).  Integer-only, so identical everywhere."""
        bits = self.bits64()
        rank = 0
        while rank < count - 1 and bits & 1:
            bits >>= 1
            rank += 1
        return rank

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A Fisher-Yates shuffle of a copy of ``items``."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
