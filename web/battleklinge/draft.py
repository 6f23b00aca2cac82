"""The Kartenwahl (card draft) in the browser: eight open cards, picked alternately.

As the rulebook says: eight cards lie open, the schools pick one each in turn until
each has two (who picks first is drawn by lot), then one of the other four goes to
the side slot at random and its mark decides who starts.  The lot, the eight cards
and the side card come from SHA-256 of the game's seed.  The computer picks by the
terminal's rule of thumb (:func:`~fechtbuch.engines.battleklinge.terminal.draft.computer_pick`).

A :class:`Draft` is a table's *prelude* (``fechtbuch.web.table``): the table asks it
whose pick it is, which picks are open and, once done, for the start position.
"""

from __future__ import annotations

from fechtbuch.engines.battleklinge.cards import CARDS, NUM_CARDS, card_from_id, card_id
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.battleklinge.terminal.draft import computer_pick
from fechtbuch.engines.seeding import HashStream

OPEN_CARDS = 8


class Draft:
    """One draft in progress (mutable; the table owns it)."""

    def __init__(self, seed: str):
        stream = HashStream(f"battleklinge-web-draft/{seed}")
        self.open: list[int] = sorted(stream.shuffled(range(NUM_CARDS))[:OPEN_CARDS])
        self.first = stream.below(2)
        self.hands: list[list[int]] = [[], []]
        self.picks: list[tuple[int, int]] = []
        """(school, card) in the order picked."""
        self._stream = stream
        self._side: int | None = None

    def to_choose(self) -> int | None:
        """The school to pick, or ``None`` once both hold two cards."""
        if len(self.picks) == 2 * 2:
            return None
        return self.first if len(self.picks) % 2 == 0 else 1 - self.first

    def choices(self) -> dict[str, int]:
        return {card_id(card): card for card in self.open} if self.to_choose() is not None else {}

    def choose(self, text: str) -> None:
        school = self.to_choose()
        card = card_from_id(text)
        self.open.remove(card)
        self.hands[school].append(card)
        self.picks.append((school, card))

    def computer_choice(self) -> str:
        return card_id(computer_pick(self.open))

    def result(self) -> Position:
        """The start position once the draft is done (the side card by lot)."""
        if self._side is None:
            self._side = self.open[self._stream.below(len(self.open))]
        return Position.start(self.hands[0], self.hands[1], self._side)

    def view(self) -> dict:
        return {
            "open": [card_id(c) for c in self.open],
            "hands": [[card_id(c) for c in hand] for hand in self.hands],
            "to_choose": self.to_choose(),
            "first": self.first,
            "cards": {
                card_id(c): {
                    "name": CARDS[c].name,
                    "offsets": [list(o) for o in CARDS[c].offsets],
                    "mark": CARDS[c].mark,
                }
                for c in range(NUM_CARDS)
            },
        }

    def action_view(self, text: str) -> dict:
        return {"card": text, "label": CARDS[card_from_id(text)].name}
