"""Cards and the board of ruleset ``pyramiden-1``: 108 cards, 112 fields.

A card *kind* is an int: ``suit * 13 + rank`` for the 52 ordinary cards (suits
``S H D C``, ranks ``A 2 .. 9 T J Q K``) and :data:`JOKER` (52) for the four
jokers.  Hands and piles hold kinds, so the two copies of a card are equal.

A field is an int ``0 .. 111`` numbered row by row from the bottom (``a1`` = 0,
``n1`` = 13, ``a2`` = 14, ..., ``n8`` = 111): the canonical order of the sheet.
The layout is built by the sheet's rule (left half: one deck in reading order,
right half: the left half turned by 180 degrees) and tested against its drawing.
"""

from __future__ import annotations

from fechtbuch.engines.errors import InputError

RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKER = 52
KINDS = 53
JOKER_TEXT = "XX"
DECK_SIZE = 108
HAND_SIZE = 5

ROWS = 8
COLS = 14
FIELDS = ROWS * COLS
COLUMN_NAMES = "abcdefghijklmn"

_FREE_CELLS = [(0, 0), (0, 13), (7, 0), (7, 13), (3, 6), (3, 7), (4, 6), (4, 7)]  # (row, col)
FREE_FIELDS: tuple[int, ...] = tuple(sorted(r * COLS + c for r, c in _FREE_CELLS))
FREE_MASK = sum(1 << f for f in FREE_FIELDS)
ALL_MASK = (1 << FIELDS) - 1
CARD_FIELD_MASK = ALL_MASK & ~FREE_MASK


class CardError(InputError):
    """A malformed card; the message names the field and quotes the text."""


class FieldError(InputError):
    """A malformed field name; the message names the field and quotes the text."""


def card_text(kind: int) -> str:
    """``"TH"`` for ten of hearts, ``"XX"`` for a joker."""
    if kind == JOKER:
        return JOKER_TEXT
    return RANKS[kind % 13] + SUITS[kind // 13]


def parse_card(text: str, what: str = "card") -> int:
    """The kind of a card written rank + suit (``TH``) or ``XX``."""
    if text == JOKER_TEXT:
        return JOKER
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise CardError(
            f"{what}: expected rank A23456789TJQK + suit SHDC (e.g. 'TH') or 'XX', "
            f"got {text[:200]!r}"
        )
    return SUITS.index(text[1]) * 13 + RANKS.index(text[0])


def field_name(field: int) -> str:
    """``"c7"`` for column c, row 7."""
    return COLUMN_NAMES[field % COLS] + str(field // COLS + 1)


def parse_field(text: str, what: str = "field") -> int:
    """The number of a field written column ``a``-``n`` + row ``1``-``8``."""
    if len(text) != 2 or text[0] not in COLUMN_NAMES or text[1] not in "12345678":
        raise FieldError(f"{what}: expected column a-n + row 1-8 (e.g. 'c7'), got {text[:200]!r}")
    return (int(text[1]) - 1) * COLS + COLUMN_NAMES.index(text[0])


def field_of(col: int, row: int) -> int:
    """Field number from 0-based column and row (row 0 is row 1 of the notation)."""
    return row * COLS + col


def _build_layout() -> tuple[int, ...]:
    """The card kind of every field (-1 for a free field), by the sheet's rule."""
    layout = [-1] * FIELDS
    deck = iter(range(52))
    for row in range(ROWS - 1, -1, -1):  # row 8 down to row 1
        for col in range(7):  # columns a-g
            f = field_of(col, row)
            if f not in FREE_FIELDS:
                layout[f] = next(deck)
    for row in range(ROWS):
        for col in range(7, COLS):
            f = field_of(col, row)
            if f not in FREE_FIELDS:
                layout[f] = layout[field_of(13 - col, 7 - row)]
    return tuple(layout)


FIELD_CARD: tuple[int, ...] = _build_layout()
"""The card kind of each field; -1 for the eight free fields."""

CARD_FIELDS: tuple[tuple[int, int], ...] = tuple(
    tuple(f for f in range(FIELDS) if FIELD_CARD[f] == k)  # type: ignore[misc]
    for k in range(52)
)
"""The two fields of each ordinary card kind, in canonical order."""

CARD_MASK: tuple[int, ...] = tuple((1 << a) | (1 << b) for a, b in CARD_FIELDS)


def full_deck() -> list[int]:
    """The 108 cards in a fixed order: two decks then four jokers."""
    return list(range(52)) * 2 + [JOKER] * 4


def drawing() -> str:
    """The board as the sheet draws it (row 8 on top), for tests and docs."""
    lines = ["     " + "  ".join(COLUMN_NAMES)]
    for row in range(ROWS - 1, -1, -1):
        cells = []
        for col in range(COLS):
            k = FIELD_CARD[field_of(col, row)]
            cells.append("**" if k < 0 else card_text(k))
        lines.append(f" {row + 1}  " + " ".join(cells))
    return "\n".join(lines)
