"""Positions and moves of Battleklinge, and their text notation.

Squares are small ints ``0..24``: ``square = rank * 5 + file`` with file 0..4
for a..e and rank 0..4 for 1..5 (so a1 = 0, e1 = 4, c5 = 22).  A bitboard is
an int whose bit ``square`` is set for each occupied square (25 bits).

Position notation: ``<board> <turn> <gold-hand> <blau-hand> <side>``.

>>> pos = Position.from_text("ssmss/5/5/5/SSMSS g volte,ausfall bindung,stoss riposte")
>>> pos.to_text()
'ssmss/5/5/5/SSMSS g ausfall,volte stoss,bindung riposte'
>>> Move.from_text("Ausfall:C1C3").to_text()
'ausfall:c1c3'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from fechtbuch.engines import errors
from fechtbuch.engines.battleklinge.cards import (
    BLAU,
    COLOR_CHARS,
    GOLD,
    MIRROR,
    Card,
    CardError,
    Color,
    card_from_id,
    card_id,
)

Square: TypeAlias = int
Bitboard: TypeAlias = int

FILE_NAMES = "abcde"
RANK_NAMES = "12345"
SQUARES = range(25)
BOARD_MASK: Bitboard = (1 << 25) - 1

BANNER: tuple[Square, Square] = (2, 22)
"""``BANNER[color]`` is the square that color's master starts on (c1, c5)."""


class NotationError(errors.NotationError):
    """Malformed position or move text; the message names the field and quotes it."""


class IllegalMoveError(errors.IllegalActionError):
    """A well-formed move that is not legal in the given position."""


def square(file: int, rank: int) -> Square:
    """The square at file 0..4 (a..e) and rank 0..4 (1..5)."""
    return rank * 5 + file


def square_file(sq: Square) -> int:
    return sq % 5


def square_rank(sq: Square) -> int:
    return sq // 5


