"""Reading moves typed by a person: full notation or unambiguous short forms.

Accepted (case-insensitive):

* ``ausfall:c1c3`` and ``volte:pass`` (the notation);
* ``c1c3`` when exactly one card in hand makes that jump;
* ``c1c3 ausfall`` or ``ausfall c1c3`` to name the card;
* ``pass ausfall`` or ``ausfall pass``, and ``pass`` alone is refused with the
  two choices named, since passing always gives one of two cards away.

>>> from fechtbuch.engines.battleklinge.position import Position
>>> pos = Position.from_text("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte")
>>> read_move(pos, "c1c3").to_text()
'ausfall:c1c3'
"""

from __future__ import annotations

from fechtbuch.engines.battleklinge import fast
from fechtbuch.engines.battleklinge.cards import CARDS, CardError, card_from_id
from fechtbuch.engines.battleklinge.position import (
    IllegalMoveError,
    Move,
    NotationError,
    Position,
    parse_square,
    square_name,
)


def _card_names(cards) -> str:
    return " and ".join(CARDS[c].name for c in cards)


def read_move(pos: Position, text: str) -> Move:
    """The legal move meant by ``text``; raises IllegalMoveError or NotationError
    with a sentence that explains what is wrong."""
    legal = fast.legal_moves(pos)
    words = text.strip().lower().replace(",", " ").split()
    if len(words) == 1 and ":" in words[0]:
        move = Move.from_text(words[0])
        if move not in legal:
            raise IllegalMoveError(_why_illegal(pos, move, legal))
        return move
    card = None
    rest = []
    for word in words:
        if card is None and word != "pass":
            try:
                card = card_from_id(word)
                continue
            except CardError:
                pass
        rest.append(word)
    if len(rest) != 1:
        raise NotationError(
            f"move: cannot read {text.strip()!r}; type e.g. 'c1c3', 'c1c3 ausfall', 'ausfall:c1c3'"
        )
    word = rest[0]
    if word == "pass":
        passes = [m for m in legal if m.is_pass]
        if not passes:
            raise IllegalMoveError(
                "you cannot pass: passing is allowed only when no piece can move"
            )
        if card is None:
            raise IllegalMoveError(
                f"name the card you give away: 'pass {CARDS[passes[0].card].id}' or "
                f"'pass {CARDS[passes[1].card].id}'"
            )
        return _checked(pos, Move(card), legal)
    if len(word) != 4:
        raise NotationError(f"move: cannot read {text.strip()!r}; squares look like 'c1c3'")
    try:
        src, dst = parse_square(word[:2]), parse_square(word[2:])
    except NotationError:
        raise NotationError(f"move: bad square in {text.strip()!r}") from None
    if card is not None:
        return _checked(pos, Move(card, src, dst), legal)
    matches = [m for m in legal if m.from_sq == src and m.to_sq == dst]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        names = [CARDS[m.card].id for m in matches]
        raise IllegalMoveError(
            f"both {_card_names(m.card for m in matches)} jump from {word[:2]} to {word[2:]}: "
            f"type '{word} {names[0]}' or '{word} {names[1]}' to choose the card you give away"
        )
    raise IllegalMoveError(_why_illegal(pos, Move(pos.hands[pos.turn][0], src, dst), legal))


def _checked(pos: Position, move: Move, legal: list[Move]) -> Move:
    if move not in legal:
        raise IllegalMoveError(_why_illegal(pos, move, legal))
    return move


def _why_illegal(pos: Position, move: Move, legal: list[Move]) -> str:
    me = pos.turn
    if move.card not in pos.hands[me]:
        return f"{CARDS[move.card].name} is not in your hand ({_card_names(pos.hands[me])})"
    if any(m.is_pass for m in legal):
        return "no piece can move: pass, naming the card you give away"
    if move.is_pass:
        return "you cannot pass: passing is allowed only when no piece can move"
    assert move.from_sq is not None and move.to_sq is not None
    src, dst = square_name(move.from_sq), square_name(move.to_sq)
    if not pos.pieces(me) >> move.from_sq & 1:
        return f"there is no piece of yours on {src}"
    if pos.pieces(me) >> move.to_sq & 1:
        return f"{dst} holds one of your own pieces"
    return f"no card in your hand jumps from {src} to {dst} ({_card_names(pos.hands[me])})"
