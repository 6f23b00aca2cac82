"""Full states consistent with one seat's view: how the computer reasons without peeking.

The unseen cards are the 108 minus the seat's hand and the discard pile; a
determinisation deals them at random into the other hands, every pile and the
set-aside cards with the sizes the view shows.  The seat's own legal actions do
not depend on the deal, so any determinisation gives them.
"""

from __future__ import annotations

from fechtbuch.engines.touche_pyramiden.board import full_deck
from fechtbuch.engines.touche_pyramiden.notation import View
from fechtbuch.engines.touche_pyramiden.shuffle import HashStream
from fechtbuch.engines.touche_pyramiden.state import State


def unseen_cards(view: View) -> list[int]:
    """The cards the seat has not seen, sorted (a multiset)."""
    cards = full_deck()
    for k in (*view.hand, *view.discard):
        cards.remove(k)
    return sorted(cards)


def determinise(view: View, rng: HashStream | None = None) -> State:
    """A full state agreeing with ``view``; random if ``rng`` is given, else sorted."""
    cards = unseen_cards(view)
    if rng is not None:
        for i in range(len(cards) - 1, 0, -1):
            j = rng.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
    hands = []
    for s, size in enumerate(view.hand_sizes):
        if s == view.seat:
            hands.append(view.hand)
        else:
            hands.append(tuple(sorted(cards[:size])))
            cards = cards[size:]
    piles = []
    for size in view.pile_sizes:
        piles.append(tuple(cards[:size]))
        cards = cards[size:]
    return State(
        config=view.config,
        round=view.round,
        phase=view.phase,
        pattern=view.pattern,
        to_move=view.to_move,
        starter=view.starter,
        scores=view.scores,
        own=view.own,
        crowned=view.crowned,
        hands=tuple(hands),
        piles=tuple(piles),
        discard=view.discard,
        aside=tuple(cards),
        passes=view.passes,
        seed="hidden",
        leads=view.leads,
    )
