"""Kartenwahl (card draft): eight cards lie open, the schools pick alternately
until each has two; one of the other four goes to the side slot at random and
its mark decides who starts.

The computer picks by a documented rule of thumb: the card with the most
jumps, forward jumps counting one and a half (reach toward the enemy master
and banner wins games), ties by the table order.
"""

from __future__ import annotations

import random
from typing import TextIO

from fechtbuch.engines.battleklinge.cards import CARDS, COLOR_NAMES, Card, CardError, card_from_id
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.battleklinge.textboard import card_grid


def card_value(card: Card) -> float:
    """Jumps, forward ones counting one and a half.

    >>> card_value(0), card_value(1)
    (2.5, 5.0)
    """
    offsets = CARDS[card].offsets
    return len(offsets) + 0.5 * sum(1 for _, dy in offsets if dy > 0)


def computer_pick(open_cards: list[Card]) -> Card:
    return max(sorted(open_cards), key=lambda c: (card_value(c), -c))


def run_draft(rng: random.Random, inp: TextIO, write, person: int) -> Position:
    """Run the draft with the person playing ``person``; returns the start position."""
    open_cards = sorted(rng.sample(range(len(CARDS)), 8))
    hands: list[list[Card]] = [[], []]
    picker = rng.randrange(2)
    write(f"Kartenwahl: {COLOR_NAMES[picker]} picks first (by lot).")
    while len(hands[0]) < 2 or len(hands[1]) < 2:
        if len(hands[picker]) == 2:
            picker = 1 - picker
        write("Open cards (o the piece, x its jumps, forward is up):")
        for line in cards_block(open_cards):
            write(line)
        if picker == person:
            card = _ask(inp, write, open_cards)
        else:
            card = computer_pick(open_cards)
            write(f"{COLOR_NAMES[picker]} (computer) takes {CARDS[card].name}.")
        hands[picker].append(card)
        open_cards.remove(card)
        picker = 1 - picker
    side = rng.choice(open_cards)
    write(f"Side card: {CARDS[side].name}; its mark lets {COLOR_NAMES[CARDS[side].mark]} start.")
    return Position.start(hands[0], hands[1], side)


def cards_block(cards: list[Card]) -> list[str]:
    """The cards side by side: names, then their 5x5 grids."""
    grids = [card_grid(c, True) for c in cards]
    lines = ["  " + "   ".join(CARDS[c].id.ljust(9) for c in cards)]
    lines += ["  " + "   ".join(g[row].ljust(9) for g in grids) for row in range(5)]
    return [line.rstrip() for line in lines]


class DraftQuit(Exception):
    """The person left during the draft."""


def _ask(inp: TextIO, write, open_cards: list[Card]) -> Card:
    while True:
        write("Your pick (a card id, or quit)> ", newline=False)
        line = inp.readline()
        if not line or line.strip().lower() in ("quit", "exit"):
            raise DraftQuit
        if line.strip().lower() == "help":
            write("Type the id of one of the open cards, e.g. " + CARDS[open_cards[0]].id)
            continue
        try:
            card = card_from_id(line.strip())
        except CardError as err:
            write(f"{err}; type one of the open card ids")
            continue
        if card in open_cards:
            return card
        write(f"{CARDS[card].name} is not open; type one of the open card ids")
