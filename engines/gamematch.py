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
from dataclasses import asdict, dataclass

from fechtbuch.engines.matchkit import (
    LOSS,
    WIN,
    Tally,
    run_games,
    schedule,
    slot_of,
    tally,
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
    """One game from A's side: ``outcome`` win, loss, draw or aborted (move cap)."""

    index: int
    a_player: int
    outcome: str
    actions: tuple[str, ...]


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
    for _ in range(max_plies):
        if game.is_terminal(state):
            break
        action = seats[game.current_player(state)](state)
        actions.append(game.format_action(state, action))
        state = game.apply(state, action)
    if not game.is_terminal(state):
        return GameResult(index, a_player, ABORTED, tuple(actions))
    returns = game.returns(state)
    mine = max(r for p, r in enumerate(returns) if p % 2 == a_player)
    theirs = max(r for p, r in enumerate(returns) if p % 2 != a_player)
    outcome = WIN if mine > theirs else LOSS if mine < theirs else DRAW
    return GameResult(index, a_player, outcome, tuple(actions))


@dataclass(frozen=True)
class MatchReport:
    """A match's games and totals (``tally``: score, Elo and both intervals)."""

    game: str
    a: str
    b: str
    seed: int
    results: tuple[GameResult, ...]
    tally: Tally
    seconds: float

    def to_dict(self) -> dict:
        return {
            "game": self.game,
            "a": self.a,
            "b": self.b,
            "seed": self.seed,
            "tally": asdict(self.tally),
            "games": [asdict(r) for r in self.results],
            "seconds": round(self.seconds, 3),
        }

    def to_text(self) -> str:
        t = self.tally
        return "\n".join(
            [
                f"{self.a} vs {self.b} ({self.game}, seed {self.seed}): "
                f"+{t.wins} -{t.losses} ={t.others} of {t.games}, score {100 * t.score:.1f}%",
                f"  Elo {t.elo_text()}",
                f"  {t.deal_text()}",
            ]
        )


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
) -> MatchReport:
    """Play ``games`` games of ``a`` against ``b`` in ``jobs`` worker processes;
    ``done``: the first games, already played (a resumed match)."""
    players.check(a), players.check(b)
    done = list(done or [])[:games]
    started = time.perf_counter()
    slots = schedule(games)[len(done) :]
    tasks = [(slug, players, a, b, seed, s.index, max_plies) for s in slots]
    results = done + run_games(play_game, tasks, jobs, progress)
    return MatchReport(
        slug,
        a,
        b,
        seed,
        tuple(results),
        tally(r.outcome for r in results),
        time.perf_counter() - started,
    )


def decode_result(game: dict) -> GameResult:
    """A game of the match log back as a :class:`GameResult`."""
    return GameResult(**(game | {"actions": tuple(game["actions"])}))
