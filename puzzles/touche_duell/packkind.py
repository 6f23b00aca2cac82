"""The Touché duel's :class:`~fechtbuch.puzzles.packkind.PackKind`: "sicherer Treffer"
exercises in the game-independent pack format (version 2, rules ``touche-duell``).

A puzzle's position is the view of the player to act (the prover); its problem is
the public-state sure-win problem of docs/solver.md, whose adversary nodes include
the hidden choices (``zieht 35``: the cards the prover draws).  Verification
re-proves N and the one key with the prover and the independent verifier and
re-derives every other field (:func:`~fechtbuch.puzzles.touche_duell.mining.verify_puzzle`);
each puzzle's witness, the self-play round up to the view, is replayed with the
reference rules (:func:`~fechtbuch.puzzles.touche_duell.mining.verify_witness`).
"""

from __future__ import annotations

from collections.abc import Hashable

from fechtbuch.engines.touche_duell.notation import format_view, parse_view
from fechtbuch.engines.touche_duell.public import (
    Hidden,
    Pending,
    SureWinProblem,
    cards_of,
    root_problem,
)
from fechtbuch.engines.touche_duell.state import Action, Kind, NotationError, View
from fechtbuch.puzzles.andorjudge import judge_andor
from fechtbuch.puzzles.packkind import PackKind, Puzzle, schema_part
from fechtbuch.puzzles.touche_duell.mining import (
    MAX_N,
    RULES,
    duplicate_class,
    rounds_views,
    verify_puzzle,
    verify_witness,
)
from fechtbuch.puzzles.touche_duell.svg import board_svg, board_text


def problem(puzzle: Puzzle) -> tuple[SureWinProblem, object]:
    """The sure-win problem of the puzzle's view and its root state."""
    view = parse_view(puzzle["position"])
    return root_problem(view), view


def puzzle_class(puzzle: Puzzle) -> Hashable:
    """The view up to the mirror (``None`` when the position does not parse)."""
    try:
        return duplicate_class(parse_view(puzzle["position"]))
    except NotationError:
        return None


def verify_round(pack: dict, puzzle: Puzzle) -> list[str]:
    """``round``: the view occurs in self-play round ``round`` of the pack's seed (the
    miner's provenance, replayed: a fraction of a second)."""
    views = {format_view(v) for v in rounds_views(pack["seed"], puzzle["round"])}
    if puzzle["position"] not in views:
        return [f"round: the view does not occur in round {puzzle['round']} of seed {pack['seed']}"]
    return []


def page_action(view: View, action: Action) -> dict:
    """An action as the version-2 pack page offers it (``packplay.js``): what it is
    (``kind``, with ``step``, ``value`` and ``count`` for its words), the cards of the
    hand it plays (``cards``; a lunge's step card is ``step`` apart), the square it
    goes to or attacks (``square``, the drawing's ``data-square``: the opponent's for
    an attack; none for a parry or a declined last attack) and the square a lunge
    steps to first (``via``)."""
    me = view.viewer
    ahead = 1 if me == 0 else -1
    own, foe = view.squares[me], view.squares[1 - me]
    kind = action.kind
    parts: dict = {
        "kind": kind.name.lower(),
        "step": action.step,
        "value": action.value,
        "count": action.count,
        "cards": [],
        "square": None,
    }
    if kind is Kind.MOVE:
        parts.update(cards=[abs(action.step)], square=own + ahead * action.step)
    elif kind is Kind.RETREAT:
        parts.update(cards=[action.step], square=own - ahead * action.step)
    elif kind is Kind.ATTACK:
        parts.update(cards=[action.value] * action.count, square=foe)
    elif kind is Kind.LUNGE:
        via = own + ahead * action.step
        parts.update(cards=[action.value] * action.count, square=foe, via=via)
    elif kind is Kind.PARRY:
        value, count = view.attack
        parts.update(cards=[value] * count, value=value, count=count)
    return parts


def page_reply(state: View | Pending, action: Action | Hidden) -> dict:
    """The adversary's choice as the version-2 pack page words it (``packplay.js``):
    the cards the solver draws after its action (``kind`` ``draw``, ``cards`` their
    values, ``ended`` the rule that ends the round right there, or ``""``, and the
    opponent's ``seat``), or the opponent's action (``kind``, ``step``, ``value``,
    ``count`` as in :func:`page_action`; a parry's the attack it parries) with the
    seat that acts (``seat``)."""
    if isinstance(action, Hidden):
        cards = list(cards_of(action.drawn))
        opponent = 1 - state.before.viewer
        return {"kind": "draw", "cards": cards, "ended": action.ended, "seat": opponent}
    value, count = state.attack if action.kind is Kind.PARRY else (action.value, action.count)
    return {
        "kind": action.kind.name.lower(),
        "step": action.step,
        "value": value,
        "count": count,
        "seat": state.mover,
    }


def rating_panel(kind: PackKind):
    """The computer's four strengths (imported when ``pack rate`` runs)."""
    from fechtbuch.puzzles.rating_ladder import panel_of
    from fechtbuch.puzzles.touche_duell.rating_panel import SPEC

    return panel_of(SPEC, kind)


KIND = PackKind(
    rules=RULES,
    title="Touché duel",
    version=2,
    max_n=MAX_N,
    verify_puzzle=verify_puzzle,
    duplicate_class=puzzle_class,
    problem=problem,
    board_text=board_text,
    board_svg=board_svg,
    page_action=page_action,
    page_reply=page_reply,
    symmetry="the mirror (the fencers' sides swapped)",
    judge=judge_andor,
    verify_in_pack=verify_round,
    verify_witness=verify_witness,
    rating_panel=rating_panel,
    puzzle_schema=schema_part(__package__),
)
