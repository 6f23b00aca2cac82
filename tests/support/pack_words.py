"""How a version-2 pack page (puzzles/packpage.py) says the moves played in words: its
list of moves, the person's actions and the defence's answers, each in the words of
the page's catalogue with the notation beside them.

Worked out here from each game's own actions (the engines' moves, actions, draws)
and the catalogue, not from the page's data, so a test that reads the list checks
the games' ``packplay.js`` (``words``, ``reply``) against the games: a Battleklinge
move is its card and squares (the defence's with its school, and whether it takes a
student); a Touché duel action its kind, step, cards and count (the defence's with
the fencer who acts; the cards the person draws, and how the round ends right
there); a pyramids action its card and field (the defence's with the colour of its
team; the card the person draws).
"""

from __future__ import annotations

from typing import Any

from fechtbuch.engines.battleklinge.cards import card_id
from fechtbuch.engines.touche_duell.public import Hidden, cards_of
from fechtbuch.engines.touche_duell.state import Kind as DuelKind
from fechtbuch.engines.touche_pyramiden.board import JOKER, card_text, field_name
from fechtbuch.engines.touche_pyramiden.state import Kind as PyramidKind
from fechtbuch.engines.touche_pyramiden.touche_in_n import Draw
from fechtbuch.puzzles.packtree import PuzzleTree

Message = tuple[str, dict[str, Any]]


def m(key: str, **args: Any) -> Message:
    return key, args


def fill(texts: dict[str, str], said: Message | str | int) -> str:
    """A message worded from the catalogue ``texts`` (its arguments may be messages);
    a key the catalogue lacks fails."""
    if not isinstance(said, tuple):
        return str(said)
    key, args = said
    text = texts[key]
    for name, value in args.items():
        text = text.replace("{" + name + "}", fill(texts, value))
    return text


# ---- Battleklinge ------------------------------------------------------------------


def _bk_square(sq: int) -> str:
    return "abcde"[sq % 5] + str(sq // 5 + 1)


def battleklinge(pos, move, own: bool) -> Message:
    card = m(f"pp.bk.card.{card_id(move.card)}")
    school = m(f"pp.bk.school.{'gb'[pos.turn]}")
    if move.is_pass:
        return (
            m("pp.bk.do.pass", card=card)
            if own
            else m("pp.bk.reply.pass", school=school, card=card)
        )
    squares = {"from": _bk_square(move.from_sq), "to": _bk_square(move.to_sq)}
    if own:
        return m("pp.bk.do.move", card=card, **squares)
    takes = pos.students[1 - pos.turn] & (1 << move.to_sq)
    return m(
        "pp.bk.reply.take" if takes else "pp.bk.reply.move", school=school, card=card, **squares
    )


# ---- the Touché duel ----------------------------------------------------------------

DUEL_OWN = {
    DuelKind.ATTACK: "attack",
    DuelKind.LUNGE: "lunge",
    DuelKind.RETREAT: "retreat",
    DuelKind.PARRY: "parry",
    DuelKind.PASS: "pass",
}


def touche_duell(state, action, own: bool) -> Message:
    if isinstance(action, Hidden):
        cards = cards_of(action.drawn)
        draw = m("pp.td.draw", cards=", ".join(map(str, cards))) if cards else m("pp.td.draw.none")
        if not action.ended:
            return draw
        fencer = m(f"pp.td.seat.{1 - state.before.viewer}")
        return m(f"pp.td.ended.{action.ended}", draw=draw, who=fencer)
    kind = action.kind
    value, count = state.attack if kind is DuelKind.PARRY else (action.value, action.count)
    if kind is DuelKind.MOVE:
        name = "forward" if action.step > 0 else "back"
    else:
        name = DUEL_OWN[kind]
    args = {"step": abs(action.step), "value": value, "count": count}
    if own:
        return m(f"pp.td.do.{name}", **args)
    return m(f"pp.td.reply.{name}", who=m(f"pp.td.seat.{state.mover}"), **args)


# ---- the pyramids ---------------------------------------------------------------------


def _tp_cards(kinds) -> Message:
    first = m(f"pp.tp.card.{card_text(kinds[0])}")
    return first if len(kinds) == 1 else m("pp.tp.and", first=first, rest=_tp_cards(kinds[1:]))


def touche_pyramiden(state, action, own: bool) -> Message:
    if isinstance(action, Draw):
        return m("pp.tp.reply.draw", card=m(f"pp.tp.card.{card_text(action.card)}"))
    base = state.base
    who = {} if own else {"team": m(f"pp.tp.colour.{base.config.team_of(1 - base.seat)}")}
    start = "pp.tp.do" if own else "pp.tp.reply"
    kind = action.kind
    if kind is PyramidKind.EXCHANGE:
        return m(f"{start}.exchange", cards=_tp_cards(action.cards), **who)
    if kind is PyramidKind.PASS:
        return m(f"{start}.pass", **who)
    act = {PyramidKind.JOKER_REMOVE: "remove", PyramidKind.JOKER_REPLACE: "replace"}.get(
        kind, "place"
    )
    if act == "place" and action.card == JOKER and not own:
        act = "joker"  # the defence's joker says so; the person's is a card put on a field
    card = m(f"pp.tp.card.{card_text(action.card)}")
    return m(f"{start}.{act}", card=card, field=field_name(action.field), **who)


SAYERS = {
    "battleklinge": battleklinge,
    "touche-duell": touche_duell,
    "touche-pyramiden": touche_pyramiden,
}


def answer_key(tree: PuzzleTree, node, text: str) -> str:
    """The catalogue key of the words of the defence's answer ``text`` at ``node``."""
    action, _ = tree.legal(node)[text]
    return SAYERS[tree.kind.rules](node.state, action, False)[0]


def moves_said(tree: PuzzleTree, line: list[str], texts: dict[str, str]) -> list[str]:
    """The page's list of moves after ``line`` (both sides' actions) was played, in
    the catalogue ``texts``: the person's "You: <words> (<notation>)", the defence's
    "<words> (<notation>)"."""
    say = SAYERS[tree.kind.rules]
    node, out = tree.root, []
    for text in line:
        own = tree.solver_to_act(node)
        action, _ = tree.legal(node)[text]
        said = m("pp.action", words=say(node.state, action, own), text=text)
        out.append(fill(texts, m("pp.moves.own", action=said) if own else said))
        node = tree.step(node, text)
    return out
