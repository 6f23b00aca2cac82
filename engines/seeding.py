"""Seeded randomness for every game: uniform integers and shuffles from SHA-256.

Each draw hashes ``label/counter`` (the first 8 bytes, big-endian); a bound is met by
rejection, so every value and every permutation is exactly equally likely.  The same
label gives the same stream on every machine and Python version, which ``random`` and
numpy do not promise: deals, records and packs must replay byte for byte.

>>> HashStream("demo").below(10), shuffled([1, 2, 3, 4], "demo")
(7, [2, 3, 1, 4])
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class HashStream:
    """Uniform integers from SHA-256(label/counter)."""

    def __init__(self, label: str) -> None:
        self._prefix = label.encode() + b"/"
        self._counter = 0

    def below(self, bound: int) -> int:
        """A uniform integer in ``0 .. bound - 1``."""
        limit = (1 << 64) - (1 << 64) % bound
        while True:
            digest = hashlib.sha256(self._prefix + str(self._counter).encode()).digest()
            self._counter += 1
            value = int.from_bytes(digest[:8], "big")
            if value < limit:
                return value % bound


def shuffled(items: Sequence[T], label: str) -> list[T]:
    """A Fisher-Yates shuffle of ``items`` driven by ``label``."""
    out = list(items)
    stream = HashStream(label)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
