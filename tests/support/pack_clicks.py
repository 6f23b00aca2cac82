"""How a person plays an action on a version-2 pack page (puzzles/packpage.py): the
cards, squares, fields and worded choices to click, as CSS selectors.

Worked out here from each game's own rules and notation, not from the page's data,
so a test that clicks them checks the page's click-mappers (``packplay.js``) against
the games: a Battleklinge move is its piece's square, its target and, when both cards
of the hand reach the target, the card; a Touché duel action is its cards and then
its square (a lunge: the step's card, its square, the attack's cards, the opponent);
a pyramids action is its card and then its field (a joker lifting a pyramid may ask
which of the two it does; an exchange is the dead cards and then the choice).
"""

from __future__ import annotations

from typing import Any

from fechtbuch.engines.battleklinge.cards import card_id
from fechtbuch.engines.touche_duell.notation import counts_text
from fechtbuch.engines.touche_duell.state import Kind as DuelKind
from fechtbuch.engines.touche_pyramiden.board import card_text, field_name
from fechtbuch.engines.touche_pyramiden.state import Kind as PyramidKind
from fechtbuch.puzzles.packtree import PuzzleTree, TreeNode

NOTATION_BUTTON = "#actions button[data-action]"
"""A button labelled with an action's notation: the pages of the shipped games have none."""


def solution_texts(pack: dict) -> set[str]:
    """The notation of every action the pack's solution trees name."""
    found: set[str] = set()
    stack = [puzzle["solution"] for puzzle in pack["puzzles"]]
    while stack:
        tree = stack.pop()
        if isinstance(tree, dict):
            found.update(tree)
            stack.extend(tree.values())
    return found


def choice(name: str) -> str:
    return f'#actions button[data-choice="{name}"]'


def battleklinge(state, move, legal: dict[str, tuple[Any, Any]]) -> list[str]:
    card = f'#diagram g.card[data-card="{card_id(move.card)}"]'
    if move.is_pass:
        return [card]
    clicks = [
        f'#diagram rect.sq[data-sq="{move.from_sq}"]',
        f'#diagram rect.sq[data-sq="{move.to_sq}"]',
    ]
    both = [
        other
        for other, _ in legal.values()
        if not other.is_pass and (other.from_sq, other.to_sq) == (move.from_sq, move.to_sq)
    ]
    return clicks + [card] if len(both) > 1 else clicks


def touche_duell(view, action, legal: dict[str, tuple[Any, Any]]) -> list[str]:
    me = view.viewer
    ahead = 1 if me == 0 else -1
    own, foe = view.squares[me], view.squares[1 - me]
    hand = [int(c) for c in counts_text(view.hand).replace("-", "")]
    used: set[int] = set()

    def cards(*values: int) -> list[str]:
        out = []
        for value in values:
            index = next(i for i, v in enumerate(hand) if v == value and i not in used)
            used.add(index)
            out.append(f'#diagram g.card.own[data-index="{index}"]')
        return out

    def square(n: int) -> str:
        return f'#diagram rect.sq[data-square="{n}"]'

    kind = action.kind
    if kind is DuelKind.MOVE:
        clicks = [*cards(abs(action.step)), square(own + ahead * action.step)]
        lunges = any(a.kind is DuelKind.LUNGE and a.step == action.step for a, _ in legal.values())
        # a square that a lunge steps to first asks: the lunge, or only the step
        return clicks + [choice("step-only")] if action.step > 0 and lunges else clicks
    if kind is DuelKind.ATTACK:
        return [*cards(*[action.value] * action.count), square(foe)]
    if kind is DuelKind.LUNGE:
        step = [*cards(action.step), square(own + ahead * action.step)]
        return [*step, *cards(*[action.value] * action.count), square(foe)]
    if kind is DuelKind.RETREAT:
        return [*cards(action.step), square(own - ahead * action.step)]
    return [choice("parry" if kind is DuelKind.PARRY else "pass")]


def touche_pyramiden(state, action, legal: dict[str, tuple[Any, Any]]) -> list[str]:
    hand = [card_text(k) for k in state.node.hand]

    def card(code: str, skip: int = -1) -> str:
        index = next(i for i, c in enumerate(hand) if c == code and i > skip)
        return f'#diagram g.hand-card[data-index="{index}"]'

    kind = action.kind
    if kind is PyramidKind.PASS:
        return [choice("pass")]
    if kind is PyramidKind.EXCHANGE:
        out, last = [], -1
        for code in (card_text(k) for k in action.cards):
            selector = card(code, last)
            last = int(selector.split('"')[1])
            out.append(selector)
        return [*out, choice("exchange")]
    field = field_name(action.field)
    clicks = [card(card_text(action.card)), f'#diagram rect.field[data-field="{field}"]']
    lifts = {PyramidKind.JOKER_REMOVE: "remove", PyramidKind.JOKER_REPLACE: "replace"}
    if kind in lifts:
        both = [a for a, _ in legal.values() if a.kind in lifts and a.field == action.field]
        if len(both) > 1:
            clicks.append(choice(lifts[kind]))
    return clicks


PLANNERS = {
    "battleklinge": battleklinge,
    "touche-duell": touche_duell,
    "touche-pyramiden": touche_pyramiden,
}


def clicks(tree: PuzzleTree, node: TreeNode, text: str) -> list[str]:
    """The clicks that play ``text`` at the solver's ``node`` of ``tree``."""
    legal = tree.legal(node)
    action, _ = legal[text]
    return PLANNERS[tree.kind.rules](node.state, action, legal)


def own_moves(tree: PuzzleTree, line: list[str]) -> list[tuple[TreeNode, str]]:
    """The solver's actions of ``line`` (the adversary's are the page's), each with the
    node it is played at."""
    node, own = tree.root, []
    for text in line:
        if tree.solver_to_act(node):
            own.append((node, text))
        node = tree.step(node, text)
    return own


def line_clicks(kind, puzzle: dict, line: list[str] | None = None) -> list[list[str]]:
    """The clicks of the solver's actions of ``line`` (default: the main line)."""
    tree = PuzzleTree(kind, puzzle)
    played = puzzle["line"] if line is None else line
    return [clicks(tree, node, text) for node, text in own_moves(tree, played)]


def at(kind, puzzle: dict, before: list[str], text: str) -> list[str]:
    """The clicks that play ``text`` after the actions ``before`` (both sides')."""
    tree = PuzzleTree(kind, puzzle)
    node = tree.root
    for done in before:
        node = tree.step(node, done)
    return clicks(tree, node, text)
