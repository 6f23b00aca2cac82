"""The Touché duel played on the page of `fechtbuch serve` as a person plays it: one
legal action (its notation, as the server sent it) turned into the presses on the
table that play it: the cards of the own hand, then a square of the piste or the
opponent, or a word button (parry, just step, decline the last attack).  A press is
a click (:class:`Clicks`) or, for the keyboard tests, keys (any object with the same
three methods).
"""

from __future__ import annotations

from fechtbuch.engines.touche_duell.notation import parse_action
from fechtbuch.engines.touche_duell.state import Kind


class Clicks:
    """Presses as clicks of the mouse."""

    def __init__(self, page) -> None:
        self.page = page

    def card(self, index: int) -> None:
        self.page.click(f".td-hand .td-own[data-index='{index}']")

    def square(self, square: int) -> None:
        self.page.click(f".td-piste .td-sq[data-square='{square}']")

    def button(self, selector: str) -> None:
        self.page.click(selector)


def card_index(page, value: int, skip: int | None = None, nth: int = 0) -> int:
    """The index of the ``nth`` card of ``value`` in the own hand (not the one at index
    ``skip``, a lunge's step)."""
    indices = page.eval_on_selector_all(
        f".td-hand .td-own[data-value='{value}']", "els => els.map(e => Number(e.dataset.index))"
    )
    return [i for i in indices if i != skip][nth]


def play_action(page, view: dict, text: str, press=None) -> None:
    """Play the legal action ``text`` in ``view`` (the seat's view) by pressing the
    table's cards, squares and buttons (clicks unless ``press`` says otherwise)."""
    press = press or Clicks(page)

    def card(value: int, skip: int | None = None, nth: int = 0) -> int:
        index = card_index(page, value, skip, nth)
        press.card(index)
        return index

    action = parse_action(text)
    me = view["seat"]
    direction = 1 if me == 0 else -1
    own, foe = view["squares"][me], view["squares"][1 - me]
    if action.kind is Kind.MOVE:
        card(abs(action.step))
        press.square(own + direction * action.step)
        if action.step > 0 and page.is_visible(".td-step-only"):  # a lunge could follow
            press.button(".td-step-only")
    elif action.kind is Kind.ATTACK:
        for nth in range(action.count):
            card(action.value, nth=nth)
        press.square(foe)
    elif action.kind is Kind.LUNGE:
        step = card(action.step)
        press.square(own + direction * action.step)
        for nth in range(action.count):
            card(action.value, skip=step, nth=nth)
        press.square(foe)
    elif action.kind is Kind.RETREAT:
        card(action.step)
        press.square(own - direction * action.step)
    elif action.kind is Kind.PARRY:
        press.button(".td-parry-button")
    else:
        press.button(".td-pass")
