"""Seeded randomness for every game and every artefact: one SHA-256 stream.

Deals, mined packs, records and the daily duel must replay byte for byte on every
machine and Python version, which ``random`` and numpy do not promise.  So every
seeded draw comes from one construction, a counter-mode stream over SHA-256:

* block ``c`` of the stream labelled ``L`` is ``SHA-256("L/c")`` (the text as UTF-8,
  which is ASCII for every label but a player's own seed text);
* a stream reads the first ``words_per_block`` unsigned big-endian 64-bit words of
  each block (1 for the games and the miner; the daily duel's published derivation,
  docs/daily.md, reads all 4), then moves on to the next block;
* a bound is met by rejection in :meth:`HashStream.below`, so every value and every
  permutation is exactly equally likely.  (The daily duel's derivation takes the
  words modulo the bound instead, as its specification says; see its module.)

>>> stream = HashStream("demo")
>>> [stream.below(10) for _ in range(5)], shuffled([1, 2, 3, 4], "demo")
([7, 0, 8, 4, 5], [2, 3, 1, 4])
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

WORDS_PER_DIGEST = 4
"""A SHA-256 digest holds four 64-bit words."""


def sha256_text(text: str) -> bytes:
    """SHA-256 of ``text`` encoded as UTF-8."""
    return hashlib.sha256(text.encode()).digest()


def u64(block: bytes, index: int = 0) -> int:
    """The ``index``-th unsigned 64-bit big-endian word of a digest (0 to 3).

    >>> u64(bytes(range(32)), 1)
    579005069656919567
    """
    return int.from_bytes(block[8 * index : 8 * index + 8], "big")


class HashStream:
    """Uniform draws from SHA-256(label/counter), identical everywhere."""

    def __init__(self, label: str, words_per_block: int = 1) -> None:
        if not 1 <= words_per_block <= WORDS_PER_DIGEST:
            raise ValueError(f"words_per_block: 1 to 4, got {words_per_block}")
        self._label = label
        self._words_per_block = words_per_block
        self._counter = 0
        self._pending: list[int] = []

    def next_u64(self) -> int:
        """The stream's next 64-bit word."""
        if not self._pending:
            block = sha256_text(f"{self._label}/{self._counter}")
            self._counter += 1
            self._pending = [u64(block, i) for i in reversed(range(self._words_per_block))]
        return self._pending.pop()

    def below(self, bound: int) -> int:
        """A uniform integer in ``0 .. bound - 1`` (rejection sampling)."""
        if bound <= 0:
            raise ValueError(f"bound must be positive, got {bound}")
        limit = (1 << 64) - (1 << 64) % bound
        while True:
            value = self.next_u64()
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
        bits = self.next_u64()
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


def shuffled(items: Sequence[T], label: str) -> list[T]:
    """A Fisher-Yates shuffle of ``items`` driven by the stream ``label``."""
    return HashStream(label).shuffled(items)
