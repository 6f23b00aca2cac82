"""A match between two computer strengths of any game on the seam.

Game ``2k`` and ``2k+1`` share deal ``k`` (``Game.initial_state`` of a seed derived
with SHA-256 from the match seed and ``k``); A takes player 0 in the even game and
player 1 in the odd one (:mod:`fechtbuch.engines.matchkit`'s schedule).  The players
come from the game's :class:`~fechtbuch.engines.players.PlayerFactory`, passed in by
the caller (the command line passes the plugin's), so this module imports no game
and no higher layer.  The same seed gives the same games for any number of workers.
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
from fechtbuch.engines.registry import game as game_of
from fechtbuch.engines.seeding import sha256_text, u64

DRAW = "draw"
ABORTED = "aborted"


def _seed(*parts: object) -> int:
    return u64(sha256_text("/".join(str(p) for p in parts)))


@dataclass(frozen=True)
class GameResult:
    """One game from A's side: ``outcome`` win, loss, draw or aborted (move cap); A's
    and B's thinking time and number of actions."""

    index: int
    a_player: int
    outcome: str
    actions: tuple[str, ...]
    seconds: tuple[float, float] = (0.0, 0.0)
    move_counts: tuple[int, int] = (0, 0)


def play_game(
    slug: str, players: PlayerFactory, a: str, b: str, seed: int, index: int, max_plies: int
) -> GameResult:
    """Game ``index`` of the match (a module-level function: it runs in workers).
    With more than two seats A takes every other one (the even seats in the even
    game), as teams sit in the games that have them."""
    game = game_of(slug)
    slot = slot_of(index)
    a_player = 0 if slot.a_first else 1
    state = game.initial_state(_seed("match", seed, slot.pair))
    count = game.num_players(state)
    seats = {
        p: players.seat(a, _seed("player", seed, index, "a", p))
        if p % 2 == a_player
        else players.seat(b, _seed("player", seed, index, "b", p))
        for p in range(count)
    }
    actions: list[str] = []
    seconds, counts = [0.0, 0.0], [0, 0]
    for _ in range(max_plies):
        if game.is_terminal(state):
            break
        player = game.current_player(state)
        side = 0 if player % 2 == a_player else 1
        began = time.perf_counter()
        action = seats[player](state)
        seconds[side] += time.perf_counter() - began
        counts[side] += 1
        actions.append(game.format_action(state, action))
        state = game.apply(state, action)
    timing = {"seconds": (seconds[0], seconds[1]), "move_counts": (counts[0], counts[1])}
    if not game.is_terminal(state):
        return GameResult(index, a_player, ABORTED, tuple(actions), **timing)
    returns = game.returns(state)
    mine = max(r for p, r in enumerate(returns) if p % 2 == a_player)
    theirs = max(r for p, r in enumerate(returns) if p % 2 != a_player)
    outcome = WIN if mine > theirs else LOSS if mine < theirs else DRAW
    return GameResult(index, a_player, outcome, tuple(actions), **timing)


def run_match(
    slug: str,
    players: PlayerFactory,
    a: str,
    b: str,
    games: int,
    seed: int,
    jobs: int = 1,
    max_plies: int = 10_000,
    progress=None,
    done: list[GameResult] | None = None,
) -> tuple[MatchSummary, list[GameResult]]:
    """Play ``games`` games of ``a`` against ``b`` in ``jobs`` worker processes;
    ``done``: the first games, already played (a resumed match)."""
    players.check(a), players.check(b)
    results, wall = play_match(
        play_game,
        lambda slot: (slug, players, a, b, seed, slot.index, max_plies),
        games,
        jobs,
        progress,
        done or (),
    )
    return summarize(slug, a, b, seed, results, wall), results


def decode_result(game: dict) -> GameResult:
    """A game of the match log back as a :class:`GameResult`."""
    tuples = ("actions", "seconds", "move_counts")
    return GameResult(**(game | {k: tuple(game[k]) for k in tuples if k in game}))
