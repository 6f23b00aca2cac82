"""Shared fixtures: seeded samples of positions for the differential tests, and the
Wartesaal tests' PostgreSQL (tests/wartesaal_postgres.py)."""

from __future__ import annotations

import random

import pytest
from fechtbuch.engines.battleklinge.sampling import random_game, random_placement
from wartesaal_postgres import postgres_url  # noqa: F401  (the Wartesaal tests' PostgreSQL)


@pytest.fixture(scope="session")
def played_positions():
    """About 4,000 positions from random games over random card sets (seeded)."""
    rng = random.Random(20261130)
    positions = []
    while len(positions) < 4000:
        positions.extend(random_game(rng, max_plies=50))
    return positions


@pytest.fixture(scope="session")
def placed_positions():
    """2,000 positions with random piece placement, pass and decided ones included."""
    rng = random.Random(7)
    return [random_placement(rng) for _ in range(2000)]


@pytest.fixture(scope="session")
def pass_positions():
    """Positions where the side to move must pass: its five pieces fill the enemy's
    back rank and its two cards move only forward or sideways (stoss, traverse,
    bindung).  Random play almost never reaches them, so they are built."""
    from fechtbuch.engines.battleklinge.cards import card_from_id
    from fechtbuch.engines.battleklinge.position import Position

    rng = random.Random(11)
    forward_only = [card_from_id(c) for c in ("stoss", "traverse", "bindung")]
    positions = []
    for mover in (0, 1):
        back_rank = [20, 21, 22, 23, 24] if mover == 0 else [0, 1, 2, 3, 4]
        for master_square in (back_rank[0], back_rank[1], back_rank[3], back_rank[4]):
            for drop in forward_only:
                hand = tuple(c for c in forward_only if c != drop)
                others = [c for c in range(16) if c not in hand]
                rest = rng.sample(others, 3)
                free = [s for s in range(25) if s not in back_rank]
                enemy = rng.sample(free, rng.randint(1, 5))
                students = [0, 0]
                masters = [0, 0]
                masters[mover] = 1 << master_square
                students[mover] = sum(1 << s for s in back_rank) & ~masters[mover]
                masters[1 - mover] = 1 << enemy[0]
                students[1 - mover] = sum(1 << s for s in enemy[1:])
                hands = [tuple(sorted(rest[:2])), tuple(sorted(rest[:2]))]
                hands[mover] = hand
                hands[1 - mover] = tuple(sorted(rest[:2]))
                pos = Position(
                    students=(students[0], students[1]),
                    masters=(masters[0], masters[1]),
                    turn=mover,
                    hands=(hands[0], hands[1]),
                    side=rest[2],
                )
                if pos.winner() is None:
                    positions.append(pos)
    return positions
