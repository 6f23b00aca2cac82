"""Seeded set-up of a round: the shuffle, the deal and the lot for the first fencer.

Every draw is SHA-256 of ``label/seed/counter`` (integers below a bound by
rejection, so exactly uniform), so a seed string gives the same deal on every
machine and Python version, and a game record that names its seeds replays exactly.

The deal: the 25 cards (five each of 1..5) are shuffled with Fisher-Yates; the
first five go to fencer A, the next five to fencer B, the other fifteen form the
pile, top card first.

>>> from fechtbuch.engines.touche_duell.notation import format_position
>>> format_position(new_round("demo", starter=0))
'standard 1-23 0:0 A zug 23355/11234 00000 341252544251314'
>>> lot("demo") in (0, 1)
True
"""

from __future__ import annotations

from fechtbuch.engines.seeding import HashStream, shuffled
from fechtbuch.engines.touche_duell.state import NO_CARDS, NOBODY, Counts, Phase, Position, Ruleset

DEFAULT_RULES = Ruleset()
DECK = tuple(v for v in (1, 2, 3, 4, 5) for _ in range(5))


def shuffle(seed: str) -> tuple[int, ...]:
    """The 25 card values in the order the seed ``seed`` shuffles them."""
    return tuple(shuffled(DECK, f"touche-shuffle/{seed}"))


def lot(seed: str) -> int:
    """The fencer (0 = A, 1 = B) who starts the first round, drawn by lot from ``seed``."""
    return HashStream(f"touche-lot/{seed}").below(2)


def _counts(cards) -> Counts:
    return tuple(cards.count(v) for v in (1, 2, 3, 4, 5))  # type: ignore[return-value]


def new_round(
    seed: str,
    starter: int,
    rules: Ruleset = DEFAULT_RULES,
    score: tuple[int, int] = (0, 0),
) -> Position:
    """The start of a round: fencers on 1 and 23, the deal of ``seed``, ``starter`` to move."""
    cards = shuffle(seed)
    return Position(
        rules,
        (1, 23),
        score,
        starter,
        Phase.TURN,
        (0, 0),
        NOBODY,
        (_counts(cards[:5]), _counts(cards[5:10])),
        NO_CARDS,
        cards[10:],
    )


def round_seed(seed: str, number: int) -> str:
    """The shuffle seed of round ``number`` (1, 2, ...) of a game seeded with ``seed``."""
    return f"{seed}/{number}"
