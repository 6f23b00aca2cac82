"""The sixteen Battleklinge movement cards and the named card sets.

A card is a small int, its index in :data:`CARDS` (the table order of the
rules; canonical output lists hand cards in this order).  Offsets are
``(dx, dy)`` seen from the mover: ``+dx`` to the mover's right, ``+dy``
toward the opponent.  Gold applies them as they are; Blau applies
``(-dx, -dy)``.

>>> CARDS[card_from_id("Stoß")].name
'Stoß'
>>> [CARDS[c].id for c in CARD_SETS["einsteiger"]]
['ausfall', 'riposte', 'stoss', 'volte', 'bindung']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from fechtbuch.engines.errors import InputError, quote

Card: TypeAlias = int
"""Index of a card in :data:`CARDS`, 0 to 15."""

GOLD = 0
BLAU = 1
Color: TypeAlias = int
"""0 for Gold (bottom, moves first when the side card is marked g), 1 for Blau."""

COLOR_CHARS = "gb"
COLOR_NAMES = ("Gold", "Blau")


class CardError(InputError):
    """An unknown card id or a malformed card list."""


@dataclass(frozen=True)
class CardSpec:
    """One movement card: its id, printed name, offsets, colour mark and mirror."""

    id: str
    name: str
    offsets: tuple[tuple[int, int], ...]
    mark: Color
    mirror: str


CARDS: tuple[CardSpec, ...] = (
    CardSpec("ausfall", "Ausfall", ((0, 2), (0, -1)), BLAU, "ausfall"),
    CardSpec("moulinet", "Moulinet", ((-2, 1), (2, 1), (-1, -1), (1, -1)), GOLD, "moulinet"),
    CardSpec("traverse", "Traverse", ((0, 1), (-2, 0), (2, 0)), BLAU, "traverse"),
    CardSpec("riposte", "Riposte", ((-1, 1), (1, 1), (0, -1)), GOLD, "riposte"),
    CardSpec("stoss", "Stoß", ((0, 1), (-1, 0), (1, 0)), GOLD, "stoss"),
    CardSpec("volte", "Volte", ((-1, 1), (1, 1), (-1, -1), (1, -1)), BLAU, "volte"),
    CardSpec("bindung", "Bindung", ((-1, 1), (1, 1), (-1, 0), (1, 0)), GOLD, "bindung"),
    CardSpec("battuta", "Battuta", ((0, 1), (-1, -1), (1, -1)), BLAU, "battuta"),
    CardSpec("passata", "Passata", ((-2, 0), (-1, 1), (1, -1)), GOLD, "inquartata"),
    CardSpec("inquartata", "Inquartata", ((2, 0), (1, 1), (-1, -1)), BLAU, "passata"),
    CardSpec("prim", "Prim", ((-1, 1), (-1, 0), (1, 0), (1, -1)), BLAU, "sekond"),
    CardSpec("sekond", "Sekond", ((1, 1), (-1, 0), (1, 0), (-1, -1)), GOLD, "prim"),
    CardSpec("terz", "Terz", ((0, 1), (1, 0), (0, -1)), BLAU, "quart"),
    CardSpec("quart", "Quart", ((0, 1), (-1, 0), (0, -1)), GOLD, "terz"),
    CardSpec("quint", "Quint", ((-1, 1), (1, 0), (-1, -1)), BLAU, "sixt"),
    CardSpec("sixt", "Sixt", ((-1, 0), (1, 1), (1, -1)), GOLD, "quint"),
)
NUM_CARDS = len(CARDS)

_CARD_BY_ID = {spec.id: index for index, spec in enumerate(CARDS)}
_ALIASES = {"stoß": "stoss"}

MIRROR: tuple[Card, ...] = tuple(_CARD_BY_ID[spec.mirror] for spec in CARDS)
"""``MIRROR[c]`` is the card whose offsets are those of ``c`` with dx negated."""


def card_from_id(text: str) -> Card:
    """Parse a card id: case-insensitive, ``stoß`` accepted for ``stoss``.

    >>> card_from_id("AUSFALL")
    0
    >>> card_from_id("florett")
    Traceback (most recent call last):
    ...
    fechtbuch.engines.battleklinge.cards.CardError: unknown card 'florett'
    """
    key = text.strip().lower()
    key = _ALIASES.get(key, key)
    try:
        return _CARD_BY_ID[key]
    except KeyError:
        raise CardError(f"unknown card {quote(text)}") from None


def card_id(card: Card) -> str:
    """The id of a card, as written in notation."""
    return CARDS[card].id


CARD_SETS: dict[str, tuple[Card, ...]] = {
    name: tuple(sorted(card_from_id(c) for c in ids))
    for name, ids in {
        "einsteiger": ("ausfall", "volte", "bindung", "stoss", "riposte"),
        "angriff": ("ausfall", "moulinet", "traverse", "riposte", "stoss"),
        "verteidigung": ("battuta", "volte", "terz", "quart", "bindung"),
    }.items()
}
"""The fixed card sets of the rulebook ("zufall" draws five at random)."""


def parse_card_list(text: str) -> tuple[Card, ...]:
    """Parse a named set or a comma-separated list of five distinct card ids.

    >>> parse_card_list("ausfall,stoß,volte,bindung,riposte") == CARD_SETS["einsteiger"]
    True
    """
    key = text.strip().lower()
    if key in CARD_SETS:
        return CARD_SETS[key]
    parts = key.split(",")
    if len(parts) != 5 or not all(p.strip() for p in parts):
        raise CardError(
            f"card list {quote(text)} must name a set ({', '.join(CARD_SETS)}) "
            "or five distinct card ids joined by ','"
        )
    cards = tuple(sorted(card_from_id(p) for p in parts))
    if len(set(cards)) != 5:
        raise CardError(f"card list {quote(text)} names a card twice")
    return cards
