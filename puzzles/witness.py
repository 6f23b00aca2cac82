"""Witness games: a legal game that reaches an exercise's position.

An exercise is a position a player can meet, so every shipped exercise carries a
*witness* (the pack field ``witness``): a full start state in its game's notation and
the actions, in notation, that lead from it to the exercise::

    {"start": "<Game.format_state of a start state>", "moves": ["<action>", ...]}

:func:`replay_witness` replays it with the game's reference rules (the plain
implementation where the game has one): the start must be one the game's deal
produces (:meth:`~fechtbuch.engines.game.Game.start_problem`), every action must be
legal where it is played.  Whether the reached full state *is* the exercise (for a
hidden-information game: the same public state and the same view for the exercise's
player) is the game's question: its :attr:`PackKind.verify_witness` replays and
compares.  This module imports no game.
"""

from __future__ import annotations

from typing import Any

from fechtbuch.engines.errors import InputError
from fechtbuch.engines.game import Game


def replay_witness(game: Game, witness: Any) -> tuple[Any, list[str]]:
    """The full state that ``witness`` reaches under ``game``'s reference rules, and
    the problems found on the way (one line each, starting with ``witness``); the state
    is ``None`` when the replay could not finish."""
    if not isinstance(witness, dict) or set(witness) != {"start", "moves"}:
        return None, ["witness: must be an object with exactly 'start' and 'moves'"]
    start, moves = witness["start"], witness["moves"]
    if not isinstance(start, str) or not isinstance(moves, list):
        return None, ["witness: 'start' must be a string and 'moves' a list"]
    rules = game.reference() or game
    try:
        state = rules.parse_state(start)
    except InputError as err:
        return None, [f"witness: start: {err}"]
    problem = rules.start_problem(state)
    if problem is not None:
        return None, [f"witness: start: {problem}"]
    for ply, text in enumerate(moves, 1):
        if rules.is_terminal(state):
            return None, [f"witness: move {ply}: the game is already over"]
        if not isinstance(text, str):
            return None, [f"witness: move {ply}: must be a string"]
        legal = {rules.format_action(state, a): a for a in rules.legal_actions(state)}
        if text not in legal:
            return None, [f"witness: move {ply}: {text[:80]!r} is not legal here"]
        state = rules.apply(state, legal[text])
    return state, []
