"""The Touché duel's :class:`~fechtbuch.puzzles.packkind.PackKind`: "sicherer Treffer"
exercises in the game-independent pack format (version 2, rules ``touche-duell``).

A puzzle's position is the view of the player to act (the prover); its problem is
the public-state sure-win problem of docs/solver.md, whose adversary nodes include
the hidden choices (``zieht 35``: the cards the prover draws).  Verification
re-proves N and the one key with the prover and the independent verifier and
re-derives every other field (:func:`~fechtbuch.puzzles.touche.exercises.verify_puzzle`);
each puzzle's witness, the self-play round up to the view, is replayed with the
reference rules (:func:`~fechtbuch.puzzles.touche.exercises.verify_witness`).
"""

from __future__ import annotations

from collections.abc import Hashable

from fechtbuch.engines.touche_duell.notation import NotationError, parse_view
from fechtbuch.engines.touche_duell.public import SureWinProblem, root_problem
from fechtbuch.puzzles.andorjudge import judge_andor
from fechtbuch.puzzles.packkind import PackKind, Puzzle
from fechtbuch.puzzles.touche.board import board_svg, board_text
from fechtbuch.puzzles.touche.exercises import (
    MAX_N,
    RULES,
    duplicate_class,
    verify_puzzle,
    verify_witness,
)


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
    symmetry="the mirror (the fencers' sides swapped)",
    judge=judge_andor,
    verify_witness=verify_witness,
)
