"""Random positions for tests and for candidate generation.

Every function takes an explicit :class:`random.Random` so callers control the
stream; no module state.  (Published artefacts such as the daily duel derive
their randomness from SHA-256 instead; see puzzles/battleklinge/daily/.)
"""

from __future__ import annotations

import random

from fechtbuch.engines.battleklinge import reference
from fechtbuch.engines.battleklinge.cards import CARD_SETS, NUM_CARDS, Card
from fechtbuch.engines.battleklinge.position import BANNER, Position


def random_cards(rng: random.Random) -> tuple[Card, ...]:
    """Five cards: a named set one time in four, else five of sixteen."""
    if rng.random() < 0.25:
        return rng.choice(list(CARD_SETS.values()))
    return tuple(sorted(rng.sample(range(NUM_CARDS), 5)))


def random_deal(rng: random.Random, cards: tuple[Card, ...]) -> Position:
    """The start position with ``cards`` dealt at random to hands and side slot."""
    order = list(cards)
    rng.shuffle(order)
    return Position.start(order[:2], order[2:4], order[4])


def random_game(rng: random.Random, max_plies: int = 60, cards=None) -> list[Position]:
    """Positions of one random game (uniform moves) from a random deal, start included.

    Stops at a decided position or after ``max_plies``.
    """
    pos = random_deal(rng, cards if cards is not None else random_cards(rng))
    positions = [pos]
    for _ in range(max_plies):
        if pos.winner() is not None:
            break
        pos = reference.play(pos, rng.choice(reference.legal_moves(pos)))
        positions.append(pos)
    return positions


def live_positions(count: int, seed: int, max_plies: int = 40, skip: int = 0) -> list[Position]:
    """``count`` undecided positions from random games seeded ``seed``: each game's
    positions after its first ``skip`` plies, up to ``max_plies`` plies, in order.

    The one sampler of live positions for benchmarks and tests; the same arguments
    give the same positions (so the node counts of a benchmark stay its signature).
    """
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        out.extend(p for p in random_game(rng, max_plies=max_plies)[skip:] if p.winner() is None)
    return out[:count]


def random_placement(rng: random.Random) -> Position:
    """A position with pieces placed at random (not necessarily reachable by play).

    Each school has 0-4 students and usually a master; at least one master is
    on the board and the two masters are never both on the enemy banners.
    """
    while True:
        squares = rng.sample(range(25), 10)
        counts = (rng.randint(0, 4), rng.randint(0, 4))
        has_master = [rng.random() < 0.9, rng.random() < 0.9]
        if not any(has_master):
            continue
        masters = [0, 0]
        students = [0, 0]
        taken = iter(squares)
        for color in (0, 1):
            if has_master[color]:
                masters[color] = 1 << next(taken)
            for _ in range(counts[color]):
                students[color] |= 1 << next(taken)
        if masters[0] == 1 << BANNER[1] and masters[1] == 1 << BANNER[0]:
            continue
        cards = rng.sample(range(NUM_CARDS), 5)
        return Position(
            students=(students[0], students[1]),
            masters=(masters[0], masters[1]),
            turn=rng.randint(0, 1),
            hands=(tuple(sorted(cards[:2])), tuple(sorted(cards[2:4]))),  # type: ignore[arg-type]
            side=cards[4],
        )
