"""Engine matches: strength A against strength B over many games, with an Elo estimate.

Games come in pairs: game ``2k`` and ``2k+1`` share one random deal (a random
card set from :func:`engines.battleklinge.sampling.random_cards`, dealt at
random), and A plays Gold in the even game and Blau in the odd one, so the
schools alternate and each deal is played from both sides.  Everything a
game does is derived from ``(seed, game index)``, and each game runs in one
worker with fresh players, so the results are identical for any ``-j``.

A game is *aborted* when a position (pieces, cards, side to move) stands on
the board for the third time, or after ``max_plies`` half-moves.  For the
score and the Elo difference an aborted game counts as half a point for each
side (it is neither won nor lost).

>>> elo_difference(0.75) > 190
True
>>> abs(elo_difference(0.5)) < 1e-9
True
"""

from __future__ import annotations

import hashlib
import random
import time
from collections import Counter
from dataclasses import dataclass

from fechtbuch.engines.battleklinge import fast
from fechtbuch.engines.battleklinge.cards import GOLD
from fechtbuch.engines.battleklinge.players import Player, strength_from_name
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.battleklinge.sampling import random_cards, random_deal
from fechtbuch.engines.clock import GameClock
from fechtbuch.engines.matchkit import (
    MatchSummary,
    elo_difference,
    play_match,
    slot_of,
    summarize,
    wilson_interval,
)
from fechtbuch.engines.players import PlayerFactory


@dataclass
class GameResult:
    """One finished match game, from A's side: ``outcome`` is ``win``, ``loss`` or
    ``aborted`` (``why``: ``repetition`` or ``move cap``)."""

    index: int
    start: str
    a_color: int
    outcome: str
    why: str
    moves: list[str]
    seconds: tuple[float, float]  # A's and B's thinking time
    move_counts: tuple[int, int]  # A's and B's number of moves


def _derived_seed(*parts) -> int:
    """A 64-bit seed from the parts via SHA-256 (stable across runs and platforms)."""
    digest = hashlib.sha256("/".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "little")


def deal_for_game(seed: int, index: int) -> Position:
    """The start position of game ``index`` (the pair ``index // 2`` shares it)."""
    rng = random.Random(_derived_seed("match-deal", seed, index // 2))
    return random_deal(rng, random_cards(rng))


def play_game(
    a: str,
    b: str,
    seed: int,
    index: int,
    max_plies: int = 200,
    a_weights=None,
    b_weights=None,
    nodes: int | None = None,
    movetime: float | None = None,
    clock: float | None = None,
    players: PlayerFactory | None = None,
) -> GameResult:
    """Play game ``index`` of a match between strengths ``a`` and ``b`` (the
    evaluation weights may differ, for tuning by self-play).  ``nodes`` or
    ``movetime`` replace both strengths' budgets (equal nodes or equal time);
    ``clock`` gives each side that many minutes for the game, from which it plans
    every move, and a side whose time runs out loses (``why`` is ``time``).
    ``players``: the game's player factory (the command line's, with the solver's
    forced hits); ``None`` plays the engine's own players (the same moves, slower)."""
    slot = slot_of(index)
    start = deal_for_game(seed, slot.index)
    a_color = GOLD if slot.a_first else 1 - GOLD
    make = Player if players is None else players.make
    budget = {"movetime": movetime, "nodes": nodes}
    seats = {
        a_color: make(a, _derived_seed("player", seed, index, "a"), weights=a_weights, **budget),
        1 - a_color: make(
            b, _derived_seed("player", seed, index, "b"), weights=b_weights, **budget
        ),
    }
    pos = start
    earlier: list[Position] = []
    seen = Counter([pos.key()])
    moves: list[str] = []
    seconds = {a_color: 0.0, 1 - a_color: 0.0}
    counts = {a_color: 0, 1 - a_color: 0}
    outcome, why = "aborted", "move cap"
    game_clock = None if clock is None else GameClock.minutes(clock)
    for _ in range(max_plies):
        mover = pos.turn
        if game_clock is not None:
            seats[mover].movetime = game_clock.think_time(mover)
        began = time.perf_counter()
        choice = seats[mover].choose(pos, earlier)
        spent = time.perf_counter() - began
        seconds[mover] += spent
        if game_clock is not None and game_clock.spend(mover, spent):
            outcome, why = ("loss" if mover == a_color else "win"), "time"
            break
        counts[mover] += 1
        earlier.append(pos)
        pos = fast.play(pos, choice.move)
        moves.append(choice.move.to_text())
        won = pos.winner()
        if won is not None:
            outcome, why = ("win" if won == a_color else "loss"), "hit"
            break
        seen[pos.key()] += 1
        if seen[pos.key()] >= 3:
            outcome, why = "aborted", "repetition"
            break
    return GameResult(
        index=index,
        start=start.to_text(),
        a_color=a_color,
        outcome=outcome,
        why=why,
        moves=moves,
        seconds=(seconds[a_color], seconds[1 - a_color]),
        move_counts=(counts[a_color], counts[1 - a_color]),
    )


def decode_result(game: dict) -> GameResult:
    """A game of the match log (``MatchLog``) back as a :class:`GameResult`."""
    return GameResult(
        **(game | {"seconds": tuple(game["seconds"]), "move_counts": tuple(game["move_counts"])})
    )


def run_match(
    a: str,
    b: str,
    games: int,
    seed: int,
    jobs: int = 1,
    max_plies: int = 200,
    progress=None,
    a_weights=None,
    b_weights=None,
    nodes: int | None = None,
    movetime: float | None = None,
    done: list[GameResult] | None = None,
    clock: float | None = None,
    players: PlayerFactory | None = None,
) -> tuple[MatchSummary, list[GameResult]]:
    """Play the match (``jobs`` worker processes) and summarize it.

    ``progress`` is called with each newly finished game, in game order.  ``done``:
    the first games, already played (a resumed match); only the rest are played,
    and the summary covers the first ``games`` of both together.
    """
    strength_from_name(a), strength_from_name(b)  # fail early on bad names
    results, wall = play_match(
        play_game,
        lambda slot: (
            a,
            b,
            seed,
            slot.index,
            max_plies,
            a_weights,
            b_weights,
            nodes,
            movetime,
            clock,
            players,
        ),  # fmt: skip
        games,
        jobs,
        progress,
        done or (),
    )
    return summarize("battleklinge", a, b, seed, results, wall, undecided="aborted"), results


__all__ = [
    "GameResult",
    "deal_for_game",
    "elo_difference",
    "play_game",
    "run_match",
    "wilson_interval",
]
