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
import math
import random
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass

from fechtbuch.engines.battleklinge import fast
from fechtbuch.engines.battleklinge.cards import GOLD
from fechtbuch.engines.battleklinge.players import Player, strength_from_name
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.battleklinge.sampling import random_cards, random_deal


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
) -> GameResult:
    """Play game ``index`` of a match between strengths ``a`` and ``b`` (the
    evaluation weights may differ, for tuning by self-play).  ``nodes`` or
    ``movetime`` replace both strengths' budgets (equal nodes or equal time)."""
    start = deal_for_game(seed, index)
    a_color = GOLD if index % 2 == 0 else 1 - GOLD
    players = {
        a_color: Player(a, _derived_seed("player", seed, index, "a"), a_weights, movetime, nodes),
        1 - a_color: Player(
            b, _derived_seed("player", seed, index, "b"), b_weights, movetime, nodes
        ),
    }
    pos = start
    earlier: list[Position] = []
    seen = Counter([pos.key()])
    moves: list[str] = []
    seconds = {a_color: 0.0, 1 - a_color: 0.0}
    counts = {a_color: 0, 1 - a_color: 0}
    outcome, why = "aborted", "move cap"
    for _ in range(max_plies):
        mover = pos.turn
        began = time.perf_counter()
        choice = players[mover].choose(pos, earlier)
        seconds[mover] += time.perf_counter() - began
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


def _play_game_args(args) -> GameResult:
    return play_game(*args)


def wilson_interval(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% for z = 1.96) of a score over n games.

    >>> low, high = wilson_interval(1.0, 100)
    >>> round(low, 3), round(high, 3)
    (0.963, 1.0)
    """
    if n == 0:
        return 0.0, 1.0
    denominator = 1 + z * z / n
    centre = (score + z * z / (2 * n)) / denominator
    half = z / denominator * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_difference(score: float) -> float:
    """Elo difference for an expected score in (0, 1) under the logistic model."""
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass
class MatchSummary:
    """Totals of a match from A's side, with the score and Elo estimate."""

    a: str
    b: str
    games: int
    seed: int
    wins: int
    losses: int
    aborted: int
    aborted_repetition: int
    aborted_cap: int
    score: float
    elo: float | None
    elo_low: float | None
    elo_high: float | None
    a_seconds_per_move: float
    b_seconds_per_move: float
    wall_seconds: float

    def to_dict(self) -> dict:
        return asdict(self)

    def to_text(self) -> str:
        lines = [
            f"{self.a} vs {self.b}: {self.games} games, seed {self.seed}",
            f"  {self.a} wins {self.wins}, losses {self.losses}, aborted {self.aborted} "
            f"(repetition {self.aborted_repetition}, move cap {self.aborted_cap})",
            f"  score {100 * self.score:.1f}% for {self.a} (aborted games count half)",
            "  Elo difference " + self.elo_text(),
            f"  seconds per move: {self.a} {self.a_seconds_per_move:.3f}, "
            f"{self.b} {self.b_seconds_per_move:.3f}; wall {self.wall_seconds:.1f} s",
        ]
        return "\n".join(lines)

    def elo_text(self) -> str:
        if self.elo is None:
            low = "-inf" if self.elo_low is None else f"{self.elo_low:+.0f}"
            high = "+inf" if self.elo_high is None else f"{self.elo_high:+.0f}"
            return f"not finite (score {100 * self.score:.0f}%); 95% interval [{low}, {high}]"
        low = "-inf" if self.elo_low is None else f"{self.elo_low:+.0f}"
        high = "+inf" if self.elo_high is None else f"{self.elo_high:+.0f}"
        half = (
            f" ± {(self.elo_high - self.elo_low) / 2:.0f}"
            if self.elo_low is not None and self.elo_high is not None
            else ""
        )
        return f"{self.elo:+.0f}{half} (95% interval [{low}, {high}])"


def summarize(a: str, b: str, seed: int, results: list[GameResult], wall: float) -> MatchSummary:
    """Count the results and estimate the Elo difference with a 95% interval.

    The interval is the Wilson score interval of the score (aborted games as
    half points), mapped through the logistic Elo curve; it stays finite when
    one side wins every game.  A bound at a score of exactly 0 or 1 is
    infinite and reported as None.
    """
    n = len(results)
    wins = sum(r.outcome == "win" for r in results)
    losses = sum(r.outcome == "loss" for r in results)
    aborted = n - wins - losses
    points = [1.0 if r.outcome == "win" else 0.0 if r.outcome == "loss" else 0.5 for r in results]
    score = sum(points) / n if n else 0.5
    low, high = wilson_interval(score, n)

    def elo_or_none(s: float) -> float | None:
        # a bound within rounding of 0 or 1 is an infinite Elo difference
        return elo_difference(s) if 1e-9 < s < 1.0 - 1e-9 else None

    a_moves = sum(r.move_counts[0] for r in results)
    b_moves = sum(r.move_counts[1] for r in results)
    return MatchSummary(
        a=a,
        b=b,
        games=n,
        seed=seed,
        wins=wins,
        losses=losses,
        aborted=aborted,
        aborted_repetition=sum(r.why == "repetition" for r in results),
        aborted_cap=sum(r.why == "move cap" for r in results),
        score=score,
        elo=elo_or_none(score),
        elo_low=elo_or_none(low),
        elo_high=elo_or_none(high),
        a_seconds_per_move=sum(r.seconds[0] for r in results) / max(1, a_moves),
        b_seconds_per_move=sum(r.seconds[1] for r in results) / max(1, b_moves),
        wall_seconds=wall,
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
) -> tuple[MatchSummary, list[GameResult]]:
    """Play the match (``jobs`` worker processes) and summarize it.

    ``progress`` is called with each finished game, in game order.
    """
    strength_from_name(a), strength_from_name(b)  # fail early on bad names
    started = time.perf_counter()
    tasks = [
        (a, b, seed, i, max_plies, a_weights, b_weights, nodes, movetime) for i in range(games)
    ]
    results: list[GameResult] = []
    if jobs <= 1:
        for task in tasks:
            results.append(play_game(*task))
            if progress:
                progress(results[-1])
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for result in pool.map(_play_game_args, tasks, chunksize=1):
                results.append(result)
                if progress:
                    progress(result)
    return summarize(a, b, seed, results, time.perf_counter() - started), results
