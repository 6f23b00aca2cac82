"""The Touché duel played on the page of `fechtbuch serve` as a person plays it: one
legal action (its notation, as the server sent it) turned into the clicks on the
table that play it: the cards of the own hand, then a square of the piste or the
opponent, or a word button (parry, just step, decline the last attack).
"""

from __future__ import annotations

from fechtbuch.engines.touche_duell.notation import parse_action
from fechtbuch.engines.touche_duell.state import Kind


def click_card(page, value: int, skip: int | None = None, nth: int = 0) -> int:
    """Click the ``nth`` card of ``value`` in the own hand (not the one at index
    ``skip``, a lunge's step); its index."""
    indices = page.eval_on_selector_all(
        f".td-hand .td-own[data-value='{value}']", "els => els.map(e => Number(e.dataset.index))"
    )
    index = [i for i in indices if i != skip][nth]
    page.click(f".td-hand .td-own[data-index='{index}']")
    return index


def click_square(page, square: int) -> None:
    page.click(f".td-piste .td-sq[data-square='{square}']")


def play_action(page, view: dict, text: str) -> None:
    """Play the legal action ``text`` in ``view`` (the seat's view) by clicking."""
    action = parse_action(text)
    me = view["seat"]
    direction = 1 if me == 0 else -1
    own, foe = view["squares"][me], view["squares"][1 - me]
    if action.kind is Kind.MOVE:
        click_card(page, abs(action.step))
        click_square(page, own + direction * action.step)
        if action.step > 0 and page.is_visible(".td-step-only"):  # a lunge could follow
            page.click(".td-step-only")
    elif action.kind is Kind.ATTACK:
        for nth in range(action.count):
            click_card(page, action.value, nth=nth)
        click_square(page, foe)
    elif action.kind is Kind.LUNGE:
        step = click_card(page, action.step)
        click_square(page, own + direction * action.step)
        for nth in range(action.count):
            click_card(page, action.value, skip=step, nth=nth)
        click_square(page, foe)
    elif action.kind is Kind.RETREAT:
        click_card(page, action.step)
        click_square(page, own - direction * action.step)
    elif action.kind is Kind.PARRY:
        page.click(".td-parry-button")
    else:
        page.click(".td-pass")
