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
from dataclasses import asdict, dataclass

from fechtbuch.engines.matchkit import (
    LOSS,
    WIN,
    Tally,
    per_move,
    run_games,
    schedule,
    slot_of,
    tally,
)
from fechtbuch.engines.players import PlayerFactory
from fechtbuch.engines.touche_duell import rules
from fechtbuch.engines.touche_duell.notation import NOBODY, Ruleset, view_of
from fechtbuch.engines.touche_duell.players import SAMPLES, Player, check_strength
from fechtbuch.engines.touche_duell.record import MAX_ROUNDS, GameRecord, game_over


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


@dataclass
class MatchSummary:
    """A match from A's side: the totals (score with its Wilson 95% interval, Elo with
    its interval) and the thinking time per move."""

    a: str
    b: str
    ruleset: str
    seed: str
    total: Tally
    a_seconds_per_move: float
    b_seconds_per_move: float
    wall_seconds: float

    @property
    def games(self) -> int:
        return self.total.games

    @property
    def wins(self) -> int:
        return self.total.wins

    @property
    def losses(self) -> int:
        return self.total.losses

    def to_dict(self) -> dict:
        """Flat: the totals' fields next to the others (``others`` named ``draws``)."""
        out = asdict(self)
        out.update(out.pop("total"))
        out["draws"] = out.pop("others")
        return out

    def to_text(self) -> str:
        t = self.total
        return "\n".join(
            [
                f"{self.a} vs {self.b}: {t.games} games ({self.ruleset}), seed {self.seed}",
                f"  {self.a} wins {t.wins}, losses {t.losses}, draws {t.others}",
                f"  score {100 * t.score:.1f}% for {self.a} "
                f"(95% interval {100 * t.low:.1f}-{100 * t.high:.1f}%)",
                "  Elo difference " + t.elo_text(),
                "  " + t.deal_text(),
                f"  seconds per move: {self.a} {self.a_seconds_per_move:.4f}, "
                f"{self.b} {self.b_seconds_per_move:.4f}; wall {self.wall_seconds:.1f} s",
            ]
        )


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
    done = list(done or [])[:games]
    started = time.perf_counter()
    tasks = [
        (a, b, seed, slot.index, ruleset, samples, players) for slot in schedule(games)[len(done) :]
    ]
    results = done + run_games(_play_result, tasks, jobs, progress)
    summary = MatchSummary(
        a,
        b,
        ruleset.name,
        seed,
        tally(r.outcome for r in results),
        per_move([r.seconds[0] for r in results], [r.move_counts[0] for r in results]),
        per_move([r.seconds[1] for r in results], [r.move_counts[1] for r in results]),
        time.perf_counter() - started,
    )
    return summary, results
