"""Seeded shuffles from SHA-256: the same seed deals the same cards everywhere.

Each draw hashes ``label/counter``; bounds are met by rejection, so every
permutation is equally likely.  (``random`` and numpy streams are not promised
to stay the same across versions; records and packs must replay byte for byte.)
"""

from __future__ import annotations

import hashlib
import re

from fechtbuch.engines.errors import InputError

SEED_RE = re.compile(r"[A-Za-z0-9._-]{1,64}")


def check_seed(seed: str, what: str = "seed") -> str:
    """A seed must fit in one notation token: letters, digits, ``. _ -``, 1-64 chars."""
    if not SEED_RE.fullmatch(seed):
        raise InputError(f"{what}: expected 1-64 letters, digits or '._-', got {seed[:200]!r}")
    return seed


class HashStream:
    """Uniform integers from SHA-256(label/counter)."""

    def __init__(self, label: str) -> None:
        self._prefix = label.encode() + b"/"
        self._counter = 0

    def below(self, bound: int) -> int:
        limit = (1 << 64) - (1 << 64) % bound
        while True:
            digest = hashlib.sha256(self._prefix + str(self._counter).encode()).digest()
            self._counter += 1
            value = int.from_bytes(digest[:8], "big")
            if value < limit:
                return value % bound


def shuffled(items: list, label: str) -> list:
    """A Fisher-Yates shuffle of ``items`` driven by ``label``."""
    out = list(items)
    stream = HashStream(label)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
