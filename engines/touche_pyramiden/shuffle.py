"""Seeded shuffles from SHA-256: the same seed deals the same cards everywhere.

Each draw hashes ``label/counter``; bounds are met by rejection, so every
permutation is equally likely.  (``random`` and numpy streams are not promised
to stay the same across versions; records and packs must replay byte for byte.)
"""

from __future__ import annotations

import re

from fechtbuch.engines.errors import InputError
from fechtbuch.engines.seeding import HashStream, shuffled

__all__ = ["HashStream", "SEED_RE", "check_seed", "shuffled"]

SEED_RE = re.compile(r"[A-Za-z0-9._-]{1,64}")


def check_seed(seed: str, what: str = "seed") -> str:
    """A seed must fit in one notation token: letters, digits, ``. _ -``, 1-64 chars."""
    if not SEED_RE.fullmatch(seed):
        raise InputError(f"{what}: expected 1-64 letters, digits or '._-', got {seed[:200]!r}")
    return seed
