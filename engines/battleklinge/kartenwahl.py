"""The Kartenwahl at a table: Battleklinge with the card draft in front, as one game
on the seam.

Rulebook: eight cards lie open; the schools pick alternately, one card each time,
until each has two (who picks first is drawn by lot); one of the other four goes to
the side slot at random and its mark decides who starts.  Online the clock already
runs during the Kartenwahl, so at a table each pick is an action of the game.

A state is a :class:`Draft` until the fourth pick, then the :class:`Position` of the
deal.  The full draft fixes the chance that is still to come: ``side`` is the rank,
among the four cards left over, of the one that will go to the side slot; no player
sees it (:meth:`KartenwahlGame.information_state` writes ``seite=?``).  Notation::

    kartenwahl offen=ausfall,battuta,... gold=stoss blau=- wahl=b seite=2

(open cards in table order, each school's picks, ``wahl`` the school to pick, ``seite``
the rank 0-3).  A pick is written ``wahl:<card id>``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from fechtbuch.engines.battleklinge.cards import (
    BLAU,
    GOLD,
    NUM_CARDS,
    Card,
    CardError,
    card_from_id,
    card_id,
)
from fechtbuch.engines.battleklinge.game import GAME
from fechtbuch.engines.battleklinge.position import IllegalMoveError, NotationError, Position
from fechtbuch.engines.game import Game, GameInfo
from fechtbuch.engines.seeding import HashStream, shuffled

OPEN_CARDS = 8
PICKS = 2
PREFIX = "kartenwahl"
PICK = "wahl"
SCHOOL_LETTERS = {GOLD: "g", BLAU: "b"}


@dataclass(frozen=True)
class Draft:
    open: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    picker: int
    side: int
    """The rank (0-3) among the leftover cards of the one for the side slot."""

    @classmethod
    def deal(cls, seed: str) -> Draft:
        cards = sorted(shuffled(list(range(NUM_CARDS)), f"battleklinge-kartenwahl/{seed}")[:8])
        picker = HashStream(f"battleklinge-kartenwahl-lot/{seed}").below(2)
        side = HashStream(f"battleklinge-kartenwahl-side/{seed}").below(OPEN_CARDS - 2 * PICKS)
        return cls(tuple(cards), ((), ()), picker, side)

    def text(self, hide_side: bool) -> str:
        def cards(items: Sequence[Card]) -> str:
            return ",".join(card_id(c) for c in items) or "-"

        return " ".join(
            (
                PREFIX,
                f"offen={cards(self.open)}",
                f"gold={cards(self.hands[GOLD])}",
                f"blau={cards(self.hands[BLAU])}",
                f"wahl={SCHOOL_LETTERS[self.picker]}",
                f"seite={'?' if hide_side else self.side}",
            )
        )

    @classmethod
    def from_text(cls, text: str) -> Draft:
        fields = text.split(" ")
        keys = ("offen", "gold", "blau", "wahl", "seite")
        if fields[0] != PREFIX or [f.partition("=")[0] for f in fields[1:]] != list(keys):
            raise NotationError(
                f"kartenwahl: expected 'kartenwahl offen=... gold=... blau=... wahl=g|b "
                f"seite=0-3', got {text[:200]!r}"
            )
        values = dict(f.partition("=")[::2] for f in fields[1:])

        def cards(field: str) -> tuple[Card, ...]:
            if values[field] == "-":
                return ()
            try:
                return tuple(card_from_id(c) for c in values[field].split(","))
            except CardError as err:
                raise NotationError(f"{field}: {err}") from None

        open_cards, gold, blau = cards("offen"), cards("gold"), cards("blau")
        every = open_cards + gold + blau
        if len(every) != OPEN_CARDS or len(set(every)) != OPEN_CARDS:
            raise NotationError(f"offen: eight different cards in all, got {text[:200]!r}")
        if max(len(gold), len(blau)) >= PICKS and min(len(gold), len(blau)) >= PICKS:
            raise NotationError("gold: the Kartenwahl is over once both schools have two")
        if abs(len(gold) - len(blau)) > 1:
            raise NotationError("gold: the schools pick alternately")
        letters = {v: k for k, v in SCHOOL_LETTERS.items()}
        if values["wahl"] not in letters:
            raise NotationError(f"wahl: expected g or b, got {values['wahl'][:20]!r}")
        picker = letters[values["wahl"]]
        if len((gold, blau)[picker]) > len((gold, blau)[1 - picker]):
            raise NotationError("wahl: the school with more cards does not pick next")
        if values["seite"] not in ("0", "1", "2", "3"):
            raise NotationError(f"seite: expected 0 to 3, got {values['seite'][:20]!r}")
        return cls(open_cards, (gold, blau), picker, int(values["seite"]))


class KartenwahlGame(Game):
    """Battleklinge with the Kartenwahl in front (players: Gold 0, Blau 1)."""

    info = GameInfo(
        name="battleklinge",
        title="Battleklinge with the Kartenwahl",
        min_players=2,
        max_players=2,
        hidden_information=True,  # the side card, while the draft lasts
        chance=True,
    )

    def parse_state(self, text: str) -> Draft | Position:
        if isinstance(text, str) and text.startswith(PREFIX + " "):
            return Draft.from_text(text)
        return GAME.parse_state(text)

    def format_state(self, state) -> str:
        return state.text(hide_side=False) if isinstance(state, Draft) else GAME.format_state(state)

    def information_state(self, state, player: int) -> str:
        return state.text(hide_side=True) if isinstance(state, Draft) else GAME.format_state(state)

    def parse_action(self, state, text: str):
        if not isinstance(state, Draft):
            return GAME.parse_action(state, text)
        kind, _, name = text.strip().partition(":")
        if kind != PICK:
            raise NotationError(f"pick: expected '{PICK}:<card id>', got {text[:200]!r}")
        try:
            return (PICK, card_from_id(name))
        except CardError as err:
            raise NotationError(f"pick: {err}") from None

    def format_action(self, state, action) -> str:
        if isinstance(state, Draft):
            return f"{PICK}:{card_id(action[1])}"
        return GAME.format_action(state, action)

    def num_players(self, state) -> int:
        return 2

    def current_player(self, state) -> int:
        return state.picker if isinstance(state, Draft) else GAME.current_player(state)

    def legal_actions(self, state) -> Sequence:
        if isinstance(state, Draft):
            return [(PICK, card) for card in state.open]
        return GAME.legal_actions(state)

    def apply(self, state, action):
        if not isinstance(state, Draft):
            return GAME.apply(state, action)
        card = action[1] if isinstance(action, tuple) and len(action) == 2 else None
        if card not in state.open:
            raise IllegalMoveError(f"pick: {action!r:.60} is not an open card")
        hands = list(state.hands)
        hands[state.picker] = (*hands[state.picker], card)
        rest = tuple(c for c in state.open if c != card)
        if all(len(hand) == PICKS for hand in hands):
            return Position.start(hands[GOLD], hands[BLAU], rest[state.side])
        return Draft(rest, (hands[GOLD], hands[BLAU]), 1 - state.picker, state.side)

    def is_terminal(self, state) -> bool:
        return False if isinstance(state, Draft) else GAME.is_terminal(state)

    def returns(self, state) -> tuple[float, ...]:
        return GAME.returns(state)

    def state_key(self, state) -> Hashable:
        return state if isinstance(state, Draft) else GAME.state_key(state)


KARTENWAHL = KartenwahlGame()