def square_name(sq: Square) -> str:
    """The name of a square.

    >>> square_name(2)
    'c1'
    """
    return FILE_NAMES[sq % 5] + RANK_NAMES[sq // 5]


def parse_square(text: str) -> Square:
    """Parse a square name.

    >>> parse_square("e5")
    24
    """
    if len(text) == 2 and text[0] in FILE_NAMES and text[1] in RANK_NAMES:
        return square(FILE_NAMES.index(text[0]), RANK_NAMES.index(text[1]))
    raise NotationError(f"bad square {text!r}")


def mirror_square(sq: Square) -> Square:
    """The square reflected left-right (a <-> e)."""
    return square(4 - sq % 5, sq // 5)


def mirror_bitboard(bb: Bitboard) -> Bitboard:
    out = 0
    for sq in iter_squares(bb):
        out |= 1 << mirror_square(sq)
    return out


def iter_squares(bb: Bitboard):
    """Yield the squares of a bitboard in increasing order."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def _parse_color(text: str, field: str) -> Color:
    if text in ("g", "b"):
        return COLOR_CHARS.index(text)
    raise NotationError(f"{field}: expected 'g' or 'b', got {text!r}")


def _parse_hand(text: str, field: str) -> tuple[Card, Card]:
    parts = text.split(",")
    if len(parts) != 2 or not all(parts):
        raise NotationError(f"{field}: expected two card ids joined by ',', got {text!r}")
    try:
        cards = tuple(sorted(card_from_id(p) for p in parts))
    except CardError as err:
        raise NotationError(f"{field}: {err}") from None
    return cards  # type: ignore[return-value]


@dataclass(frozen=True)
class Position:
    """A Battleklinge position: pieces, the two hands, the side card, the side to move.

    Hands are stored sorted by card index (the canonical order), so two
    positions that differ only in the order of cards within a hand are equal.
    """

    students: tuple[Bitboard, Bitboard]
    masters: tuple[Bitboard, Bitboard]
    turn: Color
    hands: tuple[tuple[Card, Card], tuple[Card, Card]]
    side: Card

    # ---- construction -------------------------------------------------
    @classmethod
    def start(cls, gold_hand, blau_hand, side: Card) -> Position:
        """The start position for a deal; the side card's mark decides who starts.

        >>> from fechtbuch.engines.battleklinge.cards import CARDS
        >>> Position.start((0, 5), (4, 6), 3).to_text()
        'ssmss/5/5/5/SSMSS g ausfall,volte stoss,bindung riposte'
        """
        from fechtbuch.engines.battleklinge.cards import CARDS

        rank1 = sum(1 << square(f, 0) for f in (0, 1, 3, 4))
        rank5 = sum(1 << square(f, 4) for f in (0, 1, 3, 4))
        return cls(
            students=(rank1, rank5),
            masters=(1 << BANNER[GOLD], 1 << BANNER[BLAU]),
            turn=CARDS[side].mark,
            hands=(tuple(sorted(gold_hand)), tuple(sorted(blau_hand))),  # type: ignore[arg-type]
            side=side,
        )

    @classmethod
    def from_text(cls, text: str) -> Position:
        """Parse position notation; raises :class:`NotationError` quoting the bad field."""
        fields = text.strip().split(" ")
        if len(fields) != 5:
            raise NotationError(
                f"position: expected 5 fields '<board> <turn> <gold-hand> <blau-hand> <side>', "
                f"got {len(fields)} in {text!r}"
            )
        board_text, turn_text, gold_text, blau_text, side_text = fields
        students = [0, 0]
        masters = [0, 0]
        ranks = board_text.split("/")
        if len(ranks) != 5:
            raise NotationError(f"board: expected 5 ranks separated by '/', got {board_text!r}")
        for row, rank_text in enumerate(ranks):
            rank = 4 - row
            file = 0
            for ch in rank_text:
                if ch in "12345":
                    file += int(ch)
                elif ch in "MSms":
                    if file >= 5:
                        file += 1
                        break
                    color = GOLD if ch.isupper() else BLAU
                    bit = 1 << square(file, rank)
                    if ch in "Mm":
                        masters[color] |= bit
                    else:
                        students[color] |= bit
                    file += 1
                else:
                    raise NotationError(
                        f"board: unknown piece {ch!r} in rank {RANK_NAMES[rank]} {rank_text!r}"
                    )
            if file != 5:
                raise NotationError(
                    f"board: rank {RANK_NAMES[rank]} {rank_text!r} is not 5 squares long"
                )
        for color, name in ((GOLD, "Gold"), (BLAU, "Blau")):
            if bin(masters[color]).count("1") > 1:
                raise NotationError(f"board: more than one {name} master in {board_text!r}")
            if bin(masters[color] | students[color]).count("1") > 5:
                raise NotationError(f"board: more than five {name} pieces in {board_text!r}")
        if not masters[GOLD] and not masters[BLAU]:
            raise NotationError(f"board: both masters missing in {board_text!r}")
        if masters[GOLD] == 1 << BANNER[BLAU] and masters[BLAU] == 1 << BANNER[GOLD]:
            raise NotationError(f"board: both masters on the enemy banner in {board_text!r}")
        turn = _parse_color(turn_text, "turn")
        gold_hand = _parse_hand(gold_text, "gold hand")
        blau_hand = _parse_hand(blau_text, "blau hand")
        try:
            side = card_from_id(side_text)
        except CardError as err:
            raise NotationError(f"side: {err}") from None
        all_cards = [*gold_hand, *blau_hand, side]
        if len(set(all_cards)) != 5:
            twice = next(c for c in all_cards if all_cards.count(c) > 1)
            raise NotationError(f"cards: {card_id(twice)!r} used twice in {text.strip()!r}")
        return cls(
            students=(students[0], students[1]),
            masters=(masters[0], masters[1]),
            turn=turn,
            hands=(gold_hand, blau_hand),
            side=side,
        )

    def to_text(self) -> str:
        """Canonical notation (hand cards in table order)."""
        rows = []
        for rank in range(4, -1, -1):
            row, empty = "", 0
            for file in range(5):
                bit = 1 << square(file, rank)
                ch = ""
                if self.masters[GOLD] & bit:
                    ch = "M"
                elif self.students[GOLD] & bit:
                    ch = "S"
                elif self.masters[BLAU] & bit:
                    ch = "m"
                elif self.students[BLAU] & bit:
                    ch = "s"
                if ch:
                    if empty:
                        row += str(empty)
                        empty = 0
                    row += ch
                else:
                    empty += 1
            if empty:
                row += str(empty)
            rows.append(row)
        hands = [",".join(card_id(c) for c in hand) for hand in self.hands]
        turn = COLOR_CHARS[self.turn]
        return f"{'/'.join(rows)} {turn} {hands[0]} {hands[1]} {card_id(self.side)}"

    def __str__(self) -> str:
        return self.to_text()

    # ---- derived facts ------------------------------------------------
    def pieces(self, color: Color) -> Bitboard:
        return self.students[color] | self.masters[color]

    @property
    def cards(self) -> tuple[Card, ...]:
        """The five cards in play, sorted."""
        return tuple(sorted((*self.hands[0], *self.hands[1], self.side)))

    def winner(self) -> Color | None:
        """The school that has already won, or None if the game goes on.

        >>> Position.from_text("2M2/5/2m2/5/5 b ausfall,volte bindung,stoss riposte").winner()
        0
        """
        for color in (GOLD, BLAU):
            enemy = 1 - color
            if not self.masters[enemy] or self.masters[color] == 1 << BANNER[enemy]:
                return color
        return None

    def is_decided(self) -> bool:
        return self.winner() is not None

    def key(self) -> tuple:
        """Repetition key: pieces, both hands (as sets), side card and turn."""
        return (self.students, self.masters, self.turn, self.hands, self.side)

    def mirror(self) -> Position:
        """The left-right mirror: board reflected, every card swapped for its mirror."""
        return Position(
            students=(mirror_bitboard(self.students[0]), mirror_bitboard(self.students[1])),
            masters=(mirror_bitboard(self.masters[0]), mirror_bitboard(self.masters[1])),
            turn=self.turn,
            hands=tuple(tuple(sorted(MIRROR[c] for c in hand)) for hand in self.hands),  # type: ignore[arg-type]
            side=MIRROR[self.side],
        )


@dataclass(frozen=True, order=True)
class Move:
    """A move: a card and a from/to square pair, or a pass (``from_sq is None``).

    >>> Move.from_text("volte:pass")
    Move(card=5, from_sq=None, to_sq=None)
    """

    card: Card
    from_sq: Square | None = None
    to_sq: Square | None = None

    @property
    def is_pass(self) -> bool:
        return self.from_sq is None

    @classmethod
    def from_text(cls, text: str) -> Move:
        stripped = text.strip()
        card_text, sep, rest = stripped.partition(":")
        if not sep:
            raise NotationError(
                f"move: expected '<card>:<from><to>' or '<card>:pass', got {text!r}"
            )
        try:
            card = card_from_id(card_text)
        except CardError as err:
            raise NotationError(f"move: {err}") from None
        rest = rest.lower()
        if rest == "pass":
            return cls(card)
        if len(rest) != 4:
            raise NotationError(f"move: expected '<from><to>' like 'c1c3' after ':', got {text!r}")
        try:
            return cls(card, parse_square(rest[:2]), parse_square(rest[2:]))
        except NotationError:
            raise NotationError(f"move: bad square in {text!r}") from None

    def to_text(self) -> str:
        if self.from_sq is None or self.to_sq is None:
            return f"{card_id(self.card)}:pass"
        return f"{card_id(self.card)}:{square_name(self.from_sq)}{square_name(self.to_sq)}"

    def __str__(self) -> str:
        return self.to_text()

    def mirror(self) -> Move:
        if self.from_sq is None or self.to_sq is None:
            return Move(MIRROR[self.card])
        return Move(MIRROR[self.card], mirror_square(self.from_sq), mirror_square(self.to_sq))


START_EINSTEIGER = "ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte"
"""The start position of the einsteiger set dealt as in the rules' example."""
