"""Engine matches of the Touché duel: strength A against strength B.

The schedule, score, Elo and run loop are :mod:`fechtbuch.engines.matchkit`'s: games
come in pairs that share every seed: game ``2k`` and ``2k+1`` use the game seed
``<seed>/<k>`` (lot, and the deal of round n from ``<seed>/<k>/<n>``); A plays fencer A
in the even game and fencer B in the odd one, so each deal is played from both sides.
Everything is derived from the seed and the game's index, so results are the same for
any ``jobs``.  A game that reaches ``MAX_ROUNDS`` rounds without a winner is a draw.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from fechtbuch.engines.matchkit import (
    LOSS,
    WIN,
    MatchSummary,
    play_match,
    slot_of,
    summarize,
)
from fechtbuch.engines.players import PlayerFactory
from fechtbuch.engines.touche_duell import rules
from fechtbuch.engines.touche_duell.players import SAMPLES, Player, check_strength
from fechtbuch.engines.touche_duell.record import MAX_ROUNDS, GameRecord, game_over
from fechtbuch.engines.touche_duell.state import NOBODY, Ruleset, view_of


@dataclass
class GameResult:
    """One match game from A's side: ``outcome`` win, loss or draw; the final score."""

    index: int
    seed: str
    a_fencer: int
    outcome: str
    score: tuple[int, int]
    rounds: int
    seconds: tuple[float, float]
    move_counts: tuple[int, int]


def play_game(
    a: str,
    b: str,
    seed: str,
    index: int,
    ruleset: Ruleset,
    samples: int = SAMPLES,
    players: PlayerFactory | None = None,
) -> tuple[GameResult, GameRecord]:
    """Play game ``index`` of a match; returns the result and the game record.
    ``players``: the game's player factory (the command line's meister proves sure
    wins); ``None`` plays the engine's own players (meister without proofs)."""
    slot = slot_of(index)
    game_seed = f"{seed}/{slot.pair}"
    a_fencer = 0 if slot.a_first else 1
    make = Player if players is None else players.make
    seats = {
        a_fencer: make(a, f"{seed}/{index}/a", samples),
        1 - a_fencer: make(b, f"{seed}/{index}/b", samples),
    }
    record = GameRecord.new(ruleset, game_seed)
    pos = record.positions()[-1]
    seconds = {0: 0.0, 1: 0.0}
    counts = {0: 0, 1: 0}
    rounds = 1
    while not game_over(pos) and rounds <= MAX_ROUNDS:
        mover = pos.mover
        began = time.perf_counter()
        action = seats[mover].choose(view_of(pos, mover))
        seconds[mover] += time.perf_counter() - began
        counts[mover] += 1
        after = rules.apply(pos, action)
        record = record.with_action(pos, action)
        if after.phase.over and not game_over(after):
            rounds += 1
            pos = record.positions()[-1] if rounds <= MAX_ROUNDS else after
        else:
            pos = after
    score = pos.score
    if game_over(pos):
        winner = 0 if score[0] > score[1] else 1
        outcome = WIN if winner == a_fencer else LOSS
    else:
        winner, outcome = NOBODY, "draw"
    result = GameResult(
        index,
        game_seed,
        a_fencer,
        outcome,
        score,
        rounds,
        (seconds[a_fencer], seconds[1 - a_fencer]),
        (counts[a_fencer], counts[1 - a_fencer]),
    )
    return result, record


def decode_result(game: dict) -> GameResult:
    """A game of the match log back as a :class:`GameResult`."""
    tuples = ("score", "seconds", "move_counts")
    return GameResult(**(game | {k: tuple(game[k]) for k in tuples}))


def _play_result(
    a: str,
    b: str,
    seed: str,
    index: int,
    ruleset: Ruleset,
    samples: int,
    players: PlayerFactory | None,
) -> GameResult:
    return play_game(a, b, seed, index, ruleset, samples, players)[0]


def run_match(
    a: str,
    b: str,
    games: int,
    seed: str,
    ruleset: Ruleset,
    samples: int = SAMPLES,
    progress=None,
    jobs: int = 1,
    players: PlayerFactory | None = None,
    done: list[GameResult] | None = None,
) -> tuple[MatchSummary, list[GameResult]]:
    """Play the match (``jobs`` worker processes; the same games for any ``jobs``).
    ``done``: the first games, already played (a resumed match); only the rest are
    played, and the summary covers the first ``games`` of both together."""
    check_strength(a), check_strength(b)
    results, wall = play_match(
        _play_result,
        lambda slot: (a, b, seed, slot.index, ruleset, samples, players),
        games,
        jobs,
        progress,
        done or (),
    )
    label = f"touche-duell, {ruleset.name}"
    return summarize(label, a, b, seed, results, wall), results
